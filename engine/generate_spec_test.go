package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/internal/llmtest"
)

// TestSpecModeUpgradeAndRefine: an engine whose LLM has no mode set (the
// spec mode) stores the model's spec page as the tool's LLM UI; a
// refinement sends that page's spec and asks for a merge patch, and the
// patched spec's page replaces it. A key of the spec mode is not a key of
// the html mode.
func TestSpecModeUpgradeAndRefine(t *testing.T) {
	r := newLLMRig(t, llmtest.Reply{Text: `{"version": 1, "title": "Days ahead", "principal": "/days"}`},
		func(c *gen.Config) { c.Mode = "" })
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	tool := mustTool(t, r.e, "get_forecast")
	specKey := r.e.ui.key(tool)
	read(t, r.e, "get_forecast")
	waitFor(t, "the spec page", hangGuard, func() bool { return r.e.ui.generations()["get_forecast"].State == contract.GenDone })
	ui := read(t, r.e, "get_forecast")
	if ui.Meta.UIType != gen.UITypeLLMSpec || !strings.Contains(ui.HTML, "Days ahead") {
		t.Fatalf("served %s", ui.Meta.UIType)
	}

	r.srv.SetDefault(llmtest.Reply{Text: "```json\n{\"title\": \"Next days\"}\n```"})
	if _, err := r.e.Refine(ctx, contract.RefineRequest{Tool: "get_forecast", Feedback: "call it Next days", Source: contract.SourceMCP}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the refined spec page", hangGuard, func() bool {
		g := r.e.ui.generations()["get_forecast"]
		return g.State == contract.GenDone && g.Key == string(r.e.ui.key(tool))
	})
	ui = read(t, r.e, "get_forecast")
	if ui.Meta.UIType != gen.UITypeLLMSpec || !strings.Contains(ui.HTML, "Next days") || !strings.Contains(ui.HTML, `/days`) {
		t.Fatalf("the refined spec page is not served (%s)", ui.Meta.UIType)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].User(), "<current_spec>") || !strings.Contains(reqs[1].User(), "Days ahead") {
		t.Fatalf("%d requests; the refine prompt must carry the current spec", len(reqs))
	}
	if o := ui.Meta.Outcomes; len(o) != 1 || o[0].Status != "applied" || !strings.Contains(strings.Join(o[0].Changes, "; "), "Next days") {
		t.Errorf("the page's metadata does not say what the refinement changed: %+v", o)
	}
	if len(ui.Meta.Spec) == 0 || !strings.Contains(string(ui.Meta.Spec), "Next days") {
		t.Errorf("the page's metadata lacks its spec: %s", ui.Meta.Spec)
	}

	// The same tool in the html mode has another key.
	h := newLLMRig(t, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
	if h.e.ui.key(mustTool(t, h.e, "get_forecast")) == specKey {
		t.Error("the html mode's key equals the spec mode's")
	}
}

// TestHTMLPageOfEarlierSetupIsGeneratedAgain: a persisted LLM page of the
// html mode (as genui stored them before the spec mode) is not served by a
// genui in the spec mode on the same directory: a log line says the cached
// UI was made under another setup, and the spec page is generated and
// served instead.
func TestHTMLPageOfEarlierSetupIsGeneratedAgain(t *testing.T) {
	dir := t.TempDir()
	old := newLLMRigIn(t, dir, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
	read(t, old.e, "get_forecast")
	waitFor(t, "the html page", hangGuard, func() bool { return old.e.ui.generations()["get_forecast"].State == contract.GenDone })
	if ui := read(t, old.e, "get_forecast"); ui.Meta.UIType != gen.UITypeLLM {
		t.Fatalf("the first genui served %s", ui.Meta.UIType)
	}
	old.stop()

	r := newLLMRigIn(t, dir, llmtest.Reply{Text: `{"version": 1, "title": "Days ahead"}`}, func(c *gen.Config) { c.Mode = "" })
	first := read(t, r.e, "get_forecast")
	if strings.Contains(first.HTML, "forecast-card") {
		t.Fatal("the spec mode served the html mode's cached page")
	}
	waitFor(t, "the spec page", hangGuard, func() bool { return r.e.ui.generations()["get_forecast"].State == contract.GenDone })
	if ui := read(t, r.e, "get_forecast"); ui.Meta.UIType != gen.UITypeLLMSpec || strings.Contains(ui.HTML, "forecast-card") {
		t.Fatalf("served %s", ui.Meta.UIType)
	}
	r.lmu.Lock()
	logs := r.logs.String()
	r.lmu.Unlock()
	if !strings.Contains(logs, "the cached LLM UI was made under another setup; generating it again") || !strings.Contains(logs, `"cachedUIType":"llm"`) {
		t.Errorf("no log line about the earlier setup's page:\n%s", logs)
	}
}
