package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
)

// KeyMap is every global key the workbench knows, with its help text (each
// pane and dialog names its own keys through Keys()). The help bar, the
// full help (?) and the palette are generated from these bindings; Update
// matches keys only through them (key.Matches).
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
	FocusList        key.Binding
	FocusPane        key.Binding
	Filter           key.Binding
	NextTab, PrevTab key.Binding
	// Tabs are the number keys, one per pane of the pane table (1-9, 0).
	Tabs  []key.Binding
	Enter key.Binding
	Back  key.Binding

	Generate        key.Binding
	Refine          key.Binding
	Regenerate      key.Binding
	RegenerateClear key.Binding
	DropLast        key.Binding
	DropAny         key.Binding
	Preview         key.Binding
	Call            key.Binding
	RefreshTools    key.Binding
	Export          key.Binding
	CopyURL         key.Binding
	ToggleDiff      key.Binding
	Attach          key.Binding
	// CancelCall cancels the running call (the selected tool's, or the
	// only one).
	CancelCall key.Binding
	// OpenLink opens a resource link of the call result.
	OpenLink key.Binding
	// Requests shows the requests awaiting an answer again.
	Requests key.Binding
	// Ping pings the upstream (the round trip goes to the status line);
	// Lint runs the server linter (hostfeatures.go).
	Ping key.Binding
	Lint key.Binding
	Help key.Binding
	Quit key.Binding
	// Interrupt (ctrl+c) backs out of any input, and quits from the top.
	Interrupt key.Binding

	// Inside the refine box, the call form, the filter and the confirm prompt.
	Send        key.Binding
	CallSend    key.Binding
	Editor      key.Binding // the focused field (or all arguments in JSON) in $EDITOR
	EditAll     key.Binding // all arguments as JSON in $EDITOR (Call pane)
	RawJSON     key.Binding
	Skeleton    key.Binding
	ClearField  key.Binding // empties the focused field (or the raw JSON box)
	Cancel      key.Binding
	HistoryPrev key.Binding
	HistoryNext key.Binding
	NextField   key.Binding
	PrevField   key.Binding
	Toggle      key.Binding
	Yes, No     key.Binding

	// In the panes: search, sideways, wrap, the Log's level filter.
	Search      key.Binding
	SearchNext  key.Binding
	SearchPrev  key.Binding
	Wrap        key.Binding
	Left, Right key.Binding
	Level       key.Binding
	// UpstreamLevel (Log pane) steps the level the upstream logs at.
	UpstreamLevel key.Binding
	Palette       key.Binding
	CopyText      key.Binding
}

// tabKey is the number key of the i-th pane: 1-9, then 0 ("" past ten:
// those are reached with tab/] and shift+tab/[, the palette's "pane"
// entries or a click on the tab bar).
func tabKey(i int) string {
	switch {
	case i < 9:
		return fmt.Sprint(i + 1)
	case i == 9:
		return "0"
	}
	return ""
}

// DefaultKeyMap is the workbench's key map for the panes of specs.
func DefaultKeyMap(specs []paneSpec) KeyMap {
	k := KeyMap{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:    key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:       key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top")),
		Bottom:    key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom (follow)")),
		FocusList: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "tools")),
		FocusPane: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "pane")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		NextTab:   key.NewBinding(key.WithKeys("tab", "]"), key.WithHelp("tab/]", "next pane")),
		PrevTab:   key.NewBinding(key.WithKeys("shift+tab", "["), key.WithHelp("shift+tab/[", "prev pane")),
		Enter:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open/expand")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		Generate:        key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "generate UI")),
		Refine:          key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refine")),
		Regenerate:      key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "regenerate")),
		RegenerateClear: key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "regenerate, clear refinements")),
		DropLast:        key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "drop the last refinement")),
		DropAny:         key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "drop any refinement")),
		Preview:         key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "preview")),
		Call:            key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "call")),
		RefreshTools:    key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "refresh tools")),
		Export:          key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export UI")),
		CopyURL:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy preview URL")),
		ToggleDiff:      key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "diff/source")),
		Attach:          key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "attach"), key.WithDisabled()),
		CancelCall:      key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel the running call")),
		OpenLink:        key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open a resource link of the result")),
		Requests:        key.NewBinding(key.WithKeys("!"), key.WithHelp("!", "answer the upstream's pending requests")),
		Ping:            key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "ping the upstream (round trip)")),
		Lint:            key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "lint the server (names, schemas, results)")),
		Help:            key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:            key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Interrupt:       key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "back out / quit")),

		Send:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		CallSend:    key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter/ctrl+s", "call")),
		Editor:      key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "edit in $EDITOR")),
		EditAll:     key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "all arguments in $EDITOR")),
		RawJSON:     key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "arguments as JSON / fields")),
		Skeleton:    key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "fill in the shape")),
		ClearField:  key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "clear the field")),
		Cancel:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		HistoryPrev: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "earlier feedback")),
		HistoryNext: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "later feedback")),
		NextField:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		PrevField:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "prev field")),
		Toggle:      key.NewBinding(key.WithKeys("space", "left", "right"), key.WithHelp("space/←/→", "toggle/choose")),
		Yes:         key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:          key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "no")),

		Search:        key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		SearchNext:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		SearchPrev:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		Wrap:          key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wrap long lines")),
		Left:          key.NewBinding(key.WithKeys("<", "shift+left"), key.WithHelp("</>", "scroll sideways")),
		Right:         key.NewBinding(key.WithKeys(">", "shift+right"), key.WithHelp(">", "scroll right")),
		Level:         key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "level filter")),
		UpstreamLevel: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "the upstream's log level (logging/setLevel)")),
		Palette:       key.NewBinding(key.WithKeys(":", "ctrl+p"), key.WithHelp(":", "palette")),
		CopyText:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
	}
	for i, sp := range specs {
		if d := tabKey(i); d != "" {
			k.Tabs = append(k.Tabs, key.NewBinding(key.WithKeys(d), key.WithHelp(d, sp.name)))
		}
	}
	return k
}

// actions is the one table of the workbench's global actions, in the
// order the palette (:) and the help (?) list them: both come from it.
func (k KeyMap) actions() []key.Binding {
	return []key.Binding{k.Generate, k.Refine, k.Regenerate, k.RegenerateClear, k.DropLast, k.DropAny, k.ToggleDiff,
		k.Call, k.CancelCall, k.Preview, k.CopyURL, k.Export, k.RefreshTools, k.Requests, k.Ping, k.Lint, k.Attach, k.Filter,
		k.Palette, k.Help, k.Quit}
}

// callPaneKeys are every key of the Call pane (the form's and the
// result's), for the help whatever the pane shows now.
func (k KeyMap) callPaneKeys() []key.Binding {
	return []key.Binding{k.Call, k.CallSend, k.NextField, k.PrevField, k.Toggle, k.Editor, k.EditAll, k.RawJSON,
		k.Skeleton, k.ClearField, k.CancelCall, k.OpenLink, saveResultKey, k.Cancel}
}

// helpKeys is what the help bar and the full help show in one mode.
type helpKeys struct {
	short []key.Binding
	full  [][]key.Binding
}

func (h helpKeys) ShortHelp() []key.Binding  { return h.short }
func (h helpKeys) FullHelp() [][]key.Binding { return h.full }

// tabsBinding is one help entry for the number keys ("1-7 panes").
func (k KeyMap) tabsBinding() key.Binding {
	var keys []string
	for _, b := range k.Tabs {
		keys = append(keys, b.Keys()...)
	}
	label := ""
	switch n := len(keys); {
	case n == 10: // 1-9 and 0
		label = "1-9, 0"
	case n > 0:
		label = keys[0] + "-" + keys[n-1]
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, "panes"))
}

// browseHelp is the help of the normal mode.
func (k KeyMap) browseHelp() helpKeys {
	return helpKeys{
		short: []key.Binding{k.Filter, k.tabsBinding(), k.Palette, k.Attach, k.Generate, k.Refine, k.Regenerate, k.Call, k.Preview, k.Help, k.Quit},
		full: [][]key.Binding{
			{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.FocusList, k.FocusPane, k.Enter, k.Back},
			append([]key.Binding{k.Filter, k.NextTab, k.PrevTab}, k.Tabs...),
			k.actions(),
		},
	}
}

func (k KeyMap) filterHelp() helpKeys {
	enter := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter"))
	esc := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"))
	return helpKeys{short: []key.Binding{enter, esc, k.Up, k.Down}, full: [][]key.Binding{{enter, esc, k.Up, k.Down}}}
}
