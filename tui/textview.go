package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// textView is the position in a pane of text lines (Detail, UI, Call, the
// viewer): the first line and column shown, whether long lines wrap, and
// the search with its matches. The lines are built at each draw; the
// position is kept within them there.
type textView struct {
	offset  int
	xoff    int // the first column shown (sideways scroll)
	wrap    bool
	n       int // lines at the last draw
	h       int // height at the last draw
	widest  int // the widest line at the last draw
	find    finder
	matches []int      // lines holding the query at the last draw
	cur     int        // the current match, from 1 (0: none)
	jump    findResult // a search move to make at the next draw
}

// sideStep is how far < and > scroll.
const sideStep = 8

// scroll moves the first line by d (a page of the last height when page).
func (t *textView) scroll(msg scrollMsg) {
	d := msg.lines
	if msg.page {
		d *= max(t.h-1, 1)
	}
	hi := t.offset + d
	if t.n > 0 {
		hi = min(hi, max(0, t.n-1))
	}
	t.offset = max(hi, 0)
}

// capturing reports whether the search line has the keys.
func (t *textView) capturing() bool { return t.find.editing }

// keys are the text keys for the help.
func (t *textView) keys(k KeyMap) []key.Binding {
	return []key.Binding{k.Search, k.SearchNext, k.SearchPrev, k.Wrap, k.Left}
}

// update takes the keys of a text pane: up/down a line, PgUp/PgDn a page,
// home/end, / search with n/N, w wrap, < and > sideways; and the wheel.
func (t *textView) update(k KeyMap, msg tea.Msg) (tea.Cmd, bool) {
	if cmd, res := t.find.update(k, msg); res != findNone {
		if res != findHandled {
			t.jump = res
		}
		return cmd, true
	}
	switch msg := msg.(type) {
	case scrollMsg:
		t.scroll(msg)
		return nil, true
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			t.scroll(scrollMsg{lines: -1})
		case key.Matches(msg, k.Down):
			t.scroll(scrollMsg{lines: 1})
		case key.Matches(msg, k.PageUp):
			t.scroll(scrollMsg{lines: -1, page: true})
		case key.Matches(msg, k.PageDown):
			t.scroll(scrollMsg{lines: 1, page: true})
		case key.Matches(msg, k.Top):
			t.offset = 0
		case key.Matches(msg, k.Bottom):
			t.scroll(scrollMsg{lines: 1 << 30})
		case key.Matches(msg, k.Wrap):
			t.wrap, t.xoff = !t.wrap, 0
		case key.Matches(msg, k.Left) && !t.wrap:
			t.xoff = max(t.xoff-sideStep, 0)
		case key.Matches(msg, k.Right) && !t.wrap:
			t.xoff = min(t.xoff+sideStep, max(t.widest-sideStep, 0))
		default:
			return nil, false
		}
		return nil, true
	}
	return nil, false
}

// render cuts all to h lines of w cells from the position: wrapped, or
// shifted sideways; search matches highlighted. It returns the search line
// too, when a search is on (the lines are then one fewer).
func (t *textView) render(st Styles, all []string, w, h int) ([]string, scroll, string) {
	footer := ""
	if t.find.active() {
		h = max(h-1, 1)
	}
	if t.wrap {
		all = wrapAll(all, w)
	}
	t.n, t.h = len(all), h
	if q := t.find.query; q != "" {
		t.matches = t.matches[:0]
		for i, l := range all {
			if containsFold(ansi.Strip(l), q) {
				t.matches = append(t.matches, i)
			}
		}
		t.searchMove()
	} else {
		t.matches, t.cur = t.matches[:0], 0
	}
	t.jump = findNone
	if t.find.active() {
		footer = t.find.footer(st, w, t.cur, len(t.matches))
	}
	t.offset = clamp(t.offset, 0, max(0, len(all)-h))
	end := min(len(all), t.offset+h)
	lines := make([]string, 0, end-t.offset)
	t.widest = 0
	for i := t.offset; i < end; i++ {
		l := all[i]
		t.widest = max(t.widest, cellWidth(l))
		if t.find.query != "" && t.isMatch(i) {
			l = highlight(st, l, t.find.query)
		}
		if t.xoff > 0 {
			l = ansi.TruncateLeft(l, t.xoff, "…")
		}
		lines = append(lines, l)
	}
	return lines, scroll{total: len(all), first: t.offset, visible: h, rows: h}, footer
}

// searchMove makes the pending search move: to the first match from the
// top line on (typing), the next or the previous one; the match goes a
// third down the pane.
func (t *textView) searchMove() {
	if len(t.matches) == 0 {
		t.cur = 0
		return
	}
	target := -1
	switch t.jump {
	case findTyped:
		for k, l := range t.matches {
			if l >= t.offset {
				target = k
				break
			}
		}
		if target < 0 {
			target = 0
		}
	case findNext:
		target = 0
		if t.cur > 0 {
			target = t.cur % len(t.matches)
		} else {
			for k, l := range t.matches {
				if l > t.offset {
					target = k
					break
				}
			}
		}
	case findPrev:
		target = len(t.matches) - 1
		if t.cur > 1 {
			target = t.cur - 2
		}
	default:
		if t.cur > len(t.matches) {
			t.cur = 0
		}
		return
	}
	t.cur = target + 1
	t.offset = max(t.matches[target]-t.h/3, 0)
}

func (t *textView) isMatch(line int) bool {
	for _, m := range t.matches {
		if m == line {
			return true
		}
		if m > line {
			return false
		}
	}
	return false
}

// sideNote is a note for the title when the lines are shifted sideways.
func (t *textView) sideNote() string {
	if t.xoff > 0 {
		return fmt.Sprintf(" · from column %d", t.xoff+1)
	}
	return ""
}
