package e2e_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// TestTUITrafficKeepsHistoryAndTheAnswerThroughABurst: the TUI attaches to
// a `genui mcp` whose agent already called a tool, and its Traffic pane
// starts with that call (read from genui's record); then the agent calls a
// tool whose server sends 10,000 notifications at once before answering:
// the answer is in the pane, and what the pane does not hold is counted on
// screen (older frames not kept, and any frames dropped where the stream
// fell behind).
func TestTUITrafficKeepsHistoryAndTheAnswerThroughABurst(t *testing.T) {
	node := testenv.NodePath(t)
	work := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "filetools.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	server := filepath.Join(work, "filetools.mjs")
	tools := filepath.Join(work, "tools.json")
	spec := map[string]any{
		"tools": []map[string]any{
			{"name": "hello", "description": "Says hello.", "inputSchema": map[string]any{"type": "object"}},
			{"name": "burst", "description": "Sends 10,000 log notifications, then answers.", "inputSchema": map[string]any{"type": "object"}},
		},
		"notify": map[string]int{"burst": 10000},
	}
	b, _ := json.Marshal(spec)
	if err := os.WriteFile(server, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tools, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, "ui")
	cmd := exec.Command(testenv.GenuiBinary(t), "mcp", "--dir", dir, "--", node, server)
	cmd.Env = append(os.Environ(), "TOOLS_FILE="+tools)
	c := session(t, cmd, hostHandler())
	ctx := bounded(t, 3*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if _, rerr, err := c.Request(ctx, "tools/call", map[string]any{"name": "hello", "arguments": map[string]any{"who": "before the TUI"}}); err != nil || rerr != nil {
		t.Fatalf("hello: %v %v", err, rerr)
	}
	waitAPIBase(t, dir)

	x := startTUI(t, 120, 40, work, "tui", "--attach", "--dir", dir)
	x.waitFor("the attached workbench", 60*time.Second, contains("attached", "burst"))
	x.keys("6")
	s := x.waitFor("the agent's call made before the TUI attached, in Traffic", 20*time.Second,
		func(s string) bool { return regexp.MustCompile(`resp\s+tools/call hello`).MatchString(s) })
	t.Logf("attached, Traffic:\n%s", s)

	if _, rerr, err := c.Request(ctx, "tools/call", map[string]any{"name": "burst", "arguments": map[string]any{}}); err != nil || rerr != nil {
		t.Fatalf("burst: %v %v", err, rerr)
	}
	// The answer is there; the frames not shown are counted: older ones
	// the pane no longer holds (its title), and where the stream fell
	// behind (rows saying how many).
	held := regexp.MustCompile(`Traffic \d+ · JSON-RPC · \d+ older not kept|⋯ \d+ frame\(s\) dropped here: the stream fell behind`)
	s = x.waitFor("the burst's answer in Traffic, with the count of frames not shown", 60*time.Second, func(s string) bool {
		return held.MatchString(s) && regexp.MustCompile(`resp\s+tools/call burst`).MatchString(s)
	})
	t.Logf("after the burst, Traffic:\n%s", s)
	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
}
