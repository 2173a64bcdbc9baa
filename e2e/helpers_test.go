// Package e2e_test drives the real genui binary as a subprocess, over stdio,
// against real upstream servers (genui's own demo server and npm's
// server-everything), and checks what a host would see.
package e2e_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/manytools"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// manyToolsEnv makes this test binary an MCP server on stdin/stdout with
// generated tools (internal/manytools): "PREFIX:N", e.g. "stranger_:3".
// Tests use it as a genui upstream whose tools no other server has.
const manyToolsEnv = "GENUI_E2E_MANYTOOLS"

func TestMain(m *testing.M) {
	if spec := os.Getenv(manyToolsEnv); spec != "" {
		prefix, count, _ := strings.Cut(spec, ":")
		n, _ := strconv.Atoi(count)
		_ = (&manytools.Server{N: n, Prefix: prefix}).Serve(context.Background(), os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(testenv.Main(m))
}

// protocol is the MCP version every session here initializes with.
const protocol = "2025-11-25"

// everythingPkg is npm's reference server (pinned in scripts/npm-packages.txt).
const everythingPkg = "@modelcontextprotocol/server-everything"

// session starts cmd under an mcptest client whose life is bounded by
// 3 minutes and the test. cmd runs in a fresh temp dir (no stray genui.json)
// with the offline environment. On cleanup the client is closed and, for a
// race-enabled genui, stderr is checked for data-race reports.
func session(t *testing.T, cmd *exec.Cmd, opts ...mcptest.Option) *mcptest.Client {
	t.Helper()
	if cmd.Env == nil {
		cmd.Env = testenv.OfflineEnv()
	}
	if cmd.Dir == "" {
		cmd.Dir = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	c, err := mcptest.Start(ctx, cmd, opts...)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		defer cancel()
		if err := c.Close(); err != nil {
			t.Error(err)
		}
		stderr := c.Stderr()
		if strings.Contains(stderr, "WARNING: DATA RACE") {
			t.Errorf("%s reported a data race:\n%s", filepath.Base(cmd.Path), stderr)
		} else if t.Failed() && stderr != "" {
			t.Logf("%s stderr (last 4 KiB):\n%s", filepath.Base(cmd.Path), tail(stderr, 4096))
		}
	})
	return c
}

// genuiMCP starts `genui mcp --dir DIR [extra...]` with a fresh DIR and
// returns the client and DIR. On failure the tail of DIR/log/genui.log is
// logged.
func genuiMCP(t *testing.T, extra ...string) (*mcptest.Client, string) {
	t.Helper()
	bin := testenv.GenuiBinary(t)
	dir := filepath.Join(t.TempDir(), "ui")
	args := append([]string{"mcp", "--dir", dir}, extra...)
	c := session(t, exec.Command(bin, args...), hostHandler())
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		if b, err := os.ReadFile(filepath.Join(dir, "log", "genui.log")); err == nil {
			t.Logf("genui.log (last 8 KiB):\n%s", tail(string(b), 8192))
		}
	})
	return c, dir
}

// everythingCmd is `node <server-everything> stdio`.
func everythingCmd(t *testing.T) []string {
	t.Helper()
	return []string{testenv.NodePath(t), testenv.NPMBin(t, everythingPkg, ""), "stdio"}
}

// hostCaps are the client capabilities used on both sides of the fidelity
// comparison: a host that supports roots, sampling and elicitation, so the
// upstream's capability-dependent tools appear whether genui mirrors the
// host's capabilities or advertises its own relay support.
var hostCaps = json.RawMessage(`{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}}`)

// hostHandler answers server-to-client requests the same way on both
// sides: an empty roots list, and a clear refusal for sampling/elicitation
// (no test calls the tools that need them).
func hostHandler() mcptest.Option {
	return mcptest.WithRequestHandler(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
		switch method {
		case "ping":
			return json.RawMessage(`{}`), nil
		case "roots/list":
			return json.RawMessage(`{"roots":[]}`), nil
		}
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "test host does not handle %s", method)
	})
}

// bounded returns a context that ends after d or with the test.
func bounded(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// decode unmarshals raw JSON into a generic value (map/slice/float64...).
func decode(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("bad JSON %s: %v", clip(raw), err)
	}
	return v
}

// toolName reads the "name" of a tool definition.
func toolName(raw json.RawMessage) string {
	var v struct{ Name string }
	_ = json.Unmarshal(raw, &v)
	return v.Name
}

// timeRE matches the locale time server-everything stamps into its dynamic
// resources ("created at 10:04:05 AM").
var timeRE = regexp.MustCompile(`created at \d{1,2}:\d{2}:\d{2}(?:[\s\x{00A0}\x{202F}]?[AP]M)?`)

// normalize replaces the wall-clock parts of server-everything output so two
// runs a second apart compare equal: "created at <time>" in strings, and the
// same inside base64 "blob" values (decoded to text first).
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if s, ok := e.(string); ok && k == "blob" {
				if b, err := decodeBase64(s); err == nil && timeRE.Match(b) {
					out[k] = "base64:" + timeRE.ReplaceAllString(string(b), "created at <time>")
					continue
				}
			}
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case string:
		return timeRE.ReplaceAllString(x, "created at <time>")
	}
	return v
}

func decodeBase64(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

func clip(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "..."
	}
	return string(b)
}

// mustJSON renders v for failure messages.
func mustJSON(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}
