package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The panes as tabs: which one is visible, showing one by its id, and the
// tab bar over them.

// current is the visible pane.
func (m *Model) current() pane { return m.panes[m.tab] }

// paneIndex is the tab of the pane with id (-1 when there is none).
func (m *Model) paneIndex(id string) int {
	for i, sp := range m.specs {
		if sp.id == id {
			return i
		}
	}
	return -1
}

// pane returns the pane with id (nil when there is none).
func (m *Model) pane(id string) pane {
	if i := m.paneIndex(id); i >= 0 {
		return m.panes[i]
	}
	return nil
}

// showing reports whether the pane with id is visible.
func (m *Model) showing(id string) bool { return m.specs[m.tab].id == id }

// setTab shows pane i: the old one is told it is hidden, the new one that
// it is shown (it fetches what it needs).
func (m *Model) setTab(i int) tea.Cmd {
	if i < 0 || i >= len(m.panes) {
		return nil
	}
	var cmds []tea.Cmd
	if i != m.tab {
		c, _ := m.panes[m.tab].Update(paneHiddenMsg{})
		cmds = append(cmds, c)
	}
	m.tab = i
	c, _ := m.panes[i].Update(paneShownMsg{})
	return tea.Batch(append(cmds, c)...)
}

// showTabMsg shows the pane with id, as its number key would (the
// palette's pane entries send it; panes past ten have no number key).
type showTabMsg struct{ id string }

// show shows the pane with id.
func (m *Model) show(id string) tea.Cmd { return m.setTab(m.paneIndex(id)) }

// tabLabels are the tab names that fit in w cells, and the padding around
// each (narrow terminals get short names and no padding; narrower ones the
// number keys, with the visible pane's short name).
func (m *Model) tabLabels(w int) ([]string, int) {
	full := make([]string, len(m.specs))
	n := 1
	for i, sp := range m.specs {
		full[i] = strings.TrimSpace(tabKey(i) + " " + sp.name)
		n += len(full[i]) + 2
	}
	if n <= w {
		return full, 1
	}
	short := make([]string, len(m.specs))
	n = 1
	for i, sp := range m.specs {
		short[i] = strings.TrimSpace(tabKey(i) + " " + sp.short)
		n += len(short[i]) + 1
	}
	if n <= w {
		return short, 0
	}
	// Number keys only, the visible pane named; then names again, in
	// order, while they fit (up to the first that does not: a pane added
	// at the end changes only the end of the bar).
	out := make([]string, len(short))
	n = 1
	for i := range short {
		out[i] = short[i]
		if i != m.tab && tabKey(i) != "" {
			out[i] = tabKey(i)
		}
		n += len(out[i]) + 1
	}
	for i := range out {
		extra := len(short[i]) - len(out[i])
		if extra > 0 && n+extra > w {
			break
		}
		out[i], n = short[i], n+extra
	}
	return out, 0
}

// tabCell is one label of the tab bar: the pane a click on it shows, its
// text and the cells [x0, x1) it takes, relative to the pane column. A
// marker (‹ or ›) stands for the tabs scrolled out of sight on its side; a
// click on it shows the nearest of them.
type tabCell struct {
	pane   int
	label  string
	x0, x1 int
	marker bool
}

// Tab bar markers for tabs scrolled out of sight.
const (
	tabsBefore = "‹"
	tabsAfter  = "›"
)

// tabBar lays the tab bar out in w cells: every tab when the labels fit
// (tabLabels: full names, short names, or number keys with the visible
// pane named); else, with many panes or a narrow terminal, it scrolls: a
// run of tabs holding the visible one, starting as far left as lets the
// visible one fit, with ‹ and › where tabs are out of sight. Every pane
// stays reachable: the number keys, tab/] and shift+tab/[, the palette's
// "pane" entries and a click on a marker.
func (m *Model) tabBar(w int) []tabCell {
	labels, pad := m.tabLabels(w)
	n := len(labels)
	width := make([]int, n)
	for i, l := range labels {
		width[i] = ansi.StringWidth(l) + 2*pad
	}
	gap := 1 - pad // a space between labels without padding
	// span is the cells a run of tabs [a, b] takes, with its markers.
	span := func(a, b int) int {
		x := 1
		if a > 0 {
			x += ansi.StringWidth(tabsBefore) + 1
		}
		for i := a; i <= b; i++ {
			x += width[i] + gap
		}
		if b < n-1 {
			x += ansi.StringWidth(tabsAfter) + gap
		}
		return x - gap
	}
	a, b := 0, n-1
	if n > 0 && span(0, n-1) > w {
		tab := clamp(m.tab, 0, n-1)
		for a < tab && span(a, tab) > w {
			a++
		}
		b = tab
		for b+1 < n && span(a, b+1) <= w {
			b++
		}
	}
	var cells []tabCell
	x := 1
	if a > 0 {
		cw := ansi.StringWidth(tabsBefore)
		cells = append(cells, tabCell{pane: a - 1, label: tabsBefore, x0: x, x1: x + cw, marker: true})
		x += cw + 1
	}
	for i := a; i <= b && i < n; i++ {
		cells = append(cells, tabCell{pane: i, label: labels[i], x0: x, x1: x + width[i]})
		x += width[i] + gap
	}
	if b < n-1 {
		cw := ansi.StringWidth(tabsAfter)
		cells = append(cells, tabCell{pane: b + 1, label: tabsAfter, x0: x, x1: x + cw, marker: true})
	}
	return cells
}

// renderTabs draws the tab bar laid out by tabBar.
func (m *Model) renderTabs(l screenLayout) string {
	st := m.styles
	var b strings.Builder
	x := 0
	for _, c := range l.tabs {
		if c.x0 > x {
			b.WriteString(strings.Repeat(" ", c.x0-x))
		}
		sp := strings.Repeat(" ", (c.x1-c.x0-ansi.StringWidth(c.label))/2)
		switch {
		case c.marker:
			b.WriteString(st.Muted.Render(c.label))
		case c.pane == m.tab:
			b.WriteString(st.TabActive.Render(sp + c.label + sp))
		default:
			b.WriteString(st.Tab.Render(sp + c.label + sp))
		}
		x = c.x1
	}
	return fit(b.String(), l.paneW)
}
