package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestAgentSideChannel is the agent's loop end to end: `genui mcp` (built-in
// demo upstream) is running for a host, the agent installs the helper and
// uses `DIR/mcp` to call a tool and read the status, watches `DIR/mcp event`
// in the background, and a message sent by the UI in a browser preview
// (headless Chromium) arrives there as one JSON line.
func TestAgentSideChannel(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		testenv.Missingf(t, "curl not found (the DIR/mcp helper needs it)")
	}
	c, dir := genuiMCP(t)
	ctx := bounded(t, 3*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	port := waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second)
	api := "http://127.0.0.1:" + strconv.Itoa(port)

	// Install the helper unless genui did it on start.
	script := filepath.Join(dir, "mcp")
	if _, err := os.Stat(script); errors.Is(err, os.ErrNotExist) {
		installHelper(t, dir)
	}

	// A tool call through the helper.
	out := runHelper(t, script, "get_current_weather", `{"location":"Paris"}`)
	var call struct {
		Result struct {
			Content []struct{ Type, Text string } `json:"content"`
			IsError bool                          `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &call); err != nil || call.Result.IsError || len(call.Result.Content) == 0 ||
		!strings.Contains(call.Result.Content[0].Text, "Paris") {
		t.Fatalf("mcp get_current_weather: %v\n%s", err, out)
	}
	// Status (_ui_status) names the API URL the helper used.
	out = runHelper(t, script, "status")
	if !strings.Contains(string(out), `"result"`) || !strings.Contains(string(out), api) {
		t.Fatalf("mcp status does not mention %s:\n%s", api, out)
	}
	// A bad tool name fails with a clear message and a non-zero exit.
	if b, err := helperCmd(ctx, script, "no_such_tool").CombinedOutput(); err == nil || !strings.Contains(string(b), "no_such_tool") {
		t.Errorf("mcp no_such_tool: err=%v out=%s", err, b)
	}

	// The watcher: one JSON event per line, in its own process group so its
	// curl dies with it.
	lines := startWatcher(t, script)

	bctx := browsertest.Start(t)
	browsertest.Run(t, bctx, 30*time.Second, chromedp.Navigate(api+"/preview/get_current_weather"))
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.appStatus === "ready" || document.body.dataset.appStatus === "result"`,
		chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		status, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.dataset.appStatus || ""`))
		t.Fatalf("preview never became ready (data-app-status=%q): %v", status, err)
	}
	browsertest.WaitFrame(t, bctx, "#ui", `(w) => !!w.genuiApp`, 15*time.Second)
	sent := browsertest.MustFrameEval(t, bctx, "#ui", `(w) => w.genuiApp.sendMessage({role: "user", content: [{type: "text", text: "hello from the UI"}]}).then(() => "sent", e => "error: " + e.message)`)
	if string(sent) != `"sent"` {
		t.Fatalf("app.sendMessage: %s", sent)
	}

	deadline := time.After(30 * time.Second)
	var seen []string
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the watcher ended before the ui/message event; it printed:\n%s", strings.Join(seen, "\n"))
			}
			seen = append(seen, line)
			var ev struct {
				Seq     int64           `json:"seq"`
				Source  string          `json:"source"`
				Type    string          `json:"type"`
				Tool    string          `json:"tool"`
				Payload json.RawMessage `json:"payload"`
			}
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("watcher line is not one JSON event: %q: %v", line, err)
			}
			if ev.Type == "ui/message" && strings.Contains(string(ev.Payload), "hello from the UI") {
				if ev.Tool != "get_current_weather" || ev.Seq == 0 {
					t.Errorf("ui/message event: %s", line)
				}
				return
			}
		case <-deadline:
			t.Fatalf("no ui/message event from `mcp event` within 30 s; it printed:\n%s", strings.Join(seen, "\n"))
		}
	}
}

// waitPortFile polls a genui port file (DIR/mcp-port: the port number and
// a newline) until it names a port, for at most d.
func waitPortFile(t *testing.T, path string, d time.Duration) int {
	t.Helper()
	var b []byte
	var err error
	if !testenv.Until(d, func() bool { b, err = os.ReadFile(path); return err == nil && len(b) > 0 }) {
		t.Fatalf("%s not written within %s (last error %v, content %q)", path, d, err, b)
	}
	// The port number and nothing else, so that
	// `curl localhost:$(cat .ui/mcp-port)/wait` works.
	port, err := strconv.Atoi(strings.TrimSuffix(string(b), "\n"))
	if err != nil || port <= 0 {
		t.Fatalf("%s holds %q, want the port number alone", path, b)
	}
	return port
}

// installHelper runs `genui install --dir DIR` and checks its report.
func installHelper(t *testing.T, dir string) {
	t.Helper()
	ctx := bounded(t, time.Minute)
	cmd := exec.CommandContext(ctx, testenv.GenuiBinary(t), "install", "--dir", dir)
	cmd.Dir = filepath.Dir(dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("genui install: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	var rep struct {
		Files []struct{ Path, Action string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Files) == 0 {
		t.Fatalf("genui install stdout is not its JSON report: %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stderr.String(), "claude mcp add genui -- genui mcp") {
		t.Errorf("genui install did not print the Claude Code line on stderr:\n%s", stderr.String())
	}
}

func helperCmd(ctx context.Context, script string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, script, args...)
	cmd.Dir = os.TempDir() // the helper finds its folder itself
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// runHelper runs DIR/mcp with args (bounded) and returns its stdout.
func runHelper(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	ctx := bounded(t, time.Minute)
	var stdout, stderr bytes.Buffer
	cmd := helperCmd(ctx, script, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcp %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.Bytes()
}

// startWatcher starts `DIR/mcp event` and returns its stdout lines; the
// process group is killed when the test ends.
func startWatcher(t *testing.T, script string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := helperCmd(ctx, script, "event")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 4<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("mcp event stderr:\n%s", stderr.String())
		}
	})
	return lines
}
