package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Keys: the front dialog takes every key; then the tool filter while it
// is open; then a pane with an input open; then the focused pane or the
// tool list; then the global keys; with the list focused, keys nobody took
// go to the visible pane. A key that changes the selection tells the panes.

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	prev := m.selected()
	cmd := m.routeKey(msg)
	return tea.Batch(cmd, m.selectionChanged(prev))
}

func (m *Model) routeKey(msg tea.KeyPressMsg) tea.Cmd {
	interrupt := key.Matches(msg, m.keys.Interrupt)
	if d := m.overlay.front(); d != nil && !passesKeys(d, m.now()) {
		if !interrupt {
			return m.overlay.update(msg)
		}
		// ctrl+c backs out of any dialog: as esc, and closed if it stays.
		cmd := m.overlay.update(escKey)
		m.overlay.remove(d)
		return cmd
	}
	if m.list.filtering {
		if interrupt {
			msg = escKey
		}
		return m.filterKey(msg)
	}
	p := m.current()
	if m.focus == focusPane {
		if c, ok := p.(capturer); ok && c.capturing() {
			if interrupt {
				msg = escKey
			}
			cmd, _ := p.Update(msg)
			return cmd
		}
		if !interrupt {
			if cmd, ok := p.Update(msg); ok {
				return cmd
			}
		}
	} else if cmd, ok := m.listKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.globalKey(msg); ok {
		return cmd
	}
	if m.focus == focusList {
		if c, ok := p.(capturer); ok && c.capturing() {
			// A form left active when the list took the focus (a click):
			// keys are not typed into it while it does not look focused.
			return nil
		}
		cmd, _ := p.Update(msg)
		return cmd
	}
	return nil
}

// drop drops refinement i (feedback) of tool.
func (s *shared) drop(tool string, i int, feedback string) tea.Cmd {
	s.setBusy(tool, "dropping a refinement")
	return tea.Batch(s.doDrop(tool, i, feedback), s.spinTick())
}

// escKey is esc, as ctrl+c is read inside an input.
var escKey = tea.KeyPressMsg{Code: tea.KeyEscape}

// askQuit quits, or asks first when a tool call is running (quitting
// would cancel it).
func (m *Model) askQuit() tea.Cmd {
	var running []string
	for name, t := range m.tools {
		if t.busy == "calling" {
			running = append(running, name)
		}
	}
	if len(running) == 0 {
		return m.quit()
	}
	slices.Sort(running)
	m.overlay.push(newConfirmDialog(m.shared, fmt.Sprintf("A call of %s is still running: quit anyway (the call is cancelled)? y/n",
		strings.Join(running, ", ")), m.quit))
	return nil
}

// listKey moves in the tool list.
func (m *Model) listKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	page := max(m.layout().bodyH-4, 1)
	switch {
	case key.Matches(msg, k.Up):
		m.list.move(-1)
	case key.Matches(msg, k.Down):
		m.list.move(1)
	case key.Matches(msg, k.PageUp):
		m.list.move(-page)
	case key.Matches(msg, k.PageDown):
		m.list.move(page)
	case key.Matches(msg, k.Top):
		m.list.move(-1 << 30)
	case key.Matches(msg, k.Bottom):
		m.list.move(1 << 30)
	case key.Matches(msg, k.Enter):
		m.focus = focusPane
	case key.Matches(msg, k.Back) && m.list.query != "":
		m.list.setQuery("")
	default:
		return nil, false
	}
	return nil, true
}

// globalKey handles the keys that work wherever the focus is.
func (m *Model) globalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	tool := m.selected()
	for i, b := range k.Tabs {
		if key.Matches(msg, b) {
			return m.setTab(i), true
		}
	}
	needTool := func(f func() tea.Cmd) (tea.Cmd, bool) {
		if tool == "" {
			m.setStatus("no tool selected", true)
			return nil, true
		}
		return f(), true
	}
	switch {
	case key.Matches(msg, k.Quit), key.Matches(msg, k.Interrupt):
		return m.askQuit(), true
	case key.Matches(msg, k.Help):
		m.overlay.push(newHelpDialog(m))
	case key.Matches(msg, k.Palette):
		d, cmd := newPaletteDialog(m)
		m.overlay.push(d)
		return cmd, true
	case key.Matches(msg, k.Filter):
		m.list.filtering = true
		m.list.filter.SetValue(m.list.query)
		m.list.filter.CursorEnd()
		m.focus = focusList
		return m.list.filter.Focus(), true
	case key.Matches(msg, k.NextTab):
		return m.setTab((m.tab + 1) % len(m.panes)), true
	case key.Matches(msg, k.PrevTab):
		return m.setTab((m.tab + len(m.panes) - 1) % len(m.panes)), true
	case key.Matches(msg, k.FocusList):
		m.focus = focusList
	case key.Matches(msg, k.FocusPane):
		m.focus = focusPane
	case key.Matches(msg, k.Back):
		if m.focus == focusPane {
			m.focus = focusList
		} else {
			m.status = ""
		}
	case key.Matches(msg, k.Generate):
		return needTool(func() tea.Cmd {
			m.setBusy(tool, "generating")
			return tea.Batch(m.show(paneUI), m.fetchUI(tool, true), m.spinTick())
		})
	case key.Matches(msg, k.Refine):
		return needTool(func() tea.Cmd {
			d, cmd := newRefineDialog(m.shared, tool)
			m.overlay.push(d)
			return cmd
		})
	case key.Matches(msg, k.Regenerate):
		return needTool(func() tea.Cmd {
			m.setBusy(tool, "regenerating")
			return tea.Batch(m.doRegenerate(tool, false), m.spinTick())
		})
	case key.Matches(msg, k.RegenerateClear):
		return needTool(func() tea.Cmd {
			n := 0
			if t, ok := m.list.selectedTool(); ok {
				n = t.Refinements
			}
			m.overlay.push(newConfirmDialog(m.shared, fmt.Sprintf("Regenerate %s and clear its %d refinement(s)? y/n", tool, n), func() tea.Cmd {
				m.setBusy(tool, "regenerating")
				return tea.Batch(m.doRegenerate(tool, true), m.spinTick())
			}))
			return nil
		})
	case key.Matches(msg, k.DropLast), key.Matches(msg, k.DropAny):
		return needTool(func() tea.Cmd {
			t := m.peek(tool)
			if t == nil || !t.hasInspect || len(t.inspect.History) == 0 {
				m.setStatus(tool+" has no refinement to drop", false)
				return nil
			}
			hist := t.inspect.History
			if key.Matches(msg, k.DropAny) {
				m.overlay.push(newDropDialog(m.shared, tool, hist))
				return nil
			}
			last := len(hist) - 1
			m.overlay.push(newConfirmDialog(m.shared, fmt.Sprintf("Drop the last refinement of %s, “%s”, and regenerate from the other %d? y/n",
				tool, hist[last].Feedback, last), func() tea.Cmd { return m.drop(tool, last, hist[last].Feedback) }))
			return nil
		})
	case key.Matches(msg, k.Preview):
		return needTool(func() tea.Cmd {
			m.busyAll++
			return tea.Batch(m.doPreview(tool, false), m.spinTick())
		})
	case key.Matches(msg, k.CopyURL):
		return needTool(func() tea.Cmd {
			m.busyAll++
			return m.doPreview(tool, true)
		})
	case key.Matches(msg, k.Call):
		return needTool(func() tea.Cmd {
			cmd := m.show(paneCall)
			m.focus = focusPane
			c, _ := m.current().Update(callFormOpenMsg{})
			return tea.Batch(cmd, c)
		})
	case key.Matches(msg, k.CancelCall):
		t, why := m.runningCall()
		if t == "" {
			m.setStatus(why, false)
			return nil, true
		}
		return m.cancelCall(t), true
	case key.Matches(msg, k.Requests):
		return m.fetchRequests(), true
	case key.Matches(msg, k.Ping):
		return m.doPing(), true
	case key.Matches(msg, k.Lint):
		return m.doLint(), true
	case key.Matches(msg, k.RefreshTools):
		m.busyAll++
		m.setStatus("refreshing the upstream's tools…", false)
		return tea.Batch(m.doRefresh(), m.spinTick()), true
	case key.Matches(msg, k.Export):
		return needTool(func() tea.Cmd {
			m.setBusy(tool, "exporting")
			return tea.Batch(m.doExport(tool), m.spinTick())
		})
	case key.Matches(msg, k.ToggleDiff):
		return needTool(func() tea.Cmd {
			t := m.tool(tool)
			if t.change == nil {
				m.setStatus("no refine or regenerate of "+tool+" yet: nothing to diff", false)
				return nil
			}
			t.showDiff = !t.showDiff
			c, _ := m.pane(paneUI).Update(uiResetMsg{})
			return tea.Batch(c, m.show(paneUI))
		})
	case key.Matches(msg, k.Attach):
		return m.attach(), true
	default:
		return nil, false
	}
	return nil, true
}

func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	l := &m.list
	switch {
	case msg.String() == "enter":
		l.filtering = false
		l.filter.Blur()
		return nil
	case key.Matches(msg, m.keys.Back):
		l.filtering = false
		l.filter.Blur()
		l.filter.SetValue("")
		l.setQuery("")
		return nil
	case msg.String() == "up":
		l.move(-1)
		return nil
	case msg.String() == "down":
		l.move(1)
		return nil
	}
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	l.setQuery(l.filter.Value())
	return cmd
}

func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case m.overlay.front() != nil:
		return m.overlay.update(msg)
	case m.list.filtering:
		var cmd tea.Cmd
		m.list.filter, cmd = m.list.filter.Update(msg)
		prev := m.selected()
		m.list.setQuery(m.list.filter.Value())
		return tea.Batch(cmd, m.selectionChanged(prev))
	case m.focus == focusPane:
		cmd, _ := m.current().Update(msg)
		return cmd
	}
	return nil
}

// passesKeys reports whether the front dialog lets a key pressed at now
// through to what is under it (a viewer that just opened by itself).
func passesKeys(d dialog, now time.Time) bool {
	v, ok := d.(*viewerDialog)
	return ok && !v.takesKeys(now)
}
