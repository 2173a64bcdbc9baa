package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// dropDialog is D: a tool's refinements, newest selected; enter drops the
// selected one (the UI is regenerated from the others), esc keeps them.
type dropDialog struct {
	s      *shared
	tool   string
	hist   []contract.Refinement
	cursor int
}

func newDropDialog(s *shared, tool string, hist []contract.Refinement) *dropDialog {
	return &dropDialog{s: s, tool: tool, hist: hist, cursor: len(hist) - 1}
}

func (d *dropDialog) place() placement { return placeCenter }

func (d *dropDialog) Keys() []key.Binding {
	drop := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "drop it"))
	move := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "choose"))
	return []key.Binding{drop, move, d.s.keys.Cancel}
}

func (d *dropDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	switch {
	case key.Matches(k, d.s.keys.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(k, d.s.keys.Down):
		d.cursor = min(d.cursor+1, len(d.hist)-1)
	case key.Matches(k, d.s.keys.Enter):
		return d.s.drop(d.tool, d.cursor, d.hist[d.cursor].Feedback), true
	case key.Matches(k, d.s.keys.Back):
		return nil, true
	}
	return nil, false
}

func (d *dropDialog) View(w, h int) []string {
	st := d.s.styles
	inner := w - 2
	var lines []string
	curLine := 0
	for i, r := range d.hist {
		if i == d.cursor {
			curLine = len(lines)
		}
		num := fmt.Sprintf(" %d. ", i+1)
		for j, l := range wrap("“"+r.Feedback+"” · "+r.Source+" · "+r.Time.Local().Format("01-02 15:04"), max(inner-len(num), 10)) {
			prefix := num
			if j > 0 {
				prefix = fmt.Sprintf("%*s", len(num), "")
			}
			if i == d.cursor {
				lines = append(lines, st.Selected.Render(fit(prefix+l, inner)))
			} else {
				lines = append(lines, st.Muted.Render(prefix)+st.Text.Render(l))
			}
		}
	}
	lines = append(lines, "", st.Muted.Render(" enter drops the selected refinement; the UI is regenerated from the others"))
	if room := max(h-2, 1); len(lines) > room {
		start := clamp(curLine-room/2, 0, len(lines)-room)
		lines = lines[start : start+room]
	}
	return box(st, fmt.Sprintf("Drop a refinement of %s (%d)", d.tool, len(d.hist)), true, w, len(lines)+2, lines)
}
