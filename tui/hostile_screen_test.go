package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// TestZeroWidthDefaultsDoNotPanic: a string field whose default takes no
// cells (a zero-width space, a bell, a lone combining mark) is a
// placeholder bubbles' textinput cannot draw (it sliced [1:0] and the TUI
// died on the Call pane); such a default shows no placeholder, and an
// escape sequence in one is cleaned.
func TestZeroWidthDefaultsDoNotPanic(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		withSchema(d, `{"type":"object","properties":{"a":{"type":"string","default":"\u200b"},"b":{"type":"string","default":"\u0007"},`+
			`"c":{"type":"string","default":"\u0301"},"e":{"type":"string","default":"\u001b[2Jx"}}}`)
		d.key("c")
		s := d.screen()
		mustContain(t, s, "a", "b", "c", "e")
		for _, fd := range d.m.tool("zeta").form.fields {
			if strings.ContainsRune(fd.input.Placeholder, 0x1b) || fd.input.Placeholder != "" && cellWidth(fd.input.Placeholder) == 0 {
				t.Errorf("field %s: placeholder %q", fd.name, fd.input.Placeholder)
			}
		}
	})
}

// TestSignInMessageLeavesThePanes: an authorization server's long error
// (the state's message holds up to 2 KiB) takes at most a quarter of the
// screen under the header, pointing at the sign-in details; the panes,
// status and help lines stay on screen (the header filled all 24 lines).
func TestSignInMessageLeavesThePanes(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		st := d.stub.state
		st.Upstream.Auth = &contract.AuthState{Status: contract.AuthFailed, Message: strings.Repeat("the token endpoint said no ", 75)}
		d.send(stateMsg{gen: d.m.subGen, st: st})
		lines := d.m.authAttention()
		if len(lines) > 24/4 || !strings.Contains(lines[len(lines)-1], "sign-in details") {
			t.Fatalf("%d lines under the header, the last %q", len(lines), lines[len(lines)-1])
		}
		if l := d.m.layout(); l.bodyH < 10 {
			t.Errorf("the panes are %d lines high at 80x24", l.bodyH)
		}
		mustContain(t, d.screen(), "Tools", "? help")
	})
}

// TestMouseBelongsToTheDialogInFront: with the help open, a click where
// the tool list is selects nothing under it, and the wheel scrolls the
// help, not the hidden list or pane.
func TestMouseBelongsToTheDialogInFront(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		l := d.m.layout()
		before := d.m.selected()
		d.key("?")
		if !d.helpOpen() {
			t.Fatal("? opened no help")
		}
		d.send(tea.MouseClickMsg{X: 3, Y: l.bodyY + 3, Button: tea.MouseLeft})
		if d.m.selected() != before || !d.helpOpen() {
			t.Fatalf("a click under the help selected %s (was %s), help open %v", d.m.selected(), before, d.helpOpen())
		}
		d.send(tea.MouseWheelMsg{X: l.listW + 5, Y: l.bodyY + 5, Button: tea.MouseWheelDown})
		if d.detailPane().text.offset != 0 {
			t.Fatalf("the wheel under the help scrolled the hidden pane to %d", d.detailPane().text.offset)
		}
	})
}

// TestListBordersSelectNothing: a click on the tool list's bottom border
// selects no tool (it took the one just below the visible rows); the
// wheel over the header scrolls nothing.
func TestListBordersSelectNothing(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.send(tea.WindowSizeMsg{Width: 100, Height: 8}) // fewer rows than tools
		l := d.m.layout()
		before := d.m.selected()
		d.send(tea.MouseClickMsg{X: 3, Y: l.bodyY + l.bodyH - 1, Button: tea.MouseLeft})
		if d.m.selected() != before || d.m.list.offset != 0 {
			t.Fatalf("a click on the bottom border selected %s (was %s), list offset %d", d.m.selected(), before, d.m.list.offset)
		}
		d.send(tea.MouseWheelMsg{X: 2, Y: 0, Button: tea.MouseWheelDown})
		if d.m.list.offset != 0 {
			t.Fatalf("the wheel over the header scrolled the list to %d", d.m.list.offset)
		}
	})
}

// TestKeysNotTypedIntoAFormThatLostFocus: the Call form is active, a click
// puts the focus on the tool list; a letter then is not typed into the
// form, which no longer looks focused.
func TestKeysNotTypedIntoAFormThatLostFocus(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("c")
		tool := d.m.selected()
		l := d.m.layout()
		row := d.m.list.cursor - d.m.list.offset
		d.send(tea.MouseClickMsg{X: 3, Y: l.bodyY + 1 + row, Button: tea.MouseLeft})
		if d.m.focus != focusList {
			t.Fatalf("the click left the focus on %v", d.m.focus)
		}
		d.key("z")
		if v := d.m.tool(tool).form.fields[0].input.Value(); strings.Contains(v, "z") {
			t.Fatalf("z was typed into the form after the list took the focus: %q", v)
		}
	})
}
