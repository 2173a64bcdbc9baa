package host_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/internal/testenv"
)

// startHTTP serves the demo through genui's HTTP transports.
func startHTTP(t *testing.T) *httptest.Server {
	t.Helper()
	ts, _ := startHTTPOpts(t, host.Options{})
	return ts
}

// exercise runs a typed mcp-go client through initialize, tools/list (UI
// metadata present), a tool call and a ui:// read.
func exercise(t *testing.T, c *client.Client, wantProtocol string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "mcp-go-test", Version: "1"}
	init.Params.ProtocolVersion = wantProtocol
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ProtocolVersion != wantProtocol {
		t.Fatalf("negotiated %s, want %s", res.ProtocolVersion, wantProtocol)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var forecast *mcp.Tool
	for i := range tools.Tools {
		if tools.Tools[i].Name == "get_forecast" {
			forecast = &tools.Tools[i]
		}
	}
	if forecast == nil || forecast.Meta == nil || !strings.Contains(mustJSON(forecast.Meta), `"resourceUri":"ui://get_forecast"`) {
		t.Fatalf("get_forecast missing or without UI metadata: %+v", forecast)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "get_forecast"
	call.Params.Arguments = map[string]any{"location": "Oslo", "days": 3}
	out, err := c.CallTool(ctx, call)
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	if out.IsError || !strings.Contains(mustJSON(out.StructuredContent), "Oslo") {
		t.Fatalf("tools/call result: %+v", out)
	}
	rr := mcp.ReadResourceRequest{}
	rr.Params.URI = "ui://get_forecast"
	read, err := c.ReadResource(ctx, rr)
	if err != nil {
		t.Fatalf("resources/read: %v", err)
	}
	txt, ok := read.Contents[0].(mcp.TextResourceContents)
	if len(read.Contents) != 1 || !ok || txt.MIMEType != contract.MIMEApp || !strings.Contains(txt.Text, "<html") {
		t.Fatalf("ui:// read: %+v", read.Contents)
	}
}

func TestStreamableHTTP(t *testing.T) {
	ts := startHTTP(t)
	c, err := client.NewStreamableHttpClient(ts.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, c, "2025-11-25")
}

func TestStreamableHTTPNewestProtocol(t *testing.T) {
	ts := startHTTP(t)
	c, err := client.NewStreamableHttpClient(ts.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, c, mcp.LATEST_PROTOCOL_VERSION)
}

func TestLegacySSE(t *testing.T) {
	ts := startHTTP(t)
	c, err := client.NewSSEMCPClient(ts.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, c, "2025-11-25")
}

func TestStdioNewestProtocol(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e, err := engine.New(engine.Options{Upstream: demoUpstream(), Dir: t.TempDir(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log})
	go func() { _ = e.Run(ctx) }()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = srv.ServeStdio(ctx, inR, outW) }()
	c := client.NewClient(transport.NewIO(outR, inW, io.NopCloser(strings.NewReader(""))))
	exercise(t, c, mcp.LATEST_PROTOCOL_VERSION)
}

func TestLoopbackOnly(t *testing.T) {
	ts := startHTTP(t)
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"evil.example", "", http.StatusForbidden},
		{"", "http://evil.example", http.StatusForbidden},
		{"", "http://localhost:3000", http.StatusNotFound},
		{"localhost:1234", "", http.StatusNotFound},
	} {
		req, _ := http.NewRequest("GET", ts.URL+"/nothing-here", nil)
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Host %q Origin %q: status %d, want %d", tc.host, tc.origin, resp.StatusCode, tc.want)
		}
	}
	big := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", host.MaxBodyBytes) + `"}}`)
	resp, err := http.Post(ts.URL+"/mcp", "application/json", big)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized body: status %d, want 413", resp.StatusCode)
	}
}

// startHTTPOpts is startHTTP with host options.
func startHTTPOpts(t *testing.T, hopts host.Options) (*httptest.Server, *host.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e, err := engine.New(engine.Options{Upstream: demoUpstream(), Dir: t.TempDir(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	hopts.Engine, hopts.Upstream, hopts.Tools, hopts.Logger = e, e.Relay(), e.Registry(), log
	srv := host.New(hopts)
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	mux := http.NewServeMux()
	srv.RegisterHTTP(mux)
	ts := httptest.NewServer(host.LoopbackOnly(mux))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("engine did not stop")
		}
	})
	return ts, srv
}

func initSession(t *testing.T, base string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, sid)
	}
	return sid
}

// openStream opens GET /mcp for sid and returns a channel of data lines.
func openStream(t *testing.T, ctx context.Context, base, sid string) <-chan string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/mcp", nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /mcp: %v %v", resp, err)
	}
	lines := make(chan string, 64)
	go func() {
		defer resp.Body.Close()
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines <- d
			}
		}
	}()
	return lines
}

func postJSON(t *testing.T, base, sid, body string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 && resp.StatusCode != 202 {
		t.Fatalf("POST %s: status %d", body, resp.StatusCode)
	}
}

func waitLine(t *testing.T, lines <-chan string, substr string, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stream closed before a line with %q", substr)
			}
			if strings.Contains(l, substr) {
				return
			}
		case <-deadline:
			t.Fatalf("no line with %q within %s", substr, d)
		}
	}
}

// TestSecondGetStreamClosingKeepsTheFirst: a client may open a second GET
// stream; when that one closes, notifications go to the first again.
func TestSecondGetStreamClosingKeepsTheFirst(t *testing.T) {
	ts, srv := startHTTPOpts(t, host.Options{})
	sid := initSession(t, ts.URL)
	postJSON(t, ts.URL, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	ctx1, cancel1 := context.WithCancel(context.Background())
	defer cancel1()
	first := openStream(t, ctx1, ts.URL, sid)
	ctx2, cancel2 := context.WithCancel(context.Background())
	second := openStream(t, ctx2, ts.URL, sid)
	testenv.Eventually(t, 10*time.Second, "both GET streams attached", func() bool { return host.OpenStreams(srv, sid) == 2 })
	cancel2()
	for range second {
	}
	testenv.Eventually(t, 10*time.Second, "the second GET stream detached", func() bool { return host.OpenStreams(srv, sid) == 1 })
	// A refine changes a UI: hosts hear resources/list_changed on their stream.
	postJSON(t, ts.URL, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"_ui_refine","arguments":{"toolName":"get_forecast","feedback":"dark theme"}}}`)
	waitLine(t, first, "notifications/resources/list_changed", 10*time.Second)
}

// TestIdleSessionsExpire: an HTTP session that went quiet (no stream, no
// requests) is closed when the idle bound passes, so vanished clients do not
// pile up.
func TestIdleSessionsExpire(t *testing.T) {
	ts, srv := startHTTPOpts(t, host.Options{SessionIdle: 200 * time.Millisecond})
	old := initSession(t, ts.URL)
	time.Sleep(400 * time.Millisecond)
	fresh := initSession(t, ts.URL) // creating a session sweeps idle ones
	if _, ok := srv.Session(old); ok {
		t.Fatal("idle session still registered")
	}
	if _, ok := srv.Session(fresh); !ok {
		t.Fatal("fresh session missing")
	}
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Session-Id", old)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("request on an expired session: status %d, want 404 (initialize again)", resp.StatusCode)
	}
}
