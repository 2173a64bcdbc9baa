package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// helpDialog is ? : the keys, over the whole body; any key closes it (q
// quits).
type helpDialog struct {
	m *Model
}

func (d *helpDialog) place() placement { return placeBody }

func (d *helpDialog) Keys() []key.Binding { return nil }

func (d *helpDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	if key.Matches(k, d.m.keys.Quit) {
		return d.m.quit(), true
	}
	return nil, true
}

func (d *helpDialog) View(w, h int) []string {
	return box(d.m.styles, "Keys — any key closes", true, w, h, d.m.fullHelpLines(w-4))
}
