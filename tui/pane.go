package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// pane is one tab of the right side: a component with its own state
// (scroll position, cursor, what is open), its own Update and View, and its
// own keys. The root model routes messages to it and draws it in the
// layout; the shared data (engine state, per-tool data, styles) it reads
// through the *shared it was built with.
type pane interface {
	// Update takes a message routed to the pane: keys and pastes while it
	// has the focus (or, with the tool list focused, keys nothing else
	// took), the pane messages below, and every message the root does not
	// handle itself. For keys, handled says whether the pane used it.
	Update(msg tea.Msg) (cmd tea.Cmd, handled bool)
	// View draws the inside of the pane, w×h cells; focused says whether
	// the pane has the focus.
	View(w, h int, focused bool) paneView
	// Keys are the pane's own keys: the help, the help bar and the
	// palette list them.
	Keys() []key.Binding
}

// paneView is a drawn pane: its title and its lines (at most h; the root
// pads), with the scroll position for the scrollbar.
type paneView struct {
	title string
	lines []string
	sc    scroll
	// footer is a line drawn under the lines inside the border (a search
	// or filter line); "" for none.
	footer string
}

// capturer is a pane with an input open (the call form, a search line): it
// gets every key first, letters included.
type capturer interface{ capturing() bool }

// Messages the root sends to panes.
type (
	// paneShownMsg: the pane became the visible tab; paneHiddenMsg: another
	// one did.
	paneShownMsg  struct{}
	paneHiddenMsg struct{}
	// toolSelectedMsg: the selected tool changed (every pane gets it).
	toolSelectedMsg struct{ prev, tool string }
	// scrollMsg: the wheel or PgUp/PgDn: move by lines (a page when page
	// is set: lines is then +1 or -1).
	scrollMsg struct {
		lines int
		page  bool
	}
	// clickMsg: a click on the row-th line inside the pane.
	clickMsg struct{ row int }
)

// paneSpec registers a pane: the tab bar, the short names, the number
// keys, the palette and the help all come from the table of them
// (paneTable), so adding a pane is its own file plus one line there.
type paneSpec struct {
	id    string // stable name the code uses (paneUI, ...)
	name  string // tab label and title
	short string // tab label when the full names do not fit
	about string // what it shows (the help)
	new   func(s *shared) pane
}

// Pane ids the root refers to (g shows the UI, c the Call form, ...).
const (
	paneDetail    = "detail"
	paneUI        = "ui"
	paneCall      = "call"
	paneEvents    = "events"
	paneVars      = "variables"
	paneTraffic   = "traffic"
	paneLog       = "log"
	paneResources = "resources"
	panePrompts   = "prompts"
)

// paneTable is every pane of the right side, in tab order.
var paneTable = []paneSpec{
	detailPaneSpec,
	uiPaneSpec,
	callPaneSpec,
	eventsPaneSpec,
	varsPaneSpec,
	trafficPaneSpec,
	logPaneSpec,
	historyPaneSpec,
	resourcesPaneSpec,
	promptsPaneSpec,
}
