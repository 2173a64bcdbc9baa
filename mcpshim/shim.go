// Package mcpshim holds the browser side of genui's MCP Apps bridge: the App
// implementation inlined into every generated UI (app.js), the host bridge of
// the preview page (host.js), and Inject, which makes any HTML self-contained
// by replacing imports of @modelcontextprotocol/ext-apps with the inlined shim.
package mcpshim

import (
	"embed"
	"io/fs"
	"regexp"
	"strings"
	"sync"

	"github.com/genui-dev/genui/internal/assetunit"

	"github.com/genui-dev/genui/pagepack"
)

//go:generate go run ../internal/minify/gen .

// app.js and guard.js are what is edited; pages inline their
// esbuild-minified build (min/, internal/minify, from AssetUnits), or the
// sources themselves when Options.ReadableSources is set (genui --debug).
var (
	//go:embed app.js guard.js
	srcFS embed.FS
	//go:embed min
	minFS embed.FS
)

// AssetUnits are the scripts this package inlines, declared once:
// internal/minify builds min/ from them and Options reads them.
var AssetUnits = []assetunit.Unit{
	{Out: "min/app.js", Srcs: []string{"app.js"}},
	{Out: "min/guard.js", Srcs: []string{"guard.js"}},
}

// builds are the minified and the readable build of each unit, by Out.
var builds = sync.OnceValue(func() [2]map[string]string {
	var b [2]map[string]string
	for i := range b {
		b[i] = map[string]string{}
		for _, u := range AssetUnits {
			var (
				s   string
				err error
			)
			if i == 0 {
				var raw []byte
				raw, err = fs.ReadFile(minFS, u.Out)
				s = string(raw)
			} else {
				s, err = u.Source(srcFS)
			}
			if err != nil {
				panic("mcpshim: embedded asset missing: " + err.Error())
			}
			b[i][u.Out] = s
		}
	}
	return b
})

// Options are how Inject and InjectGuarded inline the shim. The zero value
// inlines the minified build (the package-level functions use it).
type Options struct {
	// ReadableSources inlines the readable app.js and guard.js instead of
	// their minified build (genui --debug).
	ReadableSources bool
}

//go:embed host.js
var hostJS string

// AppJS returns the view-side App implementation (window.McpApps.App) as
// Inject inlines it.
func AppJS() string { return builds()[0]["min/app.js"] }

// AppJS is the App implementation o inlines.
func (o Options) AppJS() string {
	if o.ReadableSources {
		return builds()[1]["min/app.js"]
	}
	return AppJS()
}

// GuardJS returns the page guard (guard.js) as InjectGuarded inlines it:
// it takes WebRTC, WebTransport, script and frame creation and other
// realms away from page script before any of it runs.
func GuardJS() string { return builds()[0]["min/guard.js"] }

// GuardJS is the page guard o inlines.
func (o Options) GuardJS() string {
	if o.ReadableSources {
		return builds()[1]["min/guard.js"]
	}
	return GuardJS()
}

// HostJS returns the host-side bridge (window.McpHost.AppBridge).
func HostJS() string { return hostJS }

// ShimAttr marks the script element Inject inserts. The packed-page format
// (package pagepack) carries that element, so the name is pagepack's.
const ShimAttr = pagepack.ShimAttr

// GuardAttr marks a shim element that also carries the page guard
// (InjectGuarded).
const GuardAttr = "data-genui-guard"

var (
	// A doctype that opens the document (comments and a byte order mark
	// may stand before it).
	reLeadDoctype = regexp.MustCompile(`(?is)^\x{FEFF}?(?:\s|<!--.*?-->)*(<!doctype[^>]*>)`)
	// An existing shim element (app.js never contains a closing script tag).
	reShim    = regexp.MustCompile(`(?is)<script\s+` + ShimAttr + `\b[^>]*>.*?</script\s*>`)
	reGuarded = regexp.MustCompile(`(?i)<script\s+` + ShimAttr + `\s+` + GuardAttr + `\b`)
	reHead    = regexp.MustCompile(`(?i)<head(?:\s[^>]*)?>`)
	reHTML    = regexp.MustCompile(`(?i)<html(?:\s[^>]*)?>`)
	reDoc     = regexp.MustCompile(`(?i)^\s*<!doctype[^>]*>`)
	// Attribute values in a start tag.
	reType = regexp.MustCompile(`(?i)\btype\s*=\s*["']?\s*module\b`)
	reSrc  = regexp.MustCompile(`(?i)\bsrc\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)`)
	// Static imports: bindings in group 1, specifier in group 2. The three
	// import patterns start at the word import (at a word boundary, which
	// replaceImports checks): they are anchored and run only there.
	reImport = regexp.MustCompile(`^import\s*((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+))\s*from\s*["']([^"'\n]+)["'][ \t]*;?`)
	// Side-effect imports: import "spec";
	reBareImport = regexp.MustCompile(`^import\s*["']([^"'\n]+)["'][ \t]*;?`)
	// Dynamic imports: import("spec")
	reDynImport = regexp.MustCompile(`^import\s*\(\s*["']([^"'\n]+)["']\s*\)`)
	reAsName    = regexp.MustCompile(`^([\w$]+)\s+as\s+([\w$]+)$`)
)

// InjectGuarded is Inject for pages a model wrote: the shim element, with
// the page guard (GuardJS) ahead of the App shim, is the first element of
// the document, ahead of anything the page holds (a script the page puts
// before its <head> included), so genui's guard and bridge run before any
// of the page's script and no page state can switch them off. The page's
// own doctype stays first (its rendering mode is kept); the page's <html>
// and <head> tags, now inside the head genui opened, are merged and
// ignored by the parser as they always are for a second one. Idempotent.
func InjectGuarded(html string) string { return Options{}.InjectGuarded(html) }

// InjectGuarded is the package's InjectGuarded with o's build of the shim.
func (o Options) InjectGuarded(html string) string {
	low := lowerASCII(html)
	if strings.Contains(low, "data-genui-") {
		if h := reShim.ReplaceAllString(html, ""); h != html {
			html, low = h, lowerASCII(h)
		}
	}
	html = rewriteScripts(html, low)
	doctype := ""
	if m := reLeadDoctype.FindStringSubmatchIndex(html); m != nil {
		doctype = html[m[2]:m[3]]
		html = html[:m[2]] + html[m[3]:]
	}
	html = strings.TrimPrefix(html, "\ufeff")
	csp := ""
	if m := reGuardedOpen.FindStringSubmatchIndex(html); m != nil { // guarded before: its opening, not a second one
		if m[2] >= 0 {
			csp = html[m[2]:m[3]]
		}
		html = html[m[1]:]
	}
	return doctype + "<html><head>" + csp + guardedHead + "<script " + ShimAttr + " " + GuardAttr + ">" +
		o.GuardJS() + "\n" + o.AppJS() + "</script>" + html
}

// StripGuarded returns a page InjectGuarded made as the model wrote it:
// without genui's shim element and the <html><head><meta charset> genui
// opened before it (a refine prompt shows the model its own page). Other
// pages come back without their shim element only.
func StripGuarded(html string) string {
	guarded := reGuarded.MatchString(html)
	html = reShim.ReplaceAllString(html, "")
	if !guarded {
		return html
	}
	doctype := ""
	if m := reLeadDoctype.FindStringSubmatchIndex(html); m != nil {
		doctype = html[m[2]:m[3]]
		html = html[:m[2]] + html[m[3]:]
	}
	if m := reGuardedOpen.FindStringSubmatchIndex(html); m != nil {
		html = html[m[1]:]
	}
	return doctype + html
}

// guardedHead follows the <head> InjectGuarded opens.
const guardedHead = `<meta charset="utf-8">`

// reGuardedOpen is what InjectGuarded wrote before its script, with the
// CSP meta element pagecsp.Apply puts first in the head.
var reGuardedOpen = regexp.MustCompile(`^<html><head>(\s*<meta http-equiv="Content-Security-Policy" data-genui-csp content="[^"]*">)?` + guardedHead)

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
func Inject(html string) string { return Options{}.Inject(html) }

// Inject is the package's Inject with o's build of the shim.
func (o Options) Inject(html string) string {
	if pagepack.CarriesShim(html) {
		return html
	}
	if reGuarded.MatchString(html) {
		return o.InjectGuarded(html) // a guarded page stays guarded
	}
	// The shim's attribute has no letter that case-folds outside ASCII
	// (s and k do), so an ASCII look says whether the pattern can match.
	low := lowerASCII(html)
	if strings.Contains(low, "data-genui-") {
		if h := reShim.ReplaceAllString(html, ""); h != html {
			html, low = h, lowerASCII(h)
		}
	}
	html = rewriteScripts(html, low)
	return insertShim(html, o.AppJS())
}

// rewriteScripts removes script elements that load ext-apps and rewrites the
// ext-apps imports of inline module scripts (low is lowerASCII(html)).
func rewriteScripts(html, low string) string {
	return replaceScripts(html, low, func(open, body, end string) string {
		attrs := open[len("<script") : len(open)-1]
		if src := reSrc.FindStringSubmatch(attrs); src != nil {
			if IsExtAppsSpecifier(strings.Trim(src[1], `"'`)) {
				return ""
			}
			return open + body + end
		}
		if !reType.MatchString(attrs) {
			return open + body + end
		}
		return open + rewriteImports(body) + end
	})
}

// replaceScripts returns html with each script element (what
// `(?is)<script\b([^>]*)>(.*?)</script\s*>` matches, the letters of "script"
// in ASCII case only) replaced by what f returns for its start tag, body
// and end tag. It finds them with strings.Index: a regexp steps its machine
// through every byte of a 100 KB module body, tens of milliseconds a page.
// low is lowerASCII(html), which the caller has already made.
func replaceScripts(html, low string, f func(open, body, end string) string) string {
	var b strings.Builder
	last, pos := 0, 0
	for {
		i := strings.Index(low[pos:], "<script")
		if i < 0 {
			break
		}
		start := pos + i
		attrs := start + len("<script")
		if attrs < len(low) && isWordByte(low[attrs]) { // <scripts, <script1: not the element
			pos = attrs
			continue
		}
		gt := strings.IndexByte(low[attrs:], '>')
		if gt < 0 {
			break // no start tag ends after here
		}
		bodyStart := attrs + gt + 1
		bodyEnd, end := closingScript(low, bodyStart)
		if end < 0 {
			break // nothing closes a script after here
		}
		b.WriteString(html[last:start])
		b.WriteString(f(html[start:bodyStart], html[bodyStart:bodyEnd], html[bodyEnd:end]))
		last, pos = end, end
	}
	if last == 0 {
		return html
	}
	b.WriteString(html[last:])
	return b.String()
}

// closingScript finds the first </script\s*> in low at or after from: where
// it starts and ends (-1, -1 when there is none).
func closingScript(low string, from int) (int, int) {
	for p := from; ; {
		j := strings.Index(low[p:], "</script")
		if j < 0 {
			return -1, -1
		}
		q := p + j + len("</script")
		for q < len(low) && isSpaceByte(low[q]) {
			q++
		}
		if q < len(low) && low[q] == '>' {
			return p + j, q + 1
		}
		p += j + 1
	}
}

// rewriteImports replaces ext-apps imports in one module script body.
func rewriteImports(js string) string {
	js = replaceImports(reImport, js, func(m []string) string {
		if !IsExtAppsSpecifier(m[2]) {
			return m[0]
		}
		return bindings(m[1])
	})
	js = replaceImports(reBareImport, js, func(m []string) string {
		if IsExtAppsSpecifier(m[1]) {
			return "/* ext-apps provided by genui shim */"
		}
		return m[0]
	})
	return replaceImports(reDynImport, js, func(m []string) string {
		if IsExtAppsSpecifier(m[1]) {
			return "Promise.resolve(window.McpApps)"
		}
		return m[0]
	})
}

// replaceImports is ReplaceAllStringFunc for `\b` + re (anchored, starting
// with the word import) that runs re only where "import" starts a word:
// the regexp machine does not step through the rest of the script. f gets
// the match and its groups.
func replaceImports(re *regexp.Regexp, js string, f func(m []string) string) string {
	var b strings.Builder
	last, pos := 0, 0
	for {
		i := strings.Index(js[pos:], "import")
		if i < 0 {
			break
		}
		start := pos + i
		pos = start + 1
		if start > 0 && isWordByte(js[start-1]) {
			continue
		}
		m := re.FindStringSubmatch(js[start:])
		if m == nil {
			continue
		}
		b.WriteString(js[last:start])
		b.WriteString(f(m))
		last = start + len(m[0])
		pos = last
	}
	if last == 0 {
		return js
	}
	b.WriteString(js[last:])
	return b.String()
}

// lowerASCII lowers ASCII letters only, so indexes into the result are
// indexes into s.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// isWordByte is \w: the bytes a regexp's \b sees as word characters.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isSpaceByte is \s in Go's regexp syntax.
func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
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

func insertShim(html, appJS string) string {
	tag := "<script " + ShimAttr + ">" + appJS + "</script>"
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
