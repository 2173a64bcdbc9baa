package tui

import (
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

// TestLLMRefineDiffsThePreviousServedPage (issue 32, HTML mode defect c):
// with an LLM, a refine answers with the offline UI while the model edits
// the page; once the LLM page is in (the engine's "upgrade"), what changed
// compares the page served before the refine with the new LLM page, not
// with the interim offline UI.
func TestLLMRefineDiffsThePreviousServedPage(t *testing.T) {
	const before = "<!doctype html>\n<html>\n<body>\n<h1>beta llm page one</h1>\n</body>\n</html>\n"
	const after = "<!doctype html>\n<html>\n<body>\n<h1>beta llm page two</h1>\n</body>\n</html>\n"
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.stub.mu.Lock()
		d.stub.html["beta"] = before // the LLM page served now
		d.stub.interim = "the anthropic UI is being generated; this offline UI stands in until it is ready"
		d.stub.mu.Unlock()
		d.key("j")
		d.key("r")
		d.typeText("bigger title")
		d.key("enter")
		mustContain(t, d.screen(), "beta · UI · what changed", "-<h1>beta llm page one</h1>", "+<h1>beta v1</h1>")

		d.stub.mu.Lock()
		d.stub.html["beta"] = after // the model's edit is in
		d.stub.mu.Unlock()
		d.send(eventsMsg{gen: d.m.subGen, evs: []contract.Event{{Kind: contract.EventUIUpdated, Tool: "beta",
			Detail: &contract.UIUpdated{Reason: "upgrade", CacheKey: "key-beta", UIType: "llm"}}}})
		s := d.screen()
		mustContain(t, s, "beta · UI · what changed", "-<h1>beta llm page one</h1>", "+<h1>beta llm page two</h1>")
		mustNotContain(t, s, "beta v1")
	})
}
