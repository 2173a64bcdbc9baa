package tui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Drawing helpers. Every region of the screen renders exactly its height in
// lines of exactly its width in cells, so regions join by plain
// concatenation and a frame costs what is visible, not what is held.

// fit truncates s (ANSI-aware) to w cells, with an ellipsis when cut, and
// pads it with spaces to exactly w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := cellWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// cellWidth is ansi.StringWidth with a fast path for the common line: ASCII
// text and SGR/CSI sequences only (one byte one cell, sequences none);
// anything else goes to ansi.StringWidth (grapheme clusters, wide runes).
func cellWidth(s string) int {
	w := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return ansi.StringWidth(s)
		case c == 0x1b:
			if i+1 >= len(s) || s[i+1] != '[' {
				return ansi.StringWidth(s)
			}
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
		case c >= 0x20 && c != 0x7f:
			w++
		}
	}
	return w
}

// clean makes text safe to draw: tabs become spaces, other control
// characters and invalid UTF-8 are replaced. Text from upstreams, UIs and
// logs passes through it before reaching the terminal.
func clean(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("    ")
		case r == '\n':
			b.WriteString("⏎")
		case r == utf8.RuneError:
			b.WriteRune('�')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b.WriteRune('·')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cleanLines splits text into lines and cleans each.
func cleanLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = clean(strings.TrimRight(l, "\r"))
	}
	return lines
}

// wrap word-wraps plain text to w cells (long words are broken).
func wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, para := range cleanLines(s) {
		if para == "" {
			out = append(out, "")
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(para, w, ""), "\n")...)
	}
	return out
}

// scroll describes a scrolled list for the scrollbar drawn in a box's
// right edge: total items, the first shown, how many are shown, over the
// first rows lines of the box (zero value: no scrollbar).
type scroll struct{ total, first, visible, rows int }

// thumb is the scrollbar's position and length in lines.
func (sc scroll) thumb() (pos, size int) {
	if sc.total <= sc.visible || sc.visible <= 0 || sc.rows <= 0 {
		return 0, 0
	}
	size = max(1, sc.rows*sc.visible/sc.total)
	pos = (sc.rows - size) * sc.first / (sc.total - sc.visible)
	return pos, size
}

// box draws lines inside a rounded border w cells wide and h lines high,
// with title set into the top edge and, for a scrolled list, a scrollbar
// thumb in the right edge. Lines beyond the inner height are not drawn;
// short content is padded.
func box(st Styles, title string, focused bool, w, h int, lines []string, sc ...scroll) []string {
	if w < 4 || h < 2 {
		return blank(w, h)
	}
	bs, ts := st.Border, st.PaneTitle
	if focused {
		bs, ts = st.BorderFocus, st.PaneTitleFocus
	}
	inner := w - 2
	out := make([]string, 0, h)
	var top string
	if title != "" {
		t := " " + ansi.Truncate(title, inner-3, "…") + " "
		top = bs.Render("╭─") + ts.Render(t) + bs.Render(strings.Repeat("─", max(0, inner-1-ansi.StringWidth(t)))+"╮")
	} else {
		top = bs.Render("╭" + strings.Repeat("─", inner) + "╮")
	}
	out = append(out, top)
	side := bs.Render("│")
	pos, size := 0, 0
	if len(sc) > 0 {
		pos, size = sc[0].thumb()
	}
	bar := st.Muted.Render("┃")
	if focused {
		bar = st.BorderFocus.Render("┃")
	}
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		right := side
		if size > 0 && i >= pos && i < pos+size {
			right = bar
		}
		out = append(out, side+fit(l, inner)+right)
	}
	out = append(out, bs.Render("╰"+strings.Repeat("─", inner)+"╯"))
	return out
}

// blank is h empty lines of w cells.
func blank(w, h int) []string {
	out := make([]string, max(h, 0))
	sp := strings.Repeat(" ", max(w, 0))
	for i := range out {
		out[i] = sp
	}
	return out
}

// joinColumns puts two equally tall blocks side by side.
func joinColumns(a, b []string) []string {
	n := max(len(a), len(b))
	out := make([]string, n)
	for i := range out {
		var l, r string
		if i < len(a) {
			l = a[i]
		}
		if i < len(b) {
			r = b[i]
		}
		out[i] = l + r
	}
	return out
}

// fmtDur is a duration for people: 850µs, 12ms, 1.25s, 3m4s.
func fmtDur(d time.Duration) string {
	switch {
	case d <= 0:
		return "0ms"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
