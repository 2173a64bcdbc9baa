package viewspec

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateAcceptsAFullSpec(t *testing.T) {
	raw := `{"version":1,"title":"Notes","principal":"/result/notes",
		"view":{"kind":"table","columns":[{"field":"title","label":"Title","width":200},{"field":"/meta/content","format":"markdown"}],
			"sort":{"field":"title","dir":"desc"},"pageSize":20,"chart":{"kind":"bar","x":"day","y":["count"],"unit":"ms"}},
		"parts":[{"path":"/stats","view":{"kind":"card"}},{"path":"/debug","hidden":true}],
		"hidden":["message"],"shown":["relations"],"labels":{"ts":"Time"},
		"form":{"mode":"folded","order":["q"],"hidden":["limit"]},"theme":{"scheme":"dark","fontSize":16,"mono":true}}`
	s, errs := Validate([]byte(raw))
	if errs != nil {
		t.Fatal(errs)
	}
	if s.Principal != "/result/notes" || s.View.Columns[1].Field != "/meta/content" || s.Theme.FontSize != 16 || !s.Parts[1].Hidden {
		t.Fatalf("decoded %+v", s)
	}
	// Round trip: the spec's own JSON validates to the same spec.
	s2, errs := Validate(s.JSON())
	if errs != nil || string(s2.JSON()) != string(s.JSON()) {
		t.Fatalf("round trip: %v\n%s\n%s", errs, s.JSON(), s2.JSON())
	}
}

func TestValidateNamesPathAndRule(t *testing.T) {
	for _, c := range []struct{ raw, path, rule string }{
		{`{"version":2}`, "/version", "const"},
		{`{}`, "", "required"},
		{`{"version":1,"view":{"kind":"pie"}}`, "/view/kind", "enum"},
		{`{"version":1,"view":{"columns":[{"label":"x"}]}}`, "/view/columns/0", "required"},
		{`{"version":1,"view":{"columns":[{"field":"a","width":5}]}}`, "/view/columns/0/width", "minimum"},
		{`{"version":1,"principal":"items"}`, "/principal", "pattern"},
		{`{"version":1,"script":"alert(1)"}`, "/script", "unknown key"},
		{`{"version":1,"theme":{"fontSize":"big"}}`, "/theme/fontSize", "type"},
		{`not json`, "", "not JSON"},
	} {
		_, errs := Validate([]byte(c.raw))
		if len(errs) == 0 {
			t.Errorf("%s: no error", c.raw)
			continue
		}
		found := false
		for _, e := range errs {
			ve, ok := e.(*Error)
			if ok && ve.Path == c.path && strings.Contains(ve.Rule, c.rule) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want an error at %q about %q, got %v", c.raw, c.path, c.rule, errs)
		}
	}
}

func TestApplyMergePatch(t *testing.T) {
	base := New()
	base.Title = "Old"
	base.Hidden = []string{"a"}
	base.ViewOf().Kind = KindTable
	base.View.PageSize = 10
	s, errs := Apply(base, []byte(`{"title":null,"hidden":["b","c"],"view":{"pageSize":25,"columns":[{"field":"x"}]}}`))
	if errs != nil {
		t.Fatal(errs)
	}
	if s.Title != "" || strings.Join(s.Hidden, ",") != "b,c" || s.View.Kind != KindTable || s.View.PageSize != 25 || s.View.Columns[0].Field != "x" {
		t.Fatalf("patched: %s", s.JSON())
	}
	if base.Title != "Old" || base.View.PageSize != 10 {
		t.Fatal("base modified")
	}
	// An invalid result keeps base and says why.
	got, errs := Apply(base, []byte(`{"view":{"kind":"pie"}}`))
	if len(errs) == 0 || got.View.Kind != KindTable {
		t.Fatalf("invalid patch: %v %s", errs, got.JSON())
	}
	if _, errs := Apply(base, []byte(`[1]`)); len(errs) == 0 {
		t.Fatal("array patch accepted")
	}
	if _, errs := Apply(base, []byte(`{"version":3}`)); len(errs) == 0 {
		t.Fatal("version change accepted")
	}
}

func TestSchemaIsJSONAndPointers(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(Schema(), &m); err != nil || m["$id"] == nil {
		t.Fatal(err)
	}
	if p := Pointer("a/b", "c~d"); p != "/a~1b/c~0d" || strings.Join(PointerTokens(p), "|") != "a/b|c~d" {
		t.Fatal(p)
	}
}
