package gen

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// Attributes that make the browser load (or navigate to) a URL.
var urlAttrs = map[string]bool{
	"src": true, "href": true, "srcset": true, "poster": true, "data": true,
	"action": true, "formaction": true, "xlink:href": true, "background": true,
	"manifest": true, "imagesrcset": true,
}

var (
	// The import and export patterns start at a word (at a word boundary,
	// which findAllAt checks): anchored, they run only where it occurs.
	reStaticImport = lazyRegexp(`^import\s*(?:[\w$*{},\s]+?\bfrom\s*)?["']([^"'\n]+)["']`)
	reExportFrom   = lazyRegexp(`^export\s*(?:\*|\{[^}]*\})\s*(?:as\s+[\w$]+\s*)?from\s*["']([^"'\n]+)["']`)
	reDynamic      = lazyRegexp(`^import\s*\(\s*["'\x60]([^"'\x60\n]+)["'\x60]\s*\)`)
	reCSSURL       = lazyRegexp(`(?i)(?:url\(\s*["']?|@import\s+["'])\s*((?:https?:)?//[^"')\s]*)`)
)

// Validate checks that generated HTML is self-contained, as hosts load it with
// no import map, no server and a CSP that only allows inline code and data:
// media. It reports bare-module imports (import ... from "x" where x does not
// start with ./ ../ or /), imports from URLs, and external URLs (http:,
// https:, //) in src/href-like attributes and CSS. It returns the problems
// found, nil when there are none.
func Validate(doc string) []string {
	var problems []string
	validate(doc, func(_ RuleID, msg string) { problems = append(problems, msg) })
	return problems
}

// validate reports Validate's problems, each under its rule (imports, or
// self-contained for external URLs).
func validate(doc string, report func(RuleID, string)) {
	add := func(format string, args ...any) { report(RuleSelfContained, fmt.Sprintf(format, args...)) }
	addImport := func(format string, args ...any) { report(RuleImports, fmt.Sprintf(format, args...)) }
	z := html.NewTokenizer(strings.NewReader(doc))
	var raw string // "script", "style" or "" for the element whose text comes next
	jsScript := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				report(RuleDocument, fmt.Sprintf("HTML tokenizer error: %v", err))
			}
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				key := strings.ToLower(a.Key)
				switch {
				case urlAttrs[key]:
					for _, u := range attrURLs(key, a.Val) {
						if isExternalURL(u) {
							add("<%s %s=%q> loads an external URL; inline it or use a data: URL", tok.Data, key, u)
						}
					}
				case key == "style":
					checkCSS(a.Val, "style attribute of <"+tok.Data+">", add)
				}
			}
			raw = ""
			if tok.Data == "script" || tok.Data == "style" {
				raw = tok.Data
			}
			if tok.Data == "script" {
				jsScript = isJSType(attr(tok, "type"))
			}
		case html.TextToken:
			switch {
			case raw == "script" && jsScript:
				checkImports(string(z.Text()), add, addImport)
			case raw == "style":
				checkCSS(string(z.Text()), "<style>", add)
			}
		case html.EndTagToken:
			raw = ""
		}
	}
}

func attr(tok html.Token, key string) string {
	for _, a := range tok.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// isJSType reports whether a script type attribute denotes JavaScript.
func isJSType(t string) bool {
	t = strings.ToLower(strings.TrimSpace(t))
	switch t {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript":
		return true
	}
	return false
}

func attrURLs(key, val string) []string {
	if key != "srcset" && key != "imagesrcset" {
		return []string{val}
	}
	var out []string
	for _, part := range strings.Split(val, ",") {
		if f := strings.Fields(part); len(f) > 0 {
			out = append(out, f[0])
		}
	}
	return out
}

func isExternalURL(u string) bool {
	u = strings.ToLower(strings.TrimSpace(u))
	return strings.HasPrefix(u, "http:") || strings.HasPrefix(u, "https:") || strings.HasPrefix(u, "//")
}

func checkCSS(css, where string, add func(string, ...any)) {
	// The pattern needs url( or @import (no letter of which case-folds
	// outside ASCII): most style sheets have neither, and the regexp would
	// step through all of it.
	if low := lowerASCII(css); !strings.Contains(low, "url(") && !strings.Contains(low, "@import") {
		return
	}
	for _, m := range reCSSURL().FindAllStringSubmatch(css, -1) {
		add("%s loads an external URL %q; the default CSP blocks it", where, m[1])
	}
}

// importSpecs returns what a script imports (static, export-from, dynamic),
// comments left out.
func importSpecs(js string) []string {
	code := stripJSComments(js)
	var specs []string
	for _, p := range []struct {
		re   *regexp.Regexp
		word string
	}{{reStaticImport(), "import"}, {reExportFrom(), "export"}, {reDynamic(), "import"}} {
		for _, m := range findAllAt(p.re, p.word, code) {
			specs = append(specs, m[1])
		}
	}
	return specs
}

func checkImports(js string, add, addImport func(string, ...any)) {
	for _, s := range importSpecs(js) {
		switch {
		case isExternalURL(s):
			addImport("script imports %q from the network; bundle it inline (no CDN)", s)
		case strings.HasPrefix(s, "./"), strings.HasPrefix(s, "../"), strings.HasPrefix(s, "/"):
			// relative: allowed
		default:
			addImport("script has a bare module import %q; hosts have no import map, inline it (mcpshim provides @modelcontextprotocol/ext-apps)", s)
		}
	}
}

// stripJSComments removes // and /* */ comments outside string literals, so
// commented-out imports are not reported. Regex literals are not tracked.
func stripJSComments(js string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(js); i++ {
		c := js[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(js) {
				i++
				b.WriteByte(js[i])
			} else if c == quote || (c == '\n' && quote != '`') {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
			b.WriteByte(c)
		case c == '/' && i+1 < len(js) && js[i+1] == '/':
			for i < len(js) && js[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '/' && i+1 < len(js) && js[i+1] == '*':
			end := strings.Index(js[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// findAllAt is FindAllStringSubmatch for `\b` + re, where re is anchored
// and starts with word: it runs re only where word starts a word, so the
// regexp machine does not step through the whole script (tens of
// milliseconds for a 100 KB module, most of generating an offline page).
func findAllAt(re *regexp.Regexp, word, s string) [][]string {
	var out [][]string
	for pos := 0; ; {
		i := strings.Index(s[pos:], word)
		if i < 0 {
			return out
		}
		start := pos + i
		pos = start + 1
		if start > 0 && isWordByte(s[start-1]) {
			continue
		}
		if m := re.FindStringSubmatch(s[start:]); m != nil {
			out = append(out, m)
			pos = start + len(m[0])
		}
	}
}

// isWordByte is \w: the bytes a regexp's \b sees as word characters.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
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
