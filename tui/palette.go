package tui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// paletteEntry is one action the palette offers: what it does, its key,
// and the key press that runs it (or, for an action without a key, the
// message that does).
type paletteEntry struct {
	desc, keyLabel string
	msg            tea.Msg
	// run, when set, is the action (one that is not a message, e.g. one
	// starting a command).
	run func() tea.Cmd
}

// paletteDialog is : (or ctrl+p): every action with its key, filtered as
// you type; enter runs the selected one (as if its key were pressed where
// the focus is), esc closes.
type paletteDialog struct {
	s       *shared
	input   textinput.Model
	all     []paletteEntry
	visible []int
	cursor  int
}

// newPaletteDialog lists the global actions, the panes and the focused
// pane's own keys.
func newPaletteDialog(m *Model) (*paletteDialog, tea.Cmd) {
	k := m.keys
	var all []paletteEntry
	seen := map[string]bool{}
	add := func(b key.Binding, desc string) {
		if !b.Enabled() || len(b.Keys()) == 0 {
			return
		}
		if desc == "" {
			desc = b.Help().Desc
		}
		id := b.Keys()[0] + "|" + desc
		if seen[id] {
			return
		}
		seen[id] = true
		all = append(all, paletteEntry{desc: desc, keyLabel: b.Help().Key, msg: keyMsgOf(b.Keys()[0])})
	}
	for _, b := range m.current().Keys() {
		add(b, m.specs[m.tab].name+": "+b.Help().Desc)
	}
	for _, b := range k.actions() {
		if key.Matches(keyMsgOf(b.Keys()[0]), k.Palette) {
			continue // the palette is open
		}
		add(b, "")
	}
	all = append(all, authPaletteEntries(m)...)
	// Every pane, with or without a number key (": pane NAME" picks one).
	for i, sp := range m.specs {
		all = append(all, paletteEntry{desc: "show " + sp.name + " pane: " + sp.about, keyLabel: tabKey(i), msg: showTabMsg{id: sp.id}})
	}
	ti := textinput.New()
	ti.Prompt = ": "
	ti.Placeholder = "type to find an action"
	ti.CharLimit = 100
	ti.SetStyles(inputStyles(m.styles))
	d := &paletteDialog{s: m.shared, input: ti, all: all}
	d.filter()
	return d, d.input.Focus()
}

func (d *paletteDialog) place() placement { return placeCenter }

func (d *paletteDialog) Keys() []key.Binding {
	k := d.s.keys
	run := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run"))
	move := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "choose"))
	return []key.Binding{run, move, k.Cancel}
}

// filter keeps the entries whose description or key holds every word
// typed, those where the words come earliest first (": pane ui" puts
// "show UI pane" before "show Detail pane: the tool, its UI …"), ties in
// the table's order.
func (d *paletteDialog) filter() {
	words := strings.Fields(strings.ToLower(d.input.Value()))
	d.visible = d.visible[:0]
	score := map[int]int{}
	for i, e := range d.all {
		hay := strings.ToLower(e.desc + " " + e.keyLabel)
		ok := true
		for _, w := range words {
			at := strings.Index(hay, w)
			if at < 0 {
				ok = false
				break
			}
			score[i] += at
		}
		if ok {
			d.visible = append(d.visible, i)
		}
	}
	slices.SortStableFunc(d.visible, func(a, b int) int { return score[a] - score[b] })
	d.cursor = clamp(d.cursor, 0, len(d.visible)-1)
}

func (d *paletteDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch msg.String() {
		case "enter":
			if len(d.visible) == 0 {
				return nil, false
			}
			e := d.all[d.visible[d.cursor]]
			if e.run != nil {
				return e.run(), true
			}
			msg := e.msg
			return func() tea.Msg { return msg }, true
		case "esc":
			return nil, true
		case "up", "ctrl+k":
			d.cursor = max(d.cursor-1, 0)
			return nil, false
		case "down", "ctrl+j":
			d.cursor = min(d.cursor+1, max(len(d.visible)-1, 0))
			return nil, false
		}
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	d.filter()
	return cmd, false
}

func (d *paletteDialog) View(w, h int) []string {
	st := d.s.styles
	inner := w - 2
	d.input.SetWidth(max(inner-4, 4))
	lines := []string{d.input.View(), st.Faint.Render(strings.Repeat("─", inner))}
	rows := max(min(len(d.visible), h-4), 1)
	first := clamp(d.cursor-rows+1, 0, max(len(d.visible)-rows, 0))
	if len(d.visible) == 0 {
		lines = append(lines, st.Muted.Render(" no action matches"))
	}
	keyW := 0
	for _, i := range d.visible {
		keyW = max(keyW, utf8.RuneCountInString(d.all[i].keyLabel))
	}
	for j := first; j < len(d.visible) && j < first+rows; j++ {
		e := d.all[d.visible[j]]
		l := " " + fit(e.keyLabel, keyW) + "  " + e.desc
		if j == d.cursor {
			lines = append(lines, st.Selected.Render(fit(l, inner)))
		} else {
			lines = append(lines, st.Key.Render(" "+fit(e.keyLabel, keyW))+"  "+st.Text.Render(clean(e.desc)))
		}
	}
	title := fmt.Sprintf("Actions %d/%d — enter runs · esc closes", len(d.visible), len(d.all))
	return box(st, title, true, w, len(lines)+2, lines)
}

// keyMsgOf is the key press a binding's key name stands for ("g", "R",
// "ctrl+r", "shift+tab", "enter", ...), as the terminal would report it.
func keyMsgOf(k string) tea.KeyPressMsg {
	var mod tea.KeyMod
	name := k
	for {
		i := strings.Index(name, "+")
		if i <= 0 || i == len(name)-1 {
			break
		}
		switch name[:i] {
		case "ctrl":
			mod |= tea.ModCtrl
		case "shift":
			mod |= tea.ModShift
		case "alt":
			mod |= tea.ModAlt
		default:
			return tea.KeyPressMsg{Text: k}
		}
		name = name[i+1:]
	}
	named := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
		"left": tea.KeyLeft, "right": tea.KeyRight, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome,
		"end": tea.KeyEnd, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
	}
	if code, ok := named[name]; ok {
		return tea.KeyPressMsg{Code: code, Mod: mod}
	}
	if name == "space" {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " ", Mod: mod}
	}
	r, n := utf8.DecodeRuneInString(name)
	if n != len(name) {
		return tea.KeyPressMsg{Text: k}
	}
	if mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	if unicode.IsUpper(r) {
		return tea.KeyPressMsg{Code: unicode.ToLower(r), ShiftedCode: r, Mod: tea.ModShift, Text: name}
	}
	return tea.KeyPressMsg{Code: r, Text: name}
}
