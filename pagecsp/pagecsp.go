// Package pagecsp writes the Content-Security-Policy meta tag every page
// genui serves carries: only the page's own scripts run (the hashes of its
// inline scripts, and for packed pages 'strict-dynamic' for the elements
// their loader inserts), so
// markup that tool data smuggles in (an <img onerror>, an injected
// <script>) never runs, whatever the host's CSP allows. The rest of the
// policy is the MCP Apps default the host applies, tightened where genui's
// pages need nothing: no <base>, no form submission.
package pagecsp

import (
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/html"

	"github.com/genui-dev/genui/pagepack"
)

// Attr marks the meta element Apply writes (and replaces on the next Apply).
const Attr = "data-genui-csp"

// Directives is the policy apart from script-src: the MCP Apps default a
// host applies when a resource declares no CSP (no network, no frames, no
// plugins), with base-uri and form-action closed (a page that sets <base>
// or submits a form could send data away).
const Directives = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"

// Policy is the page policy for the given script-src sources (hashes);
// dynamic adds 'strict-dynamic' (packed pages: their loader inserts the
// parts as script elements).
func Policy(hashes []string, dynamic bool) string {
	src := "script-src"
	for _, h := range hashes {
		src += " " + h
	}
	if dynamic {
		src += " 'strict-dynamic'"
	}
	return src + "; " + Directives
}

// Hash is the CSP hash source of one inline script's text, as the
// browser hashes it (the element's text, UTF-8).
func Hash(script string) string {
	sum := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// ScriptHashes returns the hash sources of every inline script the page
// runs: the scripts in its markup (as a browser parses them, foreign SVG
// content included) and the parts of a packed page (pagepack.Pack), which
// its loader inserts. Sorted, without duplicates.
func ScriptHashes(page string) []string {
	seen := map[string]bool{}
	add := func(text string) { seen[Hash(text)] = true }
	if doc, err := html.Parse(strings.NewReader(page)); err == nil {
		for n := range doc.Descendants() {
			if n.Type != html.ElementNode || n.Data != "script" || hasAttr(n, "src") || !runsAsScript(n) {
				continue
			}
			var b strings.Builder
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode {
					b.WriteString(c.Data)
				}
			}
			add(b.String())
		}
	}
	if parts, err := pagepack.PackedScripts(page); err == nil {
		for _, p := range parts {
			add(p)
		}
	}
	out := make([]string, 0, len(seen))
	for h := range seen {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return true
		}
	}
	return false
}

// runsAsScript reports whether a script element's type makes the browser
// run it (classic or module JavaScript); data blocks need no hash.
func runsAsScript(n *html.Node) bool {
	if n.Namespace != "" && n.Namespace != "svg" {
		return false
	}
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, "type") {
			switch strings.ToLower(strings.TrimSpace(a.Val)) {
			case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript":
				return true
			}
			return false
		}
	}
	return true
}

var (
	reHead    = regexp.MustCompile(`(?i)<head(?:\s[^>]*)?>`)
	reHTML    = regexp.MustCompile(`(?i)<html(?:\s[^>]*)?>`)
	reDoctype = regexp.MustCompile(`(?i)^\s*<!doctype[^>]*>`)
	// What may stand before <head> for it to be the document's head.
	rePrelude = regexp.MustCompile(`(?is)^(?:\s|<!doctype[^>]*>|<html(?:\s[^>]*)?>|<!--.*?-->)*$`)
)

// Meta is the meta element for page's current scripts. Only a packed
// page (pagepack) gets 'strict-dynamic': nothing else genui serves creates
// script elements, so in every other page (a model-written one above all)
// a script that script creates runs only when its text is one the page
// already runs.
func Meta(page string) string {
	return `<meta http-equiv="Content-Security-Policy" ` + Attr + ` content="` +
		Policy(ScriptHashes(page), pagepack.IsPacked(page) && !strings.Contains(page, GuardedMark)) + `">` // base64 and keywords: nothing to escape
}

// GuardedMark starts the first script of a model-written page
// (mcpshim.InjectGuarded; a test keeps the two in step): such a page never
// gets 'strict-dynamic', whatever its text says.
const GuardedMark = "<script data-genui-shim data-genui-guard>"

// Apply returns page with its genui CSP meta element (re)written for the
// scripts it holds now: run it last, after everything that adds a script.
// The element goes first into <head> (or where the parser opens the head
// implicitly, before anything that could run), so the policy covers the
// whole document.
func Apply(page string) string {
	page = Strip(page)
	meta := "\n" + Meta(page) // a line of its own: diffs of a page stay readable
	if loc := reHead.FindStringIndex(page); loc != nil && rePrelude.MatchString(page[:loc[0]]) {
		return page[:loc[1]] + meta + page[loc[1]:]
	}
	for _, re := range []*regexp.Regexp{reHTML, reDoctype} {
		if loc := re.FindStringIndex(page); loc != nil {
			return page[:loc[1]] + meta + page[loc[1]:]
		}
	}
	return meta + page
}

// metaOpen starts the meta element Apply writes.
const metaOpen = `<meta http-equiv="Content-Security-Policy" ` + Attr + ` content="`

// Strip removes the meta elements Apply wrote (refine prompts show the
// page without it; Apply replaces it).
func Strip(page string) string {
	for {
		i := strings.Index(page, metaOpen)
		if i < 0 {
			return page
		}
		end := strings.Index(page[i+len(metaOpen):], `">`)
		if end < 0 {
			return page
		}
		j := i + len(metaOpen) + end + len(`">`)
		if i > 0 && page[i-1] == '\n' {
			i--
		}
		page = page[:i] + page[j:]
	}
}

// Has reports whether page carries genui's CSP meta element.
func Has(page string) bool { return strings.Contains(page, metaOpen) }
