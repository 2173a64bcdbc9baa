package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// rows is what a pane of rows shows from a ring buffer: the rows held
// (after dropped older ones), optionally only those a filter keeps, each
// row's line, searchable text and detail. Functions take ring indexes (0 =
// the oldest row held); ids are absolute (dropped + index), stable while
// rows arrive and leave.
type rows struct {
	dropped int64
	total   int
	shown   *absSet // the rows a filter keeps (nil: all)
	key     string  // changes when rows are reordered or the filter changes
	line    func(ri, w int) string
	text    func(ri int) string
	detail  func(ri, w int) []string
	title   func(ri int) string // the viewer's title for a row
}

// n is the number of rows shown.
func (s rows) n() int {
	if s.shown != nil {
		return len(s.shown.abs)
	}
	return s.total
}

// ring is the ring index of shown row i.
func (s rows) ring(i int) int {
	if s.shown != nil {
		return int(s.shown.abs[i] - s.dropped)
	}
	return i
}

// id is shown row i's absolute id.
func (s rows) id(i int) int64 { return s.dropped + int64(s.ring(i)) }

// at is the shown row with absolute id x (-1 when it is not shown).
func (s rows) at(x int64) int {
	if s.shown == nil {
		if i := int(x - s.dropped); i >= 0 && i < s.total {
			return i
		}
		return -1
	}
	if k := s.shown.rank(x); k > 0 {
		return k - 1
	}
	return -1
}

// rowList is the position in a pane of rows (Events, Traffic, Log,
// Variables): the selected row, the first row shown, whether the newest row
// stays selected, whether the selected row's detail is open below, long
// lines wrapped, and the pane's search with its matches.
type rowList struct {
	cursor, offset int
	follow         bool // the newest row stays selected
	followable     bool // end (or reaching the last row) follows again
	open           bool // the selected row's detail shows below
	wrap           bool // long lines wrap instead of being cut
	canWrap        bool
	h              int // the pane's height at the last draw

	find finder
	hits absSet     // the rows matching the query
	jump findResult // a search move to make once the matches are known
}

// move moves the cursor by d rows of n.
func (r *rowList) move(d, n int) {
	if r.follow {
		r.cursor = n - 1
	}
	r.cursor = clamp(r.cursor+d, 0, n-1)
	r.follow = r.followable && r.cursor >= n-1
}

// scroll handles the wheel and PgUp/PgDn (a page is the pane's height
// less one row).
func (r *rowList) scroll(msg scrollMsg, n int) {
	d := msg.lines
	if msg.page {
		d *= max(r.h-1, 1)
	}
	r.move(d, n)
}

// click selects the row-th row shown.
func (r *rowList) click(row, n int) {
	if row < 0 {
		return
	}
	r.cursor = clamp(r.offset+row, 0, n-1)
	r.follow = false
}

// capturing reports whether the search line has the keys.
func (r *rowList) capturing() bool { return r.find.editing }

// keys are the row keys for the help.
func (r *rowList) keys(k KeyMap) []key.Binding {
	b := []key.Binding{k.Search, k.SearchNext, k.SearchPrev, k.Enter}
	if r.canWrap {
		b = append(b, k.Wrap)
	}
	return b
}

// update takes the keys and pane messages of a pane of rows: up/down,
// PgUp/PgDn, home/end move the cursor; enter opens the selected row's
// detail (enter again, or enter when given, shows it whole); esc closes
// it; / searches, n/N walk the matches; w wraps long lines; the wheel and
// clicks.
func (r *rowList) update(k KeyMap, src rows, msg tea.Msg, enter func(ri int) tea.Cmd) (tea.Cmd, bool) {
	n := src.n()
	if km, ok := msg.(tea.KeyPressMsg); ok && r.open && !r.find.editing && key.Matches(km, k.Back) {
		r.open = false // the opened row first, then the search
		return nil, true
	}
	if cmd, res := r.find.update(k, msg); res != findNone {
		if res != findHandled {
			r.jump = res
			r.searchSync(src)
		}
		return cmd, true
	}
	switch msg := msg.(type) {
	case scrollMsg:
		r.scroll(msg, n)
		return nil, true
	case clickMsg:
		r.click(msg.row, n)
		return nil, true
	case tea.PasteMsg:
		return nil, false
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			r.move(-1, n)
		case key.Matches(msg, k.Down):
			r.move(1, n)
		case key.Matches(msg, k.PageUp):
			r.scroll(scrollMsg{lines: -1, page: true}, n)
		case key.Matches(msg, k.PageDown):
			r.scroll(scrollMsg{lines: 1, page: true}, n)
		case key.Matches(msg, k.Top):
			r.move(-1<<30, n)
		case key.Matches(msg, k.Bottom):
			r.move(1<<30, n)
		case key.Matches(msg, k.Wrap) && r.canWrap:
			r.wrap = !r.wrap
		case key.Matches(msg, k.Enter):
			if n == 0 {
				return nil, true
			}
			i := r.selected(n)
			switch {
			case enter != nil:
				return enter(src.ring(i)), true
			case src.detail == nil:
				return r.view(src, i), true
			case r.open:
				return r.view(src, i), true
			}
			r.open = true
		case key.Matches(msg, k.Back) && r.open:
			r.open = false
		default:
			return nil, false
		}
		return nil, true
	}
	return nil, false
}

// selected is the selected row (the newest when following).
func (r *rowList) selected(n int) int {
	if r.follow {
		return n - 1
	}
	return clamp(r.cursor, 0, n-1)
}

// view opens shown row i in the viewer (whole, scrollable, searchable,
// copyable).
func (r *rowList) view(src rows, i int) tea.Cmd {
	ri := src.ring(i)
	var lines []string
	if src.detail != nil {
		lines = src.detail(ri, 1<<20)
	} else {
		lines = []string{src.line(ri, 1<<20)}
	}
	title := ""
	if src.title != nil {
		title = src.title(ri)
	}
	return func() tea.Msg { return openViewerMsg{title: title, lines: lines} }
}

// searchSync brings the matches up to date with the rows and makes the
// pending search move (typing: to the first match from the selected row
// on; n, N: the next, the previous).
func (r *rowList) searchSync(src rows) {
	q := r.find.query
	r.hits.sync(src.key+"\x00"+q, src.dropped, src.total, func(ri int) bool {
		return q != "" && (src.shown == nil || src.shown.has(src.dropped+int64(ri))) && containsFold(src.text(ri), q)
	})
	n := src.n()
	if r.jump != findNone && n > 0 {
		from := src.id(r.selected(n))
		if r.jump == findTyped {
			from-- // the first match from the selected row on
		}
		if x, ok := r.hits.next(from, r.jump == findPrev); ok {
			if i := src.at(x); i >= 0 {
				r.cursor, r.follow = i, false
			}
		}
	}
	r.jump = findNone
}

// render draws the rows into w×h with the cursor's row selected; when
// open, the selected row's detail takes the lower part. It also returns
// the search line (footer), when a search is on.
func (r *rowList) render(st Styles, w, h int, src rows, focused bool) ([]string, scroll, string) {
	r.h = h
	n := src.n()
	footer := ""
	if r.find.active() {
		h--
		r.searchSync(src)
		cur := 0
		if n > 0 {
			cur = r.hits.rank(src.id(r.selected(n)))
		}
		footer = r.find.footer(st, w, cur, len(r.hits.abs))
	}
	if n == 0 {
		return []string{st.Muted.Render(" nothing yet")}, scroll{}, footer
	}
	if r.follow {
		r.cursor = n - 1
	}
	r.cursor = clamp(r.cursor, 0, n-1)
	listH := h
	var det []string
	if r.open && src.detail != nil {
		listH = max(h/3, 3)
		det = src.detail(src.ring(r.cursor), w)
		if room := h - listH - 1; len(det) > room {
			more := len(det) - room + 1
			det = append(det[:max(room-1, 0)], st.Muted.Render(fmt.Sprintf("… %d more lines: enter shows it all", more)))
		}
	}
	q := r.find.query
	lineOf := func(i int) []string {
		ri := src.ring(i)
		l := src.line(ri, w)
		if q != "" && i != r.cursor && r.hits.has(src.dropped+int64(ri)) {
			l = highlight(st, l, q)
		}
		if r.wrap {
			return strings.Split(ansi.Wrap(l, w, ""), "\n") // at word boundaries (wrapAll)
		}
		return []string{l}
	}
	if r.cursor < r.offset {
		r.offset = r.cursor
	}
	if r.wrap {
		// The cursor's row and as many before it as fit.
		k, used := r.cursor, len(lineOf(r.cursor))
		for k > r.offset && used+len(lineOf(k-1)) <= listH {
			used += len(lineOf(k - 1))
			k--
		}
		if k > r.offset {
			r.offset = k
		}
	} else if r.cursor >= r.offset+listH {
		r.offset = r.cursor - listH + 1
	}
	r.offset = clamp(r.offset, 0, max(0, n-1))
	if !r.wrap {
		r.offset = clamp(r.offset, 0, max(0, n-listH))
	}
	out := make([]string, 0, h)
	shownRows := 0
	for i := r.offset; i < n && len(out) < listH; i++ {
		sel := i == r.cursor && (focused || !r.follow)
		ls := lineOf(i)
		for _, l := range ls {
			if len(out) == listH {
				break
			}
			if sel {
				s := st.Selected
				if !focused {
					s = st.SelectedBlur
				}
				l = s.Render(fit(ansi.Strip(l), w))
			}
			out = append(out, l)
		}
		shownRows++
	}
	for len(out) < listH {
		out = append(out, "")
	}
	if det != nil {
		out = append(out, st.Faint.Render(strings.Repeat("─", w)))
		out = append(out, det...)
	}
	return out, scroll{total: n, first: r.offset, visible: shownRows, rows: listH}, footer
}
