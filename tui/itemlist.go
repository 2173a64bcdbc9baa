package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// itemList is the list part of the Resources and Prompts panes: lines
// (section titles and rows), a cursor over the rows, kept in view, and the
// selected row's details below the list, whole (wrapped): a row is cut to
// the pane's width, its details never are.
type itemList struct {
	cursor int // index into the rows
	offset int // first line shown
}

// listLine is one line of an itemList: a section title (row -1) or a row.
type listLine struct {
	text string
	row  int
}

// move moves the cursor by d rows within n.
func (l *itemList) move(d, n int) {
	l.cursor = clamp(l.cursor+d, 0, max(n-1, 0))
}

// key moves the cursor with the list keys; it reports whether it did.
func (l *itemList) key(k KeyMap, msg tea.KeyPressMsg, n int) bool {
	switch {
	case key.Matches(msg, k.Up):
		l.move(-1, n)
	case key.Matches(msg, k.Down):
		l.move(1, n)
	case key.Matches(msg, k.PageUp):
		l.move(-10, n)
	case key.Matches(msg, k.PageDown):
		l.move(10, n)
	case key.Matches(msg, k.Top):
		l.cursor = 0
	case key.Matches(msg, k.Bottom):
		l.cursor = max(n-1, 0)
	default:
		return false
	}
	return true
}

// render draws the lines in w×h with the details of the selected row
// under them (at most half the height; they scroll with the list when
// longer, the rest readable with enter).
func (l *itemList) render(st Styles, lines []listLine, details []string, w, h int, focused bool) ([]string, scroll) {
	n := 0
	cur := -1
	for i, ln := range lines {
		if ln.row >= 0 {
			n++
			if ln.row == l.cursor {
				cur = i
			}
		}
	}
	l.cursor = clamp(l.cursor, 0, max(n-1, 0))
	if len(details) > 0 {
		details = append([]string{st.Faint.Render(repeatRune('─', w))}, details...)
	}
	detH := min(len(details), h/2)
	listH := max(h-detH, 1)
	if cur >= 0 {
		if cur < l.offset {
			l.offset = cur
		}
		if cur >= l.offset+listH {
			l.offset = cur - listH + 1
		}
	}
	l.offset = clamp(l.offset, 0, max(len(lines)-listH, 0))
	var out []string
	for i := l.offset; i < min(len(lines), l.offset+listH); i++ {
		ln := lines[i]
		switch {
		case ln.row < 0:
			out = append(out, fit(ln.text, w))
		case ln.row == l.cursor:
			sel := st.Selected
			if !focused {
				sel = st.SelectedBlur
			}
			out = append(out, sel.Render(fit("› "+ln.text, w)))
		default:
			out = append(out, fit("  "+ln.text, w))
		}
	}
	for len(out) < listH {
		out = append(out, "")
	}
	out = append(out, details[:detH]...)
	return out, scroll{total: len(lines), first: l.offset, visible: listH, rows: h}
}

func repeatRune(r rune, n int) string {
	b := make([]rune, max(n, 0))
	for i := range b {
		b[i] = r
	}
	return string(b)
}
