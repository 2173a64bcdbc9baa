package mcpshim

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
)

const defaultCSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'"

// probeView imports App the way LLM-written UIs do (from a CDN URL, aliased);
// Inject must make it work under the default CSP.
const probeView = `<!doctype html><html><head><title>probe</title></head><body><p>probe</p>
<script type="module">
import { App as McpApp } from "https://esm.sh/@modelcontextprotocol/ext-apps@1";
const out = [];
window.out = out;
const app = new McpApp({ name: "probe", version: "1.0.0" }, { tools: {} }, { timeout: 300 });
app.ontoolinput = (p) => out.push(["input", p.arguments]);
app.onhostcontextchanged = (p) => out.push(["ctx", p]);
app.onteardown = async () => { out.push(["teardown"]); return { bye: true }; };
await app.connect();
window.app = app;
document.body.dataset.ready = "1";
</script></body></html>`

const probeHost = `<!doctype html><html><body>
<iframe id="ui" sandbox="allow-scripts allow-same-origin allow-forms" style="width: 600px; border: 0"></iframe>
<script>%s</script>
<script>
window.hostLog = [];
window.seen = {};
const never = () => new Promise(() => {});
const record = (k) => (p) => { window.seen[k] = p; return {}; };
const bridge = new McpHost.AppBridge(document.getElementById("ui"), {
  hostInfo: { name: "probe-host", version: "2.0.0" },
  hostContext: { theme: "dark", locale: "de-DE", styles: { variables: { "--font-sans": "serif" } } },
  onMessage: (dir, msg) => window.hostLog.push({ dir: dir, msg: msg }),
  onOpenLink: record("openLink"),
  onUpdateModelContext: record("modelContext"),
  onLog: record("log"),
  onSendMessage: never,
  onRequestDisplayMode: (p) => ({ mode: p.mode })
});
window.bridge = bridge;
bridge.start();
bridge.sendToolInput({ queued: true }); // before the view exists: must wait for initialized
document.getElementById("ui").src = %s;
</script></body></html>`

// openBridgePage serves view (shim-injected) from one origin with the default
// CSP, and hostTmpl (filled with HostJS and the view's URL) from another,
// opens the host page in Chromium and waits for the view to set
// body[data-ready="1"].
func openBridgePage(t *testing.T, view, hostTmpl string) context.Context {
	t.Helper()
	page := Inject(view)
	uiSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", defaultCSP)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(uiSrv.Close)
	src, _ := json.Marshal(uiSrv.URL + "/view")
	hostSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, hostTmpl, HostJS(), src)
	}))
	t.Cleanup(hostSrv.Close)
	ctx := browsertest.Start(t)
	browsertest.Run(t, ctx, 20*time.Second, chromedp.Navigate(hostSrv.URL))
	browsertest.WaitFrame(t, ctx, "#ui", `(w, d) => d.body.dataset.ready === "1"`, 10*time.Second)
	return ctx
}

func TestAppAndBridgeInBrowser(t *testing.T) {
	ctx := openBridgePage(t, probeView, probeHost)

	frame := func(fn string) string {
		t.Helper()
		return string(browsertest.MustFrameEval(t, ctx, "#ui", fn))
	}
	host := func(expr string) string {
		t.Helper()
		tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		s, err := chromedp.Run(tctx, chromedp.Evaluate[string]("JSON.stringify("+expr+")"))
		if err != nil {
			t.Fatalf("host eval %s: %v", expr, err)
		}
		return s
	}
	expect := func(what, got, want string) {
		t.Helper()
		if !strings.Contains(got, want) {
			t.Errorf("%s = %s, want it to contain %s", what, got, want)
		}
	}

	// Handshake results and the queued tool-input, delivered after initialized.
	expect("host context", frame(`(w) => w.app.getHostContext()`), `"locale":"de-DE"`)
	expect("host version", frame(`(w) => w.app.getHostVersion()`), `"name":"probe-host"`)
	expect("theme", frame(`(w, d) => [d.documentElement.dataset.theme, d.documentElement.style.colorScheme, getComputedStyle(d.documentElement).getPropertyValue("--font-sans")]`), `["dark","dark","serif"]`)
	expect("queued input", frame(`(w) => w.out`), `["input",{"queued":true}]`)
	expect("message order", host(`window.hostLog.map(m => m.msg.method || "result").join(",")`), `ui/initialize,result,ui/notifications/initialized,ui/notifications/tool-input`)

	// Requests: results, JSON-RPC errors, timeouts, argument checks.
	expect("openLink", frame(`(w) => w.app.openLink({url: "https://example.com/a"})`), `{}`)
	expect("host saw openLink", host(`window.seen.openLink`), `{"url":"https://example.com/a"}`)
	expect("display mode", frame(`(w) => w.app.requestDisplayMode({mode: "fullscreen"})`), `{"mode":"fullscreen"}`)
	expect("model context", frame(`(w) => w.app.updateModelContext({structuredContent: {n: 1}})`), `{}`)
	expect("host saw model context", host(`window.seen.modelContext`), `{"structuredContent":{"n":1}}`)
	expect("unrouted request", frame(`(w) => w.app.readServerResource({uri: "file:///x"}).then(() => "resolved", e => e.message)`), `Method not found: resources/read`)
	expect("timeout", frame(`(w) => w.app.sendMessage({role: "user", content: [{type: "text", text: "hi"}]}).then(() => "resolved", e => e.message)`), `timed out after 300 ms`)
	expect("string tool name", frame(`(w) => w.app.callServerTool("get_forecast").then(() => "resolved", e => e.message)`), `expects an object`)
	frame(`(w) => w.app.sendLog({level: "info", data: "hello"})`)
	browsertest.Poll(t, ctx, `!!window.seen.log`, 5*time.Second)
	expect("log", host(`window.seen.log`), `{"level":"info","data":"hello"}`)

	// Host context changes merge and re-theme; teardown is answered by onteardown.
	host(`(bridge.setHostContext({theme: "light"}), true)`)
	browsertest.WaitFrame(t, ctx, "#ui", `(w, d) => d.documentElement.dataset.theme === "light"`, 5*time.Second)
	expect("merged context", frame(`(w) => w.app.getHostContext()`), `"theme":"light"`)
	expect("merged context keeps locale", frame(`(w) => w.app.getHostContext()`), `"locale":"de-DE"`)
	expect("ctx handler", frame(`(w) => w.out`), `["ctx",{"theme":"light"}]`)
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	bye, err := chromedp.Run(tctx, chromedp.Evaluate[string](`bridge.teardown().then(r => JSON.stringify(r))`, chromedp.EvalAwaitPromise))
	if err != nil || bye != `{"bye":true}` {
		t.Errorf("teardown = %s, %v", bye, err)
	}

	// A tool-result that arrived with no handler is replayed once to a handler set later.
	host(`(bridge.sendToolResult({content: [{type: "text", text: "late"}]}), true)`)
	browsertest.WaitFrame(t, ctx, "#ui", `(w) => w.app._last.toolresult !== undefined`, 5*time.Second)
	frame(`(w) => { w.app.ontoolresult = (r) => w.out.push(["late", r.content[0].text]); return true; }`)
	browsertest.WaitFrame(t, ctx, "#ui", `(w) => w.out.some(e => e[0] === "late")`, 5*time.Second)
	frame(`(w) => { w.app.ontoolresult = (r) => w.out.push(["late", r.content[0].text]); return true; }`)
	// Counted after a turn of the frame's event loop: a second replay the
	// setter queued (as a microtask or a task) would have run by then.
	if n := frame(`(w) => new Promise(r => setTimeout(r, 0)).then(() => w.out.filter(e => e[0] === "late").length)`); n != "1" {
		t.Errorf("late tool-result delivered %s times, want 1", n)
	}

	// The host refuses ui/initialize without the required params.
	frame(`(w) => { w.parent.postMessage({jsonrpc: "2.0", id: "bad-init", method: "ui/initialize", params: {appInfo: {name: "x", version: "1"}}}, "*"); return true; }`)
	browsertest.Poll(t, ctx, `window.hostLog.some(m => m.msg.id === "bad-init" && m.msg.error)`, 5*time.Second)
	expect("bad init error", host(`window.hostLog.find(m => m.msg.id === "bad-init" && m.msg.error).msg.error`), `missing required params: appCapabilities, protocolVersion`)
}

// resizeView connects at once, is busy for 120 ms once connected (a page
// still unpacking and building), and only then, a task later, takes the tool
// result the host sent right after the handshake: it draws a 900 px block.
const resizeView = `<!doctype html><html><head><title>resize</title></head><body style="margin: 0"><p>resize</p>
<script type="module">
import { App } from "@modelcontextprotocol/ext-apps";
const app = new App({ name: "resize", version: "1.0.0" }, {});
window.app = app;
await app.connect();
const end = performance.now() + 120;
while (performance.now() < end) {}
setTimeout(() => {
  app.ontoolresult = () => {
    const d = document.createElement("div");
    d.style.height = "900px";
    document.body.appendChild(d);
    window.drawn = true;
  };
  document.body.dataset.ready = "1";
}, 0);
</script></body></html>`

const resizeHost = `<!doctype html><html><body>
<iframe id="ui" sandbox="allow-scripts allow-same-origin" style="width: 600px; border: 0"></iframe>
<script>%s</script>
<script>
window.sizes = [];
const bridge = new McpHost.AppBridge(document.getElementById("ui"), {
  hostInfo: { name: "resize-host", version: "1.0.0" },
  hostContext: { theme: "light" },
  autoResize: false,
  onSizeChanged: (p) => window.sizes.push(p.height)
});
bridge.start();
bridge.sendToolInput({});
bridge.sendToolResult({ content: [{ type: "text", text: "tall" }] });
document.getElementById("ui").src = %s;
</script></body></html>`

// TestAutoResizeReportsTheResultsSize: the first size-changed comes after the
// first tool result was drawn, not from a page still getting ready (whose
// size the host would lay its frame out for only to do so again); the old
// 30 ms timer after connect reported the page without its result first.
func TestAutoResizeReportsTheResultsSize(t *testing.T) {
	ctx := openBridgePage(t, resizeView, resizeHost)
	browsertest.WaitFrame(t, ctx, "#ui", `(w) => w.drawn === true`, 10*time.Second)
	browsertest.Poll(t, ctx, `window.sizes.length > 0`, 5*time.Second)
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	sizes, err := chromedp.Run(tctx, chromedp.Evaluate[string](`JSON.stringify(window.sizes)`))
	if err != nil {
		t.Fatal(err)
	}
	var hs []float64
	if err := json.Unmarshal([]byte(sizes), &hs); err != nil || len(hs) == 0 {
		t.Fatalf("sizes = %s, %v", sizes, err)
	}
	if hs[0] < 900 {
		t.Errorf("first reported height %v (all: %s), want the drawn result's (>= 900)", hs[0], sizes)
	}
}

// TestAutoResizeReportsWithoutAResult: a page that gets no result still
// tells the host its size (at an idle moment after the handshake).
func TestAutoResizeReportsWithoutAResult(t *testing.T) {
	ctx := openBridgePage(t, probeView, probeHost)
	browsertest.Poll(t, ctx, `window.hostLog.some(m => m.msg.method === "ui/notifications/size-changed" && m.msg.params.height > 0)`, 5*time.Second)
}
