package gen

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
)

// TestPageCSPStopsInjectedMarkup: a page that puts tool data in with
// innerHTML, served anyway (validation bypassed) as genui serves pages,
// with its CSP meta tag: the entity named <img onerror> becomes an
// element, but its handler never runs (script-src has no 'unsafe-inline',
// so inline handlers are refused). The same page without the meta tag,
// under the host's header policy alone, runs the handler: the meta tag is
// what stops it.
func TestPageCSPStopsInjectedMarkup(t *testing.T) {
	f, ui := newFixture(t)
	served := pagecsp.Apply(mcpshim.Inject(llmtest.InnerHTMLPage))
	ui.addHTML("entities", served)
	ui.addHTML("entities_no_meta", mcpshim.Inject(llmtest.InnerHTMLPage))
	result := `{content: [{type: "text", text: "1 entity"}], structuredContent: {entities: [{name: "<img src=x onerror=\"document.body.dataset.pwned = 'yes'\">"}]}}`

	type outcome struct {
		Imgs  int
		Pwned *string
	}
	run := func(page string) (outcome, []map[string]any) {
		f.open(page)
		f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult(`+result+`), true)`, nil)
		f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.querySelectorAll("#list img").length === 1`)
		// The image's error fires right after insertion; give a refused
		// handler the same chance a permitted one gets.
		f.waitFrame(`(w, d) => { const i = d.querySelector("#list img"); return i.complete; }`)
		var o outcome
		f.frameJSON(`(w, d) => new Promise(r => setTimeout(() => r({Imgs: d.querySelectorAll("#list img").length, Pwned: d.body.dataset.pwned || null}), 300))`, &o)
		return o, f.cspViolations()
	}

	got, violations := run("entities")
	if got.Pwned != nil {
		t.Fatalf("the injected handler ran under the page's CSP meta tag: %+v", got)
	}
	attr := false
	for _, v := range violations {
		attr = attr || v["directive"] == "script-src-attr"
	}
	if !attr {
		raw, _ := json.Marshal(violations)
		t.Errorf("no script-src-attr violation recorded for the refused handler: %s", raw)
	}

	control, _ := run("entities_no_meta")
	if control.Pwned == nil || *control.Pwned != "yes" {
		t.Fatalf("control: without the meta tag the handler should run under the host's header CSP ('unsafe-inline'), got %+v", control)
	}
	if !strings.Contains(served, `script-src 'sha256-`) || strings.Contains(served, "'unsafe-inline' 'strict") {
		t.Errorf("served page's policy: %s", served[:400])
	}
}
