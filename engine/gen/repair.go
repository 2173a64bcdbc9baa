package gen

import (
	"regexp"
	"strings"

	"github.com/genui-dev/genui/mcpshim"
)

var (
	reFenced  = regexp.MustCompile("(?s)```[\\w-]*[ \\t]*\\r?\\n(.*?)\\r?\\n?```")
	reBodyEnd = regexp.MustCompile(`(?i)</body\s*>`)
	reHTMLEnd = regexp.MustCompile(`(?i)</html\s*>`)
)

// Repair fixes what a model commonly gets wrong and returns the page with
// genui's App bridge inlined, and what it did:
//   - the HTML is cut out of Markdown code fences and surrounding prose;
//   - imports of @modelcontextprotocol/ext-apps (bare or from a CDN) and
//     <script src> tags loading it are replaced by the inlined shim
//     (mcpshim.Inject);
//   - a tool-result handler is added when the page has none (and a whole
//     App connection when it never creates one), rendering the result as
//     text.
//
// Whatever else is wrong (external scripts, inline handlers, injected
// markup) is not repaired: Check still rejects it afterwards.
func Repair(answer string) (string, []string) {
	var did []string
	page := answer
	if m := reFenced.FindAllStringSubmatch(page, -1); len(m) > 0 {
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
	injected := mcpshim.Inject(page)
	if strings.Contains(page, "@modelcontextprotocol/ext-apps") {
		did = append(did, "replaced the ext-apps import with genui's inlined App bridge")
	}
	page = injected
	if !reResult.MatchString(stripJSComments(scriptsOf(page))) {
		if reNewApp.MatchString(stripJSComments(scriptsOf(page))) {
			// The page's App lives in its own module scope: give every App a
			// fallback listener when it connects (a listener, so a handler the
			// page sets itself still runs).
			page = afterShim(page, "<script>\n"+resultRenderer+
				"(function () { var A = window.McpApps && window.McpApps.App; if (!A) return; var connect = A.prototype.connect;\n"+
				"  A.prototype.connect = function () { if (!this.ontoolresult) this.addEventListener(\"toolresult\", genuiShowResult); return connect.apply(this, arguments); };\n})();\n</script>")
			did = append(did, "added a tool-result handler to the page's App")
		} else {
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
	return reShimElement.ReplaceAllString(page, "")
}

// afterShim inserts el right after genui's shim element (Inject placed it
// before the page's first script).
func afterShim(page, el string) string {
	if loc := reShimElement.FindStringIndex(page); loc != nil {
		return page[:loc[1]] + el + page[loc[1]:]
	}
	return el + page
}

func appendBody(page, el string) string {
	if loc := reBodyEnd.FindStringIndex(page); loc != nil {
		return page[:loc[0]] + el + page[loc[0]:]
	}
	if loc := reHTMLEnd.FindStringIndex(page); loc != nil {
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
