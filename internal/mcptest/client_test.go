package mcptest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// startEverything starts npm's server-everything over stdio.
func startEverything(t *testing.T, opts ...mcptest.Option) *mcptest.Client {
	t.Helper()
	node := testenv.NodePath(t)
	entry := testenv.NPMBin(t, "@modelcontextprotocol/server-everything", "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	c, err := mcptest.Start(ctx, exec.Command(node, entry, "stdio"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	return c
}

func TestEverythingSession(t *testing.T) {
	rootsAsked := make(chan string, 1)
	handler := func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
		if method == "roots/list" {
			select {
			case rootsAsked <- method:
			default:
			}
			return json.RawMessage(`{"roots":[{"uri":"file:///tmp","name":"tmp"}]}`), nil
		}
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "no %s", method)
	}
	c := startEverything(t, mcptest.WithRequestHandler(handler))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	res, err := c.Initialize(ctx, "2025-11-25", json.RawMessage(`{"roots":{"listChanged":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct{ Name string }
	}
	if err := json.Unmarshal(res, &init); err != nil || init.ProtocolVersion != "2025-11-25" || init.ServerInfo.Name == "" {
		t.Fatalf("initialize result %s (%v)", res, err)
	}

	// The server asks for roots after initialized: the handler must answer.
	select {
	case <-rootsAsked:
	case <-ctx.Done():
		t.Fatal("server never sent roots/list")
	}
	// With roots advertised, get-roots-list appears after tools/list_changed.
	if _, err := c.WaitNotification(ctx, "notifications/tools/list_changed", nil); err != nil {
		t.Fatal(err)
	}
	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"echo", "get-sum", "get-roots-list", "trigger-long-running-operation"} {
		if !names[want] {
			t.Errorf("tools/list lacks %q (got %v)", want, names)
		}
	}

	out, err := c.CallTool(ctx, "echo", map[string]string{"message": "hi"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"Echo: hi"`) {
		t.Errorf("echo result %s", out)
	}

	// Progress notifications for our token arrive before the response.
	out, err = c.CallTool(ctx, "trigger-long-running-operation",
		map[string]any{"duration": 0.2, "steps": 2}, map[string]any{"progressToken": "tok-1"})
	if err != nil {
		t.Fatal(err)
	}
	var progress int
	for _, n := range c.Notifications() {
		var p struct{ ProgressToken any }
		if n.Method == "notifications/progress" && json.Unmarshal(n.Params, &p) == nil && p.ProgressToken == "tok-1" {
			progress++
		}
	}
	if progress != 2 {
		t.Errorf("got %d progress notifications for tok-1, want 2 (result %s)", progress, out)
	}

	// A JSON-RPC error comes back as the second value.
	_, rpcErr, err := c.Request(ctx, "no/such/method", nil)
	if err != nil || rpcErr == nil || rpcErr.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("unknown method: rpcErr=%v err=%v", rpcErr, err)
	}

	if err := c.CheckStdout(); err != nil {
		t.Errorf("server-everything stdout: %v", err)
	}
	if len(c.BadLines()) != 0 {
		t.Errorf("bad lines: %q", c.BadLines())
	}
}

func TestExampleArgsAgainstEverything(t *testing.T) {
	c := startEverything(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, "2025-11-25", nil); err != nil {
		t.Fatal(err)
	}
	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if tool.Name != "get-sum" {
			continue
		}
		args := mcptest.ExampleArgs(tool.InputSchema)
		out, err := c.CallTool(ctx, "get-sum", args, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), "The sum of 1 and 1 is 2.") || strings.Contains(string(out), `"isError":true`) {
			t.Errorf("get-sum %v -> %s", args, out)
		}
		return
	}
	t.Fatal("server-everything has no get-sum tool")
}

// shell starts `sh -c script` under a client.
func shell(t *testing.T, script string) *mcptest.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	c, err := mcptest.Start(ctx, exec.Command("sh", "-c", script), mcptest.WithCloseGrace(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestRecordsEveryStdoutByte(t *testing.T) {
	c := shell(t, `printf 'garbage\n{"jsonrpc":"2.0","method":"n"}\n{"jsonrpc":"2.0","id":1}\npartial'; echo oops >&2`)
	select {
	case <-c.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("child did not exit")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.WaitNotification(ctx, "n", nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	want := "garbage\n{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n{\"jsonrpc\":\"2.0\",\"id\":1}\npartial"
	if got := string(c.Stdout()); got != want {
		t.Errorf("Stdout() = %q, want %q", got, want)
	}
	// The unterminated tail is read as a last frame too (it is not JSON-RPC),
	// and so is a frame with an id but neither method nor result/error.
	if bad := c.BadLines(); len(bad) != 3 || string(bad[0]) != "garbage" || string(bad[2]) != "partial" {
		t.Errorf("BadLines() = %q", bad)
	}
	err := c.CheckStdout()
	if err == nil {
		t.Fatal("CheckStdout accepted garbage")
	}
	for _, want := range []string{"line 1", "line 3: jsonrpc error -32600", "line 4: unterminated"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("CheckStdout error %q lacks %q", err, want)
		}
	}
	if !strings.Contains(c.Stderr(), "oops") {
		t.Errorf("Stderr() = %q", c.Stderr())
	}
}

func TestCheckFrames(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"empty", "", true},
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", true},
		{"notification", `{"jsonrpc":"2.0","method":"x","params":{}}` + "\n", true},
		{"result", `{"jsonrpc":"2.0","id":"a","result":{}}` + "\n", true},
		{"parse error id null", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}` + "\n", true},
		{"crlf", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\r\n", true},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"result":{}}` + "\n", false},
		{"both", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}` + "\n", false},
		{"neither", `{"jsonrpc":"2.0","id":1}` + "\n", false},
		{"error without message", `{"jsonrpc":"2.0","id":1,"error":{"code":1}}` + "\n", false},
		{"log line", "INFO starting\n", false},
		{"array", "[1]\n", false},
		{"no newline", `{"jsonrpc":"2.0","id":1,"result":{}}`, false},
		{"blank line", "\n", false},
	}
	for _, tc := range tests {
		err := mcptest.CheckFrames([]byte(tc.in))
		if (err == nil) != tc.ok {
			t.Errorf("%s: CheckFrames(%q) = %v, want ok=%v", tc.name, tc.in, err, tc.ok)
		}
	}
}

func TestRequestBoundedByContext(t *testing.T) {
	c := shell(t, `exec sleep 300`)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	// The server never answers (it sleeps 300 s): only the context can end
	// the Request, and its error says so.
	_, _, err := c.Request(ctx, "ping", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Request to a silent server: err = %v, want deadline exceeded", err)
	}
}

func TestRequestFailsWhenServerExits(t *testing.T) {
	c := shell(t, `read line; exit 3`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err := c.Request(ctx, "ping", nil)
	if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "stdout closed") {
		t.Fatalf("err = %v, want a prompt 'stdout closed' error", err)
	}
	if _, err := c.WaitMessage(ctx, func(*jsonrpc.Message) bool { return true }); err == nil {
		t.Error("WaitMessage after exit found a message")
	}
	<-c.Exited()
	var exitErr *exec.ExitError
	if !errors.As(c.ExitErr(), &exitErr) || exitErr.ExitCode() != 3 {
		t.Errorf("ExitErr() = %v, want exit status 3", c.ExitErr())
	}
}

// TestCloseKillsProcessGroup: a grandchild that ignores stdin EOF dies too.
func TestCloseKillsProcessGroup(t *testing.T) {
	c := shell(t, `sleep 300 & echo "{\"jsonrpc\":\"2.0\",\"method\":\"pid\",\"params\":[$!]}"; wait`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := c.WaitNotification(ctx, "pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.Trim(string(m.Params), "[]"))
	if err != nil {
		t.Fatal(err)
	}
	if !alive(pid) {
		t.Fatalf("grandchild %d not running before Close", pid)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 5*time.Second, fmt.Sprintf("grandchild %d to end after Close", pid), func() bool { return !alive(pid) })
}

// alive reports whether pid runs and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// Field 3 (after "pid (comm) ") is the state.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

func TestStartCancelledContextKills(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c, err := mcptest.Start(ctx, exec.Command("sleep", "300"), mcptest.WithCloseGrace(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-c.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("child still running 10 s after its context ended")
	}
}

func TestWriteLineRejectsNewline(t *testing.T) {
	c := shell(t, `exec cat >/dev/null`)
	if err := c.WriteLine([]byte("a\nb")); err == nil {
		t.Error("WriteLine accepted an embedded newline")
	}
}

func TestExampleArgs(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["s","n","e","d","o","a","b"],"properties":{
		"s":{"type":"string"},"n":{"type":"integer","minimum":5},"e":{"enum":["x","y"]},
		"d":{"type":"string","default":"dflt"},"b":{"type":"boolean"},
		"o":{"type":"object","required":["k"],"properties":{"k":{"type":"number"}}},
		"a":{"type":"array","minItems":1,"items":{"type":"string"}},
		"optional":{"type":"string"}}}`)
	got, _ := json.Marshal(mcptest.ExampleArgs(schema))
	want := `{"a":["example"],"b":true,"d":"dflt","e":"x","n":5,"o":{"k":1},"s":"example"}`
	if string(got) != want {
		t.Errorf("ExampleArgs = %s, want %s", got, want)
	}
}
