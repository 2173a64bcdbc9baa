package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestRefreshManyToolsKeepsOrderAndBytes: a long list comes out in
// upstream order, each tool's JSON byte for byte as sent (spacing, key
// order, unknown members; the registry keeps fetch's bytes, it does not
// re-encode them), malformed tools skipped wherever they fall and a name
// listed twice kept at its first place.
func TestRefreshManyToolsKeepsOrderAndBytes(t *testing.T) {
	const n = 12_000
	var raws []json.RawMessage
	var want []string
	for i := 0; i < n; i++ {
		switch {
		case i%1000 == 7:
			raws = append(raws, json.RawMessage(`{"title":"no name"}`))
		case i%1000 == 8:
			raws = append(raws, json.RawMessage(`["not","an","object"]`))
		case i == n-3: // the same name as tool 5, in the last worker's run
			raws = append(raws, json.RawMessage(`{"name":"t5","description":"second"}`))
		default:
			raw := fmt.Sprintf(`{ "zz":%d, "name" : "t%d","inputSchema":{"type":"object"} }`, i, i)
			raws = append(raws, json.RawMessage(raw))
			want = append(want, raw)
		}
	}
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.Refresh(context.Background(), func(context.Context) ([]json.RawMessage, error) { return raws, nil })
	if err != nil {
		t.Fatal(err)
	}
	got := r.List()
	if len(got) != len(want) || len(ch.Diff.Added) != len(want) {
		t.Fatalf("%d tools (%d added), want %d", len(got), len(ch.Diff.Added), len(want))
	}
	for i, tool := range got {
		if string(tool.Raw) != want[i] {
			t.Fatalf("tool %d: %s, want %s", i, tool.Raw, want[i])
		}
		if s := string(tool.InputSchema()); s != `{"type":"object"}` {
			t.Fatalf("tool %d: inputSchema %s", i, s)
		}
	}
	if tool, ok := r.Get("t5"); !ok || tool.Description() != "" {
		t.Fatalf("t5: the first listing must win, got %+v", tool)
	}
}

// TestRefreshParsedIndexesAsItParses: tools handed to a Parser batch by
// batch, and pages joined with AddParsed, come out indexed by name as the
// parser went (a name repeated in a later batch or page keeps its first
// place, a malformed tool is left out, disabledTools apply), and the next
// refresh diffs against that index.
func TestRefreshParsedIndexesAsItParses(t *testing.T) {
	r, err := New(Options{DisabledTools: []string{"b*"}})
	if err != nil {
		t.Fatal(err)
	}
	batches := func(p *Parser, bs ...string) {
		for _, b := range bs {
			var raws []json.RawMessage
			if err := json.Unmarshal([]byte(b), &raws); err != nil {
				t.Fatal(err)
			}
			p.Add(raws)
		}
	}
	ch, err := r.RefreshParsed(context.Background(), func(context.Context) (*Parser, error) {
		page1 := r.NewParser()
		batches(page1, `[{"name":"a"},{"name":"b1"}]`, `[{"title":"no name"},{"name":"a","description":"again"},{"name":"c"}]`)
		page2 := r.NewParser()
		batches(page2, `[{"name":"c","description":"on page 2"},{"name":"d"}]`)
		all := r.NewParser()
		all.AddParsed(page1.Tools())
		all.AddParsed(page2.Tools())
		return all, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range r.List() {
		names = append(names, tool.Name)
	}
	if fmt.Sprint(names) != "[a b1 c d]" || fmt.Sprint(ch.Diff.Added) != "[a b1 c d]" || !ch.First {
		t.Fatalf("tools %v, added %v, first %v", names, ch.Diff.Added, ch.First)
	}
	for name, desc := range map[string]string{"a": "", "c": "", "d": ""} {
		if tool, ok := r.Get(name); !ok || tool.Description() != desc || tool.UIDisabled {
			t.Fatalf("%s: %+v (found %v)", name, tool, ok)
		}
	}
	if tool, ok := r.Get("b1"); !ok || !tool.UIDisabled {
		t.Fatalf("b1 must be found with its UI disabled: %+v", tool)
	}
	ch, err = r.RefreshParsed(context.Background(), func(context.Context) (*Parser, error) {
		p := r.NewParser()
		batches(p, `[{"name":"d"},{"name":"a","description":"changed"}]`, `[{"name":"e"}]`)
		return p, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	d := ch.Diff
	if fmt.Sprint(d.Added, d.Changed, d.Unchanged, d.Removed) != "[e] [a] [d] [b1 c]" || ch.First {
		t.Fatalf("second refresh: %+v first %v", d, ch.First)
	}
	if _, ok := r.Get("c"); ok {
		t.Fatal("c was removed but is still found")
	}
}
