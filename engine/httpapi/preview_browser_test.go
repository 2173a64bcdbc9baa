package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/mcpshim"
)

// Browser tests of the preview: real headless Chromium, a real engine and
// MCP host, the demo upstream (or a raw JSON-RPC test upstream), and the
// side server on two origins, exactly as `genui tui` runs them.

// tab drives one browser tab on the preview.
type tab struct {
	t   *testing.T
	ctx context.Context
	p   *previewEnv
}

func (p *previewEnv) tab(t *testing.T, ctx context.Context) *tab { return &tab{t: t, ctx: ctx, p: p} }

// open navigates to a preview path and waits for data-app-status.
func (b *tab) open(path, status string) {
	b.t.Helper()
	browsertest.Run(b.t, b.ctx, 30*time.Second, chromedp.Navigate(b.p.apiTS.URL+path))
	b.poll(`document.body.dataset.appStatus === "`+status+`"`, 30*time.Second)
}

// eval evaluates expr in the page and returns its JSON.
func (b *tab) eval(expr string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("JSON.stringify("+expr+")"))
	if err != nil {
		b.t.Fatalf("eval %s: %v", expr, err)
	}
	return s
}

// poll waits until expr is true in the page.
func (b *tab) poll(expr string, timeout time.Duration) {
	b.t.Helper()
	if err := browsertest.PollErr(b.ctx, expr, timeout); err != nil {
		b.t.Fatalf("waiting for %s: %v\npage log: %s", expr, err, b.logText())
	}
}

// logText is the page's bridge log, for failure messages.
func (b *tab) logText() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`window.genuiPreview ? genuiPreview.log.map(e => e.dir + " " + e.method + " " + e.detail).join("\n") : "(no preview state)"`))
	return s
}

func (b *tab) frame(fn string) json.RawMessage {
	b.t.Helper()
	return browsertest.MustFrameEval(b.t, b.ctx, "#ui", fn)
}

func (b *tab) waitFrame(cond string) {
	b.t.Helper()
	browsertest.WaitFrame(b.t, b.ctx, "#ui", cond, 15*time.Second)
}

// newTab opens another tab in the same browser. Its first action creates the
// target, which lives as long as that action's context: so no deadline there,
// a timer bounds it instead.
func newTab(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("open a tab: %v", err)
		}
	case <-time.After(20 * time.Second):
		cancel()
		t.Fatal("opening a tab took more than 20 s")
	}
	return ctx
}

func argsQuery(args string) string { return "&args=" + url.QueryEscape(args) }

func TestPreviewBrowserEveryDemoTool(t *testing.T) {
	p := startPreview(t, demoConfig())
	b := p.tab(t, browsertest.Start(t))
	tools := p.e.Registry().List()
	if len(tools) < 8 {
		t.Fatalf("demo lists %d tools, want 8", len(tools))
	}
	for _, tool := range tools {
		b.open("/preview/"+tool.Name+"?conserve=0", "ready")
		// The view got the host context: the tool, theme, display mode, platform.
		var hc struct {
			ToolInfo struct {
				Tool struct {
					Name string         `json:"name"`
					Meta map[string]any `json:"_meta"`
				} `json:"tool"`
			} `json:"toolInfo"`
			Theme, DisplayMode, Platform, Locale, TimeZone string
			Styles                                         struct{ Variables map[string]string }
		}
		raw := b.frame(`(w) => w.genuiApp.getHostContext()`)
		if err := json.Unmarshal(raw, &hc); err != nil {
			t.Fatalf("%s: host context %s: %v", tool.Name, raw, err)
		}
		if hc.ToolInfo.Tool.Name != tool.Name || hc.DisplayMode != "inline" || hc.Platform != "web" || hc.Locale == "" ||
			hc.TimeZone == "" || (hc.Theme != "light" && hc.Theme != "dark") || hc.Styles.Variables["--color-background-primary"] == "" {
			t.Errorf("%s: host context %s", tool.Name, raw)
		}
		if hc.ToolInfo.Tool.Meta["ui"] == nil {
			t.Errorf("%s: toolInfo.tool lacks the UI metadata hosts see: %s", tool.Name, raw)
		}
		// The page read its rich views through the preview host (resources/read of
		// its ui://genui/pack/ block, answered by the engine).
		b.waitFrame(`(w, d) => d.body.dataset.richViews === "in" && !!w.GenuiRich && w.performance.getEntriesByName("genui-deferred").length === 1`)
		// The frame is on the other origin and sandboxed.
		var origin string
		_ = json.Unmarshal(b.frame(`(w) => w.origin`), &origin)
		if origin != p.uiTS.URL {
			t.Errorf("%s: frame origin %q, want the UI origin %s", tool.Name, origin, p.uiTS.URL)
		}
		if got := b.eval(`document.getElementById("ui").getAttribute("sandbox")`); got != `"allow-scripts allow-same-origin allow-forms"` {
			t.Errorf("%s: sandbox = %s", tool.Name, got)
		}
	}
}

func TestPreviewBrowserDeepLinkCalls(t *testing.T) {
	p := startPreview(t, demoConfig())
	b := p.tab(t, browsertest.Start(t))
	for _, tc := range []struct {
		tool, args string
		needle     string // JS on the CallToolResult r: a value the UI must show
	}{
		{"get_current_weather", `{"location":"Berlin"}`, `r.structuredContent.conditions`},
		{"get_forecast", `{"location":"Lisbon","days":3}`, `r.structuredContent.days[2].date`},
		{"datastore_search", `{"q":"lamp","limit":5}`, `r.structuredContent.records[0].name`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			b.t = t
			b.open("/preview/"+tc.tool+"?conserve=0"+argsQuery(tc.args)+"&call=1", "result")
			var needle string
			if err := json.Unmarshal([]byte(b.eval(`((r) => `+tc.needle+`)(genuiPreview.lastResult.result)`)), &needle); err != nil || needle == "" {
				t.Fatalf("no %s in the result: %v; raw result: %s", tc.needle, err, b.eval(`genuiPreview.lastResult`))
			}
			if got := b.eval(`genuiPreview.lastResult.result.isError || false`); got != "false" {
				t.Fatalf("the demo answered with an error: %s", b.eval(`genuiPreview.lastResult`))
			}
			b.waitFrame(fmt.Sprintf(`(w, d) => d.body.textContent.includes(%q)`, needle))
			// The input reached the view too, exactly once, before the result.
			var methods []string
			_ = json.Unmarshal([]byte(b.eval(`genuiPreview.log.filter(e => e.dir === "out" && e.method.startsWith("ui/notifications/tool-")).map(e => e.method)`)), &methods)
			if strings.Join(methods, ",") != "ui/notifications/tool-input,ui/notifications/tool-result" {
				t.Errorf("host -> view notifications %v", methods)
			}
			if raw := b.eval(`document.getElementById("raw-result").textContent`); !strings.Contains(raw, needle) {
				t.Errorf("raw result panel lacks %q", needle)
			}
		})
	}
}

func TestPreviewBrowserVisibility(t *testing.T) {
	p := startPreview(t, demoConfig())
	b := p.tab(t, browsertest.Start(t))
	b.open("/preview/get_current_weather?conserve=0", "ready")

	call := func(name, args string) (ok json.RawMessage, errMsg string) {
		var out struct {
			OK  json.RawMessage `json:"ok"`
			Err string          `json:"err"`
		}
		raw := b.frame(fmt.Sprintf(`async (w) => { try { return {ok: await w.genuiApp.callServerTool({name: %q, arguments: %s})}; } catch (e) { return {err: String(e.message)}; } }`, name, args))
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out.OK, out.Err
	}
	// App-only: allowed; the demo answers (an unknown job is its own isError result).
	ok, errMsg := call("get_battery_status", `{"job_id": "job-404"}`)
	if errMsg != "" || !strings.Contains(string(ok), "job-404") {
		t.Fatalf("app-only get_battery_status from the UI: ok=%s err=%q", ok, errMsg)
	}
	// Model-only: refused with a clear error in the UI and in the log.
	ok, errMsg = call("reset_demo", `{}`)
	if ok != nil || !strings.Contains(errMsg, `"reset_demo" is not callable from an app`) || !strings.Contains(errMsg, `["model"]`) {
		t.Fatalf("model-only reset_demo from the UI: ok=%s err=%q", ok, errMsg)
	}
	b.poll(`genuiPreview.log.some(e => e.error && e.method.includes("reset_demo") && e.detail.includes("not callable from an app"))`, 10*time.Second)
	b.poll(`[...document.querySelectorAll("#log li.error")].some(li => li.textContent.includes("reset_demo"))`, 10*time.Second)
	p.waitQueue(t, 10*time.Second, func(ev contract.QueuedEvent) bool {
		return ev.Source == "preview" && ev.Type == "tools/call" && strings.Contains(string(ev.Payload), "get_battery_status")
	})
	p.waitQueue(t, 10*time.Second, func(ev contract.QueuedEvent) bool {
		return ev.Type == "ui/error" && strings.Contains(string(ev.Payload), "reset_demo")
	})

	// The generated UI of reset_demo itself offers no Run button (a
	// conforming host refuses the call) and says why.
	b.open("/preview/reset_demo?conserve=0", "ready")
	b.waitFrame(`(w, d) => !d.getElementById("submit") && d.getElementById("model-only").textContent.includes("Only the model calls reset_demo")`)

	// ui/message, ui/update-model-context and ui/open-link reach the log and the queue.
	b.frame(`async (w) => { const a = w.genuiApp;
		await a.sendMessage({role: "user", content: [{type: "text", text: "hello from the UI"}]});
		await a.updateModelContext({structuredContent: {picked: 42}});
		await a.openLink({url: "https://example.com/docs"});
		return true; }`)
	for _, typ := range []string{"ui/message", "ui/update-model-context", "ui/open-link"} {
		b.poll(fmt.Sprintf(`genuiPreview.log.some(e => e.dir === "in" && e.method === %q)`, typ), 10*time.Second)
		p.waitQueue(t, 10*time.Second, func(ev contract.QueuedEvent) bool { return ev.Type == typ && ev.Tool == "reset_demo" })
	}
}

func TestPreviewBrowserRefineReloadsFrame(t *testing.T) {
	p := startPreview(t, demoConfig())
	b := p.tab(t, browsertest.Start(t))
	b.open("/preview/get_forecast?conserve=0"+argsQuery(`{"location":"Oslo","days":2}`)+"&call=1", "result")
	b.poll(`document.body.dataset.events === "open"`, 10*time.Second)
	b.frame(`(w) => { w.__beforeRefine = true; return true; }`)

	browsertest.Run(t, b.ctx, 15*time.Second,
		chromedp.SetValue(chromedp.CSS("#feedback"), "title: Hello"),
		chromedp.Click(chromedp.CSS("#refine")),
	)
	p.waitQueue(t, 10*time.Second, func(ev contract.QueuedEvent) bool {
		return ev.Type == "refine-request" && ev.Tool == "get_forecast" && strings.Contains(string(ev.Payload), "title: Hello") && strings.Contains(string(ev.Payload), `"applied":true`)
	})
	// A new frame, a second handshake, and the last input and result delivered again.
	b.poll(`genuiPreview.handshakes === 2 && document.body.dataset.appStatus === "result"`, 20*time.Second)
	// The new UI carries the refinement (the offline generator applies "title: X").
	b.waitFrame(`(w, d) => w.__beforeRefine === undefined && d.body.textContent.includes("2026-01-16") && d.querySelector("h1") && d.querySelector("h1").textContent.includes("Hello")`)
	if n := b.eval(`genuiPreview.log.filter(e => e.dir === "in" && e.method === "ui/initialize").length`); n != "2" {
		t.Errorf("ui/initialize seen %s times, want 2", n)
	}
	in, _ := p.e.Inspect(context.Background(), "get_forecast")
	hist := in.History
	if len(hist) != 1 || hist[0].Feedback != "title: Hello" {
		t.Errorf("refinement history %+v", hist)
	}
	if got := b.eval(`document.getElementById("refine-status").textContent`); !strings.Contains(got, "Refined") {
		t.Errorf("refine status %s", got)
	}
}

func TestPreviewBrowserConserveMode(t *testing.T) {
	p := startPreview(t, demoConfig())
	browser := browsertest.Start(t)
	first := p.tab(t, browser)
	first.open("/preview/get_forecast?conserve=1", "ready")
	first.poll(`document.body.dataset.conserve === "live"`, 5*time.Second)

	tab2 := newTab(t, browser)
	second := p.tab(t, tab2)
	browsertest.Run(t, tab2, 45*time.Second,
		chromedp.Navigate(p.apiTS.URL+"/preview/get_current_weather?conserve=1"+argsQuery(`{"location":"Reykjavik"}`)+"&call=1"),
		chromedp.WaitVisible(chromedp.CSS("#conserve-notice")),
	)
	if got := second.eval(`[document.body.dataset.conserve, document.getElementById("conserve-notice").textContent.includes("Already open in another tab"), !!document.getElementById("ui")]`); got != `["elsewhere",true,false]` {
		t.Errorf("second tab: %s", got)
	}
	// The first tab took over the new tool, args and call.
	first.poll(`location.pathname === "/preview/get_current_weather" && document.body.dataset.appStatus === "result"`, 30*time.Second)
	first.waitFrame(`(w, d) => d.body.textContent.includes("Reykjavik")`)

	// conserve=0 opts out: a third tab goes live by itself.
	tab3 := newTab(t, browser)
	third := p.tab(t, tab3)
	third.open("/preview/get_tiny_image?conserve=0", "ready")
	if got := first.eval(`location.pathname`); got != `"/preview/get_current_weather"` {
		t.Errorf("a conserve=0 tab took over the first tab: %s", got)
	}
}

// testUpstream is a hand-written raw JSON-RPC upstream with tools the demo
// lacks: one whose own UI calls fetch() on load, one with a hostile
// description.
type testUpstream struct {
	mu        sync.Mutex
	resources map[string]string // uri -> contents item JSON
}

const hostileDescription = `<img src=x onerror=window.pwned=1><script>window.pwned=2</script>`

func newTestUpstream() *testUpstream {
	leaky := `<!doctype html><html><head><meta charset="utf-8"><title>leaky</title><script>` + mcpshim.AppJS() + `</script></head>
<body><h1>leaky app</h1><script>
const app = new McpApps.App({name: "leaky", version: "1.0.0"}, {});
window.genuiApp = app;
app.connect().then(() => { document.body.dataset.connected = "1"; });
fetch("https://example.com/x").then(() => { document.body.dataset.fetch = "allowed"; }, () => { document.body.dataset.fetch = "blocked"; });
</script></body></html>`
	item := func(uri, html string, meta any) string {
		m := map[string]any{"uri": uri, "mimeType": "text/html;profile=mcp-app", "text": html}
		if meta != nil {
			m["_meta"] = meta
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	return &testUpstream{resources: map[string]string{
		"ui://leaky/app":    item("ui://leaky/app", leaky, nil),
		"ui://declared/app": item("ui://declared/app", "<p>declared</p>", map[string]any{"ui": map[string]any{"csp": map[string]any{"connectDomains": []string{"https://api.example.com"}, "resourceDomains": []string{"https://cdn.example.com", "https://bad.example; script-src *"}}}}),
	}}
}

var testTools = []string{
	`{"name":"leaky","description":"its own UI fetches a remote URL","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://leaky/app"}}}`,
	`{"name":"declared","description":"its own UI declares a CSP","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://declared/app"}}}`,
	`{"name":"hostile","title":"<b>bold</b>","description":` + mustJSON(hostileDescription) + `,"inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`,
	`{"name":` + mustJSON(hostileName) + `,"description":"a hostile upstream's tool name","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`,
	`{"name":"_ui_secret","description":"an upstream tool whose name looks like a wrapper's; model only","inputSchema":{"type":"object"},"_meta":{"ui":{"visibility":["model"]}}}`,
}

// hostileName is a tool name a hostile upstream might send.
const hostileName = `x"><img src=y onerror=window.pwned=3>`

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (u *testUpstream) serve(ctx context.Context, r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	out := func(b []byte) { _, _ = w.Write(append(b, '\n')) }
	for sc.Scan() {
		m, err := jsonrpc.Parse(sc.Bytes())
		if err != nil || !m.IsRequest() {
			continue
		}
		reply := func(res string) { out(jsonrpc.NewResult(m.ID, json.RawMessage(res))) }
		switch m.Method {
		case "initialize":
			reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"preview-test","version":"1"}}`)
		case "tools/list":
			reply(`{"tools":[` + strings.Join(testTools, ",") + `]}`)
		case "tools/call":
			reply(`{"content":[{"type":"text","text":"ok"}]}`)
		case "resources/read":
			var p struct {
				URI string `json:"uri"`
			}
			_ = json.Unmarshal(m.Params, &p)
			u.mu.Lock()
			item, ok := u.resources[p.URI]
			u.mu.Unlock()
			if !ok {
				out(jsonrpc.NewErrorResponse(m.ID, &jsonrpc.Error{Code: jsonrpc.CodeResourceNotFound, Message: "Resource not found"}))
				continue
			}
			reply(`{"contents":[` + item + `]}`)
		case "ping":
			reply(`{}`)
		default:
			out(jsonrpc.NewErrorResponse(m.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found: " + m.Method}))
		}
	}
	return sc.Err()
}

func testUpstreamConfig() upstream.Config {
	return upstream.Config{Transport: "inprocess", InProcess: newTestUpstream().serve}
}

func TestPreviewOwnUIDeclaredCSP(t *testing.T) {
	p := startPreview(t, testUpstreamConfig())
	resp, body := get(t, p.uiTS.URL+"/frame/declared")
	want, _ := BuildCSP(&UICSP{ConnectDomains: []string{"https://api.example.com"}, ResourceDomains: []string{"https://cdn.example.com"}})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Security-Policy") != want {
		t.Fatalf("declared CSP: %d %q, want %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"), want)
	}
	if !strings.Contains(want, "connect-src https://api.example.com") || strings.Contains(want, "bad.example") {
		t.Fatalf("policy %q", want)
	}
	// The upstream's own HTML is served as is (plus the reporter), not genui's.
	if !strings.HasSuffix(body, "<p>declared</p>") || !strings.Contains(body, CSPReporterAttr) {
		t.Errorf("frame body %q", body)
	}
}

func TestPreviewBrowserCSPViolationIsLogged(t *testing.T) {
	p := startPreview(t, testUpstreamConfig())
	b := p.tab(t, browsertest.Start(t))
	b.open("/preview/leaky?conserve=0", "ready")
	b.waitFrame(`(w, d) => d.body.dataset.fetch === "blocked"`)
	b.poll(`genuiPreview.log.some(e => e.error && e.method.startsWith("CSP blocked") && e.detail.includes("example.com") && e.detail.includes("connect-src"))`, 10*time.Second)
	b.poll(`[...document.querySelectorAll("#log li.error")].some(li => li.textContent.includes("CSP blocked"))`, 5*time.Second)
	p.waitQueue(t, 10*time.Second, func(ev contract.QueuedEvent) bool {
		return ev.Source == "preview" && ev.Type == "ui/error" && ev.Tool == "leaky" && strings.Contains(string(ev.Payload), "example.com")
	})
	if got := b.eval(`document.getElementById("own-ui").textContent`); !strings.Contains(got, "ui://leaky/app") {
		t.Errorf("own-UI badge %s", got)
	}
}

func TestPreviewBrowserHostileToolText(t *testing.T) {
	p := startPreview(t, testUpstreamConfig())
	b := p.tab(t, browsertest.Start(t))
	b.open("/preview/hostile?conserve=0", "ready")
	var got struct {
		Pwned       any    `json:"pwned"`
		Description string `json:"description"`
		Title       string `json:"title"`
		Elements    int    `json:"elements"`
		DocTitle    string `json:"docTitle"`
	}
	raw := b.eval(`({pwned: window.pwned === undefined ? null : window.pwned,
		description: document.getElementById("tool-description").textContent,
		title: document.getElementById("tool-title").textContent,
		elements: document.querySelectorAll(".tool-head img, .tool-head b, .tool-head script").length,
		docTitle: document.title})`)
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if got.Pwned != nil || got.Elements != 0 {
		t.Fatalf("hostile description ran or became markup: %s", raw)
	}
	if got.Description != hostileDescription || got.Title != "<b>bold</b>" {
		t.Errorf("hostile text not shown verbatim: %s", raw)
	}
	// Visible, not just present.
	b.poll(`document.getElementById("tool-description").getBoundingClientRect().height > 0`, 5*time.Second)
}

// A page's ui/open-link with a file:, javascript: or other non-web URL is
// refused (isError) and shown as text with a copy button, never as a
// link; an https link is still offered.
func TestPreviewBrowserOpenLinkOnlyWeb(t *testing.T) {
	p := startPreview(t, demoConfig())
	b := p.tab(t, browsertest.Start(t))
	b.open("/preview/get_forecast?conserve=0", "ready")
	got := b.frame(`async (w) => { const a = w.genuiApp, out = {};
		for (const u of ["javascript:alert(document.domain)", "file:///etc/passwd", "JavaScript:void(0)", " javascript:x", "data:text/html,hi", "https://example.com/docs"]) {
			out[u] = (await a.openLink({url: u})).isError === true;
		}
		return out; }`)
	var refused map[string]bool
	if err := json.Unmarshal(got, &refused); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	for u, isErr := range refused {
		if want := u != "https://example.com/docs"; isErr != want {
			t.Errorf("openLink(%q): isError %v, want %v", u, isErr, want)
		}
	}
	b.poll(`genuiPreview.log.filter(e => e.method.startsWith("open-link refused")).length === 5`, 10*time.Second)
	b.poll(`[...document.querySelectorAll("#log a")].some(a => a.href === "https://example.com/docs")`, 10*time.Second)
	if bad := b.eval(`[...document.querySelectorAll("#log a")].map(a => a.getAttribute("href")).filter(h => !/^https?:/.test(h))`); bad != "[]" {
		t.Fatalf("non-web links in the log: %s", bad)
	}
	if n := b.eval(`[...document.querySelectorAll("#log li.error")].filter(li => li.textContent.includes("file:///etc/passwd") && li.querySelector("button.copy-link")).length`); n != "1" {
		t.Fatalf("the refused file: URL is not shown with a copy button (%s)\n%s", n, b.logText())
	}
}
