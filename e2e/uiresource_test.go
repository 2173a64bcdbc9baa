package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// appMIME is the only MIME type hosts recognise as an MCP App.
const appMIME = "text/html;profile=mcp-app"

// TestUIResourcesDemo reads every ui:// resource genui serves for its demo
// upstream (in-process, and as a `genui demo-server` stdio child) and checks
// the MCP Apps contract: one contents item, the exact MIME type, and HTML
// that is self-contained (no bare imports, nothing loaded from elsewhere).
func TestUIResourcesDemo(t *testing.T) {
	bin := testenv.GenuiBinary(t)
	modes := map[string][]string{
		"in-process": nil,
		"stdio":      {"--", bin, "demo-server"},
	}
	for mode, extra := range modes {
		t.Run(mode, func(t *testing.T) {
			c, _ := genuiMCP(t, extra...)
			ctx := bounded(t, 3*time.Minute)
			if _, err := c.Initialize(ctx, protocol, nil); err != nil {
				t.Fatal(err)
			}
			tools, err := c.ListTools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var upstream int
			linked := map[string]bool{} // ui:// URIs tools point at
			for _, tool := range tools {
				if strings.HasPrefix(tool.Name, "_ui_") {
					continue
				}
				upstream++
				var meta struct {
					UI struct {
						ResourceURI string `json:"resourceUri"`
					} `json:"ui"`
					Legacy string `json:"ui/resourceUri"`
				}
				_ = json.Unmarshal(tool.Meta, &meta)
				linked[meta.UI.ResourceURI] = true
				if want := "ui://" + tool.Name; meta.UI.ResourceURI != want || meta.Legacy != want {
					t.Errorf("tool %s: _meta.ui.resourceUri=%q, _meta[ui/resourceUri]=%q, want both %q", tool.Name, meta.UI.ResourceURI, meta.Legacy, want)
				}
			}
			if upstream == 0 {
				t.Fatal("genui lists no demo tools")
			}

			items, err := c.ListAll(ctx, "resources/list", "resources")
			if err != nil {
				t.Fatal(err)
			}
			var uris []string
			for _, raw := range items {
				var r struct{ URI string }
				_ = json.Unmarshal(raw, &r)
				if strings.HasPrefix(r.URI, "ui://") {
					uris = append(uris, r.URI)
				}
			}
			if len(uris) < upstream {
				t.Errorf("resources/list has %d ui:// resources for %d demo tools: %v", len(uris), upstream, uris)
			}
			for _, uri := range uris {
				if !linked[uri] {
					// ui:// is the MCP Apps namespace and ui://<tool> is genui's
					// scheme: anything else there is an App too, or it
					// collides with the UI of a tool of that name.
					t.Logf("%s is not linked from any tool; it must still be an MCP App", uri)
				}
				checkUIResource(ctx, t, c, uri)
			}
			if err := c.CheckStdout(); err != nil {
				t.Errorf("stdout is not pure JSON-RPC: %v", err)
			}
		})
	}
}

// checkUIResource reads one ui:// resource and checks it against the MCP
// Apps contract.
func checkUIResource(ctx context.Context, t *testing.T, c *mcptest.Client, uri string) {
	t.Helper()
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	res, rpcErr, err := c.Request(rctx, "resources/read", map[string]string{"uri": uri})
	if err != nil || rpcErr != nil {
		t.Errorf("resources/read %s: %v %v", uri, err, rpcErr)
		return
	}
	var body struct {
		Contents []struct {
			URI      string          `json:"uri"`
			MimeType string          `json:"mimeType"`
			Text     *string         `json:"text"`
			Blob     *string         `json:"blob"`
			Meta     json.RawMessage `json:"_meta"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(res, &body); err != nil {
		t.Errorf("resources/read %s: %v", uri, err)
		return
	}
	if len(body.Contents) != 1 {
		t.Errorf("resources/read %s: %d contents items, want exactly 1", uri, len(body.Contents))
		return
	}
	item := body.Contents[0]
	if item.URI != uri {
		t.Errorf("resources/read %s: contents uri %q", uri, item.URI)
	}
	if item.MimeType != appMIME {
		t.Errorf("resources/read %s: mimeType %q, want %q", uri, item.MimeType, appMIME)
	}
	if item.Text == nil || item.Blob != nil || !strings.Contains(strings.ToLower(*item.Text), "<html") {
		t.Errorf("resources/read %s: want the HTML document in text (text set: %v, blob set: %v)", uri, item.Text != nil, item.Blob != nil)
		return
	}
	for _, p := range selfContainedProblems(*item.Text) {
		t.Errorf("%s: %s", uri, p)
	}
}

var (
	// Static imports ("import x from 'y'", "import 'y'", "export * from 'y'")
	// and dynamic import("y") inside inline scripts.
	importRE = regexp.MustCompile(`(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+)["']|\bimport\s*\(\s*["']([^"'\n]+)["']`)
	// url(...) and @import in CSS.
	cssURLRE = regexp.MustCompile(`(?i)url\(\s*["']?([^"')\s]+)|@import\s+(?:url\()?\s*["']?([^"');\s]+)`)
)

// selfContainedProblems lists what in doc would not work in a host's
// sandboxed iframe: bare module specifiers and anything loaded from another
// place (scripts, stylesheets, images, media, frames, CSS urls).
func selfContainedProblems(doc string) []string {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return []string{"HTML does not parse: " + err.Error()}
	}
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				switch {
				case key == "src" || key == "href" || key == "srcset" || key == "poster" || key == "data" || key == "action" && n.Data == "form":
					if n.Data == "a" && key == "href" {
						continue // links are opened through the host (ui/open-link), not loaded
					}
					if external(a.Val) {
						add("<%s %s=%q> loads from outside the document", n.Data, a.Key, a.Val)
					}
				case key == "style":
					problems = append(problems, cssProblems("style attribute of <"+n.Data+">", a.Val)...)
				}
			}
			text := textOf(n)
			switch n.Data {
			case "script":
				for _, m := range importRE.FindAllStringSubmatch(text, -1) {
					spec := m[1] + m[2]
					if bare(spec) || external(spec) {
						add("inline script imports %q, which resolves nowhere in a host iframe", spec)
					}
				}
			case "style":
				problems = append(problems, cssProblems("<style>", text)...)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return problems
}

func cssProblems(where, css string) []string {
	var out []string
	for _, m := range cssURLRE.FindAllStringSubmatch(css, -1) {
		if u := m[1] + m[2]; external(u) || strings.Contains(strings.ToLower(m[0]), "@import") {
			out = append(out, fmt.Sprintf("%s loads %q", where, u))
		}
	}
	return out
}

// external reports whether a URL would be fetched from somewhere: anything
// but empty, fragment-only, data:, blob:, about: and javascript: URLs.
func external(u string) bool {
	u = strings.TrimSpace(strings.ToLower(u))
	if u == "" || strings.HasPrefix(u, "#") {
		return false
	}
	for _, ok := range []string{"data:", "blob:", "about:", "javascript:"} {
		if strings.HasPrefix(u, ok) {
			return false
		}
	}
	return true
}

// bare reports whether a module specifier is bare ("@scope/pkg", "lodash").
func bare(spec string) bool {
	for _, p := range []string{"./", "../", "/", "data:", "blob:", "http:", "https:"} {
		if strings.HasPrefix(spec, p) {
			return false
		}
	}
	return true
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// TestSelfContainedProblems proves the checker catches what it must.
func TestSelfContainedProblems(t *testing.T) {
	tests := []struct {
		name, doc string
		want      int
	}{
		{"clean", `<!doctype html><html><head><style>body{background:url(data:image/png;base64,AA)}</style>
			<script type="module">const x = 1; import("data:text/javascript,1"); // import data
			</script></head><body><img src="data:image/png;base64,AA"><a href="https://example.com">x</a></body></html>`, 0},
		{"bare import", `<html><script type="module">import { App } from "@modelcontextprotocol/ext-apps";</script></html>`, 1},
		{"side-effect import", `<html><script type="module">import "lit";</script></html>`, 1},
		{"dynamic import from cdn", `<html><script>await import("https://cdn.example/x.js")</script></html>`, 1},
		{"external script", `<html><head><script src="https://cdn.example/x.js"></script></head></html>`, 1},
		{"relative script", `<html><head><script src="app.js"></script></head></html>`, 1},
		{"stylesheet", `<html><head><link rel="stylesheet" href="//fonts.example/css"></head></html>`, 1},
		{"image", `<html><body><img src="http://example.com/a.png"></body></html>`, 1},
		{"css url", `<html><body><div style="background: url('https://x/y.png')"></div></body></html>`, 1},
		{"css import", `<html><head><style>@import url("https://fonts.example/a.css");</style></head></html>`, 1},
	}
	for _, tc := range tests {
		if got := selfContainedProblems(tc.doc); len(got) != tc.want {
			t.Errorf("%s: %d problems %q, want %d", tc.name, len(got), got, tc.want)
		}
	}
}
