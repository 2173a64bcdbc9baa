package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// confirmDialog asks before something destructive (ctrl+r, quitting while
// a call runs): y runs yes, n or esc cancels.
type confirmDialog struct {
	s      *shared
	prompt string
	yes    func() tea.Cmd
}

func newConfirmDialog(s *shared, prompt string, yes func() tea.Cmd) *confirmDialog {
	return &confirmDialog{s: s, prompt: prompt, yes: yes}
}

func (d *confirmDialog) place() placement { return placeCenter }

func (d *confirmDialog) Keys() []key.Binding { return []key.Binding{d.s.keys.Yes, d.s.keys.No} }

func (d *confirmDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	switch {
	case key.Matches(k, d.s.keys.Yes):
		return d.yes(), true
	case key.Matches(k, d.s.keys.No), key.Matches(k, d.s.keys.Interrupt):
		d.s.setStatus("cancelled", false)
		return nil, true
	}
	return nil, false
}

func (d *confirmDialog) View(w, _ int) []string {
	lines := wrap(d.prompt, max(w-4, 10))
	bw := 0
	for _, l := range lines {
		bw = max(bw, len([]rune(l)))
	}
	bw = min(bw+4, w)
	for i, l := range lines {
		lines[i] = " " + d.s.styles.Text.Render(l)
	}
	return box(d.s.styles, "Confirm", true, bw, len(lines)+2, lines)
}
