package gen

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/net/html"

	"github.com/genui-dev/genui/mcpshim"
)

var (
	reFenced  = lazyRegexp("(?s)```[\\w-]*[ \\t]*\\r?\\n(.*?)\\r?\\n?```")
	reBodyEnd = lazyRegexp(`(?i)</body\s*>`)
	reHTMLEnd = lazyRegexp(`(?i)</html\s*>`)
)

// Repair fixes what a model commonly gets wrong (the rules of severity
// SeverityRepair) and returns the page with genui's App bridge inlined, and
// what it did:
//   - the HTML is cut out of Markdown code fences and surrounding prose;
//   - inline event-handler attributes (onclick="this.blur()") become
//     listeners added by one script at the end of the body, and
//     href="javascript:void(0)" becomes href="#";
//   - imports of @modelcontextprotocol/ext-apps (bare or from a CDN) and
//     <script src> tags loading it are replaced by the inlined shim
//     (mcpshim.Inject);
//   - a tool-result handler is added when the page has none (and a whole
//     App connection when it never creates one and does not message the
//     host itself: a page that uses postMessage is never given a second
//     bridge), rendering the result as text.
//
// Whatever else is wrong (external scripts, data put in as markup,
// navigation, raw messaging) is not repaired: Check still rejects it.
func Repair(answer string) (string, []string) {
	var did []string
	page := answer
	if m := reFenced().FindAllStringSubmatch(page, -1); len(m) > 0 {
		// The fenced block that holds the document (the longest one).
		best := ""
		for _, b := range m {
			if strings.Contains(strings.ToLower(b[1]), "<html") && len(b[1]) > len(best) {
				best = b[1]
			}
		}
		if best != "" {
			page = best
			did = append(did, "took the HTML out of a Markdown code fence")
		}
	}
	if cut, ok := cutDocument(page); ok && cut != strings.TrimSpace(page) {
		page = cut
		did = append(did, "removed prose around the HTML document")
	}
	if !strings.Contains(strings.ToLower(page), "<html") && !strings.Contains(strings.ToLower(page), "<!doctype") {
		return page, did // no document to repair
	}
	if moved, n, ok := moveHandlers(page); ok && n > 0 {
		page = moved
		did = append(did, fmt.Sprintf("moved %d inline event handler(s) into listeners", n))
	}
	if fixed, n := voidURLs(page); n > 0 {
		page = fixed
		did = append(did, fmt.Sprintf("turned %d javascript:void(0) link(s) into href=\"#\"", n))
	}
	injected := mcpshim.Inject(page)
	if strings.Contains(page, "@modelcontextprotocol/ext-apps") {
		did = append(did, "replaced the ext-apps import with genui's inlined App bridge")
	}
	page = injected
	if !reResult().MatchString(stripJSComments(scriptsOf(page))) {
		if reNewApp().MatchString(stripJSComments(scriptsOf(page))) {
			// The page's App lives in its own module scope: give every App a
			// fallback listener when it connects (a listener, so a handler the
			// page sets itself still runs).
			page = afterShim(page, "<script>\n"+resultRenderer+
				"(function () { var A = window.McpApps && window.McpApps.App; if (!A) return; var connect = A.prototype.connect;\n"+
				"  A.prototype.connect = function () { if (!this.ontoolresult) this.addEventListener(\"toolresult\", genuiShowResult); return connect.apply(this, arguments); };\n})();\n</script>")
			did = append(did, "added a tool-result handler to the page's App")
		} else if !Check(page, Tool{}).Broken(RuleBridgeOnly) {
			page = appendBody(page, "<script type=\"module\">\n"+
				"const genuiApp = new window.McpApps.App({ name: \"genui-repaired\", version: \"1.0.0\" }, {}, { autoResize: true });\n"+
				"genuiApp.ontoolresult = genuiShowResult;\ngenuiApp.connect();\n</script>")
			page = afterShim(page, "<script>\n"+resultRenderer+"</script>")
			did = append(did, "connected the page to the App bridge with a tool-result handler")
		}
	}
	return page, did
}

// cutDocument returns the text from <!doctype or <html to the last </html>.
func cutDocument(s string) (string, bool) {
	lower := strings.ToLower(s)
	start := strings.Index(lower, "<!doctype")
	if start < 0 {
		start = strings.Index(lower, "<html")
	}
	end := strings.LastIndex(lower, "</html>")
	if start < 0 || end < start {
		return "", false
	}
	return s[start : end+len("</html>")], true
}

// scriptsOf is the text of the page's scripts except genui's shim.
func scriptsOf(page string) string {
	return reShimElement().ReplaceAllString(page, "")
}

// afterShim inserts el right after genui's shim element (Inject placed it
// before the page's first script).
func afterShim(page, el string) string {
	if loc := reShimElement().FindStringIndex(page); loc != nil {
		return page[:loc[1]] + el + page[loc[1]:]
	}
	return el + page
}

func appendBody(page, el string) string {
	if loc := reBodyEnd().FindStringIndex(page); loc != nil {
		return page[:loc[0]] + el + page[loc[0]:]
	}
	if loc := reHTMLEnd().FindStringIndex(page); loc != nil {
		return page[:loc[0]] + el + page[loc[0]:]
	}
	return page + el
}

// resultRenderer shows a CallToolResult as text in a <pre>, safely.
const resultRenderer = `function genuiShowResult(result) {
  let el = document.getElementById("genui-result");
  if (!el) { el = document.createElement("pre"); el.id = "genui-result"; el.style.whiteSpace = "pre-wrap"; document.body.appendChild(el); }
  const r = result || {};
  let text = "";
  if (r.structuredContent !== undefined) text = JSON.stringify(r.structuredContent, null, 2);
  else if (Array.isArray(r.content)) text = r.content.map(function (b) { return b && b.type === "text" ? b.text : JSON.stringify(b); }).join("\n");
  el.textContent = (r.isError ? "Error: " : "") + text;
}
`

// Events a handler attribute of <body> (or <frameset>) listens for on the
// window.
var windowEvents = map[string]bool{
	"afterprint": true, "beforeprint": true, "beforeunload": true, "hashchange": true, "languagechange": true,
	"message": true, "offline": true, "online": true, "pagehide": true, "pageshow": true, "popstate": true,
	"rejectionhandled": true, "storage": true, "unhandledrejection": true, "unload": true, "load": true,
	"resize": true, "error": true, "blur": true, "focus": true, "scroll": true,
}

// HandlerAttr marks an element whose inline handlers Repair moved.
const HandlerAttr = "data-genui-on"

// moveHandlers turns the inline on* attributes of the page's markup into
// listeners: each element gets a data-genui-on="N" mark and one script at
// the end of the body adds the handler code as a listener (a handler that
// returns false prevents the default, as the attribute would). It returns
// the page and the number of handlers moved; ok is false (the page
// unchanged) when a handler's code cannot sit in a script element.
func moveHandlers(page string) (string, int, bool) {
	if !reOnAttr().MatchString(page) {
		return page, 0, true
	}
	var out, script strings.Builder
	z := html.NewTokenizer(strings.NewReader(page))
	n, marks := 0, 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				return page, 0, false
			}
			break
		}
		raw := string(z.Raw())
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			out.WriteString(raw)
			continue
		}
		tok := z.Token()
		var keep []html.Attribute
		var moved [][2]string
		for _, a := range tok.Attr {
			if k := strings.ToLower(a.Key); len(k) > 2 && strings.HasPrefix(k, "on") && a.Namespace == "" {
				moved = append(moved, [2]string{k[2:], a.Val})
				continue
			}
			keep = append(keep, a)
		}
		if len(moved) == 0 {
			out.WriteString(raw)
			continue
		}
		marks++
		id := fmt.Sprint(marks)
		for _, m := range moved {
			code := m[1]
			if l := strings.ToLower(code); strings.Contains(l, "</script") || strings.Contains(l, "<!--") {
				return page, 0, false
			}
			target := fmt.Sprintf("document.querySelector('[%s=\"%s\"]')", HandlerAttr, id)
			if (tok.Data == "body" || tok.Data == "frameset") && windowEvents[m[0]] {
				target = "window"
			}
			fmt.Fprintf(&script, "  genuiOn(%s, %q, function (event) {\n%s\n  });\n", target, m[0], code)
			n++
		}
		tok.Attr = append(keep, html.Attribute{Key: HandlerAttr, Val: id})
		out.WriteString(tok.String())
	}
	el := "<script>\n/* genui moved these inline event handlers into listeners. */\n(function () {\n" +
		"  function genuiOn(el, type, handler) {\n" +
		"    if (el) el.addEventListener(type, function (event) { if (handler.call(this, event) === false) event.preventDefault(); });\n" +
		"  }\n" + script.String() + "})();\n</script>"
	return appendBody(out.String(), el), n, true
}

var (
	reOnAttr   = lazyRegexp(`(?i)<[a-z][^>]*\son[a-z]+\s*=`)
	reVoidHref = lazyRegexp(`(?i)(\shref\s*=\s*)(?:"\s*javascript\s*:[^"]*"|'\s*javascript\s*:[^']*')`)
)

// voidURLs turns href="javascript:void(0)" (and javascript:; javascript:)
// into href="#": a link that does nothing but lets a listener act.
func voidURLs(page string) (string, int) {
	n := 0
	out := reVoidHref().ReplaceAllStringFunc(page, func(m string) string {
		sub := reVoidHref().FindStringSubmatch(m)
		val := strings.TrimSpace(m[len(sub[1]):])
		val = val[1 : len(val)-1]
		if !reVoidURL().MatchString(html.UnescapeString(val)) {
			return m
		}
		n++
		return sub[1] + `"#"`
	})
	return out, n
}

// lazyRegexp compiles expr on first use: compiling this package's
// expressions at process start (about 30, 330 KB of programs) cost every
// genui start, `genui mcp` before it spawns its upstream included, whether
// or not a page is ever generated or checked.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
