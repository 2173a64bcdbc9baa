package gen

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"golang.org/x/net/html"

	"github.com/genui-dev/genui/mcpshim"
)

// MaxHTMLBytes is the largest page accepted from a model.
const MaxHTMLBytes = 500 << 10

// Report is the outcome of Check: Problems reject the page (until repair
// fixes them), Warnings are advisory. Findings holds both, each under the
// rule (Rules) it breaks.
type Report struct {
	Problems []string
	Warnings []string
	Findings []Finding
}

// OK reports whether the page has no problems.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Broken reports whether a problem breaks rule id.
func (r Report) Broken(id RuleID) bool {
	for _, f := range r.Findings {
		if f.Rule == id && f.Severity != SeverityWarn {
			return true
		}
	}
	return false
}

// add records a finding under rule id with the rule's severity.
func (r *Report) add(id RuleID, msg string) {
	rule, ok := RuleByID(id)
	if !ok {
		panic("gen: a check reports rule " + string(id) + ", which Rules lacks")
	}
	for _, f := range r.Findings {
		if f.Rule == id && f.Message == msg {
			return
		}
	}
	r.Findings = append(r.Findings, Finding{Rule: id, Severity: rule.Severity, Message: msg})
	if rule.Severity == SeverityWarn {
		r.Warnings = append(r.Warnings, msg)
	} else {
		r.Problems = append(r.Problems, msg)
	}
}

func (r *Report) addf(id RuleID, format string, args ...any) { r.add(id, fmt.Sprintf(format, args...)) }

var (
	reFence     = lazyRegexp("(?m)^\\s*```")
	reInjection = lazyRegexp(`(?i)\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier)\s+(?:instructions|prompts?|rules)`)
	reConnect   = lazyRegexp(`\.connect\s*\(`)
	reResult    = lazyRegexp(`\bontoolresult\b|addEventListener\s*\(\s*["'\x60]toolresult["'\x60]`)
	reNewApp    = lazyRegexp(`\bnew\s+(?:[\w$]+\.)*App\s*\(`)
	// Unbounded heights (rule bounded-height).
	reViewportHeight = lazyRegexp(`(?i)\b100(?:d|s|l)?vh\b`)
	reFullHeight     = lazyRegexp(`(?is)(?:^|[},\s])(?:html|body)\b[^{}]*\{[^}]*[^-]height\s*:\s*100%`)
	// javascript: URLs genui turns into "#" (they do nothing).
	reVoidURL = lazyRegexp(`(?i)^\s*javascript\s*:\s*(?:void\s*\(?\s*0\s*\)?\s*;?|;?)\s*$`)
)

// Elements a self-contained page never holds.
var embedTags = map[string]bool{"iframe": true, "frame": true, "frameset": true, "object": true, "embed": true, "portal": true, "applet": true}

// Check validates a page written by a model (before or after the App shim
// is inlined; the shim's own script is not checked) against Rules, the
// rules the system prompt states: one HTML document of at most
// MaxHTMLBytes with nothing around it, nothing loaded from the network, no
// inline handlers or javascript: URLs, no data turned into markup, no
// navigation or form submission, no names spelled out of pieces, no
// messaging but the App bridge, no eval, no network, the App bridge used,
// no prompt-injection residue or markup copied from the tool definition;
// unbounded heights are a warning. Every finding names its rule.
func Check(page string, tool Tool) Report {
	var r Report
	if len(page) > MaxHTMLBytes {
		r.addf(RuleSize, "the page is %d KB, over the %d KB limit", len(page)>>10, MaxHTMLBytes>>10)
		return r
	}
	trimmed := strings.TrimSpace(page)
	if trimmed == "" {
		r.add(RuleDocument, "the answer is empty")
		return r
	}
	lower := strings.ToLower(trimmed)
	start := strings.Index(lower, "<!doctype")
	if start < 0 {
		start = strings.Index(lower, "<html")
	}
	// Fences around the document are Markdown; a line starting with ```
	// inside it (a <pre> showing Markdown) is the page's own text.
	outside := trimmed
	if start >= 0 {
		outside = trimmed[:start]
		if end := strings.LastIndex(lower, "</html>"); end >= start {
			outside += "\n" + trimmed[end+len("</html>"):]
		}
	}
	if reFence().MatchString(outside) {
		r.add(RuleDocument, "the answer contains Markdown code fences")
	}
	switch {
	case start < 0:
		r.addf(RuleDocument, "the answer is not an HTML document (no <!doctype html> or <html>): %q", clip(trimmed, 120))
		return r
	case start > 0:
		r.addf(RuleDocument, "the answer has prose before the HTML document: %q", clip(strings.TrimSpace(trimmed[:start]), 120))
	}
	end := strings.LastIndex(lower, "</html>")
	if end < 0 {
		r.add(RuleDocument, "the HTML document is not closed (no </html>): the answer may be cut off")
	} else if rest := strings.TrimSpace(trimmed[end+len("</html>"):]); rest != "" {
		r.addf(RuleDocument, "the answer has prose after the HTML document: %q", clip(rest, 120))
	}
	if m := reInjection().FindString(page); m != "" {
		r.addf(RuleUntrusted, "the page carries prompt-injection residue (%q)", m)
	}
	for _, frag := range copiedMarkup(page, tool) {
		r.addf(RuleUntrusted, "the page contains markup copied from the tool definition (%q): text from the tool is data, never markup", clip(frag, 80))
	}
	validate(page, func(id RuleID, msg string) {
		if id != RuleImports { // the script checks below report every import
			r.add(id, msg)
		}
	})

	var code strings.Builder // the page's own scripts, for the bridge checks
	z := html.NewTokenizer(strings.NewReader(page))
	inScript, jsScript, shim, inStyle := false, false, false, false
	scripts := 0
	for done := false; !done; {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				r.addf(RuleDocument, "HTML does not parse: %v", err)
			}
			done = true
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			checkTag(&r, tok)
			inScript, inStyle = false, false
			switch tok.Data {
			case "script":
				inScript = tok.Type == html.StartTagToken
				_, shim = attrOK(tok, mcpshim.ShimAttr)
				jsScript = isJSType(attr(tok, "type"))
				if s, ok := attrOK(tok, "src"); ok && !shim {
					switch {
					case mcpshim.IsExtAppsSpecifier(s):
						r.addf(RuleImports, "<script src=%q> loads ext-apps: the App class is already on the page as window.McpApps", s)
					case isExternalURL(s):
						// validate reported it
					default:
						r.addf(RuleSelfContained, "<script src=%q> loads a script file: write the code inline", clip(s, 80))
					}
				}
			case "style":
				inStyle = tok.Type == html.StartTagToken
			}
		case html.TextToken:
			switch {
			case inScript && jsScript && !shim:
				scripts++
				text := string(z.Text())
				checkScript(text, fmt.Sprintf("script %d", scripts), false, r.add)
				code.WriteString(text)
				code.WriteByte('\n')
			case inStyle:
				checkHeight(&r, string(z.Text()), "<style>")
			}
		case html.EndTagToken:
			inScript, shim, inStyle = false, false, false
		}
	}
	js := stripJSComments(code.String())
	if !reConnect().MatchString(js) || !reNewApp().MatchString(js) {
		r.add(RuleUsesBridge, "the page does not use the App bridge (new App(...) and app.connect())")
	}
	if !reResult().MatchString(js) {
		r.add(RuleUsesBridge, "the page sets no tool-result handler (app.ontoolresult)")
	}
	return r
}

// checkTag checks one start tag's element and attributes.
func checkTag(r *Report, tok html.Token) {
	el := tok.Data
	switch {
	case embedTags[el]:
		r.addf(RuleSelfContained, "<%s> embeds another document: draw the content in the page itself", el)
	case el == "base":
		r.add(RuleNoNavigation, "<base> changes where the page's links and forms go")
	case el == "meta" && strings.EqualFold(attr(tok, "http-equiv"), "refresh"):
		r.add(RuleNoNavigation, "<meta http-equiv=refresh> navigates the frame away")
	case el == "form" && strings.TrimSpace(attr(tok, "action")) != "":
		r.addf(RuleNoNavigation, "<form action=%q> submits the form away: handle its submit event and call event.preventDefault()", clip(attr(tok, "action"), 80))
	}
	for _, a := range tok.Attr {
		key := strings.ToLower(a.Key)
		val := strings.TrimSpace(a.Val)
		switch {
		case len(key) > 2 && strings.HasPrefix(key, "on"):
			r.addf(RuleInlineHandlers, "<%s %s=...> is an inline event handler; attach listeners with addEventListener", el, key)
			checkScript(a.Val, fmt.Sprintf("the %s handler of <%s>", key, el), true, r.add)
		case urlAttrs[key] && strings.HasPrefix(strings.ToLower(val), "javascript:"):
			r.addf(RuleInlineHandlers, "<%s %s=%q> runs code from a URL", el, key, clip(val, 80))
		case key == "formaction" && val != "":
			r.addf(RuleNoNavigation, "<%s formaction=%q> submits a form away", el, clip(val, 80))
		case key == "target" && val != "" && val != "_self" && val != "_blank":
			r.addf(RuleNoNavigation, "<%s target=%q> navigates another frame: links may only target _self or _blank", el, clip(val, 40))
		case key == "srcdoc":
			r.addf(RuleSelfContained, "<%s srcdoc> embeds another document", el)
		case key == "style":
			checkHeight(r, a.Val, "the style attribute of <"+el+">")
		}
	}
	if el == "link" && !strings.HasPrefix(strings.ToLower(strings.TrimSpace(attr(tok, "href"))), "data:") {
		for _, rel := range strings.Fields(strings.ToLower(attr(tok, "rel"))) {
			switch rel {
			case "stylesheet", "preload", "modulepreload", "prefetch", "import", "manifest":
				r.addf(RuleSelfContained, "<link rel=%s href=%q> loads a file: inline it", rel, clip(attr(tok, "href"), 80))
			}
		}
	}
}

// checkHeight warns about heights that make a page grow with its frame.
func checkHeight(r *Report, css, where string) {
	if m := reViewportHeight().FindString(css); m != "" {
		r.addf(RuleBoundedHeight, "%s uses %s: the frame follows the page's height, so the page grows without bound", where, m)
	}
	if reFullHeight().MatchString(css) {
		r.addf(RuleBoundedHeight, "%s sets height: 100%% on html or body", where)
	}
}

func attrOK(tok html.Token, key string) (string, bool) {
	for _, a := range tok.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val, true
		}
	}
	return "", false
}

// Markup in a tool definition that must never reach a page verbatim:
// script elements, active elements and tags carrying handlers or
// javascript: URLs.
var (
	reScriptElem = lazyRegexp(`(?is)<script\b[^>]*>.*?</script\s*>`)
	reActiveTag  = lazyRegexp(`(?is)<(?:script|iframe|object|embed|base|meta|link|form)\b[^>]*>|<[a-z][\w-]*\b[^>]*\b(?:on[a-z]+\s*=|javascript:)[^>]*>`)
)

// copiedMarkup returns the active markup fragments of the tool's texts
// (description, title, schemas) that appear verbatim in page.
func copiedMarkup(page string, tool Tool) []string {
	src := strings.Join([]string{tool.Name, tool.Title, tool.Description, string(tool.InputSchema), string(tool.OutputSchema)}, "\n")
	if !strings.Contains(src, "<") {
		return nil
	}
	lowerPage := strings.ToLower(page)
	seen := map[string]bool{}
	var out []string
	for _, re := range []*regexp.Regexp{reScriptElem(), reActiveTag()} {
		for _, frag := range re.FindAllString(src, -1) {
			f := strings.ToLower(frag)
			if len(f) < 8 || seen[f] {
				continue
			}
			seen[f] = true
			if strings.Contains(lowerPage, f) {
				out = append(out, frag)
			}
		}
	}
	return out
}
