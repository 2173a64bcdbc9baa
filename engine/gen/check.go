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

// Report is the outcome of Check: Problems reject the page, Warnings are
// advisory.
type Report struct {
	Problems []string
	Warnings []string
}

// OK reports whether the page has no problems.
func (r Report) OK() bool { return len(r.Problems) == 0 }

func (r *Report) problemf(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

func (r *Report) warnf(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

var (
	reFence     = regexp.MustCompile("(?m)^\\s*```")
	reInjection = regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier)\s+(?:instructions|prompts?|rules)`)
	reConnect   = regexp.MustCompile(`\.connect\s*\(`)
	reResult    = regexp.MustCompile(`\bontoolresult\b|addEventListener\s*\(\s*["'\x60]toolresult["'\x60]`)
	reNewApp    = regexp.MustCompile(`\bnew\s+(?:[\w$]+\.)*App\s*\(`)
	// Advisory: patterns a page should not need.
	advisories = []struct {
		re  *regexp.Regexp
		msg string
	}{
		{regexp.MustCompile(`\beval\s*\(`), "uses eval (blocked by hosts' CSP)"},
		{regexp.MustCompile(`\bnew\s+Function\s*\(|[^.\w$]Function\s*\(\s*["'\x60]`), "uses the Function constructor (blocked by hosts' CSP)"},
		{regexp.MustCompile(`\bdocument\.write(?:ln)?\s*\(`), "uses document.write"},
		{regexp.MustCompile(`(?:^|[^.\w$])(?:window\.)?top\s*\.`), "touches window.top"},
		{regexp.MustCompile(`(?:^|[^.\w$])(?:window\.)?parent\s*\.`), "touches window.parent"},
	}
)

// Check validates a page written by a model (before or after the App shim
// is inlined; the shim's own script is not checked) against the rules the
// prompt states: it parses as one HTML document of at most MaxHTMLBytes
// with nothing around it (no prose, no Markdown fences), loads nothing from
// the network (Validate), has no inline on* handlers or javascript: URLs,
// uses the App bridge (connect and a result handler), carries no
// prompt-injection residue and no markup copied from the tool definition.
// eval, Function, document.write, top and parent are warnings.
func Check(page string, tool Tool) Report {
	var r Report
	if len(page) > MaxHTMLBytes {
		r.problemf("the page is %d KB, over the %d KB limit", len(page)>>10, MaxHTMLBytes>>10)
		return r
	}
	trimmed := strings.TrimSpace(page)
	if trimmed == "" {
		r.problemf("the answer is empty")
		return r
	}
	if reFence.MatchString(page) {
		r.problemf("the answer contains Markdown code fences")
	}
	lower := strings.ToLower(trimmed)
	start := strings.Index(lower, "<!doctype")
	if start < 0 {
		start = strings.Index(lower, "<html")
	}
	switch {
	case start < 0:
		r.problemf("the answer is not an HTML document (no <!doctype html> or <html>): %q", clip(trimmed, 120))
		return r
	case start > 0:
		r.problemf("the answer has prose before the HTML document: %q", clip(strings.TrimSpace(trimmed[:start]), 120))
	}
	end := strings.LastIndex(lower, "</html>")
	if end < 0 {
		r.problemf("the HTML document is not closed (no </html>): the answer may be cut off")
	} else if rest := strings.TrimSpace(trimmed[end+len("</html>"):]); rest != "" {
		r.problemf("the answer has prose after the HTML document: %q", clip(rest, 120))
	}
	if reInjection.MatchString(page) {
		r.problemf("the page carries prompt-injection residue (%q)", reInjection.FindString(page))
	}
	for _, frag := range copiedMarkup(page, tool) {
		r.problemf("the page contains markup copied from the tool definition (%q): text from the tool is data, never markup", clip(frag, 80))
	}
	for _, p := range Validate(page) {
		r.problemf("%s", p)
	}

	var js strings.Builder
	z := html.NewTokenizer(strings.NewReader(page))
	inScript, shim := false, false
	for done := false; !done; {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				r.problemf("HTML does not parse: %v", err)
			}
			done = true
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				key := strings.ToLower(a.Key)
				if len(key) > 2 && strings.HasPrefix(key, "on") {
					r.problemf("<%s %s=...> is an inline event handler; attach listeners with addEventListener", tok.Data, key)
				}
				if urlAttrs[key] && strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Val)), "javascript:") {
					r.problemf("<%s %s=\"javascript:...\"> runs code from a URL", tok.Data, key)
				}
			}
			if tok.Data == "meta" && strings.EqualFold(attr(tok, "http-equiv"), "refresh") {
				r.problemf("<meta http-equiv=refresh> navigates the frame away")
			}
			if tok.Data == "script" && tok.Type == html.StartTagToken {
				inScript = true
				_, shim = attrOK(tok, mcpshim.ShimAttr)
				if !shim && !isJSType(attr(tok, "type")) {
					inScript = false // JSON data, templates
				}
			}
		case html.TextToken:
			if inScript && !shim {
				js.Write(z.Text())
				js.WriteByte('\n')
			}
		case html.EndTagToken:
			inScript, shim = false, false
		}
	}
	code := stripJSComments(js.String())
	if !reConnect.MatchString(code) || !reNewApp.MatchString(code) {
		r.problemf("the page does not use the App bridge (new App(...) and app.connect())")
	}
	if !reResult.MatchString(code) {
		r.problemf("the page sets no tool-result handler (app.ontoolresult)")
	}
	for _, a := range advisories {
		if a.re.MatchString(code) {
			r.warnf("the page %s", a.msg)
		}
	}
	return r
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
	reScriptElem = regexp.MustCompile(`(?is)<script\b[^>]*>.*?</script\s*>`)
	reActiveTag  = regexp.MustCompile(`(?is)<(?:script|iframe|object|embed|base|meta|link|form)\b[^>]*>|<[a-z][\w-]*\b[^>]*\b(?:on[a-z]+\s*=|javascript:)[^>]*>`)
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
	for _, re := range []*regexp.Regexp{reScriptElem, reActiveTag} {
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
