package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/llmtest"
)

// TestLLMPageLongCallsInWebHost (issue 25): an LLM-style page for
// server-everything's trigger-long-running-operation, written the way the
// system prompt documents long calls, generated through `genui serve`
// --llm (a stand-in Anthropic API) and shown by the test web host (the
// official AppBridge and SDK client; this host forwards the view's calls
// with a long timeout and passes their progress on, as the README asks of
// a real host). In headless Chromium:
//   - a 70 s call with the documented timeout option gets its result;
//   - the same call without it fails at the bridge's 60 s default (so the
//     option is what makes the difference);
//   - a call with a progress callback sees every progress value (5 steps).
//
// The three run at once; the test runs in parallel with the package's
// others, so it adds about 75 s of wall time only when run alone.
func TestLLMPageLongCallsInWebHost(t *testing.T) {
	t.Parallel()
	const tool = "trigger-long-running-operation"
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.LongCallPage})
	env := []string{"ANTHROPIC_API_KEY=" + llmtest.TestKey, "ANTHROPIC_BASE_URL=" + srv.URL, "GENUI_GENERATION_FIRST_READ=wait", "GENUI_GENERATION_MODE=html"}
	mcpURL, _ := startServeEnv(t, env, append([]string{"--llm", "anthropic", "--model", "claude-test", "--"}, everythingCmd(t)...)...)
	ctx := browsertest.Start(t)
	wh := startWebHostWith(t, mcpURL, "legacy", map[string]any{"forwardProgress": true})
	browsertest.Run(t, ctx, 30*time.Second, chromedp.Navigate(wh.page.URL+"/"))
	pollPage(t, ctx, `document.body.dataset.status !== "loading"`, 30*time.Second)
	if h := readHost(t, ctx); len(h.Errors) > 0 {
		t.Fatalf("the web host did not connect: %+v", h.Errors)
	}
	browsertest.Run(t, ctx, 10*time.Second, chromedp.Evaluate[chromedp.Void](`runTool("`+tool+`", {duration: 1, steps: 1})`))
	pollPage(t, ctx, `window.host.panels["`+tool+`"] && ["result", "error"].includes(window.host.panels["`+tool+`"].status)`, 60*time.Second)
	if h := readHost(t, ctx); h.Panels[tool].Status != "result" {
		t.Fatalf("panel: %+v", h)
	}
	waitUI(t, ctx, tool, `(w, d) => d.body.dataset.connected === "yes" && !!d.getElementById("long")`, 20*time.Second)
	if n := srv.Count(); n != 1 {
		t.Fatalf("%d provider requests, want 1 (the LLM page is served)", n)
	}

	start := time.Now()
	if _, err := inUI(ctx, tool, `(w, d) => { ["long", "plain", "progress"].forEach((id) => d.getElementById(id).click()); return true; }`); err != nil {
		t.Fatal(err)
	}
	waitUI(t, ctx, tool, `(w, d) => !!w.longOp.results.progress`, 30*time.Second)
	var progress []float64
	raw, err := inUI(ctx, tool, `(w) => w.longOp.progress.progress`)
	if err != nil || json.Unmarshal(raw, &progress) != nil || len(progress) < 3 {
		t.Fatalf("progress values seen by the page's callback: %s (%v), want at least 3", raw, err)
	}
	t.Logf("progress values: %v", progress)

	waitUI(t, ctx, tool, `(w) => !!w.longOp.results.long && !!w.longOp.errors.plain`, 110*time.Second)
	var got struct {
		Long struct {
			Text string
			MS   int `json:"ms"`
		}
		Plain struct {
			Message string
			MS      int `json:"ms"`
		}
	}
	raw, _ = inUI(ctx, tool, `(w) => ({Long: w.longOp.results.long, Plain: w.longOp.errors.plain})`)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if !strings.Contains(got.Long.Text, "Duration: 70 seconds") || got.Long.MS < 69000 {
		t.Errorf("the 70 s call with a timeout option: %+v", got.Long)
	}
	if !strings.Contains(got.Plain.Message, "timed out after 60000 ms") || got.Plain.MS > 69000 {
		t.Errorf("the 70 s call without one: %+v (want the bridge's 60 s default to end it)", got.Plain)
	}
	t.Logf("70 s call: %d ms; without the option it failed after %d ms (%s); wall time %s", got.Long.MS, got.Plain.MS, got.Plain.Message, time.Since(start).Round(time.Second))
}
