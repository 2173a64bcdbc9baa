package e2e_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// waitAPIBase waits for DIR/mcp-port and returns the side server's URL.
func waitAPIBase(t *testing.T, dir string) string {
	t.Helper()
	return "http://127.0.0.1:" + strconv.Itoa(waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second))
}

// toolRow reports whether the screen's tool list shows tool with text on
// its line.
func toolRow(tool, text string) func(string) bool {
	return func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, tool+" ") && strings.Contains(l, text) {
				return true
			}
		}
		return false
	}
}

// TestTUIAttachedBesideGenuiMCP is the side-by-side setup: an agent's
// `genui mcp` (driven here by an MCP client over stdio) and `genui tui
// --attach` in a terminal beside it, on the same DIR.
func TestTUIAttachedBesideGenuiMCP(t *testing.T) {
	work := t.TempDir()
	dir := filepath.Join(work, "ui")
	c := genuiMCPIn(t, dir)
	ctx := bounded(t, 3*time.Minute)
	const weather = "ui://get_current_weather"
	if _, rerr, err := c.Request(ctx, "resources/subscribe", map[string]string{"uri": weather}); err != nil || rerr != nil {
		t.Fatalf("subscribe: %v %v", err, rerr)
	}
	base := waitAPIBase(t, dir)

	x := startTUI(t, 120, 40, work, "tui", "--attach", "--dir", dir)
	x.waitFor("the attached workbench", 60*time.Second, contains("attached", "Tools 8/8", "get_forecast", "MCP "+base+"/mcp"))

	// 1. A refine the agent makes shows in the TUI within a second.
	bound := time.Second
	if testenv.RaceEnabled() {
		bound = 3 * time.Second // both binaries run with the race detector
	}
	callWrapper(t, c, "_ui_refine", map[string]any{"toolName": "get_forecast", "feedback": "dark theme"})
	start := time.Now()
	x.waitFor("the agent's refinement (✎1 on get_forecast)", bound, toolRow("get_forecast", "✎1"))
	t.Logf("the agent's refine showed in the TUI after %s", time.Since(start).Round(time.Millisecond))

	// 2. A refine made in the TUI reaches the agent as resources/updated.
	x.keys("/")
	x.text("current")
	x.keys("Enter", "r")
	x.text("call it Weather Now")
	x.keys("Enter")
	if _, err := c.WaitNotification(ctx, "notifications/resources/updated", func(p json.RawMessage) bool {
		return strings.Contains(string(p), weather)
	}); err != nil {
		t.Fatalf("no resources/updated for %s after the TUI's refine: %v", weather, err)
	}
	x.waitFor("the TUI's refinement and its diff", 10*time.Second,
		contains("get_current_weather refined (1 refinement(s))", "<title>Weather Now</title>"))
	res := callWrapper(t, c, "_ui_inspect", map[string]any{"toolName": "get_current_weather"})
	if b, _ := json.Marshal(res); !strings.Contains(string(b), "Weather Now") || !strings.Contains(string(b), `"tui"`) {
		t.Fatalf("_ui_inspect after the TUI's refine: %s", b)
	}

	// 3. An event a previewed UI queues shows in the TUI's Events, and the
	// agent's next /wait still returns it.
	x.keys("4") // (no Escape first: ESC then 4 within the terminal's escape timeout reads as alt+4)
	body := `{"type":"ui/message","payload":{"role":"user","content":[{"type":"text","text":"hello from the preview"}]}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/preview/get_forecast/event", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", base) // the preview page's own origin
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("preview event: %d %s", resp.StatusCode, b)
	}
	x.waitFor("the queued preview event", 5*time.Second, contains("⧗ ui/message", "from preview  “hello from"))
	resp, err = http.Get(base + "/wait?timeout=5")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte("hello from the preview")) {
		t.Fatalf("the agent's /wait after the TUI showed the event: %d %s", resp.StatusCode, b)
	}
	x.waitFor("the event marked as taken by the agent", 5*time.Second, contains("✓ ui/message"))

	// 4. Quitting the TUI leaves genui mcp serving.
	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp-port")); err != nil {
		t.Fatalf("the attached TUI's exit removed genui mcp's port file: %v", err)
	}
	out, err := c.CallTool(ctx, "get_current_weather", map[string]any{"location": "Oslo"}, nil)
	if err != nil || !strings.Contains(string(out), "Oslo") {
		t.Fatalf("genui mcp after the TUI quit: %v %s", err, clip(out))
	}
	resp, err = http.Get(base + "/state")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /state after the TUI quit: %v", err)
	}
	resp.Body.Close()
}

// TestTUIOffersToAttachToALaterGenuiMCP: the workbench started first runs
// in-process; when the agent's `genui mcp` starts on the same DIR it takes
// the port files over, the header says so, and `a` attaches to it.
func TestTUIOffersToAttachToALaterGenuiMCP(t *testing.T) {
	work := t.TempDir()
	dir := filepath.Join(work, "ui")
	x := startTUI(t, 120, 40, work, "tui", "--dir", dir)
	x.waitFor("the in-process workbench", 60*time.Second, contains("in-process", "Tools 8/8"))
	tuiBase := waitAPIBase(t, dir)

	c := genuiMCPIn(t, dir)
	base := tuiBase
	testenv.Until(30*time.Second, func() bool { base = waitAPIBase(t, dir); return base != tuiBase })
	if base == tuiBase {
		t.Fatalf("genui mcp did not take DIR/mcp-port over from the in-process TUI (%s)", tuiBase)
	}
	x.waitFor("the offer to attach", 10*time.Second, contains("press a to attach", base))
	x.keys("a")
	x.waitFor("the attached workbench", 20*time.Second, contains("attached", "attached to "+base, "MCP "+base+"/mcp", "1 MCP session"))

	// What the agent does now shows here.
	callWrapper(t, c, "_ui_refine", map[string]any{"toolName": "get_forecast", "feedback": "dark theme"})
	x.waitFor("the agent's refinement", 10*time.Second, toolRow("get_forecast", "✎1"))
	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
	if got := waitAPIBase(t, dir); got != base {
		t.Fatalf("after the TUI quit, DIR/mcp-port names %s, want genui mcp's %s", got, base)
	}
	if _, err := c.CallTool(bounded(t, time.Minute), "get_current_weather", map[string]any{"location": "Oslo"}, nil); err != nil {
		t.Fatalf("genui mcp after the TUI quit: %v", err)
	}
}
