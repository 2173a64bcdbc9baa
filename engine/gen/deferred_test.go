package gen

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
)

var reDeferredURI = regexp.MustCompile(`;(` + regexp.QuoteMeta(pagepack.DeferredPrefix) + `[0-9a-f]{32})</script>`)

// Every offline page names a deferred block (its rich views) that
// pagepack.Deferred serves, and viewdefs' deferred sets packed on their own
// give the very URIs pages name: a process serving pages from the UI cache
// before it has packed one answers their reads all the same.
func TestDeferredScriptsNameThePagesBlocks(t *testing.T) {
	sets := map[string]bool{}
	for _, set := range viewdefs.DeferredParts() {
		uri, err := pagepack.Defer(set)
		if err != nil {
			t.Fatal(err)
		}
		sets[uri] = true
	}
	if len(sets) != 2 {
		t.Fatalf("viewdefs has %d deferred sets; want 2 (with and without the line readers)", len(sets))
	}
	for _, out := range []string{"", `{"type":"object","properties":{"n":{"type":"number"}}}`, `{"type":"object","properties":{"s":{"type":"string"}}}`} {
		res, err := NewOffline().Generate(context.Background(), Request{Tool: Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(out)}})
		if err != nil {
			t.Fatal(err)
		}
		m := reDeferredURI.FindStringSubmatch(res.HTML)
		if m == nil {
			t.Fatalf("outputSchema %q: the page names no deferred block", out)
		}
		if !sets[m[1]] {
			t.Errorf("outputSchema %q: the page's block %s is none of viewdefs' deferred sets %v", out, m[1], sets)
		}
		if _, ok := pagepack.Deferred(m[1]); !ok {
			t.Errorf("pagepack.Deferred(%s): not served", m[1])
		}
	}
	if _, ok := pagepack.Deferred(pagepack.DeferredPrefix + "0123456789abcdef0123456789abcdef"); ok {
		t.Error("pagepack.Deferred serves a block no page names")
	}
}
