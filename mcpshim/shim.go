// Package mcpshim holds the browser side of genui's MCP Apps bridge: the App
// implementation inlined into every generated UI (app.js), the host bridge of
// the preview page (host.js), and Inject, which makes any HTML self-contained
// by replacing imports of @modelcontextprotocol/ext-apps with the inlined shim.
package mcpshim

import (
	_ "embed"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/genui-dev/genui/pagepack"
)

//go:generate go run ../internal/minify/gen .

// app.js is what is edited; pages inline its esbuild-minified build
// (min/app.js, internal/minify), or app.js itself after
// UseReadableSources(true) (genui --debug).
var (
	//go:embed app.js
	appSrc string
	//go:embed min/app.js
	appMin   string
	readable atomic.Bool
)

//go:embed host.js
var hostJS string

// UseReadableSources makes Inject inline the readable app.js instead of
// its minified build. Process-wide.
func UseReadableSources(on bool) { readable.Store(on) }

// AppJS returns the view-side App implementation (window.McpApps.App) as
// Inject inlines it.
func AppJS() string {
	if readable.Load() {
		return appSrc
	}
	return appMin
}

// HostJS returns the host-side bridge (window.McpHost.AppBridge).
func HostJS() string { return hostJS }

// ShimAttr marks the script element Inject inserts. The packed-page format
// (package pagepack) carries that element, so the name is pagepack's.
const ShimAttr = pagepack.ShimAttr

var (
	// One script element, attributes in group 1, body in group 2.
	reScript = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)
	// An existing shim element (app.js never contains a closing script tag).
	reShim = regexp.MustCompile(`(?is)<script\s+` + ShimAttr + `\b[^>]*>.*?</script\s*>`)
	reHead = regexp.MustCompile(`(?i)<head(?:\s[^>]*)?>`)
	reHTML = regexp.MustCompile(`(?i)<html(?:\s[^>]*)?>`)
	reDoc  = regexp.MustCompile(`(?i)^\s*<!doctype[^>]*>`)
	// Attribute values in a start tag.
	reType = regexp.MustCompile(`(?i)\btype\s*=\s*["']?\s*module\b`)
	reSrc  = regexp.MustCompile(`(?i)\bsrc\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)`)
	// Static imports: bindings in group 1, specifier in group 2.
	reImport = regexp.MustCompile(`\bimport\s*((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+))\s*from\s*["']([^"'\n]+)["'][ \t]*;?`)
	// Side-effect imports: import "spec";
	reBareImport = regexp.MustCompile(`\bimport\s*["']([^"'\n]+)["'][ \t]*;?`)
	// Dynamic imports: import("spec")
	reDynImport = regexp.MustCompile(`\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)`)
	reAsName    = regexp.MustCompile(`^([\w$]+)\s+as\s+([\w$]+)$`)
)

// IsExtAppsSpecifier reports whether an import specifier or script URL names
// the ext-apps view API that the shim replaces: the bare package, its
// /app-with-deps or /app entry, or any CDN URL of those (esm.sh, unpkg,
// jsdelivr, ...). The /react, /server and /app-bridge entries are not App
// and are left alone.
func IsExtAppsSpecifier(spec string) bool {
	const pkg = "@modelcontextprotocol/ext-apps"
	i := strings.Index(spec, pkg)
	if i < 0 {
		return false
	}
	rest := spec[i+len(pkg):]
	if strings.HasPrefix(rest, "@") { // version
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			rest = rest[j:]
		} else {
			rest = ""
		}
	}
	for _, other := range []string{"/react", "/server", "/app-bridge"} {
		if strings.HasPrefix(rest, other) {
			return false
		}
	}
	return rest == "" || rest[0] == '/' || rest[0] == '?' || rest[0] == '#'
}

// Inject returns html with the App shim inlined: imports of ext-apps in
// inline module scripts become bindings from window.McpApps, script tags
// loading ext-apps are removed, and one <script data-genui-shim> holding
// AppJS is placed before the first script of <head> (or at its end; a head
// is created when missing). Inject is idempotent. A page that carries the
// shim packed (pagepack.CarriesShim) comes back unchanged.
func Inject(html string) string {
	if pagepack.CarriesShim(html) {
		return html
	}
	html = reShim.ReplaceAllString(html, "")
	html = rewriteScripts(html)
	return insertShim(html)
}

func rewriteScripts(html string) string {
	return reScript.ReplaceAllStringFunc(html, func(el string) string {
		m := reScript.FindStringSubmatchIndex(el)
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
		nb := rewriteImports(body)
		if nb == body {
			return el
		}
		return el[:m[4]] + nb + el[m[5]:]
	})
}

// rewriteImports replaces ext-apps imports in one module script body.
func rewriteImports(js string) string {
	js = reImport.ReplaceAllStringFunc(js, func(stmt string) string {
		m := reImport.FindStringSubmatch(stmt)
		if !IsExtAppsSpecifier(m[2]) {
			return stmt
		}
		return bindings(m[1])
	})
	js = reBareImport.ReplaceAllStringFunc(js, func(stmt string) string {
		if IsExtAppsSpecifier(reBareImport.FindStringSubmatch(stmt)[1]) {
			return "/* ext-apps provided by genui shim */"
		}
		return stmt
	})
	return reDynImport.ReplaceAllStringFunc(js, func(expr string) string {
		if IsExtAppsSpecifier(reDynImport.FindStringSubmatch(expr)[1]) {
			return "Promise.resolve(window.McpApps)"
		}
		return expr
	})
}

// bindings turns an import clause into const declarations from window.McpApps:
// "{ App, X as Y }" -> "const { App, X: Y } = window.McpApps;",
// "* as M" and default imports -> "const M = window.McpApps;".
func bindings(clause string) string {
	clause = strings.TrimSpace(clause)
	var out []string
	if !strings.HasPrefix(clause, "{") && !strings.HasPrefix(clause, "*") {
		// default import, possibly followed by ", {...}" or ", * as M"
		name, rest, _ := strings.Cut(clause, ",")
		out = append(out, "const "+strings.TrimSpace(name)+" = window.McpApps;")
		clause = strings.TrimSpace(rest)
	}
	switch {
	case strings.HasPrefix(clause, "*"):
		name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(clause, "*")), "as"))
		out = append(out, "const "+name+" = window.McpApps;")
	case strings.HasPrefix(clause, "{"):
		var names []string
		for _, part := range strings.Split(strings.Trim(clause, "{} \t\r\n"), ",") {
			part = strings.TrimSpace(part)
			part = strings.TrimSpace(strings.TrimPrefix(part, "type "))
			if part == "" {
				continue
			}
			if am := reAsName.FindStringSubmatch(part); am != nil {
				part = am[1] + ": " + am[2]
			}
			names = append(names, part)
		}
		if len(names) > 0 {
			out = append(out, "const { "+strings.Join(names, ", ")+" } = window.McpApps;")
		}
	}
	return strings.Join(out, " ")
}

func insertShim(html string) string {
	tag := "<script " + ShimAttr + ">" + AppJS() + "</script>"
	loc := reHead.FindStringIndex(html)
	if loc == nil {
		head := "<head>" + tag + "</head>"
		if h := reHTML.FindStringIndex(html); h != nil {
			return html[:h[1]] + head + html[h[1]:]
		}
		if d := reDoc.FindStringIndex(html); d != nil {
			return html[:d[1]] + head + html[d[1]:]
		}
		return head + html
	}
	pos := loc[1]
	headRest := html[pos:]
	end := len(headRest)
	if e := strings.Index(strings.ToLower(headRest), "</head"); e >= 0 {
		end = e
	}
	if s := strings.Index(strings.ToLower(headRest[:end]), "<script"); s >= 0 {
		end = s
	}
	return html[:pos+end] + tag + html[pos+end:]
}
