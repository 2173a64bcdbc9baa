package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// sdk2Client is the official TypeScript SDK v2 client package (pinned in
// scripts/npm-packages.txt); testdata/sdk2_client.mjs drives it.
const sdk2Client = "@modelcontextprotocol/client"

// sdk2Report is what testdata/sdk2_client.mjs prints.
type sdk2Report struct {
	Steps []struct {
		Name  string          `json:"name"`
		Value json.RawMessage `json:"value"`
	} `json:"steps"`
	Error      string `json:"error"`
	CloseError string `json:"closeError"`
}

func (r *sdk2Report) step(name string) string {
	for _, s := range r.Steps {
		if s.Name == name {
			return string(s.Value)
		}
	}
	return ""
}

// runSDK2 runs the v2 client script in a negotiation mode (auto|pin)
// against genui over a transport (stdio: target is genui's command line;
// http: target is the MCP URL).
func runSDK2(t *testing.T, mode, transport string, target ...string) *sdk2Report {
	t.Helper()
	nm := filepath.Join(testenv.NPMDir(), "node_modules")
	if _, err := os.Stat(filepath.Join(nm, filepath.FromSlash(sdk2Client), "dist", "index.mjs")); err != nil {
		testenv.Missingf(t, "npm package %s: %v", sdk2Client, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	script, err := filepath.Abs(filepath.Join("testdata", "sdk2_client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{script, nm, mode, transport}, target...)
	cmd := exec.CommandContext(ctx, testenv.NodePath(t), args...)
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = t.TempDir()
	var stderr syncBuffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sdk2 client (%s, %s): %v\nstderr:\n%s", mode, transport, err, tail(stderr.String(), 4096))
	}
	var r sdk2Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("sdk2 client printed no report: %v\n%s\nstderr:\n%s", err, out, tail(stderr.String(), 4096))
	}
	return &r
}

// startServe runs `genui serve --dir DIR [extra...]` in its own process
// group and returns its MCP URL and DIR; cleanup stops the group.
func startServe(t *testing.T, extra ...string) (string, string) {
	t.Helper()
	return startServeEnv(t, nil, extra...)
}

// startServeEnv is startServe with env added to the offline environment.
func startServeEnv(t *testing.T, env []string, extra ...string) (string, string) {
	t.Helper()
	return startServeCwd(t, t.TempDir(), env, extra...)
}

// startServeIn is startServe run in the working directory cwd.
func startServeIn(t *testing.T, cwd string, extra ...string) (string, string) {
	t.Helper()
	return startServeCwd(t, cwd, nil, extra...)
}

func startServeCwd(t *testing.T, cwd string, env []string, extra ...string) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ui")
	mcpURL, _, _ := startServeAt(t, cwd, dir, env, extra...)
	return mcpURL, dir
}

// startServeAt runs genui serve in the working directory cwd with --dir dir
// until stop (or the test's end; stop waits for it to exit) and returns its
// MCP endpoint once it wrote its port file, and its output. A data race
// genui reports fails the test; a failed test shows the output and log.
func startServeAt(t *testing.T, cwd, dir string, env []string, extra ...string) (mcpURL string, out *syncBuffer, stop func()) {
	t.Helper()
	args := append([]string{"serve", "--dir", dir}, extra...)
	cmd := exec.Command(testenv.GenuiBinary(t), args...)
	cmd.Env = append(testenv.OfflineEnv(), env...)
	cmd.Dir = cwd
	p := startGroup(t, cmd, "genui serve")
	stop = func() { p.kill(syscall.SIGTERM) }
	t.Cleanup(func() {
		stop()
		if strings.Contains(p.out.String(), "WARNING: DATA RACE") {
			t.Errorf("genui serve reported a data race:\n%s", p.out.String())
		} else if t.Failed() {
			t.Logf("genui serve output:\n%s", tail(p.out.String(), 4096))
			if b, err := os.ReadFile(filepath.Join(dir, "log", "genui.log")); err == nil {
				t.Logf("genui.log (last 8 KiB):\n%s", tail(string(b), 8192))
			}
		}
	})
	return "http://127.0.0.1:" + strconv.Itoa(waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second)) + "/mcp", p.out, stop
}

// TestSDK2ClientModernProtocol: the official TypeScript SDK v2 client, in
// auto mode (probes server/discover) and pinned to 2026-07-28, against
// `genui mcp` (stdio) and `genui serve` (streamable HTTP) over
// server-everything: it negotiates the 2026-07-28 revision and every step
// works: discovery (genui's serverInfo, the upstream's capabilities and
// instructions), tools with UI metadata, a call, the ui:// resource,
// prompts, templates, a subscriptions/listen stream that hears a UI
// refinement, and a sampling request of the upstream answered through
// multi round-trip.
func TestSDK2ClientModernProtocol(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		for _, mode := range []string{"auto", "pin"} {
			t.Run(transport+"-"+mode, func(t *testing.T) {
				var r *sdk2Report
				if transport == "stdio" {
					dir := filepath.Join(t.TempDir(), "ui")
					r = runSDK2(t, mode, transport, append([]string{testenv.GenuiBinary(t), "mcp", "--dir", dir, "--"}, everythingCmd(t)...)...)
				} else {
					url, _ := startServe(t, append([]string{"--"}, everythingCmd(t)...)...)
					r = runSDK2(t, mode, transport, url)
				}
				if r.Error != "" {
					steps, _ := json.Marshal(r.Steps)
					t.Fatalf("the v2 client failed: %s\nsteps so far: %s", r.Error, steps)
				}
				want := map[string]func(string) bool{
					"protocol":   func(v string) bool { return v == `"2026-07-28"` },
					"era":        func(v string) bool { return v == `"modern"` },
					"serverInfo": func(v string) bool { return strings.Contains(v, `"name":"genui"`) },
					"capabilities": func(v string) bool {
						return strings.Contains(v, `"prompts"`) && strings.Contains(v, `"completions"`) && strings.Contains(v, `"io.modelcontextprotocol/ui"`)
					},
					"instructions": func(v string) bool { return strings.Contains(v, "Everything Server") },
					"tools": func(v string) bool {
						return strings.Contains(v, `"echoUI":"ui://echo"`) && strings.Contains(v, `"wrappers":7`)
					},
					"call":         func(v string) bool { return v == `"Echo: hi from sdk2"` },
					"ui":           func(v string) bool { return v == `{"mimeType":"text/html;profile=mcp-app","html":true}` },
					"prompts":      func(v string) bool { n, _ := strconv.Atoi(v); return n > 0 },
					"templates":    func(v string) bool { n, _ := strconv.Atoi(v); return n > 0 },
					"listen":       func(v string) bool { return v == `{"toolsListChanged":true,"resourceSubscriptions":["ui://echo"]}` },
					"updated":      func(v string) bool { return strings.Contains(v, `"ui://echo"`) },
					"listenClosed": func(v string) bool { return v == `"local"` },
					"sampling":     func(v string) bool { return v == `{"asked":1,"result":true}` },
				}
				for name, ok := range want {
					if v := r.step(name); !ok(v) {
						t.Errorf("%s: got %s", name, v)
					}
				}
				if r.CloseError != "" {
					t.Errorf("close: %s", r.CloseError)
				}
			})
		}
	}
}
