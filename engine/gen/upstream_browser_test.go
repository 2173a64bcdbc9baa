package gen

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// toolServer is what the test host calls tools on: a real MCP server over
// stdio (npmServer) or canned results (fixtureServer).
type toolServer interface {
	Tools() map[string]Tool
	// Call runs tools/call with params ({name, arguments, _meta}) and
	// reports the server's progress notifications for it to progress.
	Call(ctx context.Context, params json.RawMessage, progress func(json.RawMessage)) (json.RawMessage, error)
}

// npmServer is an npm MCP server package running as a stdio child.
type npmServer struct {
	c     *mcptest.Client
	tools map[string]Tool
	seq   atomic.Int64
}

// startNPMServer starts the npm package pkg (installed by
// scripts/test-deps.sh) with args and extra environment, initializes it and
// lists its tools. It answers the server's roots/list with no roots, so
// server-filesystem keeps its command-line directory.
func startNPMServer(t *testing.T, pkg string, env []string, args ...string) *npmServer {
	t.Helper()
	node := testenv.NodePath(t)
	entry := testenv.NPMBin(t, pkg, "")
	cmd := exec.Command(node, append([]string{entry}, args...)...)
	cmd.Env = append(testenv.OfflineEnv(), env...)
	cmd.Dir = t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcptest.Start(context.Background(), cmd, mcptest.WithRequestHandler(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
		switch method {
		case "roots/list":
			return json.RawMessage(`{"roots":[]}`), nil
		case "ping":
			return json.RawMessage(`{}`), nil
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "not supported by the test host: " + method}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Logf("%s close: %v", pkg, err)
		}
	})
	if _, err := c.Initialize(ctx, "2025-11-25", json.RawMessage(`{"roots":{}}`)); err != nil {
		t.Fatalf("%s: %v (stderr %s)", pkg, err, c.Stderr())
	}
	list, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := &npmServer{c: c, tools: map[string]Tool{}}
	for _, tl := range list {
		var d struct {
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		_ = json.Unmarshal(tl.Raw, &d)
		s.tools[tl.Name] = Tool{Name: tl.Name, Title: d.Title, Description: d.Description, InputSchema: tl.InputSchema, OutputSchema: d.OutputSchema}
	}
	return s
}

func (s *npmServer) Tools() map[string]Tool { return s.tools }

// call runs tools/call directly (no browser), for setting up state and for gallery results.
func (s *npmServer) call(t *testing.T, name string, args any) json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.c.CallTool(ctx, name, args, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func (s *npmServer) Call(ctx context.Context, params json.RawMessage, progress func(json.RawMessage)) (json.RawMessage, error) {
	var p map[string]any
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	// Our own progress token: the host relays progress to the view under the view's.
	token := fmt.Sprintf("test-host-%d", s.seq.Add(1))
	p["_meta"] = map[string]any{"progressToken": token}
	type answer struct {
		res json.RawMessage
		rpc *jsonrpc.Error
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, rpcErr, err := s.c.Request(ctx, "tools/call", p)
		done <- answer{res, rpcErr, err}
	}()
	seen := 0
	relay := func() {
		msgs := s.c.Messages()
		for _, m := range msgs[min(seen, len(msgs)):] {
			if m.IsNotification() && m.Method == "notifications/progress" && strings.Contains(string(m.Params), `"`+token+`"`) {
				progress(m.Params)
			}
		}
		seen = len(msgs)
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case a := <-done:
			relay()
			if a.err != nil {
				return nil, a.err
			}
			if a.rpc != nil {
				return nil, a.rpc
			}
			return a.res, nil
		case <-tick.C:
			relay()
		}
	}
}

// fixtureServer answers tools/call with canned results.
type fixtureServer struct {
	tools   map[string]Tool
	results map[string]func(args map[string]any) json.RawMessage
}

func (s *fixtureServer) Tools() map[string]Tool { return s.tools }

func (s *fixtureServer) Call(ctx context.Context, params json.RawMessage, progress func(json.RawMessage)) (json.RawMessage, error) {
	var p struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	f, ok := s.results[p.Name]
	if !ok {
		return nil, errors.New("fixture server: no tool " + p.Name)
	}
	return f(p.Arguments), nil
}

// serverHostPage is an MCP Apps host whose tools/call goes to a toolServer
// through POST /call, answered as NDJSON: progress lines while the call
// runs (relayed to the view as notifications/progress under the view's own
// progress token, as real hosts do), then the result. window.deliver(name,
// args) plays a host that runs a tool for the model.
const serverHostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>server host</title>
<style>body { margin: 0; padding: 8px; background: %s; } iframe { display: block; border: 0; height: 200px; }</style></head>
<body data-app-status="loading">
<iframe id="ui" sandbox="allow-scripts allow-same-origin allow-forms" style="width: %dpx"></iframe>
<script>%s</script>
<script>
window.calls = [];
window.progress = [];
async function callTool(params) {
  window.calls.push(params);
  const token = params && params._meta ? params._meta.progressToken : undefined;
  const r = await fetch("/call", { method: "POST", body: JSON.stringify(params), signal: AbortSignal.timeout(30000) });
  const reader = r.body.getReader(), dec = new TextDecoder();
  let buf = "", out = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line) continue;
      const m = JSON.parse(line);
      if (m.progress) {
        window.progress.push(m.progress);
        if (token !== undefined) bridge.notify("notifications/progress", Object.assign({}, m.progress, { progressToken: token }));
      } else out = m;
    }
  }
  if (!out) throw new Error("no answer from /call");
  if (out.error) { const e = new Error(out.error); e.code = -32000; throw e; }
  return out.result;
}
const iframe = document.getElementById("ui");
const bridge = new McpHost.AppBridge(iframe, {
  hostInfo: { name: "genui-server-test-host", version: "1.0.0" },
  hostContext: { theme: %s, displayMode: "inline", containerDimensions: { maxHeight: 6000 } },
  onInitialized: function () { document.body.dataset.appStatus = "ready"; },
  onReadResource: readDeferred,
  onCallTool: callTool
});
window.bridge = bridge;
window.deliver = async function (name, args) {
  bridge.sendToolInput(args);
  bridge.sendToolResult(await callTool({ name: name, arguments: args }));
  return true;
};
bridge.start();
iframe.src = %s;
</script>
</body></html>`

// serverFixture serves generated pages of srv's tools in a sandboxed host
// whose tool calls reach srv.
type serverFixture struct {
	*fixture
	ui  *uiServer
	srv toolServer
}

func newServerFixture(t *testing.T, ctx context.Context, srv toolServer) *serverFixture {
	ui := &uiServer{pages: map[string]string{}}
	uiSrv := httptest.NewServer(ui)
	t.Cleanup(uiSrv.Close)
	var mu sync.Mutex // one call at a time, like a chat host
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		src, _ := json.Marshal(uiSrv.URL + "/ui/" + q.Get("tool"))
		theme := q.Get("theme")
		if theme == "" {
			theme = "light"
		}
		bg := "#ffffff"
		if theme == "dark" {
			bg = "#262624"
		}
		width := 760
		fmt.Sscan(q.Get("width"), &width)
		th, _ := json.Marshal(theme)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, serverHostPage, bg, width, testHostJS(), th, src)
	})
	mux.HandleFunc("POST /call", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		cctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
		defer cancel()
		w.Header().Set("Content-Type", "application/x-ndjson")
		bw := bufio.NewWriter(w)
		line := func(v any) {
			b, _ := json.Marshal(v)
			_, _ = bw.Write(append(b, '\n'))
			_ = bw.Flush()
			if fl, ok := w.(http.Flusher); ok {
				fl.Flush()
			}
		}
		res, err := srv.Call(cctx, body, func(p json.RawMessage) {
			var m map[string]any
			_ = json.Unmarshal(p, &m)
			delete(m, "progressToken")
			line(map[string]any{"progress": m})
		})
		if err != nil {
			line(map[string]any{"error": err.Error()})
			return
		}
		line(map[string]json.RawMessage{"result": res})
	})
	hostSrv := httptest.NewServer(withDeferred(mux))
	t.Cleanup(hostSrv.Close)
	return &serverFixture{fixture: &fixture{t: t, ctx: ctx, host: hostSrv.URL}, ui: ui, srv: srv}
}

// page generates tool's offline page with refinements and serves it.
func (f *serverFixture) page(tool string, refinements ...string) Result {
	f.t.Helper()
	tl, ok := f.srv.Tools()[tool]
	if !ok {
		f.t.Fatalf("server has no tool %q", tool)
	}
	res, err := NewOffline().Generate(context.Background(), Request{Tool: tl, Refinements: refinements})
	if err != nil {
		f.t.Fatal(err)
	}
	if p := Validate(res.HTML); len(p) > 0 {
		f.t.Fatalf("Validate: %q", p)
	}
	f.ui.addHTML(tool, res.HTML)
	return res
}

// openTool generates tool's page, loads it in the host (width px, theme) and waits for the handshake.
func (f *serverFixture) openTool(tool string, width int, theme string, refinements ...string) Result {
	f.t.Helper()
	res := f.page(tool, refinements...)
	browsertest.Run(f.t, f.ctx, 20*time.Second,
		chromedp.Navigate(fmt.Sprintf("%s/?tool=%s&width=%d&theme=%s", f.host, tool, width, theme)),
		chromedp.WaitReady(chromedp.CSS(`body[data-app-status="ready"]`)),
	)
	f.waitFrame(richViewsSettled)
	return res
}

// deliver plays the host running tool with args (a JS object literal) and
// waits until the view shows the new result (or error).
func (f *serverFixture) deliver(tool, args string) {
	f.t.Helper()
	f.frameJSON(`(w, d) => { d.body.dataset.state = "waiting"; return true; }`, new(bool))
	f.eval(fmt.Sprintf("(deliver(%q, %s), true)", tool, args), nil)
	f.waitFrame(resultShown)
}

// resultShown is true once the view shows a result or an error.
const resultShown = `(w, d) => d.body.dataset.state === "result" || d.body.dataset.state === "error"`

// sub returns f for a subtest: failures go to t.
func (f *serverFixture) sub(t *testing.T) *serverFixture {
	fx := *f.fixture
	fx.t = t
	c := *f
	c.fixture = &fx
	return &c
}

// js evaluates fn in the frame and decodes its result into a new T.
func js[T any](f *serverFixture, fn string) T {
	f.t.Helper()
	var v T
	f.frameJSON(fn, &v)
	return v
}

// submit clicks Run and waits for a result or an error.
func (f *serverFixture) submit() {
	f.t.Helper()
	f.frameJSON(`(w, d) => { d.body.dataset.state = "waiting"; return true; }`, new(bool))
	browsertest.FrameClick(f.t, f.ctx, "#ui", "#submit")
	f.waitFrame(resultShown)
}

// typeIn types text into the input sel of the frame, as a user does.
func (f *serverFixture) typeIn(sel, text string) {
	f.t.Helper()
	browsertest.FrameType(f.t, f.ctx, "#ui", sel, text)
}

// click clicks sel in the frame with the mouse.
func (f *serverFixture) click(sel string) {
	f.t.Helper()
	browsertest.FrameClick(f.t, f.ctx, "#ui", sel)
}

// lastCall returns the arguments of the host's last tools/call.
func (f *serverFixture) lastCall() map[string]json.RawMessage {
	f.t.Helper()
	var c struct {
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	f.eval("window.calls[window.calls.length - 1]", &c)
	return c.Arguments
}
