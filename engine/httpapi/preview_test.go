package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/upstream"
)

// previewEnv is a real engine (with a real upstream), a real MCP host and
// the side server on two httptest origins.
type previewEnv struct {
	e       *engine.Engine
	h       *host.Server
	s       *Server
	uiTS    *httptest.Server
	apiTS   *httptest.Server
	mu      sync.Mutex
	drained []contract.QueuedEvent
	// stop ends the engine and the servers (once; test cleanup does it too).
	stop     func(*testing.T)
	stopOnce func()
}

func demoConfig() upstream.Config {
	return upstream.Config{Transport: "inprocess", InProcess: demo.ServeStdio}
}

func startPreview(t *testing.T, up upstream.Config) *previewEnv {
	t.Helper()
	return startPreviewWith(t, up, host.Options{})
}

// startPreviewWith is startPreview with the MCP host's options (its Engine
// is set here).
func startPreviewWith(t *testing.T, up upstream.Config, hopts host.Options) *previewEnv {
	t.Helper()
	return startPreviewEngine(t, engine.Options{Upstream: up, Dir: t.TempDir()}, hopts)
}

// startPreviewEngine runs an engine with opts behind the side server.
func startPreviewEngine(t *testing.T, opts engine.Options, hopts host.Options) *previewEnv {
	t.Helper()
	e, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	hopts.Engine, hopts.Upstream, hopts.Tools = e, e.Relay(), e.Registry()
	h := host.New(hopts)
	s := New(Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Host: h})
	p := &previewEnv{e: e, h: h, s: s, uiTS: httptest.NewServer(s.UIHandler()), apiTS: httptest.NewServer(s.Handler())}
	s.SetBases(p.uiTS.URL, p.apiTS.URL)
	p.stopOnce = func() {
		// Event streams and long polls stay open: cut them, then close.
		p.apiTS.CloseClientConnections()
		p.uiTS.CloseClientConnections()
		p.apiTS.Close()
		p.uiTS.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("engine did not stop within 10 s")
		}
	}
	var once sync.Once
	t.Cleanup(func() { once.Do(p.stopOnce) })
	p.stop = func(*testing.T) { once.Do(p.stopOnce) }
	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer wcancel()
	if err := e.Registry().WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitQueue drains the engine's /wait queue until an event matches or the
// timeout passes; drained events are kept so later waits see them too.
func (p *previewEnv) waitQueue(t *testing.T, timeout time.Duration, match func(contract.QueuedEvent) bool) contract.QueuedEvent {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		p.mu.Lock()
		for _, ev := range p.drained {
			if match(ev) {
				p.mu.Unlock()
				return ev
			}
		}
		p.mu.Unlock()
		left := time.Until(deadline)
		if left <= 0 {
			p.mu.Lock()
			defer p.mu.Unlock()
			var seen []string
			for _, ev := range p.drained {
				seen = append(seen, ev.Source+"/"+ev.Type+"/"+ev.Tool)
			}
			t.Fatalf("no matching queue event within %s; saw %v", timeout, seen)
		}
		evs := p.e.AgentQueue().Wait(context.Background(), min(left, 200*time.Millisecond))
		p.mu.Lock()
		p.drained = append(p.drained, evs...)
		p.mu.Unlock()
	}
}

// post sends a JSON body to the API origin and decodes the JSON answer.
func (p *previewEnv) post(t *testing.T, path, body string) (int, map[string]json.RawMessage) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", p.apiTS.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]json.RawMessage
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("POST %s: answer is not JSON: %s", path, b)
	}
	return resp.StatusCode, out
}

func get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestBuildCSP(t *testing.T) {
	for _, tc := range []struct {
		name    string
		csp     *UICSP
		want    string
		dropped []string
	}{
		{"none declared", nil, DefaultCSP, nil},
		{"empty lists", &UICSP{}, DefaultCSP, nil},
		{"connect", &UICSP{ConnectDomains: []string{"https://api.example.com", "wss://ws.example.com:8443"}},
			strings.Replace(DefaultCSP, "connect-src 'none'", "connect-src https://api.example.com wss://ws.example.com:8443", 1), nil},
		{"resources", &UICSP{ResourceDomains: []string{"https://cdn.example.com"}},
			"default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example.com; style-src 'self' 'unsafe-inline' https://cdn.example.com; " +
				"img-src 'self' data: https://cdn.example.com; font-src 'self' data: https://cdn.example.com; media-src 'self' data: https://cdn.example.com; " +
				"connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'", nil},
		{"frames and base", &UICSP{FrameDomains: []string{"https://*.youtube.com"}, BaseURIDomains: []string{"https://base.example.com/app/"}},
			strings.NewReplacer("frame-src 'none'", "frame-src https://*.youtube.com", "base-uri 'none'", "base-uri https://base.example.com/app/").Replace(DefaultCSP), nil},
		{"injection attempts are dropped", &UICSP{ConnectDomains: []string{"https://ok.example.com", "https://x.com; script-src *", "*", "'unsafe-eval'", "https://a.com https://b.com", "data:"}},
			strings.Replace(DefaultCSP, "connect-src 'none'", "connect-src https://ok.example.com", 1),
			[]string{"https://x.com; script-src *", "*", "'unsafe-eval'", "https://a.com https://b.com", "data:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, dropped := BuildCSP(tc.csp)
			if got != tc.want {
				t.Errorf("policy\n got %s\nwant %s", got, tc.want)
			}
			if strings.Join(dropped, "|") != strings.Join(tc.dropped, "|") {
				t.Errorf("dropped = %q, want %q", dropped, tc.dropped)
			}
		})
	}
}

func TestInjectCSPReporter(t *testing.T) {
	for _, tc := range []struct{ in, wantPrefix string }{
		{`<!doctype html><html><head><script>x()</script></head></html>`, `<!doctype html><html><head><script data-genui-csp-reporter>`},
		{`<html lang="en"><body><script>x()</script></body></html>`, `<html lang="en"><script data-genui-csp-reporter>`},
		{`<!DOCTYPE html><p>hi</p>`, `<!DOCTYPE html><script data-genui-csp-reporter>`},
		{`<p>bare</p>`, `<script data-genui-csp-reporter>`},
		{`<HEAD data-x="1"><script>a</script>`, `<HEAD data-x="1"><script data-genui-csp-reporter>`},
	} {
		got := InjectCSPReporter(tc.in)
		if !strings.HasPrefix(got, tc.wantPrefix) {
			t.Errorf("InjectCSPReporter(%q) = %q, want prefix %q", tc.in, got, tc.wantPrefix)
		}
		if !strings.HasSuffix(got, tc.in[len(tc.in)-10:]) || strings.Count(got, CSPReporterAttr) != 1 {
			t.Errorf("InjectCSPReporter(%q) lost content or injected twice: %q", tc.in, got)
		}
	}
}

func TestSchemaDefaults(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{``, `{}`},
		{`{"type":"object"}`, `{}`},
		{`{"type":"object","properties":{"location":{"type":"string"},"days":{"type":"integer","default":7},"units":{"enum":["metric","imperial"]}},"required":["location"]}`,
			`{"days":7,"location":""}`},
		{`{"properties":{"u":{"enum":["a","b"]},"n":{"type":["number","null"]},"b":{"type":"boolean"},"o":{"type":"object"},"l":{"type":"array"}},"required":["u","n","b","o","l"]}`,
			`{"b":false,"l":[],"n":0,"o":{},"u":"a"}`},
	} {
		var got any
		if err := json.Unmarshal([]byte(SchemaDefaults(json.RawMessage(tc.schema))), &got); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(got)
		if string(b) != tc.want {
			t.Errorf("SchemaDefaults(%s) = %s, want %s", tc.schema, b, tc.want)
		}
	}
}

func TestPreviewHTTP(t *testing.T) {
	p := startPreview(t, demoConfig())

	// Redirect to conserve=1, keeping other parameters.
	resp, _ := get(t, p.apiTS.URL+"/preview/get_forecast?args=%7B%7D&call=1")
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("GET /preview without conserve: status %d, want 302", resp.StatusCode)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc.Path != "/preview/get_forecast" || loc.Query().Get("conserve") != "1" || loc.Query().Get("args") != "{}" || loc.Query().Get("call") != "1" {
		t.Errorf("redirect to %s", resp.Header.Get("Location"))
	}
	// conserve=0 is kept as given.
	if resp, _ := get(t, p.apiTS.URL+"/preview/get_forecast?conserve=0"); resp.StatusCode != http.StatusOK {
		t.Errorf("conserve=0: status %d", resp.StatusCode)
	}

	// The page: escaped data, iframe src on the UI origin, defaults prefilled.
	resp, page := get(t, p.apiTS.URL+"/preview/get_current_weather?conserve=1")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("preview page: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if csp := resp.Header.Get("Content-Security-Policy"); csp != "frame-ancestors 'none'" {
		t.Errorf("the host page must carry only frame-ancestors, not the UI's CSP: %q", csp)
	}
	for _, want := range []string{`"frameURL":"` + p.uiTS.URL + `/frame/get_current_weather"`, `McpHost`, `&#34;location&#34;: &#34;&#34;`} {
		if !strings.Contains(page, want) {
			t.Errorf("preview page lacks %q", want)
		}
	}
	// Bad deep-linked args: the page loads and says why.
	_, page = get(t, p.apiTS.URL+"/preview/get_forecast?conserve=1&args=%5B1%5D")
	if !strings.Contains(page, "The args parameter was not used") {
		t.Errorf("bad args not reported on the page")
	}

	// Unknown tools: 404 text on both origins.
	for _, u := range []string{p.apiTS.URL + "/preview/nope?conserve=1", p.uiTS.URL + "/frame/nope"} {
		resp, body := get(t, u)
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, `unknown tool "nope"`) || !strings.Contains(body, "get_forecast") {
			t.Errorf("GET %s: %d %q", u, resp.StatusCode, body)
		}
	}

	// The frame: generated HTML with the default CSP header and the reporter first.
	resp, frame := get(t, p.uiTS.URL+"/frame/get_forecast")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Security-Policy") != DefaultCSP {
		t.Fatalf("frame: %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
	// (The App shim is in the page's packed block, which the loader script
	// expands later.)
	if i, j := strings.Index(frame, "<script "+CSPReporterAttr), strings.Index(frame, "<script"); i < 0 || i != j {
		t.Errorf("CSP reporter (at %d) must be the page's first script (at %d)", i, j)
	}
	// The UI origin serves nothing of the API.
	if resp, _ := get(t, p.uiTS.URL+"/preview/get_forecast?conserve=1"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("UI origin serves /preview: %d", resp.StatusCode)
	}
}

func TestPreviewCallEnforcesVisibility(t *testing.T) {
	p := startPreview(t, demoConfig())

	// A UI may call an app-only tool...
	code, out := p.post(t, "/api/preview/run_battery/call", `{"name":"get_battery_status","arguments":{"job_id":"nope"},"from":"ui"}`)
	if code != 200 || out["result"] == nil {
		t.Fatalf("app-only call from a UI: %d %s", code, out["error"])
	}
	p.waitQueue(t, 5*time.Second, func(ev contract.QueuedEvent) bool {
		return ev.Source == "preview" && ev.Type == "tools/call" && ev.Tool == "run_battery" && strings.Contains(string(ev.Payload), "get_battery_status")
	})
	// ...but not a model-only one; the refusal is queued as a ui/error.
	code, out = p.post(t, "/api/preview/run_battery/call", `{"name":"reset_demo","arguments":{}}`)
	var perr previewError
	_ = json.Unmarshal(out["error"], &perr)
	if code != http.StatusForbidden || !strings.Contains(perr.Message, `"reset_demo" is not callable from an app`) || perr.Code != -32600 {
		t.Fatalf("model-only call from a UI: %d %s", code, out["error"])
	}
	p.waitQueue(t, 5*time.Second, func(ev contract.QueuedEvent) bool {
		return ev.Type == "ui/error" && strings.Contains(string(ev.Payload), "reset_demo")
	})
	// The host (the page's Call button) may call it.
	if code, out = p.post(t, "/api/preview/reset_demo/call", `{"name":"reset_demo","arguments":{},"from":"host"}`); code != 200 || !strings.Contains(string(out["result"]), "Demo reset") {
		t.Fatalf("host call of reset_demo: %d %s", code, out)
	}
	// Bad input.
	for _, body := range []string{`[1]`, `{"arguments":{}}`, `{"name":"get_forecast","arguments":[1]}`} {
		if code, out := p.post(t, "/api/preview/get_forecast/call", body); code != http.StatusBadRequest || out["error"] == nil {
			t.Errorf("body %s: %d %s", body, code, out)
		}
	}
	if code, _ := p.post(t, "/api/preview/get_forecast/call", `{"name":"nope"}`); code != http.StatusNotFound {
		t.Errorf("unknown tool: %d", code)
	}
	// Events: known types are queued, unknown ones refused.
	if code, _ := p.post(t, "/api/preview/get_forecast/event", `{"type":"ui/message","payload":{"role":"user","content":[{"type":"text","text":"hi"}]}}`); code != 200 {
		t.Errorf("ui/message event: %d", code)
	}
	p.waitQueue(t, 5*time.Second, func(ev contract.QueuedEvent) bool {
		return ev.Type == "ui/message" && ev.Tool == "get_forecast" && strings.Contains(string(ev.Payload), `"hi"`)
	})
	if code, out := p.post(t, "/api/preview/get_forecast/event", `{"type":"rm -rf"}`); code != http.StatusBadRequest || !strings.Contains(string(out["error"]), "unknown event type") {
		t.Errorf("unknown event type: %d %s", code, out)
	}
	if code, _ := p.post(t, "/api/preview/get_forecast/refine", `{"feedback":"  "}`); code != http.StatusBadRequest {
		t.Errorf("empty feedback: %d", code)
	}
	// resources/read of genui's own UI.
	code, out = p.post(t, "/api/preview/get_forecast/resource", `{"uri":"ui://get_forecast"}`)
	if code != 200 || !strings.Contains(string(out["result"]), "text/html;profile=mcp-app") {
		t.Errorf("resources/read ui://get_forecast: %d", code)
	}
}

// TestPreviewRefusesWrapperToolsFromUI: genui's own _ui_* tools are
// model-only, so a UI cannot regenerate UIs or open tabs through them; the
// page's own (host) calls still may.
func TestPreviewRefusesWrapperToolsFromUI(t *testing.T) {
	p := startPreview(t, demoConfig())
	code, body := p.post(t, "/api/preview/get_forecast/call", `{"name":"_ui_regenerate","arguments":{"toolName":"get_forecast"}}`)
	if code != http.StatusForbidden || !strings.Contains(string(body["error"]), "model") {
		t.Fatalf("UI call to _ui_regenerate: %d %s, want 403 naming the visibility", code, body["error"])
	}
	code, body = p.post(t, "/api/preview/get_forecast/call", `{"name":"_ui_list","arguments":{},"from":"host"}`)
	if code != http.StatusOK {
		t.Fatalf("host call to _ui_list: %d %s", code, body["error"])
	}
}

// mustState is the engine's State or a test failure.
func mustState(t *testing.T, e *engine.Engine) contract.State {
	t.Helper()
	st, err := e.State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}
