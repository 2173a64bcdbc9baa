package mcpshim

import (
	"strings"
	"testing"

	"github.com/genui-dev/genui/pagepack"
)

func TestInject(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		contains []string
		absent   []string
	}{
		{
			name:     "bare import",
			in:       `<html><head><title>x</title></head><body><script type="module">import { App } from "@modelcontextprotocol/ext-apps";new App({name:"a",version:"1"});</script></body></html>`,
			contains: []string{`const { App } = window.McpApps;new App(`},
			absent:   []string{`from "@modelcontextprotocol/ext-apps"`},
		},
		{
			name:     "app-with-deps single quotes no semicolon",
			in:       "<head></head><script type=module>\nimport {App} from '@modelcontextprotocol/ext-apps/app-with-deps'\nconst a = new App();</script>",
			contains: []string{"const { App } = window.McpApps;\nconst a"},
			absent:   []string{"app-with-deps'"},
		},
		{
			name:     "esm.sh CDN with version and aliases",
			in:       `<head></head><script type="module">import { App as McpApp, PostMessageTransport } from "https://esm.sh/@modelcontextprotocol/ext-apps@0.4.1";</script>`,
			contains: []string{`const { App: McpApp, PostMessageTransport } = window.McpApps;`},
			absent:   []string{"esm.sh"},
		},
		{
			name:     "unpkg and jsdelivr, multi-line import",
			in:       "<head></head><script type=\"module\">import {\n  App,\n  applyDocumentTheme,\n} from \"https://unpkg.com/@modelcontextprotocol/ext-apps@1.0.0/dist/src/app-with-deps.js\";\nimport * as M from 'https://cdn.jsdelivr.net/npm/@modelcontextprotocol/ext-apps@1/+esm';</script>",
			contains: []string{`const { App, applyDocumentTheme } = window.McpApps;`, `const M = window.McpApps;`},
			absent:   []string{"unpkg", "jsdelivr"},
		},
		{
			name:     "dynamic import",
			in:       `<head></head><script type="module">const { App } = await import("@modelcontextprotocol/ext-apps");</script>`,
			contains: []string{`await Promise.resolve(window.McpApps)`},
		},
		{
			name:     "other imports untouched",
			in:       `<head></head><script type="module">import { x } from "./local.js"; import { useApp } from "@modelcontextprotocol/ext-apps/react";</script>`,
			contains: []string{`import { x } from "./local.js";`, `from "@modelcontextprotocol/ext-apps/react"`},
		},
		{
			name:     "classic script imports untouched",
			in:       `<head></head><script>var s = 'import { App } from "@modelcontextprotocol/ext-apps"';</script>`,
			contains: []string{`var s = 'import { App } from "@modelcontextprotocol/ext-apps"';`},
		},
		{
			name:     "script src removed",
			in:       `<head><script src="https://unpkg.com/@modelcontextprotocol/ext-apps@1/dist/app-with-deps.js"></script><script src="app.js"></script></head><body></body>`,
			contains: []string{`<script src="app.js"></script>`},
			absent:   []string{"unpkg.com"},
		},
		{
			name:     "no head but html",
			in:       `<!doctype html><html lang="en"><body><p>hi</p></body></html>`,
			contains: []string{`<html lang="en"><head><script data-genui-shim>`, `</script></head><body>`},
		},
		{
			name:     "fragment without html",
			in:       `<div id="root"></div>`,
			contains: []string{`<head><script data-genui-shim>`, `</head><div id="root"></div>`},
		},
		{
			name:     "doctype only",
			in:       `<!DOCTYPE html><p>x</p>`,
			contains: []string{`<!DOCTYPE html><head><script data-genui-shim>`},
		},
		{
			name:     "shim goes before the first head script, after meta",
			in:       `<html><head><meta charset="utf-8"><script>window.early = 1</script></head></html>`,
			contains: []string{`<meta charset="utf-8"><script data-genui-shim>`, `</script><script>window.early = 1</script>`},
		},
		{
			name:     "header element is not head",
			in:       `<html><head></head><body><header>h</header></body></html>`,
			contains: []string{`<head><script data-genui-shim>`, `<header>h</header>`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Inject(tt.in)
			if n := strings.Count(out, "<script "+ShimAttr+">"); n != 1 {
				t.Fatalf("want exactly one shim, got %d in:\n%s", n, abbreviate(out))
			}
			if !strings.Contains(out, AppJS()) {
				t.Errorf("shim body is not AppJS")
			}
			for _, s := range tt.contains {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, abbreviate(out))
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(out, s) {
					t.Errorf("output still has %q:\n%s", s, abbreviate(out))
				}
			}
			if again := Inject(out); again != out {
				t.Errorf("not idempotent:\nfirst:  %s\nsecond: %s", abbreviate(out), abbreviate(again))
			}
		})
	}
}

func TestInjectReplacesStaleShim(t *testing.T) {
	in := `<html><head><script data-genui-shim>old()</script></head><body></body></html>`
	out := Inject(in)
	if strings.Contains(out, "old()") {
		t.Fatalf("stale shim kept: %s", abbreviate(out))
	}
	if strings.Count(out, ShimAttr) != 1 {
		t.Fatalf("want one shim: %s", abbreviate(out))
	}
}

func TestIsExtAppsSpecifier(t *testing.T) {
	tests := map[string]bool{
		"@modelcontextprotocol/ext-apps":                                true,
		"@modelcontextprotocol/ext-apps/app-with-deps":                  true,
		"https://esm.sh/@modelcontextprotocol/ext-apps@0.4.1":           true,
		"https://esm.sh/@modelcontextprotocol/ext-apps@0.4.1?bundle":    true,
		"https://cdn.jsdelivr.net/npm/@modelcontextprotocol/ext-apps@1": true,
		"@modelcontextprotocol/ext-apps/react":                          false,
		"@modelcontextprotocol/ext-apps@1.2/server":                     false,
		"@modelcontextprotocol/ext-apps/app-bridge":                     false,
		"@modelcontextprotocol/ext-apps-extra":                          false,
		"@modelcontextprotocol/sdk":                                     false,
		"./app.js":                                                      false,
	}
	for spec, want := range tests {
		if got := IsExtAppsSpecifier(spec); got != want {
			t.Errorf("IsExtAppsSpecifier(%q) = %v, want %v", spec, got, want)
		}
	}
}

// The shim is inlined into a script element and must stay inert as HTML.
func TestEmbeddedJSIsInlineSafe(t *testing.T) {
	for name, js := range map[string]string{"app.js": AppJS(), "host.js": HostJS()} {
		low := strings.ToLower(js)
		for _, bad := range []string{"</script", "<!--", "http://", "https://", "fetch(", "eval("} {
			if strings.Contains(low, bad) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
		if len(js) < 1000 {
			t.Errorf("%s looks empty (%d bytes)", name, len(js))
		}
	}
}

func abbreviate(s string) string {
	return strings.ReplaceAll(s, AppJS(), "…APPJS…")
}

// TestInjectLeavesOnlyPackedPagesAlone: a page whose loader carries the
// packed-shim mark is left as it is; a page that merely mentions the mark
// (a tool description quoted in a generated page) still gets the shim.
func TestInjectLeavesOnlyPackedPagesAlone(t *testing.T) {
	packed, err := pagepack.Pack(Inject(`<html><head></head><body><script type="module">run()</script></body></html>`))
	if err != nil || !pagepack.CarriesShim(packed) {
		t.Fatalf("no packed page to test with: %v", err)
	}
	if got := Inject(packed); got != packed {
		t.Fatalf("Inject changed a packed page:\n%s", got)
	}
	mention := `<html><head></head><body><p>` + pagepack.PackedShimAttr + `</p><!-- ` + pagepack.PackAttr + `-loader ` +
		pagepack.PackedShimAttr + ` --></body></html>`
	if got := Inject(mention); strings.Count(got, "<script "+ShimAttr+">") != 1 {
		t.Fatalf("a page that only mentions the mark got no shim:\n%.300s", got)
	}
}
