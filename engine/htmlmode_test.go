package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
)

// htmlMode selects the generation mode in which the model writes the whole
// page: the mode whose defects these tests are about. It is the one place
// these tests choose it.
func htmlMode(c *gen.Config) { c.Mode = gen.ModeHTML }

// refineAndWait refines the forecast tool and waits until the generation
// for its new key has ended.
func refineAndWait(t *testing.T, r *llmRig, feedback string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if _, err := r.e.Refine(ctx, contract.RefineRequest{Tool: "get_forecast", Feedback: feedback, Source: contract.SourceMCP}); err != nil {
		t.Fatal(err)
	}
	tool := mustTool(t, r.e, "get_forecast")
	waitFor(t, "the generation of "+feedback, hangGuard, func() bool {
		g := r.e.ui.generations()["get_forecast"]
		return g.State != contract.GenRunning && g.Key == string(r.e.ui.key(tool))
	})
}

// withLLMPage is an engine whose forecast tool has a working LLM page.
func withLLMPage(t *testing.T) *llmRig {
	r := newLLMRig(t, llmtest.Reply{Text: llmtest.ForecastPage}, htmlMode)
	read(t, r.e, "get_forecast")
	waitFor(t, "the first LLM page", hangGuard, func() bool { return r.e.ui.generations()["get_forecast"].State == contract.GenDone })
	read(t, r.e, "get_forecast") // the page a refinement edits
	return r
}

// TestKeptLLMPageIsNotAFallback (issue 32, HTML mode defect e): when a
// refinement's answer is unusable and the working LLM page stays, /state
// says the tool's UI is a cached LLM page, not a fallback.
func TestKeptLLMPageIsNotAFallback(t *testing.T) {
	r := withLLMPage(t)
	r.srv.SetDefault(llmtest.Reply{Text: llmtest.InnerHTMLPage})
	refineAndWait(t, r, "dark theme")
	if ui := read(t, r.e, "get_forecast"); ui.Meta.UIType != gen.UITypeLLM {
		t.Fatalf("the working page did not stay: %s", ui.Meta.UIType)
	}
	state, err := r.e.State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range state.Tools {
		if ts.Name == "get_forecast" && (ts.UI.State != contract.UIStateCached || ts.UI.Kind != gen.UITypeLLM) {
			t.Fatalf("ui.state %q kind %q (reason %q) while a working LLM page is served", ts.UI.State, ts.UI.Kind, ts.UI.FallbackReason)
		}
	}
}

// TestFailedRefinementIsNeverCalledApplied (issue 32, HTML mode defects b
// and d): a refinement whose answer was unusable, and one whose
// generation a newer refinement superseded before the model answered,
// are marked failed (in _ui_inspect's history) and the next refine prompt
// says NOT APPLIED for them instead of listing them as applied; the
// superseded generation is logged as superseded, not as a timeout.
func TestFailedRefinementIsNeverCalledApplied(t *testing.T) {
	r := withLLMPage(t)
	r.srv.SetDefault(llmtest.Reply{Text: llmtest.InnerHTMLPage})
	refineAndWait(t, r, "dark theme")
	ins, err := r.e.Inspect(context.Background(), "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	if len(ins.History) != 1 || ins.History[0].Failed == "" {
		t.Fatalf("the failed refinement is not marked failed: %+v", ins.History)
	}

	r.srv.SetDefault(llmtest.Reply{Text: strings.Replace(llmtest.ForecastPage, "Waiting for a forecast", "Pick a city", 1)})
	refineAndWait(t, r, "say Pick a city")
	reqs := r.srv.Requests()
	prompt := reqs[len(reqs)-1].User()
	if !lineWith(prompt, "dark theme", "[NOT APPLIED:") {
		t.Fatalf("the refine prompt does not mark the failed refinement:\n%s", section(prompt, "<refinement_history>", "</refinement_history>"))
	}

	// A refinement superseded before its answer: never applied either.
	held, release := holdReplies(t)
	r.srv.SetDefault(llmtest.Reply{Text: strings.Replace(llmtest.ForecastPage, "Waiting for a forecast", "Pick one city", 1), Release: held})
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if _, err := r.e.Refine(ctx, contract.RefineRequest{Tool: "get_forecast", Feedback: "compact rows", Source: contract.SourceMCP}); err != nil {
		t.Fatal(err)
	}
	n := len(r.srv.Requests())
	waitFor(t, "the held request", hangGuard, func() bool {
		return r.srv.Count() > n-1 && r.e.ui.generations()["get_forecast"].State == contract.GenRunning
	})
	// Released once the next refinement's request is with the provider:
	// the held one was superseded by then.
	next := func() bool {
		return slices.ContainsFunc(r.srv.Requests(), func(q llmtest.Request) bool { return strings.Contains(q.User(), "show the units") })
	}
	go func() { testenv.Until(hangGuard, next); release() }()
	refineAndWait(t, r, "show the units")
	reqs = r.srv.Requests()
	prompt = reqs[len(reqs)-1].User()
	if !strings.Contains(prompt, "show the units") || !lineWith(prompt, "compact rows", "[NOT APPLIED:") {
		t.Fatalf("the refine prompt does not mark the superseded refinement:\n%s", section(prompt, "<refinement_history>", "</refinement_history>"))
	}
	// The page made after "dark theme" failed was asked to apply it too:
	// both are in it now.
	if lineWith(prompt, "say Pick a city", "NOT APPLIED") || lineWith(prompt, "dark theme", "NOT APPLIED") {
		t.Error("an applied refinement is marked NOT APPLIED")
	}
	logs := func() string {
		r.lmu.Lock()
		defer r.lmu.Unlock()
		return r.logs.String()
	}
	waitFor(t, "a log line saying the generation was superseded", hangGuard, func() bool { return strings.Contains(logs(), "superseded after") })
	if logs := logs(); strings.Contains(logs, "TIMEOUT") {
		t.Errorf("a generation was logged as a timeout:\n%s", grepLines(logs, "TIMEOUT"))
	}
}

// lineWith reports whether one line of s holds all of parts.
func lineWith(s string, parts ...string) bool {
	for _, l := range strings.Split(s, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

func section(s, from, to string) string {
	if i := strings.Index(s, from); i >= 0 {
		s = s[i:]
	}
	if j := strings.Index(s, to); j >= 0 {
		s = s[:j+len(to)]
	}
	return s
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
