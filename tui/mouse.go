package tui

import (
	tea "charm.land/bubbletea/v2"
)

// Mouse: the wheel scrolls what is under the pointer; a click selects a
// tool, a tab, or a row of the pane. While a dialog is drawn over the panes
// (the help, a viewer, the palette) the wheel is the dialog's and a click
// does nothing: nothing under it changes unseen.

// covered reports whether a dialog is drawn over the panes (centered or
// the whole body; a docked one leaves them in view).
func (m *Model) covered() bool {
	for _, d := range m.overlay.stack {
		if d.place() != placeDock {
			return true
		}
	}
	return false
}

func (m *Model) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	ms := msg.Mouse()
	d := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		d = -3
	case tea.MouseWheelDown:
		d = 3
	default:
		return nil
	}
	if m.covered() {
		return m.overlay.update(scrollMsg{lines: d})
	}
	l := m.layout()
	if y := ms.Y - l.bodyY; y < 0 || y >= l.bodyH {
		return nil // the header, the status and help lines
	}
	if ms.X < l.listW {
		prev := m.selected()
		m.list.offset = clamp(m.list.offset+d, 0, max(0, len(m.list.visible)-m.list.rows(l.bodyH-2)))
		m.list.cursor = clamp(m.list.cursor, m.list.offset, m.list.offset+m.list.rows(l.bodyH-2)-1)
		m.list.cursor = clamp(m.list.cursor, 0, len(m.list.visible)-1)
		return m.selectionChanged(prev)
	}
	cmd, _ := m.current().Update(scrollMsg{lines: d})
	return cmd
}

func (m *Model) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	ms := msg.Mouse()
	if ms.Button != tea.MouseLeft || m.covered() {
		return nil
	}
	l := m.layout()
	y := ms.Y - l.bodyY
	switch {
	case y < 0 || y >= l.bodyH:
		return nil
	case ms.X < l.listW:
		m.focus = focusList
		row := y - 1 // the border
		if m.list.filtering || m.list.query != "" {
			row--
		}
		if row < 0 || row >= m.list.rows(l.bodyH-2) {
			return nil // the borders
		}
		i := m.list.offset + row
		if i >= len(m.list.visible) {
			return nil
		}
		prev := m.selected()
		m.list.cursor = i
		return m.selectionChanged(prev)
	case y == 0: // the tab bar
		x := ms.X - l.listW
		for _, c := range l.tabs {
			if x >= c.x0 && x < c.x1 {
				return m.setTab(c.pane)
			}
		}
		return nil
	default:
		m.focus = focusPane
		cmd, _ := m.current().Update(clickMsg{row: y - 2}) // tab bar and border
		return cmd
	}
}
