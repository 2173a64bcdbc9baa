package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
)

// defaultCSP is the MCP Apps default CSP, sent as a header like real hosts do.
const defaultCSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'"

const forecastSchema = `{
  "type": "object",
  "properties": {
    "location": {"type": "string", "description": "City name"},
    "days": {"type": "integer", "minimum": 1, "maximum": 14, "default": 7},
    "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
    "include_hourly": {"type": "boolean", "default": false},
    "alerts": {"type": "boolean"},
    "filters": {"type": "object"}
  },
  "required": ["location"]
}`

// hostPage is a minimal MCP Apps host: it loads the UI from another origin in
// a sandboxed iframe and drives it with mcpshim's AppBridge. Tool calls are
// answered from window.replies (queued by the test).
const hostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>test host</title></head>
<body data-app-status="loading">
<iframe id="ui" sandbox="allow-scripts allow-same-origin allow-forms" style="width: 760px; border: 0; height: 200px"></iframe>
<script>%s</script>
<script>
window.hostLog = [];
window.calls = [];
window.replies = [];
const iframe = document.getElementById("ui");
const bridge = new McpHost.AppBridge(iframe, {
  hostInfo: { name: "genui-test-host", version: "1.0.0" },
  hostContext: { theme: "dark", styles: { variables: { "--color-background-primary": "rgb(1, 2, 3)" } }, displayMode: "inline", locale: "en-US" },
  onMessage: function (dir, msg) { window.hostLog.push({ dir: dir, msg: msg }); },
  onInitialized: function () { document.body.dataset.appStatus = "ready"; },
  onReadResource: readDeferred,
  onCallTool: function (params) {
    window.calls.push(params);
    const r = window.replies.shift();
    if (!r) throw new Error("no reply queued");
    if (r.rpcError) { const e = new Error(r.rpcError); e.code = -32000; throw e; }
    return r;
  }
});
window.bridge = bridge;
bridge.start();
iframe.src = %s;
</script>
</body></html>`

type hostMsg struct {
	Dir string `json:"dir"`
	Msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
	} `json:"msg"`
}

// uiServer serves generated pages at /ui/{tool} with the default CSP.
type uiServer struct {
	mu    sync.Mutex
	pages map[string]string
}

func (s *uiServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	page, ok := s.pages[strings.TrimPrefix(r.URL.Path, "/ui/")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Security-Policy", defaultCSP)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(recordViolations(page)))
}

// violationRecorder keeps every CSP violation in the frame's
// window.cspViolations. recordViolations puts it before the page's CSP
// meta tag, so it runs under the host's header policy only and sees every
// violation of both policies.
const violationRecorder = `<script>window.cspViolations = []; document.addEventListener("securitypolicyviolation", function (e) {
  window.cspViolations.push({directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample});
});</script>`

func recordViolations(page string) string {
	if i := strings.Index(page, "<meta http-equiv=\"Content-Security-Policy\" "+pagecsp.Attr); i >= 0 {
		return page[:i] + violationRecorder + page[i:]
	}
	if i := strings.Index(page, "<head>"); i >= 0 {
		return page[:i+len("<head>")] + violationRecorder + page[i+len("<head>"):]
	}
	return violationRecorder + page
}

// cspViolations returns the CSP violations the frame recorded.
func (f *fixture) cspViolations() []map[string]any {
	f.t.Helper()
	var v []map[string]any
	f.frameJSON(`(w, d) => w.cspViolations || [{directive: "no recorder in the page"}]`, &v)
	return v
}

func (s *uiServer) add(t *testing.T, tool Tool) {
	t.Helper()
	res, err := NewOffline().Generate(context.Background(), Request{Tool: tool})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.pages[tool.Name] = res.HTML
	s.mu.Unlock()
}

func (s *uiServer) addHTML(name, html string) {
	s.mu.Lock()
	s.pages[name] = html
	s.mu.Unlock()
}

type fixture struct {
	t    *testing.T
	ctx  context.Context
	host string
}

func newFixture(t *testing.T) (*fixture, *uiServer) { return newFixtureHost(t, hostPage) }

// newFixtureHost is newFixture with another host page (hostPage's two %s).
func newFixtureHost(t *testing.T, hostTmpl string) (*fixture, *uiServer) {
	ctx := browsertest.Start(t)
	ui := &uiServer{pages: map[string]string{}}
	uiSrv := httptest.NewServer(ui)
	t.Cleanup(uiSrv.Close)
	hostSrv := httptest.NewServer(withDeferred(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tool := r.URL.Query().Get("tool")
		src, _ := json.Marshal(uiSrv.URL + "/ui/" + tool)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, hostTmpl, testHostJS(), src)
	})))
	t.Cleanup(hostSrv.Close)
	return &fixture{t: t, ctx: ctx, host: hostSrv.URL}, ui
}

// open loads the host page for tool and waits for the handshake and for
// the page's rich views (richViewsSettled).
func (f *fixture) open(tool string) {
	f.t.Helper()
	f.openHandshake(tool)
	f.waitFrame(richViewsSettled)
}

// openHandshake loads the host page for tool and waits for the handshake
// only.
func (f *fixture) openHandshake(tool string) {
	f.t.Helper()
	browsertest.Run(f.t, f.ctx, 20*time.Second,
		chromedp.Navigate(f.host+"/?tool="+tool),
		chromedp.WaitReady(chromedp.CSS(`body[data-app-status="ready"]`)),
	)
}

// richViewsSettled holds once a page that reads its rich views through the
// host (an offline page: pagepack's deferred block) has them in or has
// given up on them (page.js's body[data-rich-views]), and for any other
// page: a result that comes before them is drawn plainly first, which a
// test on a loaded machine would otherwise meet.
const richViewsSettled = `(w, d) => !w.genuiDeferred || !!d.body.dataset.richViews`

// eval evaluates expr in the host page and decodes its JSON into v.
func (f *fixture) eval(expr string, v any) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(f.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("JSON.stringify("+expr+")"))
	if err != nil {
		f.t.Fatalf("eval %s: %v", expr, err)
	}
	if v != nil {
		if err := json.Unmarshal([]byte(s), v); err != nil {
			f.t.Fatalf("eval %s: %v (%s)", expr, err, s)
		}
	}
}

// poll waits until expr is true in the host page.
func (f *fixture) poll(expr string) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(f.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		f.t.Fatalf("waiting for %s: %v", expr, err)
	}
}

func (f *fixture) frame(fn string) json.RawMessage {
	f.t.Helper()
	return browsertest.MustFrameEval(f.t, f.ctx, "#ui", fn)
}

// setFrameWidth sets the frame's width and waits until the UI has it and
// its layout has settled (layoutSettled): tables stack and charts redraw
// from ResizeObservers, frames after the width changed, and a loaded
// machine measured between the two.
func (f *fixture) setFrameWidth(width int) {
	f.t.Helper()
	f.eval(fmt.Sprintf(`(iframe.style.width = "%dpx", true)`, width), nil)
	f.waitFrame(fmt.Sprintf(`(w, d) => w.innerWidth === %d`, width))
	f.waitFrame(layoutSettled)
}

func (f *fixture) waitFrame(cond string) {
	f.t.Helper()
	browsertest.WaitFrame(f.t, f.ctx, "#ui", cond, 10*time.Second)
}

func (f *fixture) frameText(sel string) string {
	f.t.Helper()
	var s string
	if err := json.Unmarshal(f.frame(fmt.Sprintf(`(w, d) => { const e = d.querySelector(%q); return e ? e.textContent : null; }`, sel)), &s); err != nil {
		f.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func TestMinimalUIInBrowser(t *testing.T) {
	f, ui := newFixture(t)
	ui.add(t, Tool{Name: "get_forecast", Description: "Weather forecast for a city.", InputSchema: json.RawMessage(forecastSchema)})
	f.open("get_forecast")

	// Handshake: ui/initialize with the three required params, then initialized, nothing sent before.
	var log []hostMsg
	f.eval("window.hostLog", &log)
	if len(log) < 3 {
		t.Fatalf("host log too short: %+v", log)
	}
	if log[0].Dir != "in" || log[0].Msg.Method != "ui/initialize" {
		t.Fatalf("first message = %+v, want ui/initialize from the view", log[0])
	}
	var initParams struct {
		AppInfo         *struct{ Name, Version string } `json:"appInfo"`
		AppCapabilities map[string]any                  `json:"appCapabilities"`
		ProtocolVersion string                          `json:"protocolVersion"`
	}
	if err := json.Unmarshal(log[0].Msg.Params, &initParams); err != nil {
		t.Fatal(err)
	}
	if initParams.AppInfo == nil || initParams.AppInfo.Name == "" || initParams.AppCapabilities == nil || initParams.ProtocolVersion != "2026-01-26" {
		t.Fatalf("ui/initialize params = %s", log[0].Msg.Params)
	}
	if log[1].Dir != "out" || string(log[1].Msg.ID) != string(log[0].Msg.ID) || len(log[1].Msg.Result) == 0 {
		t.Fatalf("second message = %+v, want the initialize result", log[1])
	}
	if log[2].Dir != "in" || log[2].Msg.Method != "ui/notifications/initialized" {
		t.Fatalf("third message = %+v, want ui/notifications/initialized", log[2])
	}

	// Host theme and style variables reach the view.
	var theme struct{ Theme, Bg string }
	_ = json.Unmarshal(f.frame(`(w, d) => ({Theme: d.documentElement.dataset.theme, Bg: getComputedStyle(d.body).backgroundColor})`), &theme)
	if theme.Theme != "dark" || theme.Bg != "rgb(1, 2, 3)" {
		t.Errorf("theme = %+v, want dark and rgb(1, 2, 3)", theme)
	}
	// Auto-resize: the host got a size-changed and applied the height.
	f.poll(`window.hostLog.some(m => m.msg.method === "ui/notifications/size-changed" && m.msg.params.height > 100) && parseInt(document.getElementById("ui").style.height) > 100`)

	// tool-input pre-fills the form; tool-result renders.
	f.eval(`(bridge.sendToolInput({location: "Berlin", days: 5, include_hourly: true}), true)`, nil)
	f.waitFrame(`(w, d) => d.getElementById("f-location").value === "Berlin" && d.getElementById("f-days").value === "5" && d.getElementById("f-include_hourly").checked`)
	f.eval(`(bridge.sendToolResult({content: [{type: "text", text: "Sunny in Berlin"}, {type: "text", text: "{\"temp\": 21.5}"}], structuredContent: {city: "Berlin", high_c: 23}}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	res := f.frameText("#result")
	// Text renders as text; JSON text and structuredContent (one record each) render as key/value cards.
	var cards []string
	f.frameJSON(`(w, d) => [...d.querySelectorAll("#result dl.card")].map(e => e.textContent)`, &cards)
	if strings.Join(cards, "|") != "temp21.5|cityBerlinhigh_c23" {
		t.Errorf("record cards = %q, want temp21.5 and cityBerlinhigh_c23", cards)
	}
	for _, want := range []string{"Sunny in Berlin", "Raw JSON"} {
		if !strings.Contains(res, want) {
			t.Errorf("result %q lacks %q", res, want)
		}
	}

	// Fill the form with real input and submit: typed arguments reach the host.
	f.eval(`window.replies.push({content: [{type: "text", text: "Paris: rain"}], structuredContent: {city: "Paris"}})`, nil)
	browsertest.FrameType(t, f.ctx, "#ui", "#f-location", "Paris")
	browsertest.FrameType(t, f.ctx, "#ui", "#f-days", "3")
	browsertest.FrameClick(t, f.ctx, "#ui", "#f-include_hourly") // true -> false
	browsertest.FrameClick(t, f.ctx, "#ui", "#f-alerts")         // unset -> true
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.poll(`window.calls.length === 1`)
	var rawCalls []json.RawMessage
	f.eval("window.calls", &rawCalls)
	var call struct {
		Name      string                     `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(rawCalls[0], &call); err != nil {
		t.Fatal(err)
	}
	wantArgs := map[string]string{"location": `"Paris"`, "days": `3`, "units": `"metric"`, "include_hourly": `false`, "alerts": `true`}
	if call.Name != "get_forecast" || len(call.Arguments) != len(wantArgs) {
		t.Fatalf("tools/call = %s, want get_forecast with %v", rawCalls[0], wantArgs)
	}
	for k, v := range wantArgs {
		if string(call.Arguments[k]) != v {
			t.Errorf("argument %s = %s, want %s (typed JSON)", k, call.Arguments[k], v)
		}
	}
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").textContent.includes("Paris: rain")`)

	// An isError result shows an error.
	f.eval(`window.replies.push({isError: true, content: [{type: "text", text: "unknown city Atlantis"}]})`, nil)
	browsertest.FrameType(t, f.ctx, "#ui", "#f-location", "Atlantis")
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.waitFrame(`(w, d) => d.body.dataset.state === "error"`)
	if got := f.frameText("#result"); !strings.Contains(got, "unknown city Atlantis") || !strings.Contains(got, "reported an error") {
		t.Errorf("isError result shows %q", got)
	}

	// A JSON-RPC error from the host rejects the call and is shown.
	f.eval(`window.replies.push({rpcError: "upstream went away"})`, nil)
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.waitFrame(`(w, d) => d.body.dataset.state === "error" && !d.getElementById("call-error").hidden`)
	if got := f.frameText("#call-error"); !strings.Contains(got, "upstream went away") {
		t.Errorf("call error shows %q", got)
	}

	// Invalid input never reaches the host: days out of range, bad JSON object.
	calls := 0
	f.eval("window.calls.length", &calls)
	browsertest.FrameType(t, f.ctx, "#ui", "#f-days", "99")
	browsertest.FrameType(t, f.ctx, "#ui", "#f-filters", "[1, 2]")
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.waitFrame(`(w, d) => d.querySelectorAll(".field-error:not(:empty)").length === 2`)
	after := 0
	f.eval("window.calls.length", &after)
	if after != calls {
		t.Errorf("invalid form was sent (%d calls, want %d)", after, calls)
	}
}

func TestMinimalUIEscapesHostileDescription(t *testing.T) {
	f, ui := newFixture(t)
	hostile := `<img src=x onerror=alert(1)><script>document.documentElement.dataset.pwned = "1"</script>`
	ui.add(t, Tool{Name: "evil", Title: "<b>Evil</b>", Description: hostile, InputSchema: json.RawMessage(
		`{"type":"object","properties":{"q":{"type":"string","title":"<i>q</i>","description":"<img src=y onerror=alert(2)>"}}}`)})
	f.open("evil")
	var got struct {
		Desc, Title, Label, Hint string
		Imgs                     int
		Pwned                    *string
	}
	raw := f.frame(`(w, d) => ({
		Desc: d.getElementById("tool-description").textContent,
		Title: d.getElementById("tool-title").textContent,
		Label: d.querySelector("label[for=f-q]").textContent,
		Hint: d.querySelector(".hint").textContent,
		Imgs: d.querySelectorAll("img, b, i").length,
		Pwned: d.documentElement.dataset.pwned || null,
	})`)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.Desc != hostile || got.Title != "<b>Evil</b>" || got.Label != "<i>q</i>" || got.Hint != "<img src=y onerror=alert(2)>" {
		t.Errorf("hostile text not shown verbatim: %+v", got)
	}
	if got.Imgs != 0 || got.Pwned != nil {
		t.Errorf("hostile markup became elements: %+v", got)
	}
	// The result renderer treats data as text too.
	f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult({content: [{type: "text", text: "<img src=z onerror=alert(3)>"}, {type: "resource_link", name: "<b>n</b>", uri: "javascript:alert(4)"}, {type: "mystery", html: "<b>x</b>"}]}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	if n := string(f.frame(`(w, d) => d.querySelectorAll("#result img, #result b, #result a").length`)); n != "0" {
		t.Errorf("result markup became %s elements", n)
	}
	if res := f.frameText("#result"); !strings.Contains(res, "<img src=z onerror=alert(3)>") || !strings.Contains(res, `"type": "mystery"`) {
		t.Errorf("result text = %q", res)
	}
}

func TestEmergencyPageInBrowser(t *testing.T) {
	f, ui := newFixture(t)
	page, err := viewdefs.Options{}.Emergency(viewdefs.ToolData{Name: "broken_tool"}, "LLM timed out <after 30s>")
	if err != nil {
		t.Fatal(err)
	}
	html := pagecsp.Apply(mcpshim.Inject(page)) // as the engine serves it
	if p := Validate(html); len(p) > 0 {
		t.Fatalf("emergency page not self-contained: %q", p)
	}
	ui.addHTML("broken_tool", html)
	f.open("broken_tool")
	if got := f.frameText("#reason"); !strings.Contains(got, "LLM timed out <after 30s>") {
		t.Errorf("reason = %q", got)
	}
	f.eval(`(bridge.sendToolInput({q: 1}), bridge.sendToolResult({content: [{type: "text", text: "raw answer"}], structuredContent: {k: "v"}}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	if got := f.frameText("#result"); !strings.Contains(got, `"text": "raw answer"`) || !strings.Contains(got, `"k": "v"`) {
		t.Errorf("result = %q", got)
	}
	if got := f.frameText("#input"); !strings.Contains(got, `"q": 1`) {
		t.Errorf("input = %q", got)
	}
	// Its meta policy (no 'strict-dynamic': the page is not packed) lets
	// everything it does run.
	if v := f.cspViolations(); len(v) > 0 {
		t.Errorf("%d CSP violations under the page's meta policy: %v", len(v), v)
	}
}

func TestMinimalUIRendersContentTypes(t *testing.T) {
	f, ui := newFixture(t)
	ui.add(t, Tool{Name: "render", InputSchema: json.RawMessage(`{"type":"object"}`)})
	f.open("render")
	// A 1x1 PNG.
	const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
	f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult({content: [
		{type: "image", data: "`+png+`", mimeType: "image/png"},
		{type: "audio", data: "AAAA", mimeType: "audio/wav"},
		{type: "resource_link", name: "report", uri: "https://example.com/r.pdf"},
		{type: "resource", resource: {uri: "mem://a", mimeType: "application/json", text: "{\"a\":1}"}},
		{type: "resource", resource: {uri: "mem://b", blob: "AAAAAAAA"}},
		{type: "text", text: "x".repeat(150 * 1024)}
	]}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	var got struct {
		ImgOK, Audio bool
		Text         string
	}
	raw := f.frame(`(w, d) => { const img = d.querySelector("#result img"); return {
		ImgOK: !!img && img.complete && img.naturalWidth === 1,
		Audio: !!d.querySelector("#result audio[src^='data:audio/wav;base64,']"),
		Text: d.getElementById("result").textContent.replace(/x{1000,}/, "XS"),
	}; }`)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if !got.ImgOK || !got.Audio {
		t.Errorf("media not rendered under the CSP: %+v", got)
	}
	// The JSON resource is data (a card); the 150 KB text sits in a bounded box that says its size.
	for _, want := range []string{"report", "https://example.com/r.pdf", "mem://a (application/json)a1", "Binary blob, 6 bytes", "1 line · 150 KBCopy"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("result text lacks %q: %q", want, got.Text)
		}
	}
	// The Raw JSON toggle shows the whole result.
	browsertest.FrameClick(t, f.ctx, "#ui", "details.raw summary")
	f.waitFrame(`(w, d) => { const p = d.querySelector("details.raw pre"); return !!p && p.textContent.includes('"mimeType": "image/png"'); }`)
}

// TestPageWithoutTextReadersDrawsText: a tool whose structured output
// holds no string gets a page without the text readers and the markdown
// parser (viewdefs.TextCanReach); a text result it receives all the same
// (markdown, log lines, an error) is still drawn, by text.js's own readers
// and its plain text box, and JSON in text is still read as data.
func TestPageWithoutTextReadersDrawsText(t *testing.T) {
	f, ui := newFixture(t)
	tool := Tool{Name: "measure", InputSchema: json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"value":{"type":"number"}}}`)}
	ui.add(t, tool)
	page, err := NewOffline().Generate(context.Background(), Request{Tool: tool})
	if err != nil {
		t.Fatal(err)
	}
	if unpacked, _ := pagepack.Unpack(page.HTML); strings.Contains(unpacked, "GenuiLines={") || strings.Contains(unpacked, "GenuiTextData={") || strings.Contains(unpacked, "GenuiMarkdown={") {
		t.Fatal("the page carries the text readers: this test would not test their absence")
	}
	f.open("measure")
	for _, tc := range []struct{ result, want string }{
		{`{content: [{type: "text", text: "# Report\n\nAll **good**: see the [docs](https://example.com)."}]}`, "All **good**"},
		{`{content: [{type: "text", text: "2026-12-02T10:00:00Z INFO started\n2026-12-02T10:00:01Z ERROR failed to bind"}]}`, "ERROR failed to bind"},
		{`{content: [{type: "text", text: "{\"value\": 21.5}"}], structuredContent: {value: 21.5}}`, "21.5"},
	} {
		f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult(`+tc.result+`), true)`, nil)
		f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").textContent.includes(` + strconv.Quote(tc.want) + `)`)
	}
	f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult({isError: true, content: [{type: "text", text: "Error: the sensor is offline"}]}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.textContent.includes("the sensor is offline")`)
}

// readDeferredJS is the test hosts' onReadResource (readDeferred): a page's
// read of its deferred scripts (pagepack's ui://genui/pack/ block, the rich
// views) answered from the host server's /genui-deferred (withDeferred), as
// genui's MCP server answers it; any other URI is not found.
const readDeferredJS = `
function readDeferred(params) {
  return fetch("/genui-deferred?uri=" + encodeURIComponent(params.uri)).then(function (r) {
    if (!r.ok) { const e = new Error("Resource not found: " + params.uri); e.code = -32002; throw e; }
    return r.json();
  });
}`

// testHostJS is mcpshim's host script with readDeferred beside it.
func testHostJS() string { return mcpshim.HostJS() + readDeferredJS }

// withDeferred serves the pages' deferred blocks
// (browsertest.ServePageBlocks, which readDeferredJS asks) and hands every
// other request to h.
func withDeferred(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != browsertest.PageBlocksPath {
			h.ServeHTTP(w, r)
			return
		}
		browsertest.ServePageBlocks(w, r)
	})
}
