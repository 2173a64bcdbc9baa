package e2e_test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// genuiMCPIn starts `genui mcp --dir dir` (built-in demo) and initializes it.
func genuiMCPIn(t *testing.T, dir string) *mcptest.Client {
	t.Helper()
	c := session(t, exec.Command(testenv.GenuiBinary(t), "mcp", "--dir", dir), hostHandler())
	if _, err := c.Initialize(bounded(t, time.Minute), protocol, hostCaps); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

func readUI(t *testing.T, c *mcptest.Client, uri string) string {
	t.Helper()
	res, rerr, err := c.Request(bounded(t, time.Minute), "resources/read", map[string]string{"uri": uri})
	if err != nil || rerr != nil {
		t.Fatalf("resources/read %s: %v %v", uri, err, rerr)
	}
	var out struct {
		Contents []struct{ Text, MimeType string } `json:"contents"`
	}
	if err := json.Unmarshal(res, &out); err != nil || len(out.Contents) != 1 {
		t.Fatalf("resources/read %s: %s", uri, clip(res))
	}
	return out.Contents[0].Text
}

// callWrapper calls a _ui_* tool and returns its structuredContent.
func callWrapper(t *testing.T, c *mcptest.Client, name string, args any) map[string]any {
	t.Helper()
	res, err := c.CallTool(bounded(t, time.Minute), name, args, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(res, &out); err != nil || out.IsError {
		t.Fatalf("%s: error result %s", name, clip(res))
	}
	return out.StructuredContent
}

// TestRefineLifecycle: _ui_refine changes the served HTML and tells a
// subscribed host, _ui_inspect shows the history, a restart keeps it, and
// _ui_regenerate {clearRefinements:true} brings the original UI back.
func TestRefineLifecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ui")
	const uri = "ui://get_forecast"
	c := genuiMCPIn(t, dir)
	ctx := bounded(t, 2*time.Minute)
	if _, rerr, err := c.Request(ctx, "resources/subscribe", map[string]string{"uri": uri}); err != nil || rerr != nil {
		t.Fatalf("subscribe: %v %v", err, rerr)
	}
	original := readUI(t, c, uri)

	const feedback = "dark theme, title: Oslo outlook"
	res := callWrapper(t, c, "_ui_refine", map[string]any{"toolName": "get_forecast", "feedback": feedback})
	if res["uiType"] == "" || res["ms"] == nil {
		t.Fatalf("_ui_refine reply lacks timing or UI type: %v", res)
	}
	// It says what became of the refinement, and the spec the page now draws.
	if o, _ := res["outcome"].(map[string]any); o["status"] != "applied" || !strings.Contains(fmt.Sprint(o["changes"]), "title: Oslo outlook") {
		t.Fatalf("_ui_refine's outcome: %v", res["outcome"])
	}
	if sp, _ := res["spec"].(map[string]any); sp["title"] != "Oslo outlook" {
		t.Fatalf("_ui_refine's spec: %v", res["spec"])
	}
	if _, err := c.WaitNotification(ctx, "notifications/resources/updated", func(p json.RawMessage) bool {
		return strings.Contains(string(p), uri)
	}); err != nil {
		t.Fatalf("no resources/updated for %s: %v", uri, err)
	}
	refined := readUI(t, c, uri)
	if refined == original || !strings.Contains(refined, "Oslo outlook") {
		t.Fatalf("refined UI unchanged or lacks the new title (len %d vs %d)", len(refined), len(original))
	}
	hist := func(c *mcptest.Client) string {
		ins := callWrapper(t, c, "_ui_inspect", map[string]any{"toolName": "get_forecast"})
		b, _ := json.Marshal(ins["history"])
		return string(b)
	}
	if h := hist(c); !strings.Contains(h, feedback) {
		t.Fatalf("_ui_inspect history lacks the feedback: %s", h)
	}
	ins := callWrapper(t, c, "_ui_inspect", map[string]any{"toolName": "get_forecast"})
	if m, _ := ins["meta"].(map[string]any); !strings.Contains(fmt.Sprint(m["spec"]), "Oslo outlook") {
		t.Fatalf("_ui_inspect's meta lacks the page's spec: %v", ins["meta"])
	}
	// After a real call, a field the result lacks is answered "not applied", with the reason.
	if _, err := c.CallTool(ctx, "get_forecast", map[string]any{"location": "Oslo", "days": 3}, nil); err != nil {
		t.Fatal(err)
	}
	missed := callWrapper(t, c, "_ui_refine", map[string]any{"toolName": "get_forecast", "feedback": "hide the reviewer"})
	if o, _ := missed["outcome"].(map[string]any); o["status"] != "not applied" || !strings.Contains(fmt.Sprint(o["reason"]), `no field "reviewer"`) {
		t.Fatalf("_ui_refine of a field the result lacks: %v", missed["outcome"])
	}
	refined = readUI(t, c, uri)

	// Restart on the same folder: history and the refined UI survive.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c2 := genuiMCPIn(t, dir)
	if h := hist(c2); !strings.Contains(h, feedback) {
		t.Fatalf("history lost across restart: %s", h)
	}
	if got := readUI(t, c2, uri); got != refined {
		t.Fatal("refined UI changed across restart")
	}
	callWrapper(t, c2, "_ui_regenerate", map[string]any{"toolName": "get_forecast", "clearRefinements": true})
	if got := readUI(t, c2, uri); got != original {
		t.Fatal("_ui_regenerate {clearRefinements:true} did not return to the original UI")
	}
	if h := hist(c2); strings.Contains(h, feedback) {
		t.Fatalf("history not cleared: %s", h)
	}
}
