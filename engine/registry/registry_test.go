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
