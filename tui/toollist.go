package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"
	"github.com/genui-dev/genui/engine/contract"
)

// toolList is the left column: the upstream's tools with their UI badges,
// filtered with /.
type toolList struct {
	tools     []contract.ToolStatus
	filter    textinput.Model
	filtering bool // the filter input has the keys
	query     string
	visible   []int // indexes into tools matching the filter
	cursor    int   // index into visible
	offset    int
}

func newToolList() toolList {
	ti := textinput.New()
	ti.Prompt = "/ "
	ti.Placeholder = "filter tools"
	ti.CharLimit = 200
	return toolList{filter: ti}
}

// setTools replaces the tools, keeping the selection on the same name.
func (l *toolList) setTools(ts []contract.ToolStatus) {
	name := l.selectedName()
	l.tools = ts
	l.applyFilter()
	if name != "" {
		l.selectName(name)
	}
}

// setQuery filters by a case-insensitive substring of the name.
func (l *toolList) setQuery(q string) {
	if q == l.query {
		return
	}
	name := l.selectedName()
	l.query = q
	l.applyFilter()
	if !l.selectName(name) {
		l.cursor, l.offset = 0, 0
	}
}

func (l *toolList) applyFilter() {
	l.visible = l.visible[:0]
	q := strings.ToLower(strings.TrimSpace(l.query))
	for i, t := range l.tools {
		if q == "" || strings.Contains(strings.ToLower(t.Name), q) {
			l.visible = append(l.visible, i)
		}
	}
	l.cursor = clamp(l.cursor, 0, len(l.visible)-1)
}

// selectName moves the cursor to name if it is visible.
func (l *toolList) selectName(name string) bool {
	for i, idx := range l.visible {
		if l.tools[idx].Name == name {
			l.cursor = i
			return true
		}
	}
	return false
}

func (l *toolList) selectedName() string {
	if t, ok := l.selectedTool(); ok {
		return t.Name
	}
	return ""
}

func (l *toolList) selectedTool() (contract.ToolStatus, bool) {
	if l.cursor < 0 || l.cursor >= len(l.visible) {
		return contract.ToolStatus{}, false
	}
	return l.tools[l.visible[l.cursor]], true
}

// move moves the cursor by d rows (clamped).
func (l *toolList) move(d int) { l.cursor = clamp(l.cursor+d, 0, len(l.visible)-1) }

// rows is how many tool rows fit in h inner lines.
func (l *toolList) rows(h int) int {
	if l.filtering || l.query != "" {
		h-- // the filter line
	}
	return max(h, 1)
}

// scrollTo keeps the cursor within the visible rows.
func (l *toolList) scrollTo(rows int) {
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+rows {
		l.offset = l.cursor - rows + 1
	}
	l.offset = clamp(l.offset, 0, max(0, len(l.visible)-rows))
}

// toolBadge is a tool's UI state at a glance; narrow drops the visibility
// tag (the Detail pane has it).
func toolBadge(st Styles, t contract.ToolStatus, busy, spin string, narrow bool) string {
	var b string
	switch {
	case busy != "":
		b = st.Accent.Render(spin + " " + busy)
	case t.UI.State == contract.UIStateGenerating:
		b = st.Accent.Render(spin + " generating")
	case t.UI.State == contract.UIStateCached:
		b = st.OK.Render("● " + shortKind(t.UI.Kind))
		if t.UI.Generating {
			b += " " + st.Accent.Render(spin)
		}
	case t.UI.State == contract.UIStateFallback:
		b = st.Warn.Render("▲ fallback")
		if r := clean(t.UI.FallbackReason); r != "" && !narrow {
			b = st.Warn.Render("▲ " + ansi.Truncate(r, 14, "…"))
		}
	case t.UI.State == contract.UIStateOwn:
		b = st.Info.Render("◆ own")
	case t.UI.State == contract.UIStateDisabled:
		b = st.Muted.Render("⊘ disabled")
	default:
		b = st.Muted.Render("○ none")
	}
	if t.Refinements > 0 {
		b += " " + st.Accent.Render(fmt.Sprintf("✎%d", t.Refinements))
	}
	if !narrow {
		switch {
		case t.AppOnly():
			b += " " + st.Muted.Render("app")
		case t.ModelOnly():
			b += " " + st.Muted.Render("model")
		}
	}
	return b
}

// shortKind is a UI kind for the badge ("offline-rich" -> "rich").
func shortKind(kind string) string { return orDash(strings.TrimPrefix(kind, "offline-")) }

// render draws the list into w×h inner cells.
func (l *toolList) render(st Styles, w, h int, focused bool, busy func(tool string) string, spin string) ([]string, scroll) {
	out := make([]string, 0, h)
	if l.filtering || l.query != "" {
		if l.filtering {
			l.filter.SetWidth(max(w-3, 1))
			out = append(out, fit(l.filter.View(), w))
		} else {
			out = append(out, fit(st.Muted.Render("/ "+clean(l.query)+"  (esc clears)"), w))
		}
	}
	rows := l.rows(h)
	l.scrollTo(rows)
	if len(l.visible) == 0 {
		msg := "no tools yet"
		if l.query != "" {
			msg = "no tool matches"
		}
		out = append(out, st.Muted.Render(fit("  "+msg, w)))
	}
	end := min(len(l.visible), l.offset+rows)
	for i := l.offset; i < end; i++ {
		t := l.tools[l.visible[i]]
		b := toolBadge(st, t, busy(t.Name), spin, w < 34)
		bw := cellWidth(b)
		nameW := max(w-2-bw-1, 6)
		name := fit(clean(t.Name), nameW)
		if nameW+bw+3 > w {
			b = ansi.Truncate(b, max(w-2-nameW-1, 0), "")
		}
		var line string
		if i == l.cursor {
			sel := st.Selected
			if !focused {
				sel = st.SelectedBlur
			}
			line = sel.Render("› "+name) + " " + b
		} else {
			line = "  " + st.Text.Render(name) + " " + b
		}
		out = append(out, fit(line, w))
	}
	for len(out) < h {
		out = append(out, "")
	}
	top := h - rows // the filter line
	return out[:h], scroll{total: len(l.visible), first: l.offset, visible: rows, rows: rows + top}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}

func inputStyles(st Styles) textinput.Styles {
	s := textinput.DefaultStyles(st.Dark)
	if st.NoColor {
		s = textinput.Styles{}
	}
	s.Cursor.Blink = false
	return s
}
