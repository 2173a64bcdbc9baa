package e2e_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
)

// TestSpecModeByDefaultOverStdio (issue 32): `genui mcp` with nothing set
// but a provider's key and base URL (--llm auto picks it) generates in the
// spec mode: the stand-in's spec replaces the offline UI, and the page
// served is genui's own page carrying that spec (_ui_inspect says
// llm-spec, with the spec). The prompt asked for a spec.
func TestSpecModeByDefaultOverStdio(t *testing.T) {
	const spec = "```json\n" + `{"version": 1, "title": "Days ahead in <b>Oslo</b>", "principal": "/days",
	  "view": {"kind": "table", "columns": [{"field": "low"}, {"field": "date"}, {"field": "high"}]}}` + "\n```"
	held := make(chan struct{})
	var releaseOnce sync.Once
	release := func() { releaseOnce.Do(func() { close(held) }) }
	t.Cleanup(release)
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: spec, InputTokens: 1500, OutputTokens: 90, Release: held})
	c, _ := genuiLLMDefault(t, llmtest.TestKey, []string{"ANTHROPIC_API_KEY=" + llmtest.TestKey, "ANTHROPIC_BASE_URL=" + srv.URL}, hostHandler())
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	if _, rpcErr, err := c.Request(ctx, "resources/subscribe", map[string]string{"uri": forecastURI}); err != nil || rpcErr != nil {
		t.Fatalf("subscribe: %v %v", err, rpcErr)
	}
	first := readUI(t, c, forecastURI)
	if strings.Contains(first, "Days ahead") {
		t.Fatal("the first read must be the offline UI")
	}
	release()
	waitUpdated(t, ctx, c, forecastURI)
	page := readUI(t, c, forecastURI)
	if !strings.Contains(page, `id="view-spec"`) || !strings.Contains(page, "data-genui-shim") {
		t.Fatal("the upgraded page is not genui's own page with a spec")
	}
	if n := srv.Count(); n != 1 || !strings.Contains(srv.Requests()[0].System(), "view specification") ||
		!strings.Contains(srv.Requests()[0].User(), "<proposed_spec>") {
		t.Fatalf("%d provider requests; the first must ask for a spec", n)
	}
	res, err := c.CallTool(ctx, "_ui_inspect", map[string]string{"toolName": "get_forecast"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ins struct {
		StructuredContent struct {
			Meta struct {
				UIType       string          `json:"uiType"`
				OutputTokens int             `json:"outputTokens"`
				Spec         json.RawMessage `json:"spec"`
			} `json:"meta"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(res, &ins); err != nil {
		t.Fatal(err)
	}
	m := ins.StructuredContent.Meta
	if m.UIType != "llm-spec" || m.OutputTokens != 90 || !strings.Contains(string(m.Spec), "Days ahead in") {
		t.Fatalf("_ui_inspect meta = %+v (spec %s)", m, m.Spec)
	}
}
