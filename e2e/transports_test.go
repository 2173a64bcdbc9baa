package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// httpTransports are server-everything's network transports: its CLI mode
// (dist/index.js argv[2]), the path genui connects to and genui's
// --upstream-transport value.
var httpTransports = []struct {
	mode, path, flag string
}{
	{mode: "streamableHttp", path: "/mcp", flag: "http"},
	{mode: "sse", path: "/sse", flag: "sse"},
}

// transportCalls are the deterministic server-everything calls compared
// direct (stdio) vs genui (network upstream).
var transportCalls = []struct {
	name string
	args map[string]any
}{
	{"echo", map[string]any{"message": "hello over the network"}},
	{"get-sum", map[string]any{"a": 19, "b": 23}},
	{"get-tiny-image", map[string]any{}},
	{"get-structured-content", map[string]any{"location": "New York"}},
	{"get-annotated-message", map[string]any{"messageType": "success", "includeImage": false}},
}

// TestTransportsEverything wraps server-everything served over streamable
// HTTP and over legacy SSE and compares what a host sees through genui with
// a direct stdio session of the same server: tools/list (minus genui's UI
// metadata), a few tools/call results, and progress notifications.
//
// Nothing needs normalizing: the compared tools are deterministic and none of
// them reports a session id or the transport. (server-everything's network
// modes do differ in session handling: streamable HTTP sends a
// Mcp-Session-Id, SSE a ?sessionId= query, but that never reaches a host.)
func TestTransportsEverything(t *testing.T) {
	testenv.GenuiBinary(t) // build (or fail) before starting anything
	up := everythingCmd(t)
	for _, tr := range httpTransports {
		t.Run(tr.mode, func(t *testing.T) {
			srv := startEverythingNet(t, tr.mode, freePort(t))
			direct := session(t, exec.Command(up[0], up[1:]...), hostHandler())
			proxied, _ := genuiMCP(t, "--upstream-url", srv.url(tr.path), "--upstream-transport", tr.flag)
			ctx := bounded(t, 2*time.Minute)
			for name, c := range map[string]*mcptest.Client{"direct": direct, "genui": proxied} {
				if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
					t.Fatalf("%s initialize: %v", name, err)
				}
			}
			directTools := directToolList(ctx, t, direct)
			proxiedTools := proxiedToolList(ctx, t, proxied, directTools)

			t.Run("tools/list", func(t *testing.T) { checkToolsEqual(t, directTools, proxiedTools) })

			t.Run("tools/call", func(t *testing.T) {
				for _, call := range transportCalls {
					params := map[string]any{"name": call.name, "arguments": call.args}
					want := outcome(ctx, t, direct, "tools/call", params)
					got := outcome(ctx, t, proxied, "tools/call", params)
					if r, _ := want.(map[string]any)["result"].(map[string]any); r == nil || r["isError"] == true {
						t.Errorf("direct %s did not succeed: %s", call.name, mustJSON(want))
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("tools/call %s differs:\n genui: %s\nupstream: %s", call.name, clip([]byte(mustJSON(got))), clip([]byte(mustJSON(want))))
					}
				}
			})

			t.Run("progress", func(t *testing.T) {
				for _, token := range []any{"net-progress-" + tr.mode, 777} {
					checkProgressEqual(ctx, t, direct, proxied, token, 0.6)
				}
			})

			if err := proxied.CheckStdout(); err != nil {
				t.Errorf("genui stdout is not pure JSON-RPC: %v", err)
			}
		})
	}
}

// TestNetUpstreamRestart SIGKILLs a network upstream (server-everything over
// streamable HTTP, and over SSE) in the middle of a session: the call in
// flight must fail with genui's upstream-unavailable error (-32001) within a
// few seconds, a new call while it is down within genui's upstream wait
// (15 s), and once the server is back on the same
// port genui must reconnect by itself (backoff 1, 2, 4... s) so a call
// succeeds again within 40 s.
func TestNetUpstreamRestart(t *testing.T) {
	t.Parallel()
	testenv.GenuiBinary(t)
	for _, tr := range httpTransports {
		t.Run(tr.mode, func(t *testing.T) {
			t.Parallel() // each subtest waits ~30 s for genui's backoff
			port := freePort(t)
			srv := startEverythingNet(t, tr.mode, port)
			c, _ := genuiMCP(t, "--upstream-url", srv.url(tr.path), "--upstream-transport", tr.flag)
			ctx := bounded(t, 2*time.Minute)
			if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
				t.Fatal(err)
			}
			if msg, err := echoOnce(ctx, c, "before"); err != nil {
				t.Fatalf("echo before the kill: %v", err)
			} else if msg != "Echo: before" {
				t.Fatalf("echo before the kill: %q", msg)
			}

			// A long call with progress: the first progress notification
			// proves it is in flight upstream when the server dies.
			token := "restart-" + tr.mode
			type reply struct {
				rpcErr *jsonrpc.Error
				res    json.RawMessage
				err    error
				at     time.Time
			}
			done := make(chan reply, 1)
			go func() {
				res, rpcErr, err := c.Request(ctx, "tools/call", map[string]any{
					"name":      "trigger-long-running-operation",
					"arguments": map[string]any{"duration": 60, "steps": 60},
					"_meta":     map[string]any{"progressToken": token},
				})
				done <- reply{rpcErr, res, err, time.Now()}
			}()
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			_, err := c.WaitNotification(pctx, "notifications/progress", func(p json.RawMessage) bool {
				return bytes.Contains(p, []byte(strconv.Quote(token)))
			})
			cancel()
			if err != nil {
				t.Fatalf("no progress for the long call through genui: %v", err)
			}

			srv.kill(t)
			killed := time.Now()
			select {
			case r := <-done:
				if r.err != nil {
					t.Fatalf("in-flight call: %v", r.err)
				}
				if r.rpcErr == nil {
					t.Fatalf("in-flight call succeeded although its upstream was killed: %s", clip(r.res))
				}
				t.Logf("in-flight call failed %v after the kill: %v", r.at.Sub(killed).Round(time.Millisecond), r.rpcErr)
				if r.rpcErr.Code != jsonrpc.CodeUpstreamUnavailable {
					t.Errorf("in-flight call: code %d, want %d (upstream unavailable)", r.rpcErr.Code, jsonrpc.CodeUpstreamUnavailable)
				}
			case <-ctx.Done(): // the test's bound: how soon is no claim here
				t.Fatal("no response to the in-flight call after killing the upstream")
			}

			// A new call while the server is down waits for a reconnect, at
			// most host.Options.UpstreamWait (15 s by design, see
			// engine/host/dispatch.go waitUpstream), then fails with a clear
			// -32001: bounded, not a hang.
			start := time.Now()
			cctx, cancel := context.WithTimeout(ctx, upstreamWait+5*time.Second)
			_, rpcErr, err := c.Request(cctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "down"}})
			cancel()
			took := time.Since(start)
			switch {
			case err != nil:
				t.Fatalf("call while the upstream is down: no answer within %v: %v", upstreamWait+5*time.Second, err)
			case rpcErr == nil:
				t.Fatal("call while the upstream is down succeeded")
			case rpcErr.Code != jsonrpc.CodeUpstreamUnavailable:
				t.Errorf("call while the upstream is down: code %d (%s), want %d", rpcErr.Code, rpcErr.Message, jsonrpc.CodeUpstreamUnavailable)
			default:
				t.Logf("call while down failed after %v: %v", took.Round(time.Millisecond), rpcErr)
			}
			// Usually genui has noticed the loss by now ("upstream ... is not
			// connected after 15s"); when the call races the health probe it
			// goes out on the dying connection and fails at once with
			// "upstream unreachable (...) ...; reconnecting". Both say why.
			if m := rpcErr.Message; !strings.Contains(m, "not connected") && !strings.Contains(m, "reconnecting") {
				t.Errorf("error for a call while the upstream is down does not say so: %q", m)
			}

			// genui has failed to reconnect a few times by now (backoff 1, 2,
			// 4, 8 s): bring the server back on the same port.
			startEverythingNet(t, tr.mode, port)
			restarted := time.Now()
			var last string
			n := 0
			works := func() bool {
				n++
				msg, err := echoOnce(ctx, c, "again "+strconv.Itoa(n))
				if err == nil && msg == "Echo: again "+strconv.Itoa(n) {
					return true
				}
				if err != nil {
					last = err.Error()
				} else {
					last = "unexpected text " + strconv.Quote(msg)
				}
				return false
			}
			if !testenv.Until(40*time.Second, works) {
				t.Fatalf("calls still fail 40 s after the upstream restarted: %s", last)
			}
			t.Logf("calls work again %v after the restart", time.Since(restarted).Round(time.Millisecond))
			if err := c.CheckStdout(); err != nil {
				t.Errorf("genui stdout is not pure JSON-RPC: %v", err)
			}
		})
	}
}

// upstreamWait is how long genui's host lets a new request wait for an
// upstream that was up and is reconnecting before failing it
// (engine/host defaultReconnectWait).
const upstreamWait = 3 * time.Second

// echoOnce calls server-everything's echo through c (bounded to 5 s) and
// returns the text of the result, or the error (JSON-RPC, isError or
// transport).
func echoOnce(ctx context.Context, c *mcptest.Client, msg string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	res, rpcErr, err := c.Request(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": msg}})
	if err != nil {
		return "", err
	}
	if rpcErr != nil {
		return "", rpcErr
	}
	var r struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return "", fmt.Errorf("bad result %s: %w", clip(res), err)
	}
	if r.IsError || len(r.Content) != 1 {
		return "", fmt.Errorf("unexpected echo result %s", clip(res))
	}
	return r.Content[0].Text, nil
}

// isWrapperTool reports whether name is one of genui's _ui_* tools.
func isWrapperTool(name string) bool {
	for _, w := range wrapperTools {
		if w == name {
			return true
		}
	}
	return false
}

// freePort returns a TCP port that was free on 127.0.0.1 a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// netServer is one `node <server-everything> MODE` process listening on port
// (server-everything reads env PORT, default 3001; express binds every
// interface, we only ever connect to 127.0.0.1).
type netServer struct {
	port   int
	cmd    *exec.Cmd
	exited chan struct{}
	out    *syncBuffer
}

func (s *netServer) url(path string) string {
	return "http://127.0.0.1:" + strconv.Itoa(s.port) + path
}

// startEverythingNet starts server-everything in mode on port in its own
// process group and waits (up to 20 s) until the port accepts connections.
// t.Cleanup kills the group.
func startEverythingNet(t *testing.T, mode string, port int) *netServer {
	t.Helper()
	cmd := exec.Command(testenv.NodePath(t), testenv.NPMBin(t, everythingPkg, ""), mode)
	cmd.Env = append(testenv.OfflineEnv(), "PORT="+strconv.Itoa(port))
	cmd.Dir = t.TempDir()
	p := startGroup(t, cmd, "server-everything "+mode)
	out := p.out
	s := &netServer{port: port, cmd: cmd, exited: p.exited, out: out}
	t.Cleanup(func() {
		s.kill(t)
		if t.Failed() {
			t.Logf("server-everything %s on :%d output (last 2 KiB):\n%s", mode, port, tail(out.String(), 2048))
		}
	})

	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	var err error
	listening := func() bool {
		var conn net.Conn
		if conn, err = net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			conn.Close()
			return true
		}
		select {
		case <-s.exited:
			t.Fatalf("server-everything %s exited before listening on %s:\n%s", mode, addr, tail(out.String(), 2048))
		default:
		}
		return false
	}
	if !testenv.Until(20*time.Second, listening) {
		t.Fatalf("server-everything %s: %s not accepting connections after 20 s: %v\n%s", mode, addr, err, tail(out.String(), 2048))
	}
	return s
}

// kill SIGKILLs the server's process group and waits (up to 5 s) for it to
// be reaped. Calling it again is harmless.
func (s *netServer) kill(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill server-everything group %d: %v", s.cmd.Process.Pid, err)
	}
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		t.Errorf("server-everything %d not reaped 5 s after SIGKILL", s.cmd.Process.Pid)
	}
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a child's
// stdout and stderr copiers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
