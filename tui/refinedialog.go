package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
)

// refineDialog is the feedback box (r), docked under the pane so the UI
// stays in view: enter sends, esc cancels, up/down walk earlier feedback.
type refineDialog struct {
	s       *shared
	tool    string
	area    textarea.Model
	history []string // earlier feedback, oldest first
	pos     int      // len(history) = the draft
	draft   string
}

func newRefineDialog(s *shared, tool string) (*refineDialog, tea.Cmd) {
	d := &refineDialog{s: s, tool: tool, area: newRefineArea(s.styles)}
	if t := s.peek(tool); t != nil && t.hasInspect {
		for _, r := range t.inspect.History {
			d.history = append(d.history, r.Feedback)
		}
	}
	d.pos = len(d.history)
	return d, d.area.Focus()
}

func (d *refineDialog) place() placement { return placeDock }

func (d *refineDialog) Keys() []key.Binding {
	k := d.s.keys
	return []key.Binding{k.Send, k.Cancel, k.HistoryPrev, k.HistoryNext}
}

func (d *refineDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	s, k := d.s, d.s.keys
	switch msg := msg.(type) {
	case tea.PasteMsg:
		var cmd tea.Cmd
		d.area, cmd = d.area.Update(msg)
		return cmd, false
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Send):
			fb := strings.TrimSpace(d.area.Value())
			if fb == "" {
				s.setStatus("feedback is empty: type what to change, or esc", true)
				return nil, false
			}
			s.setBusy(d.tool, "refining")
			s.setStatus("refining "+d.tool+": "+fb, false)
			return tea.Batch(s.doRefine(d.tool, fb, true), s.spinTick()), true
		case key.Matches(msg, k.Cancel):
			return nil, true
		case key.Matches(msg, k.HistoryPrev):
			if d.pos > 0 {
				if d.pos == len(d.history) {
					d.draft = d.area.Value()
				}
				d.pos--
				d.area.SetValue(d.history[d.pos])
			}
			return nil, false
		case key.Matches(msg, k.HistoryNext):
			if d.pos < len(d.history) {
				d.pos++
				if d.pos == len(d.history) {
					d.area.SetValue(d.draft)
				} else {
					d.area.SetValue(d.history[d.pos])
				}
			}
			return nil, false
		}
		var cmd tea.Cmd
		d.area, cmd = d.area.Update(msg)
		return cmd, false
	}
	return nil, false
}

func (d *refineDialog) View(w, _ int) []string {
	d.area.SetWidth(max(w-4, 10))
	title := "Refine " + d.tool + " — enter sends · esc cancels"
	if len(d.history) > 0 {
		title += fmt.Sprintf(" · ↑ %d earlier", len(d.history))
	}
	content := strings.Split(d.area.View(), "\n")
	return box(d.s.styles, title, true, w, len(content)+2, content)
}

func newRefineArea(st Styles) textarea.Model {
	ta := textarea.New()
	ta.Placeholder = "what should change? e.g. dark theme, call it Forecast, 10 per page"
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.CharLimit = 2000
	ta.SetHeight(3)
	ta.KeyMap.InsertNewline.SetEnabled(false)
	s := textarea.DefaultStyles(st.Dark)
	s.Cursor.Blink = false
	if st.NoColor {
		s = textarea.Styles{}
		s.Cursor.Blink = false
	}
	ta.SetStyles(s)
	return ta
}
