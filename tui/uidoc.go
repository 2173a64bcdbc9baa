package tui

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/linediff"
	"github.com/genui-dev/genui/pagepack"
)

// uiDoc is a tool's UI as the UI tab shows it: metadata and the HTML as
// highlighted lines (highlighting runs in the command that fetched it, never
// in Update or View).
type uiDoc struct {
	view  contract.UIView
	lines []string
	style string // the chroma style the lines were highlighted with ("" plain)
}

// maxHighlight bounds the HTML that is highlighted; beyond it lines are
// shown plain (a UI is normally well under it).
const maxHighlight = 512 << 10

// highlightHTML splits HTML into lines, syntax-highlighted with the chroma
// style named (github-dark, github; "" for none). Tokens that span lines
// (comments, scripts) are styled piece by piece, so every line stands alone
// and can be cut and scrolled without carrying state.
func highlightHTML(src, style string) []string {
	if style == "" || len(src) > maxHighlight {
		return cleanLines(src)
	}
	lexer := htmlLexer()
	cs := chromaStyles()[style]
	if lexer == nil || cs == nil {
		return cleanLines(src)
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, src)
	if err != nil {
		return cleanLines(src)
	}
	cache := map[chroma.TokenType]lipgloss.Style{}
	styleOf := func(t chroma.TokenType) lipgloss.Style {
		if s, ok := cache[t]; ok {
			return s
		}
		e := cs.Get(t)
		s := lipgloss.NewStyle()
		if e.Colour.IsSet() {
			s = s.Foreground(lipgloss.Color(e.Colour.String()))
		}
		if e.Bold == chroma.Yes {
			s = s.Bold(true)
		}
		if e.Italic == chroma.Yes {
			s = s.Italic(true)
		}
		cache[t] = s
		return s
	}
	var lines []string
	var cur strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		parts := strings.Split(tok.Value, "\n")
		for i, p := range parts {
			if i > 0 {
				lines = append(lines, cur.String())
				cur.Reset()
			}
			if p == "" {
				continue
			}
			p = clean(strings.TrimRight(p, "\r"))
			if strings.TrimSpace(p) == "" {
				cur.WriteString(p)
				continue
			}
			cur.WriteString(styleOf(tok.Type).Render(p))
		}
	}
	lines = append(lines, cur.String())
	return lines
}

// diffLine is one line of a change's diff.
type diffLine struct {
	op   byte // '+', '-', ' ', '@' (hunk header)
	text string
	// from, to: the words that changed, for a line paired with its
	// counterpart (the i-th removed line of a run with the i-th added one);
	// from == to when unpaired.
	from, to int
}

// changeView is what the UI tab shows after a refine or regenerate: the
// refinement as understood and a line diff of the old and new HTML.
type changeView struct {
	ch    contract.UIChange
	diff  []diffLine
	added int
	gone  int
}

// interim reports whether the change's new UI stands in while an LLM
// generates the page (a refine with an LLM answers with the offline UI at
// once): when that page arrives, the change is diffed again against it.
func (cv *changeView) interim() bool {
	return cv.ch.Meta.UIType != uiTypeLLM && cv.ch.Meta.FallbackReason != ""
}

// uiTypeLLM is the UI type of a page a model wrote.
const uiTypeLLM = "llm"

// newChangeView computes the diff of a change (linediff: go-udiff's
// line-level LCS, unified hunks with 3 lines of context).
func newChangeView(ch contract.UIChange) *changeView {
	cv := &changeView{ch: ch}
	if ch.OldHTML == ch.HTML || ch.OldHTML == "" {
		return cv
	}
	// Offline pages are served packed (their scripts and styles in one
	// encoded line); a person compares the source, so both sides are
	// unpacked first.
	before, err1 := readableHTML(ch.OldHTML)
	after, err2 := readableHTML(ch.HTML)
	if err := errors.Join(err1, err2); err != nil {
		cv.diff = []diffLine{{op: '@', text: "diff failed: " + err.Error()}}
		return cv
	}
	lines, err := linediff.Unified(before, after, 3)
	if err != nil {
		cv.diff = []diffLine{{op: '@', text: "diff failed: " + err.Error()}}
		return cv
	}
	for _, l := range lines {
		switch l.Op {
		case linediff.Delete:
			cv.gone++
		case linediff.Insert:
			cv.added++
		}
		text := l.Text
		if l.Op != linediff.Hunk {
			text = clean(text)
		}
		cv.diff = append(cv.diff, diffLine{op: l.Op, text: text})
	}
	pairWords(cv.diff)
	return cv
}

// pairWords marks, in each run of removed lines followed by added ones, the
// words that differ between the i-th removed and the i-th added line: a
// one-word change in a long line ("bigger font") shows where it is.
func pairWords(d []diffLine) {
	for i := 0; i < len(d); {
		if d[i].op != '-' {
			i++
			continue
		}
		j := i
		for j < len(d) && d[j].op == '-' {
			j++
		}
		k := j
		for k < len(d) && d[k].op == '+' {
			k++
		}
		for n := 0; n < j-i && n < k-j; n++ {
			a, b := &d[i+n], &d[j+n]
			a.from, a.to, b.from, b.to = wordDiff(a.text, b.text)
		}
		i = k
	}
}

// wordDiff is the changed middle of a and b after their common leading and
// trailing words: a[af:at] became b[bf:bt].
func wordDiff(a, b string) (af, at, bf, bt int) {
	wa, wb := words(a), words(b)
	p := 0
	for p < len(wa) && p < len(wb) && wa[p] == wb[p] {
		af += len(wa[p])
		p++
	}
	bf = af
	at, bt = len(a), len(b)
	for q := 0; q < len(wa)-p && q < len(wb)-p && wa[len(wa)-1-q] == wb[len(wb)-1-q]; q++ {
		at -= len(wa[len(wa)-1-q])
		bt -= len(wb[len(wb)-1-q])
	}
	return af, at, bf, bt
}

// words splits s into words (letters, digits, _) and single other
// characters; joined they are s.
func words(s string) []string {
	var out []string
	start := 0
	inWord := false
	for i, r := range s {
		w := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case w && inWord:
			continue
		case i > start:
			out = append(out, s[start:i])
		}
		start, inWord = i, w
		if !w {
			out = append(out, string(r))
			start = i + len(string(r))
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// readableHTML is a page as its source reads: a packed page unpacked.
func readableHTML(page string) (string, error) {
	if !pagepack.IsPacked(page) {
		return page, nil
	}
	html, err := pagepack.Unpack(page)
	if err != nil {
		return "", fmt.Errorf("unpacking the page: %w", err)
	}
	return html, nil
}
