package httpapi

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

// sdkHostPage is a minimal web host built on the SDK's AppBridge (no MCP
// client: tool calls are answered by oncalltool). It loads the UI from the
// other origin in an iframe sandboxed like real hosts do. The SDK's
// host-side modules come from node_modules through the import map (%s).
// %s: the tool definition JSON, %s: the UI URL.
const sdkHostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>SDK host</title>
%s
</head>
<body data-status="loading">
<iframe id="ui" sandbox="allow-scripts allow-same-origin allow-forms" style="width: 760px; height: 1200px; border: 0"></iframe>
<script type="module">
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
window.calls = [];
window.sizes = [];
window.hostErrors = [];
const tool = %s;
const iframe = document.getElementById("ui");
try {
  const bridge = new AppBridge(null, { name: "sdk-host", version: "1.0.0" },
    { openLinks: {}, serverTools: {}, logging: {} },
    { hostContext: { theme: "dark", displayMode: "inline", platform: "web", locale: "en-US", toolInfo: { tool } } });
  bridge.oninitialized = () => { document.body.dataset.status = "initialized"; };
  bridge.onsizechange = (p) => { window.sizes.push(p); };
  bridge.oncalltool = async (params) => {
    window.calls.push(params);
    return {
      content: [{ type: "text", text: "host answered for " + params.arguments.location }],
      structuredContent: { location: params.arguments.location, units: "metric",
        days: [{ date: "2030-02-03", high: 11, low: 4, precipitation_mm: 0.5, conditions: "bridge weather" }] },
    };
  };
  window.bridge = bridge;
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  document.body.dataset.connected = "1";
  iframe.src = %s;
} catch (e) {
  window.hostErrors.push(String(e && e.stack || e));
  document.body.dataset.status = "error";
}
</script>
</body></html>`

// TestInteropGenuiUIUnderSDKBridge: a genui UI (the engine's offline UI of
// the demo's get_forecast) works under the SDK's AppBridge: the handshake
// completes on the SDK's side, sendToolInput and sendToolResult render, and
// a form submit arrives at the SDK host's oncalltool with typed arguments.
func TestInteropGenuiUIUnderSDKBridge(t *testing.T) {
	nm := nodeModules(t)
	imports, err := browsertest.ModuleImportMap(nm, browsertest.ExtAppsBridge, "/node_modules/")
	if err != nil {
		t.Fatalf("import map for the SDK's app-bridge.js: %v", err)
	}
	imports["@modelcontextprotocol/ext-apps/app-bridge"] = "/node_modules/" + browsertest.ExtAppsBridge

	// The genui UI exactly as genui serves it to hosts.
	p := startPreview(t, demoConfig())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ui, err := p.e.UI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	tool, ok := p.e.Registry().Get("get_forecast")
	if !ok {
		t.Fatal("demo has no get_forecast")
	}
	uiSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ui/get_forecast" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Security-Policy", DefaultCSP)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(ui.HTML))
	}))
	t.Cleanup(uiSrv.Close)

	mux := http.NewServeMux()
	mux.Handle("GET /node_modules/", http.StripPrefix("/node_modules/", browsertest.NodeModulesHandler(nm)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		src, _ := json.Marshal(uiSrv.URL + "/ui/get_forecast")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, sdkHostPage, browsertest.ImportMapScript(imports), p.s.toolJSON(tool), src)
	})
	hostSrv := httptest.NewServer(mux)
	t.Cleanup(hostSrv.Close)

	bctx := browsertest.Start(t)
	browsertest.Run(t, bctx, 30*time.Second, chromedp.Navigate(hostSrv.URL+"/"))
	pollHost := func(expr string) {
		t.Helper()
		rctx, cancel := context.WithTimeout(bctx, 20*time.Second)
		defer cancel()
		if _, err := chromedp.Run(rctx, chromedp.Poll[bool](expr)); err != nil {
			errs, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`JSON.stringify(window.hostErrors || "no host script")`))
			t.Fatalf("waiting in the SDK host for %s: %v (host errors: %s)", expr, err, errs)
		}
	}
	evalHost := func(expr string) string {
		t.Helper()
		rctx, cancel := context.WithTimeout(bctx, 15*time.Second)
		defer cancel()
		s, err := chromedp.Run(rctx, chromedp.Evaluate[string]("JSON.stringify("+expr+")"))
		if err != nil {
			t.Fatalf("eval %s: %v", expr, err)
		}
		return s
	}
	waitFrame := func(cond string) {
		t.Helper()
		browsertest.WaitFrame(t, bctx, "#ui", cond, 15*time.Second)
	}

	// Handshake: the SDK's oninitialized fired; the genui App saw the SDK's
	// host info and context.
	pollHost(`document.body.dataset.status === "initialized"`)
	if got := evalHost(`[bridge.getAppVersion().name.length > 0, !!bridge.getAppCapabilities()]`); got != "[true,true]" {
		t.Errorf("SDK host: app version/capabilities after initialize = %s", got)
	}
	var hc struct {
		Theme    string
		ToolName string
		Host     string
	}
	raw := browsertest.MustFrameEval(t, bctx, "#ui", `(w) => ({Theme: w.genuiApp.getHostContext().theme, ToolName: w.genuiApp.getHostContext().toolInfo.tool.name, Host: w.genuiApp.getHostVersion().name})`)
	if err := json.Unmarshal(raw, &hc); err != nil || hc.Theme != "dark" || hc.ToolName != "get_forecast" || hc.Host != "sdk-host" {
		t.Errorf("genui App's view of the SDK host: %s (%v)", raw, err)
	}
	// Auto-resize reached the SDK host.
	pollHost(`window.sizes.some(s => s.height > 100)`)

	// sendToolInput pre-fills the form; sendToolResult renders.
	evalHost(`(bridge.sendToolInput({arguments: {location: "Bergen", days: 4, units: "imperial"}}), true)`)
	waitFrame(`(w, d) => d.getElementById("f-location").value === "Bergen" && d.getElementById("f-days").value === "4" && d.getElementById("f-units").selectedOptions[0].textContent === "imperial"`)
	evalHost(`(bridge.sendToolResult({content: [{type: "text", text: "sent by the SDK host"}],
		structuredContent: {location: "Bergen", units: "imperial", days: [{date: "2031-05-06", high: 50, low: 41, precipitation_mm: 2, conditions: "sdk drizzle"}]}}), true)`)
	// This host proxies no resource reads (no serverResources), so the page
	// draws without its rich views: the text and the structured data, whole.
	waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").textContent.includes("2031-05-06") && d.getElementById("result").textContent.includes("sdk drizzle") && d.getElementById("result").textContent.includes("sent by the SDK host")`)
	waitFrame(`(w, d) => d.body.dataset.richViews === "plain" && d.getElementById("plain-note").textContent.includes("serverResources")`)

	// A real form submit reaches the SDK host's oncalltool with typed arguments.
	browsertest.FrameType(t, bctx, "#ui", "#f-location", "Tromsø")
	browsertest.FrameType(t, bctx, "#ui", "#f-days", "2")
	browsertest.FrameClick(t, bctx, "#ui", "#submit")
	pollHost(`window.calls.length === 1`)
	var call struct {
		Name      string                     `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(evalHost(`window.calls[0]`)), &call); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"location": `"Tromsø"`, "days": `2`, "units": `"imperial"`}
	if call.Name != "get_forecast" || len(call.Arguments) != len(want) {
		t.Fatalf("oncalltool got %s %v, want get_forecast with %v", call.Name, call.Arguments, want)
	}
	for k, v := range want {
		if string(call.Arguments[k]) != v {
			t.Errorf("argument %s = %s, want %s (typed JSON)", k, call.Arguments[k], v)
		}
	}
	// The SDK host's answer renders in the genui UI.
	waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").textContent.includes("bridge weather")`)
	if errs := evalHost(`window.hostErrors`); errs != "[]" {
		t.Errorf("SDK host errors: %s", errs)
	}
	if got := evalHost(`document.body.dataset.connected`); !strings.Contains(got, "1") {
		t.Errorf("SDK host never connected: %s", got)
	}
}
