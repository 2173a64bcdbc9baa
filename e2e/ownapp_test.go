package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// basicAppPkg is the SDK's example server that ships its own MCP App
// (pinned in scripts/npm-packages.txt).
const basicAppPkg = "@modelcontextprotocol/server-basic-vanillajs"

// basicAppCmd is `node <server-basic-vanillajs>/dist/index.js --stdio`.
func basicAppCmd(t *testing.T) []string {
	t.Helper()
	return []string{testenv.NodePath(t), testenv.NPMBin(t, basicAppPkg, ""), "--stdio"}
}

// ownUI is a tool's own UI link: its name and _meta.ui.resourceUri.
func ownUI(t *testing.T, tools []json.RawMessage) (name, uri string, tool json.RawMessage) {
	t.Helper()
	for _, raw := range tools {
		var tl struct {
			Name string `json:"name"`
			Meta struct {
				UI struct {
					ResourceURI string `json:"resourceUri"`
				} `json:"ui"`
			} `json:"_meta"`
		}
		if err := json.Unmarshal(raw, &tl); err != nil {
			t.Fatal(err)
		}
		if tl.Meta.UI.ResourceURI != "" {
			return tl.Name, tl.Meta.UI.ResourceURI, raw
		}
	}
	t.Fatalf("%s lists no tool with _meta.ui.resourceUri: %s", basicAppPkg, mustJSON(tools))
	return "", "", nil
}

// TestOwnAppPreviewsUnchanged: an upstream whose tool ships its own MCP App
// (npm's server-basic-vanillajs) keeps it behind `genui mcp`: the tool's
// definition and _meta are the upstream's, resources/read returns the
// upstream's HTML byte for byte, and genui's browser preview shows that UI
// (not a generated one) and drives it through its host bridge.
func TestOwnAppPreviewsUnchanged(t *testing.T) {
	up := basicAppCmd(t)
	ctx := bounded(t, 2*time.Minute)

	// The upstream on its own, as a host would see it.
	direct := session(t, exec.Command(up[0], up[1:]...), hostHandler())
	if _, err := direct.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	directTools, err := direct.ListAll(ctx, "tools/list", "tools")
	if err != nil {
		t.Fatal(err)
	}
	name, uri, directTool := ownUI(t, directTools)
	if !strings.HasPrefix(uri, "ui://") {
		t.Fatalf("%s's own resourceUri %q is not a ui:// URI", name, uri)
	}
	directRead := readContents(ctx, t, direct, uri)

	// The same upstream behind genui.
	c, dir := genuiMCP(t, append([]string{"--"}, up...)...)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	tools := proxiedToolList(ctx, t, c, map[string]json.RawMessage{name: directTool})
	got, ok := tools[name]
	if !ok {
		t.Fatalf("genui does not list %s; it lists %v", name, mapKeys(tools))
	}
	// Unchanged: the whole definition, _meta included (no genui ui:// link;
	// the legacy flat key, if genui adds one, must name the upstream's URI).
	gotV, wantV := decode(t, got).(map[string]any), decode(t, directTool).(map[string]any)
	if meta, ok := gotV["_meta"].(map[string]any); ok {
		if legacy, ok := meta["ui/resourceUri"]; ok {
			if _, upstreamHas := wantV["_meta"].(map[string]any)["ui/resourceUri"]; !upstreamHas {
				if legacy != uri {
					t.Errorf("genui's legacy _meta[\"ui/resourceUri\"] = %v, want the upstream's %s", legacy, uri)
				}
				delete(meta, "ui/resourceUri")
			}
		}
	}
	if !reflect.DeepEqual(gotV, wantV) {
		t.Errorf("%s changed behind genui:\n got  %s\n want %s", name, got, directTool)
	}
	if strings.Contains(string(got), "ui://"+name+`"`) {
		t.Errorf("genui attached its own ui://%s to a tool that ships its own UI: %s", name, got)
	}

	// resources/read through genui: the upstream's contents, HTML byte for byte.
	viaGenui := readContents(ctx, t, c, uri)
	if len(viaGenui) != 1 || len(directRead) != 1 {
		t.Fatalf("contents items: %d through genui, %d direct; want 1 and 1", len(viaGenui), len(directRead))
	}
	if viaGenui[0].Text != directRead[0].Text {
		t.Errorf("resources/read %s: genui's HTML (%d bytes) differs from the upstream's (%d bytes)", uri, len(viaGenui[0].Text), len(directRead[0].Text))
	}
	if !reflect.DeepEqual(viaGenui[0].All, directRead[0].All) {
		t.Errorf("resources/read %s: contents item differs (beyond the text?)", uri)
	}
	if viaGenui[0].MimeType != "text/html;profile=mcp-app" {
		t.Errorf("mimeType %q", viaGenui[0].MimeType)
	}

	// The preview shows the upstream's own UI.
	api := "http://127.0.0.1:" + strconv.Itoa(waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second))
	b := browsertest.Start(t)
	browsertest.Run(t, b, 60*time.Second, chromedp.Navigate(api+"/preview/"+name+"?conserve=0"))
	poll := func(expr string) {
		t.Helper()
		rctx, cancel := context.WithTimeout(b, 30*time.Second)
		defer cancel()
		if _, err := chromedp.Run(rctx, chromedp.Poll[bool](expr)); err != nil {
			lctx, lcancel := context.WithTimeout(b, 5*time.Second)
			defer lcancel()
			log, _ := chromedp.Run(lctx, chromedp.Evaluate[string](`window.genuiPreview ? genuiPreview.log.map(e => e.dir + " " + e.method + " " + e.detail).join("\n") : document.body.innerText`))
			t.Fatalf("preview: waiting for %s: %v\npage log:\n%s", expr, err, log)
		}
	}
	poll(`document.body.dataset.appStatus === "ready"`)
	poll(fmt.Sprintf(`document.getElementById("own-ui").textContent.includes(%q)`, uri))
	// basic-vanillajs's own markup, unchanged, is what the frame shows.
	browsertest.WaitFrame(t, b, "#ui", `(w, d) => !!d.getElementById("get-time-btn") && !!d.getElementById("server-time") && d.body.textContent.includes("Watch activity in the DevTools console!") && d.title === "Get Time App"`, 15*time.Second)
	if n := string(browsertest.MustFrameEval(t, b, "#ui", `(w, d) => d.querySelectorAll("script:not([data-genui-csp-reporter])").length + ":" + !!w.McpApps`)); n != `"1:false"` {
		t.Errorf("frame scripts: %s, want the app's one bundle and no genui App", n)
	}
	// Its button calls the upstream tool through genui's host; the time comes back.
	before := string(browsertest.MustFrameEval(t, b, "#ui", `(w, d) => d.getElementById("server-time").textContent`))
	browsertest.FrameClick(t, b, "#ui", "#get-time-btn")
	browsertest.WaitFrame(t, b, "#ui", `(w, d) => /^\d{4}-\d\d-\d\dT/.test(d.getElementById("server-time").textContent)`, 20*time.Second)
	poll(fmt.Sprintf(`genuiPreview.log.some(e => e.dir === "in" && e.method.includes("tools/call") && e.detail.includes(%q))`, name))
	// No errors in the preview's log, except the one every SDK-built app
	// causes: the bundled zod probes eval with new Function("") (caught),
	// which the default CSP blocks and genui's reporter logs.
	lctx, lcancel := context.WithTimeout(b, 10*time.Second)
	defer lcancel()
	errs, err := chromedp.Run(lctx, chromedp.Evaluate[string](`JSON.stringify(genuiPreview.log.filter(e => e.error && !(e.method === "CSP blocked eval" && JSON.parse(e.detail).blockedURI === "eval")).map(e => e.method + " " + e.detail))`))
	if err != nil || errs != "[]" {
		t.Errorf("preview log errors: %s %v", errs, err)
	}
	t.Logf("server-time before %s, after %s", before, browsertest.MustFrameEval(t, b, "#ui", `(w, d) => d.getElementById("server-time").textContent`))
}

// contentsItem is one resources/read contents item: the fields compared
// plus the whole item decoded.
type contentsItem struct {
	MimeType string
	Text     string
	All      any
}

// readContents does resources/read of uri and returns its contents items.
func readContents(ctx context.Context, t *testing.T, c *mcptest.Client, uri string) []contentsItem {
	t.Helper()
	res, rpcErr, err := c.Request(ctx, "resources/read", map[string]string{"uri": uri})
	if err != nil || rpcErr != nil {
		t.Fatalf("resources/read %s: %v %v", uri, err, rpcErr)
	}
	var rr struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(res, &rr); err != nil {
		t.Fatalf("resources/read %s: %v", uri, err)
	}
	var out []contentsItem
	for _, raw := range rr.Contents {
		var it struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
		}
		if err := json.Unmarshal(raw, &it); err != nil {
			t.Fatal(err)
		}
		out = append(out, contentsItem{MimeType: it.MimeType, Text: it.Text, All: decode(t, raw)})
	}
	return out
}

func mapKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
