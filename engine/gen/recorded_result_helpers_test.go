package gen

import (
	"encoding/json"
	"testing"

	"github.com/genui-dev/genui/internal/uicorpus"
)

// Helpers of the tests that show a recorded result of the UI corpus
// (internal/uicorpus) in its offline page and check what the page draws:
// issue 33's classes, understanding results by their structure
// (drawn_once_browser_test.go, principal_data_browser_test.go and the
// files beside them). The tests may name the tuned servers' tools
// (testdata/uicorpus/README.md), never a held-out one's.

// recordedCall is the n-th (1-based) recorded call of tool on server.
func recordedCall(t *testing.T, server, tool string, n int) uicorpus.Call {
	t.Helper()
	servers, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range servers {
		if s.Name != server {
			continue
		}
		seen := 0
		for _, c := range s.Calls {
			if c.Tool == tool {
				seen++
				if seen == n {
					return c
				}
			}
		}
	}
	t.Fatalf("corpus has no call %d of %s/%s", n, server, tool)
	return uicorpus.Call{}
}

type recordedRef struct {
	server, tool string
	n            int
}

// showResult opens tool's page and delivers result (a CallToolResult's JSON)
// as the host's tool result, then waits for the page to show it.
func showResult(t *testing.T, f *fixture, ui *uiServer, tool Tool, args, result string) {
	t.Helper()
	ui.add(t, tool)
	f.open(tool.Name)
	if args == "" {
		args = "{}"
	}
	f.eval(`(bridge.sendToolInput(`+args+`), bridge.sendToolResult(`+result+`), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" || d.body.dataset.state === "error"`)
}

// showRecorded shows the n-th recorded call of tool on server in its page.
func showRecorded(t *testing.T, f *fixture, ui *uiServer, server, tool string, n int) {
	t.Helper()
	c := recordedCall(t, server, tool, n)
	args := string(c.Arguments)
	showResult(t, f, ui, corpusTool(t, server, tool), args, string(c.Result))
}

// pageInvariantsHold checks the corpus page invariants (overflow, height,
// links, markers, contrast, CSP...) on the page f shows; errMsg, when set,
// is the message an error page must show.
func pageInvariantsHold(t *testing.T, f *fixture, label, errMsg string) {
	t.Helper()
	opts := "{}"
	if errMsg != "" {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": errMsg}})
		opts = string(b)
	}
	found, err := decodeInvariants(f.frame(invariantsCall(opts)))
	if err != nil {
		t.Fatal(err)
	}
	for inv, problems := range found {
		for _, p := range problems {
			t.Errorf("%s: %s: %s", label, inv, p)
		}
	}
}

// recordedMetrics measures the page f shows with page_metrics.js against
// the facts of the n-th recorded call of tool on server, and returns the
// goals it misses ("coverage", "duplication", ...) with their details.
func recordedMetrics(t *testing.T, f *fixture, server, tool string, n int) map[string]string {
	t.Helper()
	facts := factsOf(recordedCall(t, server, tool, n).Result)
	var m pageMetrics
	if err := json.Unmarshal(f.frame(metricsCall(facts)), &m); err != nil {
		t.Fatal(err)
	}
	return metricProblems(facts, m)
}

// shownRecordedMetrics shows the n-th recorded call of tool on server and
// returns the metric goals its page misses (page_metrics.js, as
// TestUICorpusInvariants measures them), after checking the invariants.
func shownRecordedMetrics(t *testing.T, f *fixture, ui *uiServer, server, tool string, n int) map[string]string {
	t.Helper()
	showRecorded(t, f, ui, server, tool, n)
	miss := recordedMetrics(t, f, server, tool, n)
	pageInvariantsHold(t, f, server+"/"+tool, "")
	return miss
}

// showRecordedChecked shows the n-th recorded call of tool on server, checks
// the invariants (shownRecordedMetrics) and fails for each metric goal in
// goals its page misses.
func showRecordedChecked(t *testing.T, f *fixture, ui *uiServer, server, tool string, n int, goals ...string) {
	t.Helper()
	miss := shownRecordedMetrics(t, f, ui, server, tool, n)
	for _, g := range goals {
		if miss[g] != "" {
			t.Errorf("%s/%s call %d: %s: %s", server, tool, n, g, miss[g])
		}
	}
}

// metricsHold shows each recorded call and fails for each metric goal in
// goals it misses.
func metricsHold(t *testing.T, f *fixture, ui *uiServer, goals []string, calls ...recordedRef) {
	t.Helper()
	for _, c := range calls {
		showRecorded(t, f, ui, c.server, c.tool, c.n)
		got := recordedMetrics(t, f, c.server, c.tool, c.n)
		for _, g := range goals {
			if got[g] != "" {
				t.Errorf("%s/%s call %d: %s: %s", c.server, c.tool, c.n, g, got[g])
			}
		}
	}
}

// visibleTextJS is the result's visible text (closed folds and the raw view
// left out) and the text of its closed folds.
const visibleTextJS = `(w, d) => {
	const r = d.getElementById("result");
	const raw = [...r.querySelectorAll("details.raw")];
	raw.forEach((x) => x.hidden = true);
	const visible = r.innerText;
	raw.forEach((x) => x.hidden = false);
	const folds = [...r.querySelectorAll("details:not(.raw):not([open])")].map((x) => x.textContent).join("\n");
	return {Visible: visible, Folds: folds};
}`
