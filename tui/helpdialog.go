package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// helpDialog is ?: the focused pane's keys, the global keys, the panes and
// what the tool list's badges mean, over the whole body. Up/down and
// PgUp/PgDn scroll it, any other key (q and esc too) closes it.
type helpDialog struct {
	m    *Model
	text textView
}

func newHelpDialog(m *Model) *helpDialog {
	return &helpDialog{m: m, text: textView{wrap: true, find: newFinder(m.styles)}}
}

func (d *helpDialog) place() placement { return placeBody }

func (d *helpDialog) Keys() []key.Binding {
	k := d.m.keys
	return []key.Binding{k.Down, k.PageDown, key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc/q/any key", "close"))}
}

func (d *helpDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	k := d.m.keys
	switch {
	case key.Matches(km, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom):
		cmd, _ := d.text.update(k, km)
		return cmd, false
	}
	return nil, true
}

func (d *helpDialog) View(w, h int) []string {
	lines, sc, _ := d.text.render(d.m.styles, d.m.fullHelpLines(w-4), w-2, h-2)
	for i, l := range lines {
		lines[i] = " " + l
	}
	return box(d.m.styles, "Keys — any key closes, ↑/↓ scroll", true, w, h, lines, sc)
}

// fullHelpLines is the help's content at width w: the focused pane's keys
// first, then the global keys, the panes, the badges and the dialogs.
func (m *Model) fullHelpLines(w int) []string {
	st, k := m.styles, m.keys
	var out []string
	section := func(title string) {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, st.Key.Render(title))
	}
	// keys lists bindings; one disabled now (attach without a genui to
	// attach to) is listed as such, so every key can be found.
	keys := func(bs ...key.Binding) {
		kw := 0
		for _, b := range bs {
			kw = max(kw, len([]rune(b.Help().Key)))
		}
		for _, b := range bs {
			h := b.Help()
			if h.Key == "" {
				continue
			}
			desc := h.Desc
			if !b.Enabled() {
				desc += " (not available now)"
			}
			for i, l := range wrap(desc, max(w-kw-4, 10)) {
				label := ""
				if i == 0 {
					label = h.Key
				}
				out = append(out, "  "+st.HelpKey.Render(fit(label, kw))+"  "+st.HelpDesc.Render(l))
			}
		}
	}
	note := func(text string) {
		for _, l := range wrap(text, w-2) {
			out = append(out, "  "+st.Muted.Render(l))
		}
	}
	sp := m.specs[m.tab]
	section(fmt.Sprintf("This pane: %d %s — %s", m.tab+1, sp.name, sp.about))
	keys(append(m.current().Keys(), k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom)...)
	section("Everywhere")
	keys(append([]key.Binding{k.FocusList, k.FocusPane, k.Enter, k.Back, k.Interrupt, k.NextTab, k.PrevTab}, k.actions()...)...)
	section("In the Call pane")
	keys(k.callPaneKeys()...)
	section("In panes of rows and text")
	keys(k.Search, k.SearchNext, k.SearchPrev, k.Wrap, k.Left, k.Right, k.CopyText, k.Level, k.UpstreamLevel)
	section("Panes")
	if len(m.specs) > len(k.Tabs) {
		note(fmt.Sprintf("Panes past the first %d (·): tab/] and shift+tab/[ step to them, : then “pane” and a name shows one, and so does a click on its tab (or on ‹ › when the tab bar scrolls).",
			len(k.Tabs)))
	}
	for i, sp := range m.specs {
		d := tabKey(i)
		if d == "" {
			d = "·"
		}
		for j, l := range wrap(sp.name+": "+sp.about, max(w-6, 10)) {
			label := "  "
			if j == 0 {
				label = d + " "
			}
			out = append(out, "  "+st.HelpKey.Render(label)+" "+st.HelpDesc.Render(l))
		}
	}
	section("Tool list badges")
	for _, b := range [][2]string{
		{"○ none", "no UI generated yet (g generates it)"},
		{"● rich", "a UI is cached; its kind: rich, minimal, llm, ... (offline-rich shows as rich)"},
		{"▲ fallback", "the cached UI is a fallback (the LLM's page failed; the reason follows)"},
		{"◆ own", "the upstream ships its own UI; genui serves it unchanged"},
		{"⊘ disabled", "generation.enabledTools/disabledTools leave it out: no UI is generated"},
		{m.spinner() + " generating", "a generation runs (also beside a cached UI: a background upgrade)"},
		{"✎2", "two refinements apply to the UI"},
		{"app", "_meta.ui.visibility is [\"app\"]: only UIs may call it, the model does not see it"},
		{"model", "visibility lacks \"app\": UIs may not call it (genui's own _ui_* tools)"},
	} {
		for j, l := range wrap(b[1], max(w-16, 10)) {
			label := ""
			if j == 0 {
				label = b[0]
			}
			out = append(out, "  "+st.Accent.Render(fit(label, 12))+"  "+st.HelpDesc.Render(l))
		}
	}
	section("Dialogs and inputs")
	note("Esc backs out one level (a dialog, a search, the form, an opened row, the pane's focus, the filter); ctrl+c backs out of any input and quits from the top, asking first while a call runs.")
	keys(k.Send, k.HistoryPrev, k.HistoryNext, k.Yes, k.No)
	note("Refine box: enter sends, esc cancels, ↑/↓ earlier feedback.")
	note("Call form: tab/↓ next field, shift+tab/↑ previous, space/←/→ booleans and choices, enter calls, esc leaves; PgUp/PgDn scroll the pane.")
	note("Search (/ in a pane): type to search, enter keeps it, n/N next and previous match, esc clears. With the tool list focused, / filters the tools.")
	note("Mouse: the wheel scrolls what is under it; a click selects a tool, a tab or a row.")
	note("Logs go to DIR/log/genui.log (the Log pane shows them), never to this terminal.")
	return out
}
