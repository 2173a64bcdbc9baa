package gen

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/pagecsp"
)

// sinkURL is where the leaking pages send results (nothing listens: no
// request is made in these tests; the browser tests use a real sink).
const sinkURL = "http://127.0.0.1:9999"

// TestLLMRejectsLeakingPages (issue 21, item 1): a stand-in provider
// answers with a page that sends the tool result away by navigating its
// frame, the same spelled out of pieces (window["loc" + "ation"]["hr" +
// "ef"]), and one that builds and submits a form to another origin. Each
// is rejected with its reason in the chain (first answer and the one
// re-ask, both the same page) and the offline UI is served. Before the
// rule list, all three were served as "repaired" LLM pages.
func TestLLMRejectsLeakingPages(t *testing.T) {
	for _, tc := range []struct {
		name, page string
		reasons    []string // each in the fallback reason
	}{
		{"plain navigation", llmtest.NavigatingPage(sinkURL), []string{"assigns location.href", "navigate away"}},
		{"obfuscated navigation", llmtest.ObfuscatedNavigatingPage(sinkURL), []string{`spells "location" out of pieces`, `spells "href" out of pieces`, "assigns location.href"}},
		{"form submission", llmtest.FormSubmitPage(sinkURL), []string{"calls f.submit()", "submit event"}},
		{"data as markup", llmtest.InnerHTMLPage, []string{"sets innerHTML from data", "textContent"}},
		{"raw postMessage", llmtest.RawPostMessagePage, []string{"calls postMessage", `listens for raw "message" events`, "window.parent"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: tc.page}, nil)
			res := r.generate("k")
			wantChain(t, res, "generated!", "repaired!", "re-asked!", "repaired!", "offline")
			if res.UIType != UITypeOfflineRich || strings.Contains(res.HTML, sinkURL) {
				t.Fatalf("served %s, want the offline UI", res.UIType)
			}
			for _, want := range tc.reasons {
				if !strings.Contains(res.FallbackReason, want) {
					t.Errorf("the reason lacks %q: %s", want, res.FallbackReason)
				}
			}
			if !strings.Contains(strings.Join(res.ValidationErrors, "\n"), tc.reasons[0]) {
				t.Errorf("validation errors %v lack %q", res.ValidationErrors, tc.reasons[0])
			}
			if n := r.srv.Count(); n != 2 {
				t.Errorf("%d provider requests, want 2 (the answer and one re-ask)", n)
			}
			if tc.name == "raw postMessage" && (strings.Contains(res.Chain[1].Reason, "connected the page") || strings.Contains(res.Chain[3].Reason, "connected the page")) {
				t.Errorf("a raw postMessage page was given a second bridge: %+v", res.Chain)
			}
		})
	}
}

// TestLLMReasksOnceWithTheProblems: a first answer that puts data in with
// innerHTML is sent back once with its problems; the good second answer
// is served after exactly two provider requests, and the chain records
// both attempts.
func TestLLMReasksOnceWithTheProblems(t *testing.T) {
	for _, w := range wires {
		t.Run(string(w), func(t *testing.T) {
			r := newWireRig(t, w, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
			r.srv.Push(llmtest.Reply{Text: llmtest.InnerHTMLPage})
			res := r.generate("k")
			wantChain(t, res, "generated!", "repaired!", "re-asked")
			if res.UIType != UITypeLLM || !strings.Contains(res.HTML, "forecast-card") || !pagecsp.Has(res.HTML) {
				t.Fatalf("served %s, want the second answer", res.UIType)
			}
			if n := r.srv.Count(); n != 2 || res.Attempts != 2 {
				t.Fatalf("%d provider requests (%d attempts), want exactly 2", n, res.Attempts)
			}
			second := r.srv.Requests()[1]
			user := second.User()
			for _, want := range []string{"[data-not-markup] script 1 sets innerHTML from data", "Data never becomes markup", "Write the whole page again"} {
				if !strings.Contains(user, want) {
					t.Errorf("the re-ask lacks %q:\n%s", want, user)
				}
			}
			if !strings.Contains(second.Assistant(), `h.innerHTML = "<span class=\"name\">" + e.name`) {
				t.Errorf("the re-ask does not carry the rejected answer as the model's turn")
			}
			if !strings.Contains(second.System(), "Rules. genui checks every page") {
				t.Error("the re-ask lost the system prompt")
			}
			if !strings.Contains(res.Chain[0].Reason, "innerHTML") {
				t.Errorf("chain = %+v", res.Chain)
			}
		})
	}
}

// TestLLMOnclickPageIsRepairedAndServed: one harmless inline handler no
// longer throws a good page away: it becomes a listener, first time.
func TestLLMOnclickPageIsRepairedAndServed(t *testing.T) {
	r := newWireRig(t, llmtest.OpenAI, llmtest.Reply{Text: llmtest.OnclickPage}, nil)
	res := r.generate("k")
	wantChain(t, res, "generated!", "repaired")
	if res.UIType != UITypeLLM || r.srv.Count() != 1 {
		t.Fatalf("served %s after %d requests", res.UIType, r.srv.Count())
	}
	if strings.Contains(res.HTML, "onclick") || !strings.Contains(res.HTML, "this.blur()") {
		t.Error("the handler was not moved into a listener")
	}
}

// TestLLMFailedRefineKeepsThePreviousPage: a refinement of a working LLM
// page whose answers are both unusable keeps the previous page (and says
// so) instead of dropping to the offline UI.
func TestLLMFailedRefineKeepsThePreviousPage(t *testing.T) {
	r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.NavigatingPage(sinkURL)}, nil)
	prev := pagecsp.Apply(llmtest.ForecastPage)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := r.llm.Generate(ctx, Request{Tool: forecastTool, Key: "refined", Refinements: []string{"dark theme"},
		CurrentHTML: prev, PreviousHTML: prev})
	if err != nil {
		t.Fatal(err)
	}
	wantChain(t, res, "generated!", "repaired!", "re-asked!", "repaired!", "previous")
	if res.UIType != UITypeLLM || !strings.Contains(res.HTML, "forecast-card") || strings.Contains(res.HTML, sinkURL) {
		t.Fatalf("served %s: want the previous LLM page", res.UIType)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "the previous LLM page stays") || !strings.Contains(res.FallbackReason, "assigns location.href") {
		t.Errorf("warnings %v, reason %q", res.Warnings, res.FallbackReason)
	}
	if !strings.Contains(r.srv.Requests()[0].User(), "<current_page>") {
		t.Error("the refinement did not send the current page")
	}
	// Without a previous page the offline UI stands in, as before.
	res, err = r.llm.Generate(ctx, Request{Tool: forecastTool, Key: "fresh"})
	if err != nil {
		t.Fatal(err)
	}
	if res.UIType != UITypeOfflineRich {
		t.Fatalf("no previous page: served %s", res.UIType)
	}
}

// TestLLMReaskStaysWithinTheBudget: the re-ask shares the generation's
// budget: a second answer that would arrive after it is not waited for.
func TestLLMReaskStaysWithinTheBudget(t *testing.T) {
	// The second answer is held until the test ends: only the budget can
	// end the generation.
	r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage, Release: holdUntilEnd(t)},
		func(c *Config) { c.Budget = 1500 * time.Millisecond; c.Retries = -1 })
	r.srv.Push(llmtest.Reply{Text: llmtest.InnerHTMLPage})
	res := r.generateWithinBudget("k")
	wantChain(t, res, "generated!", "repaired!", "re-asked!", "offline")
	if res.Error == nil || res.Error.Class != ErrTimeout {
		t.Errorf("error = %v, want a timeout", res.Error)
	}
}
