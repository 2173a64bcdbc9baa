package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// dialog is something that takes the keys until it is done, drawn over the
// panes: the refine box, a confirmation, the help, the palette, a viewer
// (and, for the host-surface issues, elicitation and sampling requests).
// Dialogs stack (overlay): the front one gets every key and paste; the
// others wait underneath.
type dialog interface {
	// Update takes keys and pastes (the front dialog gets all of them) and
	// every message the root does not handle itself; done closes the
	// dialog.
	Update(msg tea.Msg) (cmd tea.Cmd, done bool)
	// View draws the dialog for an area of w×h cells: docked dialogs
	// return their box (w wide), centered ones a box at most that size,
	// body ones exactly h lines.
	View(w, h int) []string
	// Keys are the dialog's keys (the help bar shows them while it is in
	// front).
	Keys() []key.Binding
	// place says where it is drawn.
	place() placement
}

// placement is where a dialog is drawn.
type placement int

const (
	// placeDock: under the pane, which gets shorter (the refine box: the UI
	// stays in view while typing).
	placeDock placement = iota
	// placeCenter: a box centered over the panes.
	placeCenter
	// placeBody: the whole body, tool list and panes (the help, viewers).
	placeBody
)

// overlay is the stack of open dialogs, the front one last.
type overlay struct{ stack []dialog }

func (o *overlay) push(d dialog) { o.stack = append(o.stack, d) }

// front is the dialog that gets the keys (nil when none is open).
func (o *overlay) front() dialog {
	if len(o.stack) == 0 {
		return nil
	}
	return o.stack[len(o.stack)-1]
}

// remove closes d.
func (o *overlay) remove(d dialog) {
	for i, x := range o.stack {
		if x == d {
			o.stack = append(o.stack[:i], o.stack[i+1:]...)
			return
		}
	}
}

// find returns the open dialog of type T.
func find[T dialog](o *overlay) (T, bool) {
	for _, d := range o.stack {
		if t, ok := d.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// update gives msg to the front dialog (keys, pastes) and closes it when
// done.
func (o *overlay) update(msg tea.Msg) tea.Cmd {
	d := o.front()
	if d == nil {
		return nil
	}
	cmd, done := d.Update(msg)
	if done {
		o.remove(d)
	}
	return cmd
}

// broadcast gives msg to every dialog (messages the root does not handle
// itself: a dialog's own results).
func (o *overlay) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, d := range append([]dialog(nil), o.stack...) {
		cmd, done := d.Update(msg)
		if done {
			o.remove(d)
		}
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// docked is the height the docked dialogs take for a pane w wide, and
// their lines.
func (o *overlay) docked(w int) []string {
	var out []string
	for _, d := range o.stack {
		if d.place() == placeDock {
			out = append(out, d.View(w, 0)...)
		}
	}
	return out
}

// paint draws the centered and body dialogs over body (w×h lines),
// bottom of the stack first.
func (o *overlay) paint(body []string, w, h int) []string {
	for _, d := range o.stack {
		switch d.place() {
		case placeBody:
			body = d.View(w, h)
		case placeCenter:
			box := d.View(min(w-4, max(w*3/4, 60)), max(h-2, 3))
			y := max((h-len(box))/2, 0)
			for i, l := range box {
				if y+i >= len(body) {
					break
				}
				bw := cellWidth(l)
				x := max((w-bw)/2, 0)
				under := body[y+i]
				body[y+i] = ansi.Truncate(under, x, "") + l + ansi.TruncateLeft(under, x+bw, "")
			}
		}
	}
	return body
}
