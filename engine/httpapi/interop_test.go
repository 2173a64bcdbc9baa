package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
)

// Interop with the official MCP Apps SDK (npm @modelcontextprotocol/ext-apps,
// installed by scripts/test-deps.sh; test-only): a page built on the SDK's
// App runs inside genui's preview host (this file), and a genui UI runs under
// the SDK's AppBridge (interop_bridge_test.go).

// nodeModules is the node_modules directory scripts/test-deps.sh fills; a
// missing ext-apps skips the test (fails it under CI=true).
func nodeModules(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(testenv.NPMDir(), "node_modules")
	for _, f := range []string{browsertest.ExtAppsAppBundle, browsertest.ExtAppsBridge} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			testenv.Missingf(t, "npm package @modelcontextprotocol/ext-apps: %v", err)
		}
	}
	return dir
}

// sdkAppPage is an MCP App written against the SDK the way its examples
// are: handlers set before connect(), results rendered into the DOM, a
// button that calls a server tool. %s is the app-with-deps bundle rewritten
// to assign its exports to window.SDK (an inline module cannot import
// another inline module, and the default CSP forbids external scripts).
const sdkAppPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>SDK app</title></head>
<body>
<h1 id="sdk-title">Built with @modelcontextprotocol/ext-apps</h1>
<p>input: <code id="input"></code></p>
<p>result: <code id="result"></code></p>
<button id="call" type="button">call sdk_tool</button>
<p>called: <code id="called"></code></p>
<p>error: <code id="error"></code></p>
<script type="module">
%s
const { App } = window.SDK;
const app = new App({ name: "sdk-test", version: "1" });
window.sdkApp = app;
window.sdkResults = [];
app.ontoolinput = (p) => { document.getElementById("input").textContent = JSON.stringify(p.arguments); };
app.ontoolresult = (r) => {
  window.sdkResults.push(r);
  document.getElementById("result").textContent = r.content.map((c) => c.text).join(" | ");
};
document.getElementById("call").addEventListener("click", async () => {
  try {
    const r = await app.callServerTool({ name: "sdk_tool", arguments: { x: 1 } });
    document.getElementById("called").textContent = r.content.map((c) => c.text).join(" | ");
  } catch (e) {
    document.getElementById("error").textContent = String(e && e.message || e);
  }
});
try {
  await app.connect();
  document.body.dataset.connected = JSON.stringify(app.getHostVersion() || {});
} catch (e) {
  document.getElementById("error").textContent = "connect: " + String(e && e.message || e);
}
</script>
</body></html>`

// sdkUpstream is a raw JSON-RPC upstream whose only tool, sdk_tool, ships
// its own UI (ui://sdk/app): the SDK page above. It records every
// tools/call's arguments and numbers its results.
type sdkUpstream struct {
	html  string
	mu    sync.Mutex
	calls []json.RawMessage
}

func (u *sdkUpstream) callArgs() []json.RawMessage {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]json.RawMessage(nil), u.calls...)
}

func (u *sdkUpstream) serve(ctx context.Context, r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	out := func(b []byte) { _, _ = w.Write(append(b, '\n')) }
	for sc.Scan() {
		m, err := jsonrpc.Parse(sc.Bytes())
		if err != nil || !m.IsRequest() {
			continue
		}
		reply := func(v any) {
			b, err := json.Marshal(v)
			if err != nil {
				panic(err)
			}
			out(jsonrpc.NewResult(m.ID, b))
		}
		switch m.Method {
		case "initialize":
			reply(json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"sdk-upstream","version":"1"}}`))
		case "tools/list":
			reply(json.RawMessage(`{"tools":[{"name":"sdk_tool","description":"A tool whose own UI is built with the official SDK.",` +
				`"inputSchema":{"type":"object","properties":{"x":{"type":"integer"}}},"_meta":{"ui":{"resourceUri":"ui://sdk/app"}}}]}`))
		case "tools/call":
			var p struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(m.Params, &p)
			u.mu.Lock()
			u.calls = append(u.calls, p.Arguments)
			n := len(u.calls)
			u.mu.Unlock()
			reply(map[string]any{
				"content":           []any{map[string]any{"type": "text", "text": fmt.Sprintf("sdk answer #%d to %s", n, p.Arguments)}},
				"structuredContent": map[string]any{"n": n},
			})
		case "resources/read":
			var p struct {
				URI string `json:"uri"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if p.URI != "ui://sdk/app" {
				out(jsonrpc.NewErrorResponse(m.ID, &jsonrpc.Error{Code: jsonrpc.CodeResourceNotFound, Message: "Resource not found"}))
				continue
			}
			reply(map[string]any{"contents": []any{map[string]any{"uri": p.URI, "mimeType": "text/html;profile=mcp-app", "text": u.html}}})
		case "ping":
			reply(json.RawMessage(`{}`))
		default:
			out(jsonrpc.NewErrorResponse(m.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found: " + m.Method}))
		}
	}
	return sc.Err()
}

// TestInteropSDKAppInPreview: a page that uses the SDK's App (the
// app-with-deps bundle, inlined) works inside genui's preview host: the
// handshake completes, the deep-link call's input and result render in the
// SDK page, and a callServerTool from the page reaches the upstream with its
// arguments and its result comes back into the page.
func TestInteropSDKAppInPreview(t *testing.T) {
	nm := nodeModules(t)
	bundle, err := os.ReadFile(filepath.Join(nm, filepath.FromSlash(browsertest.ExtAppsAppBundle)))
	if err != nil {
		t.Fatal(err)
	}
	js, err := browsertest.BundleAsGlobal(string(bundle), "SDK")
	if err != nil {
		t.Fatalf("app-with-deps.js: %v", err)
	}
	if strings.Contains(strings.ToLower(js), "</script") {
		t.Fatal("app-with-deps.js contains </script and cannot be inlined")
	}
	up := &sdkUpstream{html: fmt.Sprintf(sdkAppPage, js)}
	p := startPreview(t, upstream.Config{Transport: "inprocess", InProcess: up.serve})
	if tool, ok := p.e.Registry().Get("sdk_tool"); !ok || tool.OwnUI != "ui://sdk/app" {
		t.Fatalf("sdk_tool: own UI not recognised: %+v", tool)
	}
	b := p.tab(t, browsertest.Start(t))

	b.open("/preview/sdk_tool?conserve=0"+argsQuery(`{"x":1}`)+"&call=1", "result")
	// The handshake was the SDK's, answered by genui's host.
	var hostInfo struct{ Name string }
	b.waitFrame(`(w, d) => !!d.body.dataset.connected`)
	_ = json.Unmarshal([]byte(frameString(t, b, `(w, d) => d.body.dataset.connected`)), &hostInfo)
	if hostInfo.Name == "" {
		t.Errorf("the SDK App got no hostInfo from genui's ui/initialize result (%q)", frameString(t, b, `(w, d) => d.body.dataset.connected`))
	}
	b.poll(`genuiPreview.log.some(e => e.dir === "in" && e.method === "ui/initialize" && e.detail.includes("sdk-test"))`, 5*time.Second)

	// The deep-link call: input and result rendered by the SDK page.
	b.waitFrame(`(w, d) => d.getElementById("result").textContent.includes("sdk answer #1")`)
	if got := frameString(t, b, `(w, d) => d.getElementById("input").textContent`); got != `{"x":1}` {
		t.Errorf("SDK page shows tool input %q, want {\"x\":1}", got)
	}
	if calls := up.callArgs(); len(calls) != 1 || string(calls[0]) != `{"x":1}` {
		t.Fatalf("upstream calls after the deep link = %s, want one with {\"x\":1}", calls)
	}

	// A callServerTool from the SDK page, triggered by a real click.
	browsertest.FrameClick(t, b.ctx, "#ui", "#call")
	b.waitFrame(`(w, d) => d.getElementById("called").textContent !== "" || d.getElementById("error").textContent !== ""`)
	if e := frameString(t, b, `(w, d) => d.getElementById("error").textContent`); e != "" {
		t.Fatalf("callServerTool from the SDK page failed: %s\npage log: %s", e, b.logText())
	}
	if got := frameString(t, b, `(w, d) => d.getElementById("called").textContent`); got != `sdk answer #2 to {"x":1}` {
		t.Errorf("SDK page got %q back from callServerTool, want the upstream's second answer", got)
	}
	if calls := up.callArgs(); len(calls) != 2 || string(calls[1]) != `{"x":1}` {
		t.Fatalf("upstream calls = %s, want a second one with {\"x\":1}", calls)
	}
	b.poll(`genuiPreview.log.some(e => e.dir === "in" && e.method.includes("tools/call"))`, 5*time.Second)
	// The page stayed healthy: no errors in the host's log except one the
	// SDK causes in every host: its bundled zod probes eval support with
	// new Function("") (caught), which the default CSP blocks and genui's
	// reporter logs as "CSP blocked eval".
	if errs := b.eval(`genuiPreview.log.filter(e => e.error && !(e.method === "CSP blocked eval" && JSON.parse(e.detail).blockedURI === "eval")).map(e => e.method + " " + e.detail)`); errs != "[]" {
		t.Errorf("preview log has errors: %s", errs)
	}
}

// frameString evaluates fn in the preview's UI frame and returns its string result.
func frameString(t *testing.T, b *tab, fn string) string {
	t.Helper()
	var s string
	raw := b.frame(fn)
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: not a string: %s", fn, raw)
	}
	return s
}
