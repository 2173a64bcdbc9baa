package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/httpapi"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/browsertest"
)

// agentEnv is a running engine (built-in demo upstream) behind the side
// server's API handler.
type agentEnv struct {
	e   *engine.Engine
	srv *httpapi.Server
	ts  *httptest.Server
	dir string
}

// startAgentEnv starts the demo engine and serves the API origin with
// httptest; everything stops when the test ends (bounded).
func startAgentEnv(t *testing.T) *agentEnv {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	e, err := engine.New(engine.Options{Upstream: upstream.Config{Transport: "inprocess", InProcess: demo.ServeStdio}, Dir: dir, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	h := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log})
	srv := httpapi.New(httpapi.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Host: h, Dir: dir, Logger: log})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	ts := httptest.NewServer(srv.Handler())
	srv.SetBases("http://ui.invalid", ts.URL)
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("engine did not stop within 5 s")
		}
	})
	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer wcancel()
	if err := e.Registry().WaitReady(wctx); err != nil {
		t.Fatalf("demo upstream not ready: %v", err)
	}
	return &agentEnv{e: e, srv: srv, ts: ts, dir: dir}
}

// get sends a GET with optional headers (pairs) and returns status and body.
func (a *agentEnv) get(t *testing.T, path string, headers ...string) (int, http.Header, string) {
	t.Helper()
	return a.do(t, http.MethodGet, path, "", headers...)
}

func (a *agentEnv) do(t *testing.T, method, path, body string, headers ...string) (int, http.Header, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, a.ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json") // what programs send; headers may override it
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := a.ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, string(b)
}

func TestVariablesTree(t *testing.T) {
	a := startAgentEnv(t)
	code, hdr, body := a.get(t, "/variables", "Accept", "application/json")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /variables: %d %s\n%s", code, hdr.Get("Content-Type"), body)
	}
	var vars contract.Variables
	if err := json.Unmarshal([]byte(body), &vars); err != nil {
		t.Fatal(err)
	}
	checkTree(t, vars)
	byPath := map[string]contract.Variable{}
	for _, v := range vars.Variables {
		byPath[v.Path] = v
	}
	for path, typ := range map[string]string{
		"upstream": "object", "upstream.connected": "boolean", "version": "string", "tools": "array",
		"tools[0].name": "string", "urls.api": "string", "cache": "object", "generation.limit": "number",
	} {
		v, ok := byPath[path]
		if !ok {
			t.Errorf("no variable %q", path)
			continue
		}
		if v.Type != typ {
			t.Errorf("%s: type %s, want %s", path, v.Type, typ)
		}
	}
	if v := byPath["upstream.connected"]; v.Value != true {
		t.Errorf("upstream.connected = %v, want true", v.Value)
	}
	if v := byPath["urls.api"]; v.Value != a.ts.URL {
		t.Errorf("urls.api = %v, want %s", v.Value, a.ts.URL)
	}
	if v := byPath["version"]; v.Value != engine.Version || vars.Version != engine.Version {
		t.Errorf("version = %v / %s", v.Value, vars.Version)
	}

	// ui://genui/variables and ui://genui/state are the same documents.
	again, err := a.e.Variables(context.Background())
	if err != nil || len(again.Variables) != len(vars.Variables) {
		t.Fatalf("engine Variables: %d variables (err %v), /variables has %d", len(again.Variables), err, len(vars.Variables))
	}
}

// checkTree verifies ids, parent links, child lists and paths.
func checkTree(t *testing.T, vars contract.Variables) {
	t.Helper()
	vs := vars.Variables
	if len(vs) < 10 || vars.RootID != 0 || vs[0].ParentID != nil || vs[0].Type != "object" {
		t.Fatalf("bad root: %d variables, root %+v", len(vs), vs[0])
	}
	seen := map[int]int{} // child id -> how many parents list it
	for i, v := range vs {
		if v.ID != i {
			t.Fatalf("variable %d has id %d", i, v.ID)
		}
		for _, c := range v.ChildIDs {
			if c <= 0 || c >= len(vs) {
				t.Fatalf("%s: child id %d does not exist", v.Path, c)
			}
			seen[c]++
			child := vs[c]
			if child.ParentID == nil || *child.ParentID != v.ID {
				t.Errorf("%s: child %s has parentId %v", v.Path, child.Path, child.ParentID)
			}
			if !strings.HasPrefix(child.Path, v.Path) || child.Path == v.Path {
				t.Errorf("child path %q does not extend %q", child.Path, v.Path)
			}
		}
		if v.Type != "object" && v.Type != "array" && len(v.ChildIDs) > 0 {
			t.Errorf("%s: scalar with children", v.Path)
		}
		if (v.Type == "object" || v.Type == "array") && v.Value != nil {
			t.Errorf("%s: container with a value", v.Path)
		}
		if i > 0 && v.ParentID == nil {
			t.Errorf("%s: no parent", v.Path)
		}
	}
	for i := 1; i < len(vs); i++ {
		if seen[i] != 1 {
			t.Errorf("%s is listed by %d parents", vs[i].Path, seen[i])
		}
	}
}

// TestVariablesHTMLEscapes puts a hostile string into the state (a
// refinement's feedback) and checks the page shows it as text.
func TestVariablesHTMLEscapes(t *testing.T) {
	a := startAgentEnv(t)
	const evil = `</script><img src=x onerror=alert(1)><b>"x"</b>`
	code, _, body := a.do(t, http.MethodPost, "/api/tool/_ui_refine",
		`{"toolName":"get_current_weather","feedback":`+mustMarshal(evil)+`}`)
	if code != 200 {
		t.Fatalf("_ui_refine: %d %s", code, body)
	}
	code, hdr, page := a.get(t, "/variables", "Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /variables (browser): %d %s", code, hdr.Get("Content-Type"))
	}
	if strings.Contains(page, "<img src=x") || strings.Contains(page, "<b>") {
		t.Fatalf("hostile value not escaped:\n%s", page)
	}
	if !strings.Contains(page, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("escaped hostile value not shown on the page")
	}
	if !strings.Contains(strings.ToLower(page), `data-path="upstream.connected"`) || !strings.Contains(page, `data-path="tools[0].name"`) ||
		!strings.Contains(page, `new EventSource("/events")`) {
		t.Errorf("page lacks the tree or the live update script")
	}
	if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP = %q", csp)
	}
	// curl's default Accept gets JSON.
	if _, hdr, _ := a.get(t, "/variables", "Accept", "*/*"); !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
		t.Errorf("Accept */*: Content-Type %s", hdr.Get("Content-Type"))
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestVariablesPageLive opens /variables in headless Chromium, expands a
// node, changes the state through the API and waits for the page to
// re-render from /events with the node still expanded.
func TestVariablesPageLive(t *testing.T) {
	a := startAgentEnv(t)
	ctx := browsertest.Start(t)
	browsertest.Run(t, ctx, 20*time.Second, chromedp.Navigate(a.ts.URL+"/variables"))
	poll := func(expr string) {
		t.Helper()
		pctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if _, err := chromedp.Run(pctx, chromedp.Poll[bool](expr)); err != nil {
			t.Fatalf("waiting for %s: %v", expr, err)
		}
	}
	poll(`document.body.dataset.live === "live" && document.getElementById("status").textContent.includes("updated")`)
	browsertest.Run(t, ctx, 5*time.Second, chromedp.Evaluate[chromedp.Void](
		`document.querySelector('details[data-path="upstream"]').open = true; document.getElementById("status").textContent = ""`))

	const feedback = "make it <b>bold</b> & blue"
	code, _, body := a.do(t, http.MethodPost, "/api/tool/_ui_refine", `{"toolName":"get_current_weather","feedback":`+mustMarshal(feedback)+`}`)
	if code != 200 {
		t.Fatalf("_ui_refine: %d %s", code, body)
	}
	poll(`document.getElementById("tree").textContent.includes(` + mustMarshal(feedback) + `)`)
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({
		open: !!document.querySelector('details[data-path="upstream"]').open,
		rootOpen: !!document.querySelector('details[data-path=""]').open,
		toolsOpen: !!document.querySelector('details[data-path="tools"]').open,
		injected: document.querySelectorAll("#tree b").length,
		status: document.getElementById("status").textContent})`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(state, `"open":true`) || !strings.Contains(state, `"rootOpen":true`) || !strings.Contains(state, `"toolsOpen":false`) ||
		!strings.Contains(state, `"injected":0`) || !strings.Contains(state, "updated") {
		t.Errorf("after the live update: %s", state)
	}
}
