package mcpshim

import (
	"regexp"
	"strings"
	"testing"
)

// The regexps Inject ran before it found scripts and imports with
// strings.Index: the reference its scanning must agree with.
var (
	refScript     = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)
	refImport     = regexp.MustCompile(`\bimport\s*((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+))\s*from\s*["']([^"'\n]+)["'][ \t]*;?`)
	refBareImport = regexp.MustCompile(`\bimport\s*["']([^"'\n]+)["'][ \t]*;?`)
	refDynImport  = regexp.MustCompile(`\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)`)
)

func refRewriteScripts(html string) string {
	return refScript.ReplaceAllStringFunc(html, func(el string) string {
		m := refScript.FindStringSubmatchIndex(el)
		attrs, body := el[m[2]:m[3]], el[m[4]:m[5]]
		if src := reSrc.FindStringSubmatch(attrs); src != nil {
			if IsExtAppsSpecifier(strings.Trim(src[1], `"'`)) {
				return ""
			}
			return el
		}
		if !reType.MatchString(attrs) {
			return el
		}
		return el[:m[4]] + refRewriteImports(body) + el[m[5]:]
	})
}

func refRewriteImports(js string) string {
	js = refImport.ReplaceAllStringFunc(js, func(stmt string) string {
		m := refImport.FindStringSubmatch(stmt)
		if !IsExtAppsSpecifier(m[2]) {
			return stmt
		}
		return bindings(m[1])
	})
	js = refBareImport.ReplaceAllStringFunc(js, func(stmt string) string {
		if IsExtAppsSpecifier(refBareImport.FindStringSubmatch(stmt)[1]) {
			return "/* ext-apps provided by genui shim */"
		}
		return stmt
	})
	return refDynImport.ReplaceAllStringFunc(js, func(expr string) string {
		if IsExtAppsSpecifier(refDynImport.FindStringSubmatch(expr)[1]) {
			return "Promise.resolve(window.McpApps)"
		}
		return expr
	})
}

var scanSeeds = []string{
	`<script type="module">import { App } from "@modelcontextprotocol/ext-apps"; new App();</script>`,
	`<SCRIPT type=module>import {App as A, X} from '@modelcontextprotocol/ext-apps/app-with-deps';</SCRIPT >`,
	`<script type="module">import App, * as M from "https://esm.sh/@modelcontextprotocol/ext-apps@1.0"; import "@modelcontextprotocol/ext-apps"; const m = await import( "@modelcontextprotocol/ext-apps" );</script>`,
	`<script src="https://unpkg.com/@modelcontextprotocol/ext-apps"></script><script>reimport("x"); _import "y"; $import "@modelcontextprotocol/ext-apps"</script>`,
	`<scripts><script1>import "@modelcontextprotocol/ext-apps"</script><script type="module">var s = "</scriptx>"; import "@modelcontextprotocol/ext-apps";</script	>`,
	`<script type="module">import { App } from "@modelcontextprotocol/ext-apps"`,
	`<scriptx type="module">import "@modelcontextprotocol/ext-apps"</script>`,
	`<script type="module" x="<script">import { App } from "@modelcontextprotocol/ext-apps"</script></script>`,
	`<p>import { App } from "@modelcontextprotocol/ext-apps"</p><script type="module">importimport { A } from "@modelcontextprotocol/ext-apps"</script>`,
}

// TestScanningMatchesTheRegexps: on hand-picked edge cases (word
// boundaries, case, unclosed and nested tags, every import form) the
// scanning rewrite gives what the regexps gave.
func TestScanningMatchesTheRegexps(t *testing.T) {
	for _, in := range scanSeeds {
		if got, want := rewriteScripts(in, lowerASCII(in)), refRewriteScripts(in); got != want {
			t.Errorf("rewriteScripts(%q)\n got %q\nwant %q", in, got, want)
		}
		if got, want := rewriteImports(in), refRewriteImports(in); got != want {
			t.Errorf("rewriteImports(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// FuzzScanningMatchesTheRegexps compares the two on any input, except text
// with the two non-ASCII letters that (?i) folds onto s and k: the regexp
// took "<ſcript" for a script element, which no browser does.
func FuzzScanningMatchesTheRegexps(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.ContainsAny(in, "\u017f\u212a") {
			t.Skip()
		}
		if got, want := rewriteScripts(in, lowerASCII(in)), refRewriteScripts(in); got != want {
			t.Fatalf("rewriteScripts(%q)\n got %q\nwant %q", in, got, want)
		}
		if got, want := rewriteImports(in), refRewriteImports(in); got != want {
			t.Fatalf("rewriteImports(%q)\n got %q\nwant %q", in, got, want)
		}
	})
}
