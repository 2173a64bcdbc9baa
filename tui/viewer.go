package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// openViewerMsg asks the root to show lines whole in the viewer.
type openViewerMsg struct {
	title string
	lines []string
	// unasked: it opens by itself (the re-runs after a restart), not
	// because of a key, so keys typed just before it showed are not its.
	unasked bool
}

// unaskedGrace is how long a viewer that opened by itself lets keys
// through to what is under it: keys typed before it was on screen (a
// frame, and a person's reaction) were meant for that.
const unaskedGrace = 400 * time.Millisecond

// viewerDialog shows something whole over the body: a row of Events,
// Traffic or Log opened with enter, exactly, scrollable, searchable and
// copyable (y), wrapped or scrolled sideways (w, < >); esc closes it.
type viewerDialog struct {
	s     *shared
	title string
	lines []string
	text  textView
	// keysFrom: keys pressed before it go to what is under the viewer
	// (zero: it takes every key).
	keysFrom time.Time
}

// takesKeys reports whether a key pressed at now is the viewer's.
func (d *viewerDialog) takesKeys(now time.Time) bool { return !now.Before(d.keysFrom) }

func newViewerDialog(s *shared, title string, lines []string) *viewerDialog {
	return &viewerDialog{s: s, title: title, lines: lines, text: textView{wrap: true, find: newFinder(s.styles)}}
}

func (d *viewerDialog) place() placement { return placeBody }

func (d *viewerDialog) Keys() []key.Binding {
	k := d.s.keys
	if d.text.capturing() {
		return []key.Binding{k.Enter, k.Back}
	}
	return append([]key.Binding{k.Back, k.CopyText, k.PageDown}, d.text.keys(k)...)
}

func (d *viewerDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	k := d.s.keys
	if km, ok := msg.(tea.KeyPressMsg); ok && !d.text.capturing() {
		switch {
		case key.Matches(km, k.Back) && d.text.find.query == "", key.Matches(km, k.Quit):
			return nil, true
		case key.Matches(km, k.CopyText):
			plain := make([]string, len(d.lines))
			for i, l := range d.lines {
				plain[i] = ansi.Strip(l)
			}
			text := strings.Join(plain, "\n")
			d.s.setStatus(fmt.Sprintf("copied %s (%d lines)", size(len(text)), len(plain)), false)
			return d.s.opts.Copy(text), false
		}
	}
	cmd, _ := d.text.update(k, msg)
	return cmd, false
}

func (d *viewerDialog) View(w, h int) []string {
	lines, sc, footer := d.text.render(d.s.styles, d.lines, w-2, h-2)
	if footer != "" {
		for len(lines) < h-3 {
			lines = append(lines, "")
		}
		lines = append(lines, footer)
	}
	title := d.title + d.text.sideNote() + " — esc closes · y copies · / searches · w wraps"
	return box(d.s.styles, title, true, w, h, lines, sc)
}
