package tui

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// namedPane is a trivial pane that draws its own name and the selected
// tool, so a test can tell which of several added panes is drawn.
type namedPane struct {
	s    *shared
	name string
}

func (p *namedPane) Keys() []key.Binding                { return nil }
func (p *namedPane) Update(msg tea.Msg) (tea.Cmd, bool) { return nil, false }
func (p *namedPane) View(w, h int, focused bool) paneView {
	return paneView{title: p.name, lines: []string{fmt.Sprintf("%s pane of %s", p.name, p.s.selected())}}
}

func namedPaneSpec(id, name, short string) paneSpec {
	return paneSpec{id: id, name: name, short: short, about: "shows " + name,
		new: func(s *shared) pane { return &namedPane{s: s, name: name} }}
}

// tabBarText is the tab bar as drawn: its line of the screen, from the
// pane column on.
func tabBarText(d *driver) string {
	l := d.m.layout()
	lines := strings.Split(d.screen(), "\n")
	return ansi.Cut(lines[l.bodyY], l.listW, l.listW+l.paneW)
}

// checkVisibleTab checks that pane i is the visible one, that it is drawn
// (its title and its line for the added panes), that the tab bar shows
// its label whole at the cells the layout (and so a click) gives it, and
// that the bar does not run past the pane column.
func checkVisibleTab(t *testing.T, d *driver, i int, how string) {
	t.Helper()
	if d.m.tab != i {
		t.Fatalf("%s: tab %d, want %d (%s)", how, d.m.tab, i, d.m.specs[i].name)
	}
	sp := d.m.specs[i]
	s := d.screen()
	mustContain(t, s, sp.name)
	if strings.HasPrefix(sp.id, "extra") {
		mustContain(t, s, sp.name+" pane of alpha")
	}
	l := d.m.layout()
	bar := tabBarText(d)
	found := false
	for _, c := range l.tabs {
		if c.x1 > l.paneW {
			t.Fatalf("%s: the tab bar runs past the pane column (%d > %d): %+v", how, c.x1, l.paneW, l.tabs)
		}
		if c.pane == i && !c.marker {
			found = true
			if got := strings.TrimSpace(ansi.Cut(bar, c.x0, c.x1)); got != c.label || !strings.Contains(c.label, sp.short) {
				t.Fatalf("%s: the visible tab is drawn %q at %d-%d, laid out as %q (bar %q)", how, got, c.x0, c.x1, c.label, bar)
			}
		}
	}
	if !found {
		t.Fatalf("%s: the visible pane %s is not in the tab bar %q", how, sp.name, bar)
	}
}

// TestPanesBeyondTen: with twelve panes (the ten of the pane table and two
// registered here), every pane is reachable by keyboard and drawn, at a
// wide, a usual and a narrow width: number keys for the first ten, ] and
// [ (and tab, shift+tab) step through all twelve and wrap, the palette's
// "pane" entries show any of them, and the tab bar keeps the visible tab
// whole, scrolling with ‹ and › markers (a click on one shows the next
// hidden pane) when the labels do not fit.
func TestPanesBeyondTen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		specs := append(append([]paneSpec(nil), paneTable...),
			namedPaneSpec("extra-eleven", "Eleventh", "Elv"), namedPaneSpec("extra-twelve", "Twelfth", "Twl"))
		n := len(specs)
		d := newDriverWith(t, newStub(), nil, specs)
		defer d.finish()
		scrolled := false
		for _, w := range []int{160, 80, 50} {
			d.send(tea.WindowSizeMsg{Width: w, Height: 30})
			how := func(k string) string { return fmt.Sprintf("%d wide, %s", w, k) }
			d.key("1")
			checkVisibleTab(t, d, 0, how("1"))
			for i := 1; i < n; i++ {
				d.key("]")
				checkVisibleTab(t, d, i, how("]"))
				if i < 10 {
					d.key(tabKey(i)) // the number key shows the same pane
					checkVisibleTab(t, d, i, how(tabKey(i)))
				}
			}
			d.key("]")
			checkVisibleTab(t, d, 0, how("] from the last pane"))
			d.key("[")
			checkVisibleTab(t, d, n-1, how("[ from the first pane"))
			d.key("shift+tab")
			checkVisibleTab(t, d, n-2, how("shift+tab"))
			d.key("tab")
			checkVisibleTab(t, d, n-1, how("tab"))
			d.key("0")
			checkVisibleTab(t, d, 9, how("0"))

			// The palette lists every pane; "pane" and a name picks one.
			for i, sp := range specs {
				d.key(":")
				d.typeText("pane " + strings.ToLower(sp.name))
				mustContain(t, d.screen(), "show "+sp.name+" pane")
				d.key("enter")
				checkVisibleTab(t, d, i, how(": pane "+sp.name))
			}

			// A click on a marker shows the nearest hidden pane; a click
			// on a label shows its pane.
			d.key("1")
			l := d.m.layout()
			if last := l.tabs[len(l.tabs)-1]; last.marker {
				scrolled = true
				if last.label != tabsAfter {
					t.Fatalf("%s: the last cell is the marker %q", how("1"), last.label)
				}
				mustContain(t, tabBarText(d), tabsAfter)
				d.send(tea.MouseClickMsg{X: l.listW + last.x0, Y: l.bodyY, Button: tea.MouseLeft})
				checkVisibleTab(t, d, last.pane, how("a click on ›"))
				d.key("1")
				d.key("[") // the last pane: the bar scrolled to its end
				l = d.m.layout()
				first := l.tabs[0]
				if !first.marker || first.label != tabsBefore {
					t.Fatalf("%s: on the last pane the bar does not start with ‹: %+v", how("["), l.tabs)
				}
				d.send(tea.MouseClickMsg{X: l.listW + first.x0, Y: l.bodyY, Button: tea.MouseLeft})
				checkVisibleTab(t, d, first.pane, how("a click on ‹"))
			} else {
				x := l.listW + tabMiddle(t, l, n-2)
				d.send(tea.MouseClickMsg{X: x, Y: l.bodyY, Button: tea.MouseLeft})
				checkVisibleTab(t, d, n-2, how("a click on the eleventh tab"))
			}
		}
		if !scrolled {
			t.Fatal("at 50 wide twelve tabs should not fit: the scrolling bar was not exercised")
		}
		// The help names every pane, the ones without a number key too,
		// and says how to reach them.
		help := stripANSI(strings.Join(d.m.fullHelpLines(200), "\n"))
		mustContain(t, help, "Panes past the first 10 (·)", "·  Eleventh: shows Eleventh", "·  Twelfth: shows Twelfth", "0  Prompts:")
	})
}
