package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/testenv"
	"github.com/mark3labs/mcp-go/server"
)

// syncBuffer is a goroutine-safe bytes.Buffer for capturing child stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	testenv.Eventually(t, d, what, cond)
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// selfCmd returns the test binary's path, for Config.Command.
func selfCmd(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// stdioConfig is a Config running the test binary as the given server mode.
func stdioConfig(t *testing.T, mode string, stderr io.Writer, env ...string) Config {
	return Config{
		Transport:  TransportStdio,
		Command:    selfCmd(t),
		Env:        append([]string{serverEnv + "=" + mode}, env...),
		Stderr:     stderr,
		Logger:     testLogger(t),
		BackoffMin: 50 * time.Millisecond,
		BackoffMax: 200 * time.Millisecond,
	}
}

// runClient starts c.Run and registers cleanup that stops it and checks it
// returned nil within a bound. It returns the stop function.
func runClient(t *testing.T, c *Client) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run returned %v, want nil", err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("Run did not return within 10s of cancel")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func waitReady(t *testing.T, c *Client, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := c.WaitReady(ctx); err != nil {
		t.Fatalf("WaitReady: %v (state %+v)", err, c.State())
	}
}

// callTool sends tools/call and returns the raw result.
func callTool(ctx context.Context, c *Client, name string, args map[string]any, meta map[string]any) (json.RawMessage, error) {
	p := map[string]any{"name": name, "arguments": args}
	if meta != nil {
		p["_meta"] = meta
	}
	b, _ := json.Marshal(p)
	return c.Request(ctx, "tools/call", b)
}

func mustCall(t *testing.T, c *Client, name string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := callTool(ctx, c, name, args, nil)
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(res, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("tools/call %s: unexpected result %s", name, res)
	}
	return r.Content[0].Text
}

// jsonEqual compares two JSON texts semantically.
func jsonEqual(t *testing.T, got, want json.RawMessage) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("invalid JSON %s: %v", got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("invalid JSON %s: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}

// downCtx bounds a Request made while the upstream is down and stays down
// until the Request returns. It must fail at once with
// CodeUpstreamUnavailable; one that waited for a connection would end with
// this context's deadline instead (not a *jsonrpc.Error). The bound only
// stops a hang: how fast the failure comes is no claim of a unit test.
func downCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func asRPCError(t *testing.T, err error) *jsonrpc.Error {
	t.Helper()
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		t.Fatalf("error %v (%T) is not a *jsonrpc.Error", err, err)
	}
	return je
}

// notes collects notifications delivered to the handler.
type notes struct {
	mu   sync.Mutex
	list []notification
}

func (n *notes) handle(method string, params json.RawMessage) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, notification{method, params})
}

func (n *notes) byMethod(prefix string) []notification {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []notification
	for _, x := range n.list {
		if strings.HasPrefix(x.method, prefix) {
			out = append(out, x)
		}
	}
	return out
}

func TestBackoffDelay(t *testing.T) {
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30}
	for n, w := range want {
		if got := backoffDelay(time.Second, 30*time.Second, n); got != w*time.Second {
			t.Errorf("backoffDelay(1s, 30s, %d) = %s, want %s", n, got, w*time.Second)
		}
	}
	if got := backoffDelay(time.Second, 30*time.Second, 1000); got != 30*time.Second {
		t.Errorf("backoffDelay(..., 1000) = %s, want 30s (no overflow)", got)
	}
	if got := backoffDelay(50*time.Millisecond, 200*time.Millisecond, 3); got != 200*time.Millisecond {
		t.Errorf("backoffDelay(50ms, 200ms, 3) = %s, want 200ms", got)
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"nothing", Config{}, "no upstream configured"},
		{"unknown transport", Config{Transport: "carrier-pigeon", URL: "http://x"}, "unknown transport"},
		{"stdio without command", Config{Transport: "stdio"}, "needs a command"},
		{"bad url", Config{Transport: "http", URL: "ftp://x/y"}, "invalid URL"},
		{"sse without host", Config{Transport: "sse", URL: "http:///sse"}, "invalid URL"},
		{"inprocess without func", Config{Transport: "inprocess"}, "needs an InProcess function"},
		{"bad capabilities", Config{Command: "x", Capabilities: json.RawMessage("{")}, "Capabilities"},
		{"stderr to stdout", Config{Command: "x", Stderr: os.Stdout}, "must not be os.Stdout"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err := New(tc.cfg).Run(ctx)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Run error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestNotStartedFailsFast(t *testing.T) {
	c := New(Config{Command: "true"})
	// The client never runs: a Request that waited for a connection would
	// end with the context's deadline, not the upstream-unavailable error.
	_, err := c.Request(downCtx(t), "tools/list", nil)
	if je := asRPCError(t, err); je.Code != jsonrpc.CodeUpstreamUnavailable {
		t.Fatalf("code = %d, want %d", je.Code, jsonrpc.CodeUpstreamUnavailable)
	}
	if err := c.Notify(context.Background(), "notifications/x", nil); err == nil {
		t.Fatal("Notify succeeded while not connected")
	}
}

func TestStdioRawPassthrough(t *testing.T) {
	t.Parallel()
	stderr := &syncBuffer{}
	c := New(stdioConfig(t, "raw", stderr))
	var states []contract.UpstreamState
	var smu sync.Mutex
	c.SetStateHandler(func(s contract.UpstreamState) { smu.Lock(); states = append(states, s); smu.Unlock() })
	runClient(t, c)
	waitReady(t, c, 10*time.Second)

	st := c.State()
	if !st.Connected || st.PID <= 0 || st.Transport != "stdio" || st.ProtocolVersion != "2025-11-25" {
		t.Errorf("state = %+v", st)
	}
	if !jsonEqual(t, st.ServerInfo, json.RawMessage(`{"name":"raw","version":"0.1"}`)) {
		t.Errorf("ServerInfo = %s", st.ServerInfo)
	}
	if !strings.Contains(string(c.InitializeResult()), `"x-extra":true`) {
		t.Errorf("InitializeResult lost fields: %s", c.InitializeResult())
	}
	smu.Lock()
	if len(states) == 0 || !states[len(states)-1].Connected {
		t.Errorf("state handler saw %+v, want a connected state last", states)
	}
	smu.Unlock()

	// initialize params and notifications/initialized reached the server.
	waitFor(t, 5*time.Second, "notifications/initialized upstream", func() bool {
		return strings.Contains(stderr.String(), "RAW initialized")
	})
	init := regexp.MustCompile(`RAW initialize (.*)`).FindStringSubmatch(stderr.String())
	if init == nil || !jsonEqual(t, json.RawMessage(init[1]), json.RawMessage(
		`{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"genui","version":"dev"}}`)) {
		t.Errorf("initialize params seen upstream: %v", init)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	// tools/list comes back byte for byte, unknown fields included.
	res, err := c.Request(ctx, "tools/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != rawToolsList {
		t.Errorf("tools/list result changed:\n got %s\nwant %s", res, rawToolsList)
	}

	// Params go upstream untouched (exact numbers, unknown keys, _meta).
	params := `{"name":"other","arguments":{"big":12345678901234567,"f":0.1,"s":"\u00e9"},"_meta":{"progressToken":9}}`
	res, err = c.Request(ctx, "tools/call", json.RawMessage(params))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res), `"big":12345678901234567`) || !strings.Contains(string(res), `"progressToken":9`) {
		t.Errorf("params not passed through exactly: %s", res)
	}

	// JSON-RPC errors come back unchanged.
	_, err = callTool(ctx, c, "fail", nil, nil)
	je := asRPCError(t, err)
	if je.Code != -32042 || je.Message != "custom failure" || !jsonEqual(t, je.Data, json.RawMessage(rawErrorData)) {
		t.Errorf("error = %+v data=%s", je, je.Data)
	}

	// Unknown method: the server's method-not-found arrives as is.
	_, err = c.Request(ctx, "bogus/method", json.RawMessage(`{}`))
	if je := asRPCError(t, err); je.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("bogus method error = %+v", je)
	}

	// Bad params are refused before anything is sent.
	_, err = c.Request(ctx, "tools/call", json.RawMessage(`{"name":`))
	if je := asRPCError(t, err); je.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("bad params error = %+v", je)
	}

	// A server-to-client ping without a request handler is answered {}.
	text := mustCall(t, c, "ping-client", nil)
	if text != "pinged" {
		t.Errorf("ping-client = %q", text)
	}
	waitFor(t, 5*time.Second, "ping answer upstream", func() bool {
		return strings.Contains(stderr.String(), `RAW got ping answer {"jsonrpc":"2.0","id":"srv-ping","result":{}}`)
	})
}

func TestStdioStderrDefaultsToLogger(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	cfg := stdioConfig(t, "raw", nil)
	cfg.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	c := New(cfg)
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	waitFor(t, 5*time.Second, "child stderr in the log", func() bool {
		return regexp.MustCompile(`"msg":"upstream stderr".*"line":"RAW initialized"`).MatchString(logs.String())
	})
}

func TestStdioNotificationsExact(t *testing.T) {
	t.Parallel()
	c := New(stdioConfig(t, "raw", &syncBuffer{}))
	var got notes
	c.SetNotificationHandler(got.handle)
	runClient(t, c)
	waitReady(t, c, 10*time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := callTool(ctx, c, "notify", nil, nil); err != nil {
		t.Fatal(err)
	}
	// Notifications sent before the response are delivered before Request
	// returns, in order, with the same params.
	got.mu.Lock()
	list := append([]notification(nil), got.list...)
	got.mu.Unlock()
	want := []notification{
		{"notifications/progress", json.RawMessage(rawProgress1)},
		{"notifications/progress", json.RawMessage(rawProgress2)},
		{"notifications/message", json.RawMessage(rawLog)},
		{"notifications/tools/list_changed", nil},
	}
	if len(list) != len(want) {
		t.Fatalf("got %d notifications before Request returned, want %d: %+v", len(list), len(want), list)
	}
	for i, w := range want {
		g := list[i]
		if g.method != w.method {
			t.Errorf("notification %d method = %q, want %q", i, g.method, w.method)
			continue
		}
		if w.params == nil {
			if g.params != nil {
				t.Errorf("notification %d params = %s, want none", i, g.params)
			}
			continue
		}
		if !jsonEqual(t, g.params, w.params) {
			t.Errorf("notification %d params = %s, want %s", i, g.params, w.params)
		}
	}
}

func TestStdioCancellationNotifiesUpstream(t *testing.T) {
	t.Parallel()
	stderr := &syncBuffer{}
	c := New(stdioConfig(t, "raw", stderr))
	runClient(t, c)
	waitReady(t, c, 10*time.Second)

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err := callTool(ctx, c, "hang", nil, nil) // "hang" never answers: only the cancel ends it
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	waitFor(t, 5*time.Second, "notifications/cancelled upstream", func() bool {
		return strings.Contains(stderr.String(), "RAW cancelled")
	})
	out := stderr.String()
	callID := regexp.MustCompile(`RAW call hang id=(\d+)`).FindStringSubmatch(out)
	cancelled := regexp.MustCompile(`RAW cancelled (.*)`).FindStringSubmatch(out)
	if callID == nil || cancelled == nil {
		t.Fatalf("stderr lacks call/cancel lines:\n%s", out)
	}
	want := fmt.Sprintf(`{"requestId":%s,"reason":"request cancelled"}`, callID[1])
	if !jsonEqual(t, json.RawMessage(cancelled[1]), json.RawMessage(want)) {
		t.Errorf("cancel params = %s, want %s", cancelled[1], want)
	}

	// A deadline is reported as a timeout.
	tctx, tcancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer tcancel()
	if _, err := callTool(tctx, c, "hang", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	waitFor(t, 5*time.Second, "timeout cancellation upstream", func() bool {
		return strings.Contains(stderr.String(), `"reason":"request timed out"`)
	})
}

func TestStdioProgressFromMCPGoServer(t *testing.T) {
	t.Parallel()
	c := New(stdioConfig(t, "mcp", &syncBuffer{}))
	var got notes
	c.SetNotificationHandler(got.handle)
	runClient(t, c)
	waitReady(t, c, 10*time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := callTool(ctx, c, "progress", map[string]any{"count": 5}, map[string]any{"progressToken": "tok-7"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "5 progress + 1 log notification", func() bool {
		return len(got.byMethod("notifications/progress")) == 5 && len(got.byMethod("notifications/message")) == 1
	})
	for i, n := range got.byMethod("notifications/progress") {
		want := fmt.Sprintf(`{"progressToken":"tok-7","progress":%d,"total":5,"message":"step %d"}`, i+1, i+1)
		if !jsonEqual(t, n.params, json.RawMessage(want)) {
			t.Errorf("progress %d = %s, want %s", i, n.params, want)
		}
	}
	logNote := got.byMethod("notifications/message")[0]
	if !jsonEqual(t, logNote.params, json.RawMessage(`{"level":"info","logger":"testsrv","data":{"done":true,"n":5}}`)) {
		t.Errorf("log notification = %s", logNote.params)
	}

	// list_changed from the server is delivered too.
	mustCall(t, c, "touch", nil)
	waitFor(t, 5*time.Second, "tools/list_changed", func() bool {
		return len(got.byMethod("notifications/tools/list_changed")) == 1
	})
}

func TestStdioKillMidCallRestarts(t *testing.T) {
	t.Parallel()
	stderr := &syncBuffer{}
	c := New(stdioConfig(t, "mcp", stderr))
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	if got := mustCall(t, c, "echo", map[string]any{"text": "a"}); got != "echo: a" {
		t.Fatalf("echo = %q", got)
	}
	pid := c.State().PID

	type result struct {
		err error
		at  time.Time
	}
	done := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_, err := callTool(ctx, c, "slow", map[string]any{"ms": 5000}, nil)
		done <- result{err, time.Now()}
	}()
	waitFor(t, 5*time.Second, "slow call in flight", func() bool { return strings.Contains(stderr.String(), "slow: start") })
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("in-flight Request did not return after the child was killed")
	}
	// It ended with the kill, not with the slow call's answer 5 s later:
	// the error names the exit (how soon after the kill is no claim here).
	je := asRPCError(t, r.err)
	if je.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(je.Message, "while handling tools/call; restarting") ||
		!strings.Contains(je.Message, "upstream exited (signal: killed)") {
		t.Errorf("error = %+v", je)
	}

	waitReady(t, c, 5*time.Second)
	st := c.State()
	if st.Restarts < 1 || st.PID == pid || st.PID == 0 {
		t.Errorf("after restart state = %+v (old pid %d)", st, pid)
	}
	if got := mustCall(t, c, "echo", map[string]any{"text": "b"}); got != "echo: b" {
		t.Fatalf("echo after restart = %q", got)
	}

	// A tool that makes the server exit reports its exit status.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := callTool(ctx, c, "crash", nil, nil)
	je = asRPCError(t, err)
	if je.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(je.Message, "upstream exited (exit status 3) while handling tools/call") {
		t.Errorf("crash error = %+v", je)
	}
	waitReady(t, c, 5*time.Second)
	mustCall(t, c, "echo", map[string]any{"text": "c"})
}

func TestStdioSamplingRelayed(t *testing.T) {
	t.Parallel()
	c := New(stdioConfig(t, "mcp", &syncBuffer{}))
	var seen struct {
		sync.Mutex
		method string
		params json.RawMessage
	}
	c.SetRequestHandler(func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		seen.Lock()
		seen.method, seen.params = method, params
		seen.Unlock()
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"hi there"},"model":"test-model","stopReason":"endTurn"}`), nil
	})
	runClient(t, c)
	waitReady(t, c, 10*time.Second)

	text := mustCall(t, c, "sample", nil)
	if !strings.Contains(text, `"model":"test-model"`) || !strings.Contains(text, `"text":"hi there"`) {
		t.Errorf("sample = %q", text)
	}
	seen.Lock()
	defer seen.Unlock()
	if seen.method != "sampling/createMessage" {
		t.Errorf("handler method = %q", seen.method)
	}
	var p struct {
		MaxTokens int `json:"maxTokens"`
		Messages  []struct {
			Role    string `json:"role"`
			Content struct{ Text string }
		} `json:"messages"`
	}
	if err := json.Unmarshal(seen.params, &p); err != nil || p.MaxTokens != 7 || len(p.Messages) != 1 || p.Messages[0].Content.Text != "say hi" {
		t.Errorf("handler params = %s (%v)", seen.params, err)
	}
}

func TestStdioSamplingErrorKeepsCode(t *testing.T) {
	t.Parallel()
	c := New(stdioConfig(t, "mcp", &syncBuffer{}))
	c.SetRequestHandler(func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return nil, &jsonrpc.Error{Code: -1, Message: "user rejected sampling"}
	})
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	text := mustCall(t, c, "sample", nil)
	if !strings.Contains(text, "user rejected sampling") {
		t.Errorf("sample = %q, want the handler's error message", text)
	}
}

// processGone reports whether pid no longer runs (absent or a zombie).
func processGone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == syscall.ESRCH
	}
	// Format: pid (comm) state ...
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func TestStdioShutdownKillsGrandchildren(t *testing.T) {
	t.Parallel()
	c := New(stdioConfig(t, "mcp", &syncBuffer{}))
	stop := runClient(t, c)
	waitReady(t, c, 10*time.Second)
	child := c.State().PID
	grandchild, err := strconv.Atoi(mustCall(t, c, "spawn", nil))
	if err != nil {
		t.Fatal(err)
	}
	if processGone(grandchild) {
		t.Fatalf("grandchild %d not running before shutdown", grandchild)
	}
	stop() // bounded: runClient's stop fails the test if Run does not return
	waitFor(t, 3*time.Second, "child and grandchild to die", func() bool {
		return processGone(child) && processGone(grandchild)
	})
	if st := c.State(); st.Connected || st.PID != 0 {
		t.Errorf("state after shutdown = %+v", st)
	}
	if err := c.WaitReady(context.Background()); err == nil {
		t.Error("WaitReady after Run returned nil")
	}
	_, err = c.Request(context.Background(), "tools/list", nil)
	if je := asRPCError(t, err); je.Code != jsonrpc.CodeUpstreamUnavailable {
		t.Errorf("Request after shutdown: %+v", je)
	}
}

func TestStdioShutdownEscalatesToSIGKILL(t *testing.T) {
	t.Parallel()
	c := New(stdioConfig(t, "raw", &syncBuffer{}, "RAW_IGNORE_TERM=1"))
	stop := runClient(t, c)
	waitReady(t, c, 10*time.Second)
	pid := c.State().PID
	start := time.Now()
	stop()
	// It gave the child its grace before the SIGKILL (and did not wait
	// forever: stop is bounded).
	if d := time.Since(start); d < termGrace-100*time.Millisecond {
		t.Errorf("shutdown of a SIGTERM-ignoring child took %s, less than its %s grace", d, termGrace)
	}
	waitFor(t, 2*time.Second, "child to die", func() bool { return processGone(pid) })
}

func TestStdioBadCommandRetries(t *testing.T) {
	t.Parallel()
	c := New(Config{Command: "/nonexistent/genui-test-server", Logger: testLogger(t),
		BackoffMin: 20 * time.Millisecond, BackoffMax: 40 * time.Millisecond})
	runClient(t, c)
	waitFor(t, 5*time.Second, "a few retries", func() bool { return c.State().Restarts >= 3 })
	st := c.State()
	if st.Connected || !strings.Contains(st.LastError, "/nonexistent/genui-test-server") {
		t.Errorf("state = %+v", st)
	}
	_, err := c.Request(downCtx(t), "tools/list", nil)
	je := asRPCError(t, err)
	if je.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(je.Message, "not connected") {
		t.Errorf("Request while down = %+v", je)
	}
}

// Config.Redact hides secrets in how the upstream is shown: State's
// Target and LastError (a start error names the command line) and the
// state handler's snapshots.
func TestRedactedTarget(t *testing.T) {
	t.Parallel()
	hide := func(s string) string { return strings.ReplaceAll(s, "tok-SECRET-1", "<from ${env:T}>") }
	c := New(Config{Command: "/nonexistent/genui-test-server", Args: []string{"--token", "tok-SECRET-1"}, Logger: testLogger(t),
		BackoffMin: 20 * time.Millisecond, BackoffMax: 40 * time.Millisecond, Redact: hide})
	seen := make(chan contract.UpstreamState, 100)
	c.SetStateHandler(func(s contract.UpstreamState) {
		select {
		case seen <- s:
		default:
		}
	})
	runClient(t, c)
	waitFor(t, 5*time.Second, "a few retries", func() bool { return c.State().Restarts >= 2 })
	st := c.State()
	if st.Target != "/nonexistent/genui-test-server --token <from ${env:T}>" || strings.Contains(st.LastError, "tok-SECRET-1") ||
		!strings.Contains(st.LastError, "<from ${env:T}>") {
		t.Fatalf("state = %+v", st)
	}
	s := <-seen
	if strings.Contains(s.Target+s.LastError, "tok-SECRET-1") {
		t.Fatalf("state handler got %+v", s)
	}
}

// The in-process tests do not run in parallel with each other: mcp-go's
// StdioServer keeps its session in a package variable, so two of them in one
// process steal each other's notifications.

func TestInProcess(t *testing.T) {
	var starts int
	var mu sync.Mutex
	c := New(Config{
		InProcess: func(ctx context.Context, r io.Reader, w io.Writer) error {
			mu.Lock()
			starts++
			mu.Unlock()
			return server.NewStdioServer(newTestMCPServer()).Listen(ctx, r, w)
		},
		Logger: testLogger(t),
	})
	var got notes
	c.SetNotificationHandler(got.handle)
	c.SetRequestHandler(func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"inproc"},"model":"m"}`), nil
	})
	stop := runClient(t, c)
	waitReady(t, c, 5*time.Second)
	if st := c.State(); st.Transport != "inprocess" || st.Target != "in-process" || st.PID != 0 {
		t.Errorf("state = %+v", st)
	}
	if got := mustCall(t, c, "echo", map[string]any{"text": "x"}); got != "echo: x" {
		t.Errorf("echo = %q", got)
	}
	if text := mustCall(t, c, "sample", nil); !strings.Contains(text, "inproc") {
		t.Errorf("sample = %q", text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := callTool(ctx, c, "progress", map[string]any{"count": 2}, map[string]any{"progressToken": 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "progress notifications", func() bool { return len(got.byMethod("notifications/progress")) == 2 })
	stop() // bounded: runClient's stop fails the test if Run does not return
	mu.Lock()
	defer mu.Unlock()
	if starts != 1 {
		t.Errorf("server started %d times, want 1", starts)
	}
}

func TestInProcessServerExitRestarts(t *testing.T) {
	var mu sync.Mutex
	starts := 0
	c := New(Config{
		InProcess: func(ctx context.Context, r io.Reader, w io.Writer) error {
			mu.Lock()
			starts++
			n := starts
			mu.Unlock()
			if n == 1 {
				// First incarnation: serve briefly, then fail.
				ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
				defer cancel()
				_ = server.NewStdioServer(newTestMCPServer()).Listen(ctx, r, w)
				return errors.New("boom")
			}
			return server.NewStdioServer(newTestMCPServer()).Listen(ctx, r, w)
		},
		Logger:     testLogger(t),
		BackoffMin: 20 * time.Millisecond,
	})
	runClient(t, c)
	waitReady(t, c, 5*time.Second)
	waitFor(t, 5*time.Second, "restart after in-process failure", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return starts >= 2 && c.State().Connected
	})
	mustCall(t, c, "echo", map[string]any{"text": "again"})
}

// httpUpstream serves an mcp-go server on a fixed loopback address so it can
// be restarted on the same port.
type httpUpstream struct {
	addr string
	srv  *http.Server
}

func startHTTPUpstream(t *testing.T, addr string, handler func(*server.MCPServer) http.Handler) *httpUpstream {
	t.Helper()
	var ln net.Listener
	var err error
	testenv.Until(5*time.Second, func() bool { ln, err = net.Listen("tcp", addr); return err == nil })
	if err != nil {
		t.Fatal(err)
	}
	u := &httpUpstream{addr: ln.Addr().String()}
	u.srv = &http.Server{Handler: handler(newTestMCPServer()), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = u.srv.Serve(ln) }()
	t.Cleanup(u.stop)
	return u
}

func (u *httpUpstream) stop() { _ = u.srv.Close() }

func streamableHandler(s *server.MCPServer) http.Handler {
	return server.NewStreamableHTTPServer(s)
}

func shortHealth(t *testing.T) {
	// Package-level knobs: tests that change them must not run in parallel
	// with each other; they run before the parallel ones are released.
	oldI, oldT := healthInterval, healthTimeout
	healthInterval, healthTimeout = 100*time.Millisecond, time.Second
	t.Cleanup(func() { healthInterval, healthTimeout = oldI, oldT })
}

func TestStreamableHTTPReconnects(t *testing.T) {
	shortHealth(t)
	up := startHTTPUpstream(t, "127.0.0.1:0", streamableHandler)
	c := New(Config{
		Transport:  TransportHTTP,
		URL:        "http://" + up.addr + "/mcp",
		Headers:    map[string]string{"X-Test": "1"},
		Logger:     testLogger(t),
		BackoffMin: 50 * time.Millisecond,
		BackoffMax: 200 * time.Millisecond,
	})
	var got notes
	c.SetNotificationHandler(got.handle)
	c.SetRequestHandler(func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"via http"},"model":"m"}`), nil
	})
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	if got := mustCall(t, c, "echo", map[string]any{"text": "h"}); got != "echo: h" {
		t.Fatalf("echo = %q", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := callTool(ctx, c, "progress", map[string]any{"count": 3, "pause_ms": 100}, map[string]any{"progressToken": "ht"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "progress over HTTP", func() bool { return len(got.byMethod("notifications/progress")) == 3 })
	if text := mustCall(t, c, "sample", nil); !strings.Contains(text, "via http") {
		t.Errorf("sampling over HTTP = %q", text)
	}

	// Restart the server on the same port: the client notices and reconnects.
	restarts := c.State().Restarts
	up.stop()
	waitFor(t, 5*time.Second, "disconnect noticed", func() bool { return !c.State().Connected })
	// The server stays down until the call returns (see downCtx).
	_, err := callTool(downCtx(t), c, "echo", map[string]any{"text": "down"}, nil)
	if je := asRPCError(t, err); je.Code != jsonrpc.CodeUpstreamUnavailable {
		t.Errorf("Request while server down = %+v", je)
	}
	startHTTPUpstream(t, up.addr, streamableHandler)
	waitReady(t, c, 10*time.Second)
	if c.State().Restarts <= restarts {
		t.Errorf("Restarts = %d, want > %d", c.State().Restarts, restarts)
	}
	if got := mustCall(t, c, "echo", map[string]any{"text": "back"}); got != "echo: back" {
		t.Fatalf("echo after restart = %q", got)
	}
}

func TestHTTPUnreachableRetries(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens here now
	c := New(Config{URL: "http://" + addr + "/mcp", Logger: testLogger(t),
		BackoffMin: 20 * time.Millisecond, BackoffMax: 50 * time.Millisecond})
	runClient(t, c)
	waitFor(t, 5*time.Second, "retries", func() bool { return c.State().Restarts >= 2 })
	if st := c.State(); st.Connected || st.LastError == "" || st.Transport != "http" {
		t.Errorf("state = %+v", st)
	}
	_, err = c.Request(downCtx(t), "tools/list", nil)
	if je := asRPCError(t, err); je.Code != jsonrpc.CodeUpstreamUnavailable {
		t.Errorf("Request = %+v", je)
	}
}

func TestSSE(t *testing.T) {
	t.Parallel()
	var sse *server.SSEServer
	up := startHTTPUpstream(t, "127.0.0.1:0", func(s *server.MCPServer) http.Handler {
		sse = server.NewSSEServer(s)
		return sse
	})
	c := New(Config{
		Transport:  TransportSSE,
		URL:        "http://" + up.addr + "/sse",
		Logger:     testLogger(t),
		BackoffMin: 50 * time.Millisecond,
		BackoffMax: 200 * time.Millisecond,
	})
	var got notes
	c.SetNotificationHandler(got.handle)
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	if got := mustCall(t, c, "echo", map[string]any{"text": "s"}); got != "echo: s" {
		t.Fatalf("echo = %q", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := callTool(ctx, c, "progress", map[string]any{"count": 2, "pause_ms": 100}, map[string]any{"progressToken": "st"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "progress over SSE", func() bool { return len(got.byMethod("notifications/progress")) == 2 })
	want := `{"progressToken":"st","progress":2,"total":2,"message":"step 2"}`
	if p := got.byMethod("notifications/progress")[1].params; !jsonEqual(t, p, json.RawMessage(want)) {
		t.Errorf("progress = %s, want %s", p, want)
	}

	// Dropping the stream is detected and the client reconnects.
	restarts := c.State().Restarts
	up.stop()
	waitFor(t, 5*time.Second, "SSE disconnect noticed", func() bool { return !c.State().Connected })
	startHTTPUpstream(t, up.addr, func(s *server.MCPServer) http.Handler { return server.NewSSEServer(s) })
	waitReady(t, c, 10*time.Second)
	if c.State().Restarts <= restarts {
		t.Errorf("Restarts = %d, want > %d", c.State().Restarts, restarts)
	}
	mustCall(t, c, "echo", map[string]any{"text": "again"})
}

func TestNotificationParamsRoundTrip(t *testing.T) {
	cases := []string{
		rawProgress1,
		rawProgress2,
		rawLog,
		`{}`,
		`{"requestId":12345678901234567,"reason":"x"}`,
	}
	for _, raw := range cases {
		p, err := toNotificationParams(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(t, b, json.RawMessage(raw)) {
			t.Errorf("outgoing %s became %s", raw, b)
		}
		if raw == cases[4] && !strings.Contains(string(b), "12345678901234567") {
			t.Errorf("large integer lost precision: %s", b)
		}
		// Incoming direction: decode as mcp-go does, re-encode.
		var in struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal([]byte(`{"params":`+raw+`}`), &in)
		var np = p
		np.Meta, np.AdditionalFields = nil, nil
		if err := np.UnmarshalJSON(in.Params); err != nil {
			t.Fatal(err)
		}
		if back := fromNotificationParams(np); !jsonEqual(t, back, json.RawMessage(raw)) {
			t.Errorf("incoming %s became %s", raw, back)
		}
	}
	for _, bad := range []string{`[1]`, `"x"`, `{"_meta":3}`, `{`} {
		if _, err := toNotificationParams(json.RawMessage(bad)); err == nil {
			t.Errorf("toNotificationParams(%s) succeeded", bad)
		}
	}
	if p, err := toNotificationParams(nil); err != nil || p.Meta != nil || p.AdditionalFields != nil {
		t.Errorf("nil params = %+v, %v", p, err)
	}
}

func TestLineLogger(t *testing.T) {
	var buf syncBuffer
	l := newLineLogger(slog.New(slog.NewJSONHandler(&buf, nil)))
	_, _ = l.Write([]byte("first li"))
	_, _ = l.Write([]byte("ne\nsecond\r\n\nthird"))
	out := buf.String()
	if !strings.Contains(out, `"line":"first line"`) || !strings.Contains(out, `"line":"second"`) {
		t.Errorf("log = %s", out)
	}
	if strings.Contains(out, "third") || strings.Count(out, "\n") != 2 {
		t.Errorf("partial or empty line logged: %s", out)
	}
}

// TestStdioChildRunsInDir: Config.Dir (genui.json's upstream.cwd) is the
// stdio child's working directory.
func TestStdioChildRunsInDir(t *testing.T) {
	dir := t.TempDir()
	cfg := stdioConfig(t, "mcp", nil)
	cfg.Dir = dir
	c := New(cfg)
	runClient(t, c)
	waitReady(t, c, 20*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := callTool(ctx, c, "cwd", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if !strings.Contains(string(res), strconv.Quote(want)[1:len(strconv.Quote(want))-1]) {
		t.Errorf("the child ran in %s, want %s", res, want)
	}
}
