package resultdiff

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

func compare(t *testing.T, a, b string, ignore ...string) contract.ResultDiff {
	t.Helper()
	d, err := Compare(json.RawMessage(a), json.RawMessage(b), ignore)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// paths renders changes as "kind path" for comparison.
func paths(d contract.ResultDiff) []string {
	var out []string
	for _, c := range d.Changes {
		out = append(out, c.Kind+" "+c.Path)
	}
	return out
}

func TestEqualValues(t *testing.T) {
	for _, c := range [][2]string{
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`}, // key order
		{`{"n":1.0}`, `{"n":1}`},                   // number spelling
		{`{"n":1e2}`, `{"n":100}`},
		{`"x"`, ` "x" `},
		{``, `null`},
	} {
		if d := compare(t, c[0], c[1]); !d.Equal || len(d.Changes) != 0 {
			t.Errorf("%s vs %s: %+v", c[0], c[1], d)
		}
	}
	// Big integers are compared exactly, not as float64.
	if d := compare(t, `{"id":9007199254740993}`, `{"id":9007199254740992}`); d.Equal {
		t.Error("integers above 2^53 compared equal")
	}
}

func TestPathChanges(t *testing.T) {
	d := compare(t,
		`{"structuredContent":{"temp":21.5,"unit":"C","gone":true},"content":[{"type":"text","text":"a"}]}`,
		`{"structuredContent":{"temp":23,"unit":"C","new":[1]},"content":[{"type":"text","text":"b"}],"isError":true}`)
	want := []string{"changed /content/0/text", "added /isError", "removed /structuredContent/gone",
		"added /structuredContent/new", "changed /structuredContent/temp"}
	if got := paths(d); !slices.Equal(got, want) || d.Equal {
		t.Fatalf("changes %v, want %v", got, want)
	}
	for _, c := range d.Changes {
		if c.Path == "/structuredContent/temp" && (string(c.Old) != "21.5" || string(c.New) != "23") {
			t.Errorf("temp change %s -> %s", c.Old, c.New)
		}
	}
	text := strings.Join(d.Text(), "\n")
	for _, s := range []string{"~ /structuredContent/temp: 21.5 → 23", "+ /isError: true", "- /structuredContent/gone: true"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
}

// An element inserted at the front is one addition, not a change of
// every element after it.
func TestArraysAlignByContent(t *testing.T) {
	d := compare(t, `{"items":[{"id":1},{"id":2},{"id":3}]}`, `{"items":[{"id":0},{"id":1},{"id":2},{"id":3}]}`)
	if got := paths(d); !slices.Equal(got, []string{"added /items/0"}) {
		t.Fatalf("changes %v", got)
	}
	d = compare(t, `[1,2,3,4]`, `[1,9,3]`)
	if got := paths(d); !slices.Equal(got, []string{"changed /1", "removed /3"}) {
		t.Fatalf("changes %v", got)
	}
}

// Text holding JSON is compared as JSON; other multi-line text gets a
// line diff.
func TestTextResults(t *testing.T) {
	a := `{"content":[{"type":"text","text":"{\"price\":3,\"at\":\"10:00\"}"}]}`
	b := `{"content":[{"type":"text","text":"{\"price\":4,\"at\":\"10:05\"}"}]}`
	if got := paths(compare(t, a, b)); !slices.Equal(got, []string{"changed /content/0/text/at", "changed /content/0/text/price"}) {
		t.Fatalf("JSON in text: %v", got)
	}
	d := compare(t, a, b, "/content/0/text/at")
	if got := paths(d); !slices.Equal(got, []string{"changed /content/0/text/price"}) || d.Ignored != 1 {
		t.Fatalf("ignoring inside JSON text: %v ignored %d", got, d.Ignored)
	}
	d = compare(t, `{"text":"one\ntwo\nthree"}`, `{"text":"one\n2\nthree"}`)
	if len(d.Changes) != 1 || !slices.Equal(d.Changes[0].Lines, []string{"@@ -1,3 +1,3 @@", " one", "-two", "+2", " three"}) {
		t.Fatalf("line diff: %+v", d.Changes)
	}
}

func TestIgnorePaths(t *testing.T) {
	a := `{"structuredContent":{"generatedAt":"t1","items":[{"id":"x","v":1},{"id":"y","v":2}]},"meta":{"a.b":1}}`
	b := `{"structuredContent":{"generatedAt":"t2","items":[{"id":"p","v":1},{"id":"q","v":2}]},"meta":{"a.b":2}}`
	for _, ignore := range [][]string{
		{"/structuredContent/generatedAt", "/structuredContent/items/*/id", "/meta/a.b"},
		{"structuredContent.generatedAt", "structuredContent.items[*].id", `meta["a.b"]`},
		{"structuredContent", "meta"},
	} {
		if d := compare(t, a, b, ignore...); !d.Equal || d.Ignored == 0 {
			t.Errorf("ignore %v: %+v", ignore, d)
		}
	}
	if d := compare(t, a, b, "structuredContent.generatedAt"); d.Equal {
		t.Error("ignoring one path ignored everything")
	}
	for _, bad := range []string{"a..b", "a[", "a[x]", `a["b]`, "/a/~2"} {
		if _, err := ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) accepted", bad)
		}
	}
	if segs, err := ParsePath("/a~1b/c~0d"); err != nil || !slices.Equal(segs, []string{"a/b", "c~d"}) {
		t.Errorf("pointer escapes: %v %v", segs, err)
	}
}

// A hostile result cannot make the diff unbounded.
func TestBounds(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("[")
	b.WriteString("[")
	for i := 0; i < 3000; i++ {
		if i > 0 {
			a.WriteString(",")
			b.WriteString(",")
		}
		a.WriteString(`{"v":1}`)
		b.WriteString(`{"v":2}`)
	}
	a.WriteString("]")
	b.WriteString("]")
	d := compare(t, a.String(), b.String())
	if len(d.Changes) != MaxChanges+1 || !strings.Contains(string(d.Changes[MaxChanges].New), "2500 more change(s)") {
		t.Fatalf("%d changes, last %+v", len(d.Changes), d.Changes[len(d.Changes)-1])
	}
	big := `{"x":"` + strings.Repeat("é", 5000) + `"}`
	d = compare(t, `{}`, big)
	if len(d.Changes) != 1 || len(d.Changes[0].New) > 2*maxValue+100 || !strings.Contains(string(d.Changes[0].New), "bytes in all") {
		t.Fatalf("big value not cut: %d bytes", len(d.Changes[0].New))
	}
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300)
	deep2 := strings.Repeat("[", 299) + "1" + strings.Repeat("]", 299)
	if d := compare(t, deep, deep2); d.Equal {
		t.Fatal("deep values compared equal")
	}
}
