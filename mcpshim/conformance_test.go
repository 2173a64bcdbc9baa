package mcpshim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
)

// Conformance of genui's App (app.js) and AppBridge (host.js) with the MCP
// Apps spec 2026-01-26 and the official SDK: a real headless Chromium run of
// both sides records every message on the wire, and each one is validated
// against the SDK's generated JSON Schema (npm @modelcontextprotocol/ext-apps,
// dist/src/generated/schema.json, installed by scripts/test-deps.sh).

const schemaID = "https://modelcontextprotocol.io/ext-apps/schema.json"

// appsSchema compiles the $defs of the SDK's schema.json; a missing package
// skips the test (fails it under CI=true).
type appsSchema struct {
	c    *jsonschema.Compiler
	defs map[string]*jsonschema.Schema
}

func loadAppsSchema(t *testing.T) *appsSchema {
	t.Helper()
	path := filepath.Join(testenv.NPMDir(), "node_modules", "@modelcontextprotocol", "ext-apps", "dist", "src", "generated", "schema.json")
	b, err := os.ReadFile(path)
	if err != nil {
		testenv.Missingf(t, "npm package @modelcontextprotocol/ext-apps schema: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	// Each $def is added as a document of its own: the generator wrote them
	// standalone, and three of them (McpUiHostContext and the two messages
	// that embed it) hold "#/$defs/__schema0" refs that only resolve inside
	// the def itself, not against the combined file.
	root, ok := doc.(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	if !ok || len(defs) == 0 {
		t.Fatalf("%s has no $defs", path)
	}
	relaxed := relaxGeneratorArtifacts(root)
	if relaxed < 2 {
		t.Fatalf("schema.json changed shape: relaxed %d generator artifacts, want at least 2 (styles.variables, containerDimensions); re-check relaxGeneratorArtifacts", relaxed)
	}
	t.Logf("relaxed %d generator artifacts in schema.json", relaxed)
	c := jsonschema.NewCompiler()
	for name, def := range defs {
		if err := c.AddResource(schemaID+"/"+name, def); err != nil {
			t.Fatalf("add schema %s: %v", name, err)
		}
	}
	return &appsSchema{c: c, defs: map[string]*jsonschema.Schema{}}
}

// relaxGeneratorArtifacts undoes two places where the generated JSON Schema
// is stricter than the SDK's own runtime (zod) schemas and the spec, which
// both accept what it rejects, and returns how many places it changed:
//   - McpUiStyles (a zod record keyed by an enum) comes out with every
//     style variable "required", though hosts may send any subset;
//   - containerDimensions (a zod intersection of two unions of objects) comes
//     out as allOf of closed objects, which no value can satisfy: even the
//     spec's own example {"width": 400, "maxHeight": 600} fails.
func relaxGeneratorArtifacts(v any) int {
	n := 0
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			n += relaxGeneratorArtifacts(e)
		}
	case map[string]any:
		if req, ok := t["required"].([]any); ok && len(req) > 0 && allPrefixed(req, "--") {
			delete(t, "required")
			n++
		}
		if merged := mergeClosedIntersection(t); merged != nil {
			delete(t, "allOf")
			t["type"] = "object"
			t["properties"] = merged
			t["additionalProperties"] = false
			n++
		}
		for _, e := range t {
			n += relaxGeneratorArtifacts(e)
		}
	}
	return n
}

// mergeClosedIntersection recognises allOf: [anyOf: [closed objects], ...]
// and returns the union of all branch properties (nil for anything else):
// one closed object with every property optional, which accepts what the
// TypeScript type ({height}|{maxHeight}) & ({width}|{maxWidth}) accepts and
// still rejects unknown fields and wrongly typed values.
func mergeClosedIntersection(t map[string]any) map[string]any {
	all, ok := t["allOf"].([]any)
	if !ok || len(all) == 0 {
		return nil
	}
	merged := map[string]any{}
	for _, part := range all {
		p, _ := part.(map[string]any)
		anyOf, _ := p["anyOf"].([]any)
		if len(anyOf) == 0 {
			return nil
		}
		for _, branch := range anyOf {
			b, _ := branch.(map[string]any)
			props, _ := b["properties"].(map[string]any)
			if b["additionalProperties"] != false || props == nil {
				return nil
			}
			for k, v := range props {
				merged[k] = v
			}
		}
	}
	return merged
}

func allPrefixed(names []any, prefix string) bool {
	for _, n := range names {
		if s, ok := n.(string); !ok || !strings.HasPrefix(s, prefix) {
			return false
		}
	}
	return true
}

// validate checks the JSON value v against $defs/def.
func (s *appsSchema) validate(def string, v any) error {
	sch, ok := s.defs[def]
	if !ok {
		var err error
		sch, err = s.c.Compile(schemaID + "/" + def)
		if err != nil {
			return fmt.Errorf("compile %s: %w", def, err)
		}
		s.defs[def] = sch
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// Schema definitions of requests and notifications, by method, and of
// results, by the method of the request they answer.
var (
	messageDefs = map[string]string{
		"ui/initialize":                         "McpUiInitializeRequest",
		"ui/notifications/initialized":          "McpUiInitializedNotification",
		"ui/notifications/tool-input":           "McpUiToolInputNotification",
		"ui/notifications/tool-input-partial":   "McpUiToolInputPartialNotification",
		"ui/notifications/tool-result":          "McpUiToolResultNotification",
		"ui/notifications/tool-cancelled":       "McpUiToolCancelledNotification",
		"ui/notifications/host-context-changed": "McpUiHostContextChangedNotification",
		"ui/notifications/size-changed":         "McpUiSizeChangedNotification",
		"ui/notifications/request-teardown":     "McpUiRequestTeardownNotification",
		"ui/resource-teardown":                  "McpUiResourceTeardownRequest",
		"ui/message":                            "McpUiMessageRequest",
		"ui/open-link":                          "McpUiOpenLinkRequest",
		"ui/update-model-context":               "McpUiUpdateModelContextRequest",
		"ui/request-display-mode":               "McpUiRequestDisplayModeRequest",
		"ui/download-file":                      "McpUiDownloadFileRequest",
	}
	resultDefs = map[string]string{
		"ui/initialize":           "McpUiInitializeResult",
		"ui/resource-teardown":    "McpUiResourceTeardownResult",
		"ui/message":              "McpUiMessageResult",
		"ui/open-link":            "McpUiOpenLinkResult",
		"ui/request-display-mode": "McpUiRequestDisplayModeResult",
		"ui/download-file":        "McpUiDownloadFileResult",
	}
	// Methods the schema has no definition for (core MCP or test-only);
	// they are checked by hand or not at all.
	unschematized = map[string]bool{
		"tools/call": true, "tools/list": true, "resources/read": true, "resources/list": true,
		"ping": true, "notifications/message": true, "notifications/progress": true,
		"notifications/cancelled": true, "x/custom": true, "x/echo": true,
	}
	logLevels = map[string]bool{"debug": true, "info": true, "notice": true, "warning": true, "error": true, "critical": true, "alert": true, "emergency": true}
)

func TestSchemaRejectsBadMessages(t *testing.T) {
	s := loadAppsSchema(t)
	bad := []struct {
		def string
		msg string
	}{
		{"McpUiInitializeRequest", `{"method":"ui/initialize","params":{"appCapabilities":{},"protocolVersion":"2026-01-26"}}`},
		{"McpUiRequestDisplayModeRequest", `{"method":"ui/request-display-mode","params":{"mode":"huge"}}`},
		{"McpUiMessageRequest", `{"method":"ui/message","params":{"role":"assistant","content":[]}}`},
		{"McpUiHostContextChangedNotification", `{"method":"ui/notifications/host-context-changed","params":{"theme":"blue"}}`},
		{"McpUiToolResultNotification", `{"method":"ui/notifications/tool-result","params":{"content":[{"type":"text"}]}}`},
		// Still strict where relaxGeneratorArtifacts loosened the schema.
		{"McpUiHostContextChangedNotification", `{"method":"ui/notifications/host-context-changed","params":{"containerDimensions":{"width":"wide"}}}`},
		{"McpUiHostContextChangedNotification", `{"method":"ui/notifications/host-context-changed","params":{"containerDimensions":{"width":400,"depth":3}}}`},
		{"McpUiHostContextChangedNotification", `{"method":"ui/notifications/host-context-changed","params":{"styles":{"variables":{"--not-a-variable":"x"}}}}`},
	}
	for _, b := range bad {
		var v any
		if err := json.Unmarshal([]byte(b.msg), &v); err != nil {
			t.Fatal(err)
		}
		if err := s.validate(b.def, v); err == nil {
			t.Errorf("%s accepted the bad message %s", b.def, b.msg)
		}
	}
	good := []struct {
		def string
		msg string
	}{
		{"McpUiRequestDisplayModeRequest", `{"method":"ui/request-display-mode","params":{"mode":"pip"}}`},
		// The spec's own example context: a subset of variables, width + maxHeight.
		{"McpUiHostContextChangedNotification", `{"method":"ui/notifications/host-context-changed","params":{"theme":"dark","styles":{"variables":{"--font-sans":"serif"}},"containerDimensions":{"width":400,"maxHeight":600}}}`},
	}
	for _, g := range good {
		var v any
		if err := json.Unmarshal([]byte(g.msg), &v); err != nil {
			t.Fatal(err)
		}
		if err := s.validate(g.def, v); err != nil {
			t.Errorf("%s rejected the good message %s: %v", g.def, g.msg, err)
		}
	}
}

// conformanceView is a UI written against the SDK's App API, using every
// part of it a generated UI may rely on.
const conformanceView = `<!doctype html><html><head><title>conformance</title></head><body><p>conformance</p>
<script type="module">
import { App } from "@modelcontextprotocol/ext-apps";
const out = window.out = [];
const app = new App({ name: "conformance", version: "1.0.0" }, { availableDisplayModes: ["inline", "fullscreen"] }, { timeout: 3000 });
app.ontoolinputpartial = (p) => out.push(["partial", p.arguments]);
app.ontoolinput = (p) => out.push(["input", p.arguments]);
app.ontoolresult = (r) => out.push(["result", r.structuredContent]);
app.ontoolcancelled = (p) => out.push(["cancelled", p.reason]);
app.onhostcontextchanged = (p) => out.push(["ctx", p]);
app.onteardown = async () => { out.push(["teardown"]); return {}; };
app.setNotificationHandler("x/custom", (p) => out.push(["custom", p]));
app.setRequestHandler("x/echo", { params: {} }, (p) => ({ echo: p.v }));
app.registerTool("app_add", { description: "adds two numbers", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
  async (args) => ({ content: [{ type: "text", text: String(args.a + args.b) }], structuredContent: { sum: args.a + args.b } }));
const connecting = app.connect();
// Called during the handshake: must reach the host only after initialized.
window.early = app.callServerTool({ name: "echo", arguments: { early: true } });
await connecting;
window.app = app;
document.body.dataset.ready = "1";
</script></body></html>`

// conformanceHost drives the view with genui's AppBridge and a host context
// shaped like the preview page's (viewdefs/preview.html.tmpl).
const conformanceHost = `<!doctype html><html><body>
<iframe id="ui" sandbox="allow-scripts allow-same-origin allow-forms" style="width: 600px; border: 0"></iframe>
<script>%s</script>
<script>
window.hostLog = [];
window.seen = { displayModes: [] };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const bridge = new McpHost.AppBridge(document.getElementById("ui"), {
  strict: true,
  hostInfo: { name: "conformance-host", version: "1.0.0" },
  hostCapabilities: { serverTools: {}, serverResources: {}, openLinks: {}, logging: {}, downloadFile: {},
    message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } },
  hostContext: {
    toolInfo: { id: 7, tool: { name: "echo", description: "echoes", inputSchema: { type: "object", properties: { x: { type: "string" } } } } },
    theme: "light",
    styles: { variables: { "--color-text-primary": "#111111", "--font-sans": "serif" }, css: { fonts: "" } },
    displayMode: "inline", availableDisplayModes: ["inline", "fullscreen", "pip"],
    containerDimensions: { width: 600, maxHeight: 4000 },
    locale: "en-US", timeZone: "UTC", platform: "web", userAgent: "genui-preview/test",
    deviceCapabilities: { touch: false, hover: true }
  },
  onMessage: (dir, msg) => window.hostLog.push({ dir: dir, msg: JSON.parse(JSON.stringify(msg)) }),
  onCallTool: async (p) => {
    if (p.name === "never") return new Promise(() => {});
    if (p.name === "slow") {
      const tok = p._meta && p._meta.progressToken;
      for (let i = 1; i <= 4; i++) {
        await sleep(120);
        if (tok !== undefined) bridge.notify("notifications/progress", { progressToken: tok, progress: i, total: 4 });
      }
    }
    return { content: [{ type: "text", text: "ok" }], structuredContent: { echoed: p.arguments || {} } };
  },
  onReadResource: (p) => ({ contents: [{ uri: p.uri, mimeType: "text/plain", text: "hi" }] }),
  onListResources: () => ({ resources: [] }),
  onOpenLink: () => ({}),
  onSendMessage: () => ({}),
  onUpdateModelContext: () => ({}),
  onRequestDisplayMode: (p) => { window.seen.displayModes.push(p.mode); return { mode: p.mode }; },
  onDownloadFile: () => ({}),
  onLog: (p) => { window.seen.log = p; },
  onRequestTeardown: () => { window.seen.requestTeardown = true; }
});
window.bridge = bridge;
bridge.start();
// Before the view exists. A result before any input is a host bug.
window.pre = {};
try { bridge.sendToolResult({ content: [] }); window.pre.resultFirst = "sent"; } catch (e) { window.pre.resultFirst = e.message; }
bridge.sendToolInputPartial({ x: "pa" });
bridge.sendToolInput({ x: "full" });
bridge.sendToolInputPartial({ x: "late" }); // dropped: partials stop after tool-input
document.getElementById("ui").src = %s;
</script></body></html>`

type wireEntry struct {
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func TestConformanceInBrowser(t *testing.T) {
	schema := loadAppsSchema(t)
	ctx := openBridgePage(t, conformanceView, conformanceHost)

	frame := func(fn string) string {
		t.Helper()
		return string(browsertest.MustFrameEval(t, ctx, "#ui", fn))
	}
	host := func(expr string) string {
		t.Helper()
		tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		s, err := chromedp.Run(tctx, chromedp.Evaluate[string]("Promise.resolve("+expr+").then(v => JSON.stringify(v))", chromedp.EvalAwaitPromise))
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
	expectNot := func(what, got, unwanted string) {
		t.Helper()
		if strings.Contains(got, unwanted) {
			t.Errorf("%s = %s, want no %s", what, got, unwanted)
		}
	}

	// Host ordering rules: nothing before initialized, partial before input,
	// no partial after input, no result before input.
	expect("result before input", host(`window.pre.resultFirst`), `before sendToolInput`)
	out := frame(`(w) => w.out`)
	expect("partial then input", out, `[["partial",{"x":"pa"}],["input",{"x":"full"}]]`)
	expectNot("partial after input", out, `"late"`)
	expect("call made during the handshake", frame(`(w) => w.early.then(r => r.structuredContent)`), `{"echoed":{"early":true}}`)
	order := host(`window.hostLog.map(m => m.dir + ":" + (m.msg.method || "response")).join(",")`)
	expect("handshake order", order, `in:ui/initialize,out:response,in:ui/notifications/initialized,`)
	init := strings.Index(order, "in:ui/notifications/initialized")
	for _, m := range []string{"in:tools/call", "out:ui/notifications/tool-input", "out:ui/notifications/tool-input-partial"} {
		if i := strings.Index(order, m); i >= 0 && i < init {
			t.Errorf("%s before initialized: %s", m, order)
		}
	}
	expect("tools/call carries a progress token", host(`window.hostLog.find(m => m.msg.method === "tools/call").msg.params._meta`), `"progressToken"`)

	// Host -> view notifications and requests.
	host(`(bridge.sendToolResult({ content: [{ type: "text", text: "r" }], structuredContent: { n: 1 } }), true)`)
	host(`(bridge.sendToolCancelled("user action"), true)`)
	host(`(bridge.setHostContext({ theme: "dark" }), bridge.setHostContext({ theme: "dark", locale: "en-US" }), true)`)
	browsertest.WaitFrame(t, ctx, "#ui", `(w) => w.out.some(e => e[0] === "ctx")`, 5*time.Second)
	out = frame(`(w) => w.out`)
	expect("result", out, `["result",{"n":1}]`)
	expect("cancelled", out, `["cancelled","user action"]`)
	expect("merged context", frame(`(w) => [w.app.getHostContext().theme, w.app.getHostContext().locale, w.app.getHostContext().toolInfo.tool.name]`), `["dark","en-US","echo"]`)
	if n := host(`window.hostLog.filter(m => m.msg.method === "ui/notifications/host-context-changed").length`); n != "1" {
		t.Errorf("host-context-changed sent %s times, want 1 (unchanged fields are not re-sent)", n)
	}
	expect("view request handler", host(`bridge.request("x/echo", { v: 3 })`), `{"echo":3}`)
	host(`(bridge.notify("x/custom", { k: 1 }), true)`)
	browsertest.WaitFrame(t, ctx, "#ui", `(w) => w.out.some(e => e[0] === "custom")`, 5*time.Second)
	expect("registered tool listed", host(`bridge.request("tools/list", {})`), `"name":"app_add"`)
	expect("registered tool called", host(`bridge.request("tools/call", { name: "app_add", arguments: { a: 2, b: 3 } })`), `"structuredContent":{"sum":5}`)
	expect("init capabilities", host(`bridge.getAppCapabilities()`), `"tools":{"listChanged":true}`)
	expect("host ping", host(`bridge.request("ping", {})`), `{}`)

	// View -> host requests and notifications.
	expect("openLink", frame(`(w) => w.app.openLink({ url: "https://example.com/" })`), `{}`)
	expect("sendMessage", frame(`(w) => w.app.sendMessage({ role: "user", content: [{ type: "text", text: "hi" }] })`), `{}`)
	expect("updateModelContext", frame(`(w) => w.app.updateModelContext({ content: [{ type: "text", text: "ctx" }], structuredContent: { a: 1 } })`), `{}`)
	expect("display mode", frame(`(w) => w.app.requestDisplayMode({ mode: "fullscreen" })`), `{"mode":"fullscreen"}`)
	expect("undeclared display mode", frame(`(w) => w.app.requestDisplayMode({ mode: "pip" })`), `{"mode":"inline"}`)
	expect("host only asked for declared modes", host(`window.seen.displayModes`), `["fullscreen"]`)
	expect("readServerResource", frame(`(w) => w.app.readServerResource({ uri: "file:///x" })`), `"text":"hi"`)
	expect("listServerResources", frame(`(w) => w.app.listServerResources()`), `{"resources":[]}`)
	expect("downloadFile", frame(`(w) => w.app.downloadFile({ contents: [{ type: "resource_link", uri: "file:///x.csv", name: "x.csv" }] })`), `{}`)
	expect("SDK-style request", frame(`(w) => w.app.request({ method: "ping" }, undefined, { timeout: 1000 })`), `{}`)
	frame(`(w) => w.app.sendLog({ level: "info", data: "hello", logger: "probe" })`)
	frame(`(w) => w.app.requestTeardown()`)
	browsertest.Poll(t, ctx, `!!window.seen.log && !!window.seen.requestTeardown`, 5*time.Second)

	// Timeouts: progress resets callServerTool's timeout; a plain request times out.
	expect("progress keeps a slow call alive", frame(`(w) => { const p = []; return w.app.callServerTool({ name: "slow", arguments: {} }, { timeout: 300, onprogress: (x) => p.push(x.progress) }).then(r => [r.structuredContent, p]) }`), `[{"echoed":{}},[1,2,3,4]]`)
	expect("timeout", frame(`(w) => w.app.request("tools/call", { name: "slow", arguments: {} }, { timeout: 200 }).then(() => "resolved", e => [e.code, e.message])`), `[-32001,"MCP Apps: request tools/call timed out after 200 ms`)
	// Abort: rejects at once and tells the host.
	expect("abort", frame(`(w) => { const c = new AbortController(); const p = w.app.callServerTool({ name: "never" }, { signal: c.signal }); c.abort("stop"); return p.then(() => "resolved", e => e.message); }`), `aborted: stop`)
	browsertest.Poll(t, ctx, `window.hostLog.some(m => m.msg.method === "notifications/cancelled" && m.msg.params.reason === "stop")`, 5*time.Second)
	expect("teardown", host(`bridge.teardown()`), `{}`)
	browsertest.WaitFrame(t, ctx, "#ui", `(w) => w.out.some(e => e[0] === "teardown")`, 5*time.Second)
	expect("strict before connect", frame(`(w) => new w.McpApps.App({ name: "s", version: "1" }, {}, { strict: true }).callServerTool({ name: "x" }).then(() => "resolved", e => e.message)`), `called before connect()`)

	// Wait for the slow call the view gave up on, so its late answer is in the log too.
	browsertest.Poll(t, ctx, `(() => {
		const slow = window.hostLog.filter(e => e.dir === "in" && e.msg.method === "tools/call" && e.msg.params && e.msg.params.name === "slow").map(e => e.msg.id);
		return slow.length >= 2 && slow.every(id => window.hostLog.some(e => e.dir === "out" && e.msg.id === id && !e.msg.method));
	})()`, 10*time.Second)
	validateWire(t, schema, host(`window.hostLog`))

	// Bad params are refused with -32602 (after the capture: they are invalid on purpose).
	expect("bad role", frame(`(w) => w.app.sendMessage({ role: "assistant", content: [] }).then(() => "resolved", e => [e.code, e.message])`), `[-32602,"ui/message: invalid params: role must be \"user\""]`)
	expect("no url", frame(`(w) => w.app.request("ui/open-link", {}).then(() => "resolved", e => e.code)`), `-32602`)
	expect("bad mode", frame(`(w) => w.app.requestDisplayMode({ mode: "huge" }).then(() => "resolved", e => e.code)`), `-32602`)
	expect("bad tool name", frame(`(w) => w.app.request("tools/call", { name: 3 }).then(() => "resolved", e => e.code)`), `-32602`)
	expect("unknown method", frame(`(w) => w.app.request("x/nope", {}).then(() => "resolved", e => e.code)`), `-32601`)
	expect("host ignores nothing-after-close", frame(`(w) => w.app.close().then(() => w.app.sendLog({ level: "info", data: "x" })).then(() => "sent", e => e.message)`), `not connected`)
}

// validateWire checks every captured message against the SDK's schema and
// fails unless each schema-defined message kind was seen at least once.
func validateWire(t *testing.T, s *appsSchema, logJSON string) {
	t.Helper()
	var log []wireEntry
	if err := json.Unmarshal([]byte(logJSON), &log); err != nil {
		t.Fatalf("hostLog: %v", err)
	}
	requests := map[string]string{} // dir + id -> method
	seen := map[string]int{}
	check := func(i int, def string, v any) {
		if err := s.validate(def, v); err != nil {
			t.Errorf("message %d does not match %s: %v\n%s", i, def, err, log[i].Msg)
		}
		seen[def]++
	}
	for i, e := range log {
		var m wireMsg
		if err := json.Unmarshal(e.Msg, &m); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		var full map[string]any
		_ = json.Unmarshal(e.Msg, &full)
		if full["jsonrpc"] != "2.0" {
			t.Errorf("message %d has no jsonrpc 2.0: %s", i, e.Msg)
		}
		switch {
		case m.Method != "":
			if len(m.ID) > 0 {
				requests[e.Dir+string(m.ID)] = m.Method
			}
			body := map[string]any{"method": m.Method}
			if p, ok := full["params"]; ok {
				body["params"] = p
			}
			if def, ok := messageDefs[m.Method]; ok {
				check(i, def, body)
			} else if m.Method == "notifications/message" {
				var p struct {
					Level string `json:"level"`
					Data  any    `json:"data"`
				}
				if json.Unmarshal(m.Params, &p) != nil || !logLevels[p.Level] || p.Data == nil {
					t.Errorf("message %d: bad logging notification %s", i, e.Msg)
				}
			} else if !unschematized[m.Method] {
				t.Errorf("message %d: unexpected method %q", i, m.Method)
			}
		default: // a response: it answers a request that went the other way
			other := "in"
			if e.Dir == "in" {
				other = "out"
			}
			method := requests[other+string(m.ID)]
			if method == "" {
				t.Errorf("message %d answers no known request: %s", i, e.Msg)
				continue
			}
			if m.Error != nil {
				t.Errorf("message %d: unexpected error answer to %s: %s", i, method, e.Msg)
				continue
			}
			var result any
			if err := json.Unmarshal(m.Result, &result); err != nil || result == nil {
				t.Errorf("message %d: response to %s has no result: %s", i, method, e.Msg)
				continue
			}
			if def, ok := resultDefs[method]; ok {
				check(i, def, result)
			} else if method == "tools/call" {
				// A CallToolResult: the schema has it as the tool-result params.
				check(i, "McpUiToolResultNotification", map[string]any{"method": "ui/notifications/tool-result", "params": result})
			}
		}
	}
	var missing []string
	for _, defs := range []map[string]string{messageDefs, resultDefs} {
		for _, def := range defs {
			if seen[def] == 0 {
				missing = append(missing, def)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no message validated against %v (%d messages captured)", missing, len(log))
	}
	t.Logf("validated %d messages against the SDK schema: %v", len(log), seen)
}
