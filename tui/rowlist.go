package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// rowList is the position in a pane of rows with a cursor (Events,
// Traffic, Log, Variables): the selected row, the first row shown, whether
// the newest row stays selected, and whether the selected row's detail is
// open below the rows.
type rowList struct {
	cursor, offset int
	follow         bool // the newest row stays selected
	followable     bool // end (or reaching the last row) follows again
	open           bool // the selected row's detail shows below
	h              int  // the pane's height at the last draw
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

// render draws n rows into w×h with the cursor's row selected; when open,
// the selected row's detail takes the lower part.
func (r *rowList) render(st Styles, w, h, n int, focused bool, line func(i, w int) string, detail func(i, w int) []string) ([]string, scroll) {
	r.h = h
	if n == 0 {
		return []string{st.Muted.Render(" nothing yet")}, scroll{}
	}
	if r.follow {
		r.cursor = n - 1
	}
	r.cursor = clamp(r.cursor, 0, n-1)
	listH := h
	var det []string
	if r.open && detail != nil {
		listH = max(h/3, 3)
		det = detail(r.cursor, w)
		if room := h - listH - 1; len(det) > room {
			more := len(det) - room + 1
			det = append(det[:max(room-1, 0)], st.Muted.Render(fmt.Sprintf("… %d more lines", more)))
		}
	}
	if r.cursor < r.offset {
		r.offset = r.cursor
	}
	if r.cursor >= r.offset+listH {
		r.offset = r.cursor - listH + 1
	}
	r.offset = clamp(r.offset, 0, max(0, n-listH))
	out := make([]string, 0, h)
	end := min(n, r.offset+listH)
	for i := r.offset; i < end; i++ {
		sel := i == r.cursor && (focused || !r.follow)
		l := line(i, w)
		if sel {
			s := st.Selected
			if !focused {
				s = st.SelectedBlur
			}
			l = s.Render(fit(ansi.Strip(l), w))
		}
		out = append(out, l)
	}
	for len(out) < listH {
		out = append(out, "")
	}
	if det != nil {
		out = append(out, st.Faint.Render(strings.Repeat("─", w)))
		out = append(out, det...)
	}
	return out, scroll{total: n, first: r.offset, visible: listH, rows: listH}
}
