package tui

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// keyMapBindings is every key.Binding of the key map, by field name (the
// number keys as Tabs[i]).
func keyMapBindings(k KeyMap) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		f := v.Type().Field(i)
		switch b := v.Field(i).Interface().(type) {
		case key.Binding:
			out[f.Name] = b
		case []key.Binding:
			for j, x := range b {
				out[f.Name+"["+string(rune('0'+j))+"]"] = x
			}
		}
	}
	return out
}

// listed reports whether one of lines shows b: its key and its words.
func listed(lines []string, b key.Binding) bool {
	h := b.Help()
	desc := h.Desc
	if len(desc) > 20 {
		desc = desc[:20]
	}
	for _, l := range lines {
		if strings.Contains(l, h.Key+" ") && strings.Contains(l, desc) {
			return true
		}
	}
	return false
}

// One table drives the palette and the help: every key of the key map is
// in the help (whatever the focused pane), every global action in the
// palette, every Call pane key in the palette on the Call pane; q and esc
// close the help without quitting.
func TestEveryKeyIsInHelpAndPalette(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.m.keys.Attach.SetEnabled(true) // as when a genui serves DIR
		k := d.m.keys
		help := strings.Split(stripANSI(strings.Join(d.m.fullHelpLines(160), "\n")), "\n")
		for name, b := range keyMapBindings(k) {
			if !listed(help, b) {
				t.Errorf("the help (?) lacks %s (%s %q)", name, b.Help().Key, b.Help().Desc)
			}
		}
		palette := func() []paletteEntry {
			p, _ := newPaletteDialog(d.m)
			return p.all
		}
		inPalette := func(all []paletteEntry, b key.Binding) bool {
			for _, e := range all {
				if e.keyLabel == b.Help().Key && strings.Contains(e.desc, b.Help().Desc) {
					return true
				}
			}
			return false
		}
		all := palette()
		for _, b := range k.actions() {
			if key.Matches(keyMsgOf(b.Keys()[0]), k.Palette) {
				continue
			}
			if !inPalette(all, b) {
				t.Errorf("the palette lacks %s %q", b.Help().Key, b.Help().Desc)
			}
		}
		for _, must := range []key.Binding{k.DropLast, k.DropAny, k.Attach} {
			if !inPalette(all, must) {
				t.Errorf("the palette lacks %s", must.Help().Key)
			}
		}
		// The Call pane's result keys (E, o) and, in the form, ctrl+o.
		d.key("3")
		d.key("l")
		all = palette()
		for _, b := range []key.Binding{k.EditAll, k.OpenLink} {
			if !inPalette(all, b) {
				t.Errorf("the palette on the Call pane lacks %s", b.Help().Key)
			}
		}
		d.key("?")
		if !d.helpOpen() {
			t.Fatal("? did not open the help")
		}
		d.key("q")
		if d.helpOpen() || d.quit {
			t.Fatalf("q in the help: open %v, quit %v; want it closed, the workbench running", d.helpOpen(), d.quit)
		}
		d.key("?")
		d.key("esc")
		if d.helpOpen() || d.quit {
			t.Fatalf("esc in the help: open %v, quit %v", d.helpOpen(), d.quit)
		}
	})
}
