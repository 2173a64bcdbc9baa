package upstream

// Test upstreams. The test binary re-executes itself as a stdio MCP server
// when GENUI_UPSTREAM_TEST_SERVER is set (see TestMain):
//   - "mcp": an mcp-go server (tools echo, slow, crash, progress, sample,
//     spawn, touch); the same server also runs over HTTP/SSE/in-process.
//   - "raw": a hand-written newline-delimited JSON-RPC loop that writes
//     exact bytes (tools with unknown fields, exact notification params) and
//     reports what it receives on stderr.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const serverEnv = "GENUI_UPSTREAM_TEST_SERVER"

func TestMain(m *testing.M) {
	switch os.Getenv(serverEnv) {
	case "":
		os.Exit(m.Run())
	case "mcp":
		if f := os.Getenv("UPSTREAM_TEST_BROKEN_IF"); f != "" {
			if _, err := os.Stat(f); err == nil {
				fmt.Fprintln(os.Stderr, "server.js:3 SyntaxError: Unexpected token")
				os.Exit(1)
			}
		}
		if err := server.ServeStdio(newTestMCPServer()); err != nil {
			fmt.Fprintln(os.Stderr, "serve:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "raw":
		runRawServer()
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "unknown test server mode")
		os.Exit(2)
	}
}

// newTestMCPServer builds the mcp-go server used by most tests.
func newTestMCPServer() *server.MCPServer {
	s := server.NewMCPServer("testsrv", "1.0.0", server.WithToolCapabilities(true), server.WithLogging())
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("echo: " + req.GetString("text", "")), nil
	})
	s.AddTool(mcp.NewTool("slow", mcp.WithNumber("ms")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "slow: start")
		select {
		case <-time.After(time.Duration(req.GetFloat("ms", 1000)) * time.Millisecond):
			return mcp.NewToolResultText("slow: done"), nil
		case <-ctx.Done():
			fmt.Fprintln(os.Stderr, "slow: cancelled")
			return nil, ctx.Err()
		}
	})
	s.AddTool(mcp.NewTool("crash"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		os.Exit(3)
		return nil, nil
	})
	s.AddTool(mcp.NewTool("progress", mcp.WithNumber("count"), mcp.WithNumber("pause_ms")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var token any
		if req.Params.Meta != nil {
			token = req.Params.Meta.ProgressToken
		}
		n := req.GetInt("count", 3)
		srv := server.ServerFromContext(ctx)
		for i := 1; i <= n; i++ {
			err := srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
				"progressToken": token, "progress": i, "total": n, "message": fmt.Sprintf("step %d", i),
			})
			if err != nil {
				return nil, err
			}
		}
		err := srv.SendNotificationToClient(ctx, "notifications/message", map[string]any{
			"level": "info", "logger": "testsrv", "data": map[string]any{"done": true, "n": n},
		})
		if err != nil {
			return nil, err
		}
		// mcp-go's streamable HTTP server drops a notification its forwarder
		// picked up just as the response is written; over HTTP the tests
		// pause here so every notification is on the wire first.
		time.Sleep(time.Duration(req.GetInt("pause_ms", 0)) * time.Millisecond)
		return mcp.NewToolResultText("progress: done"), nil
	})
	s.AddTool(mcp.NewTool("sample"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := server.ServerFromContext(ctx).RequestSampling(ctx, mcp.CreateMessageRequest{
			CreateMessageParams: mcp.CreateMessageParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("say hi")}},
				MaxTokens: 7,
			},
		})
		if err != nil {
			return mcp.NewToolResultError("sampling failed: " + err.Error()), nil
		}
		b, _ := json.Marshal(res)
		return mcp.NewToolResultText("sampled: " + string(b)), nil
	})
	s.AddTool(mcp.NewTool("spawn"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		cmd := exec.Command("sleep", "300")
		cmd.Stderr = os.Stderr // the grandchild holds the stderr pipe too
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		go func() { _ = cmd.Wait() }()
		return mcp.NewToolResultText(strconv.Itoa(cmd.Process.Pid)), nil
	})
	s.AddTool(mcp.NewTool("cwd"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(wd), nil
	})
	s.AddTool(mcp.NewTool("touch"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// Adding a tool makes mcp-go send notifications/tools/list_changed.
		server.ServerFromContext(ctx).AddTool(mcp.NewTool("added"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("added"), nil
		})
		return mcp.NewToolResultText("touched"), nil
	})
	return s
}

// Exact bytes the raw server writes; tests compare against them.
const (
	rawToolsList = `{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"q":{"type":"string","x-order":2}}},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},"x-custom":1,"_meta":{"k":[1,2.5,"x"]}}],"nextCursor":null}`
	rawProgress1 = `{"progressToken":"p-1","progress":0.5,"total":2,"message":"half"}`
	rawProgress2 = `{"progressToken":"p-1","progress":2,"total":2,"message":"all","_meta":{"trace":"abc"}}`
	rawLog       = `{"level":"warning","logger":"raw","data":{"msg":"careful","n":[1,2,3]}}`
	rawErrorData = `{"why":"because","retry":false}`
	// rawExact has everything a decode/re-encode changes: a 17-digit
	// integer, keys out of order, an empty _meta, unicode escapes (also a
	// surrogate pair), HTML characters, a trailing zero, an exponent,
	// inner whitespace.
	rawExact = `{"zeta":12345678901234567,"alpha":"\u00e9\ud83d\ude00 <&> \u2028","_meta":{},"n":1.50,"nested":{"b":[1, 2.0e3],"a":null}}`
	// rawExactID is the id of the raw server's sampling request: an integer
	// beyond int64.
	rawExactID = `98765432109876543210`
)

// runRawServer is a minimal stdio JSON-RPC peer with exact output bytes.
// With RAW_IGNORE_TERM=1 it ignores SIGTERM (to test the SIGKILL path).
func runRawServer() {
	if os.Getenv("RAW_IGNORE_TERM") == "1" {
		signal.Ignore(syscall.SIGTERM)
	}
	serveRaw(os.Stdin, os.Stdout, os.Stderr)
}

// serveRaw is the raw server's loop on any reader/writer (stdin/stdout of
// the child, or the in-process pipes); it reports what it receives on logw.
// It returns when r ends.
func serveRaw(r io.Reader, out io.Writer, logw io.Writer) {
	var mu sync.Mutex
	write := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = io.WriteString(out, s+"\n")
	}
	logf := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	var pendingPing json.RawMessage  // id of the tools/call waiting for our ping's answer
	var pendingExact json.RawMessage // id of the tools/call waiting for our sampling answer
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			logf("RAW bad line %q", sc.Text())
			continue
		}
		id := string(m.ID)
		switch {
		case m.Method == "" && id == `"srv-ping"`:
			logf("RAW got ping answer %s", sc.Text())
			write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"pinged"}],"pingResult":%s}}`, pendingPing, orNull(m.Result)))
		case m.Method == "" && id == rawExactID:
			logf("RAW got exact answer %s", sc.Text())
			answer := m.Result
			if len(answer) == 0 {
				answer = m.Error
			}
			write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"exact"}],"answer":%s}}`, pendingExact, orNull(answer)))
		case m.Method == "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			logf("RAW initialize %s", m.Params)
			write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"raw","version":"0.1"},"x-extra":true}}`, id, p.ProtocolVersion))
		case m.Method == "notifications/initialized":
			logf("RAW initialized")
		case m.Method == "notifications/cancelled":
			logf("RAW cancelled %s", m.Params)
		case m.Method != "" && len(m.ID) == 0:
			logf("RAW notification %s %s", m.Method, m.Params)
		case m.Method == "tools/list":
			write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, rawToolsList))
		case m.Method == "tools/call":
			var p struct {
				Name      string `json:"name"`
				Arguments struct {
					Bytes int `json:"bytes"`
				} `json:"arguments"`
			}
			_ = json.Unmarshal(m.Params, &p)
			logf("RAW call %s id=%s params=%s", p.Name, id, m.Params)
			switch p.Name {
			case "hang":
				// never answers
			case "fail":
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32042,"message":"custom failure","data":%s}}`, id, rawErrorData))
			case "notify":
				write(`{"jsonrpc":"2.0","method":"notifications/progress","params":` + rawProgress1 + `}`)
				write(`{"jsonrpc":"2.0","method":"notifications/progress","params":` + rawProgress2 + `}`)
				write(`{"jsonrpc":"2.0","method":"notifications/message","params":` + rawLog + `}`)
				write(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`, id))
			case "ping-client":
				pendingPing = m.ID
				write(`{"jsonrpc":"2.0","id":"srv-ping","method":"ping"}`)
			case "exact":
				// A notification and a server-to-client request with params
				// that any decode/re-encode would change.
				pendingExact = m.ID
				write(`{"jsonrpc":"2.0","method":"notifications/message","params":` + rawExact + `}`)
				write(`{"jsonrpc":"2.0","id":` + rawExactID + `,"method":"sampling/createMessage","params":` + rawExact + `}`)
			case "big":
				// One notification line of about arguments.bytes bytes.
				write(`{"jsonrpc":"2.0","method":"notifications/message","params":` + bigParams(p.Arguments.Bytes) + `}`)
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"big"}]}}`, id))
			case "close-output":
				// Keep running with stdout closed: the client must notice.
				if cl, ok := out.(io.Closer); ok {
					_ = cl.Close()
				}
			case "junk":
				// Lines a client must skip, then the answer.
				write(`this is not json`)
				write(`{"jsonrpc":"2.0"}`)
				write(`["not","an","object"]`)
				write(``)
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"after junk"}]}}`, id))
			case "flood":
				// arguments.bytes progress notifications, then the answer.
				for i := 0; i < p.Arguments.Bytes; i++ {
					write(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"f","progress":%d}}`, i+1))
				}
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"flooded"}]}}`, id))
			case "garbled":
				// The answer, broken after its id.
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":}]}}`, id))
			case "deep":
				// The answer, nested deeper than encoding/json decodes.
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[],"x":%s%s}}`, id, strings.Repeat("[", 12000), strings.Repeat("]", 12000)))
			case "string-id":
				// The answer with the id as a string.
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":"%s","result":{"content":[]}}`, id))
			case "wrong-id":
				// An answer to a request nobody sent.
				write(`{"jsonrpc":"2.0","id":987654321,"result":{"content":[]}}`)
			default:
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"ok"}],"params":%s}}`, id, orNull(m.Params)))
			}
		case m.Method == "logging/setLevel" || m.Method == "resources/subscribe" || m.Method == "resources/unsubscribe":
			logf("RAW session %s %s", m.Method, m.Params)
			write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id))
		case m.Method != "" && len(m.ID) > 0:
			write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, id))
		}
	}
}

// bigParams is the params object of the raw server's "big" notification.
func bigParams(n int) string {
	return `{"level":"info","data":"` + strings.Repeat("x", n) + `"}`
}

func orNull(b json.RawMessage) string {
	if len(b) == 0 {
		return "null"
	}
	return string(b)
}
