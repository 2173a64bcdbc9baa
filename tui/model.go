package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/pkg/browser"

	"github.com/genui-dev/genui/engine/contract"
)

// Mode says where the engine the TUI shows runs.
type Mode int

const (
	// InProcess: the engine runs in this process (with its side server and
	// port files, so browsers and agents can join).
	InProcess Mode = iota
	// Attached: the engine is a running genui (genui mcp or serve) reached
	// through its HTTP side server.
	Attached
)

func (m Mode) String() string {
	if m == Attached {
		return "attached"
	}
	return "in-process"
}

// Options configure the workbench.
type Options struct {
	// API is the engine: *contract.Engine in-process, an apiclient.Client
	// attached.
	API  contract.API
	Mode Mode
	// Base is the side server's URL: the attached genui's, or the one this
	// process runs. Dir is genui's folder (DIR): an in-process TUI polls
	// DIR/mcp-port for a genui started later, an attached one follows a
	// restarted server there.
	Base, Dir string
	// Upstream describes the wrapped server for the header ("" = take it
	// from the engine's state).
	Upstream string
	// Dial returns the engine of the genui at base (an HTTP client); Locate
	// reads what DIR's port and lock files say (conn.go). Both are
	// required to attach later (key a) and to follow a restarted server.
	Dial   func(base string) contract.API
	Locate func(dir string) (DirGenui, error)
	// Release stops the in-process engine once the TUI has attached to
	// another genui (key a). It runs in a command and may block, bounded.
	Release func()
	// OpenURL opens the browser (default github.com/pkg/browser; it only
	// ever gets http and https URLs: opener.go); Copy puts
	// text on the clipboard (default OSC 52 through the terminal, and
	// tmux's paste buffer inside tmux). Tests inject both.
	OpenURL func(url string) error
	Copy    func(text string) tea.Cmd
	// ExportDir is where `e` writes UIs (default DIR/export).
	ExportDir string
	// Now is the clock (tests fix it).
	Now func() time.Time
	// Static stops animation: spinners show one frame (golden screens).
	Static bool
	// NoColor draws without colors (NO_COLOR).
	NoColor bool
	// Dark forces a dark (true) or light (false) palette; nil asks the
	// terminal for its background color.
	Dark *bool
	// PollInterval is how often the state is refreshed and DIR/mcp-port
	// checked (default 1 s).
	PollInterval time.Duration
	// Context bounds every engine call and subscription (default
	// context.Background()).
	Context context.Context
}

// focus is where the keys go: the tool list or the visible pane.
type focus int

const (
	focusList focus = iota
	focusPane
)

// Buffer bounds (ring buffers).
const (
	maxEvents  = 10000
	maxTraffic = 5000
	maxLogs    = 5000
)

// Model is the workbench: the one tea.Model. It routes messages (keys to
// the front dialog, the filter, the focused pane or the global keys; engine
// results to the shared data; everything else to the panes and dialogs)
// and owns the layout. The panes are components (pane.go) built from the
// pane table; dialogs stack in the overlay (dialog.go).
type Model struct {
	*shared
	help help.Model

	width, height int
	darkKnown     bool

	specs   []paneSpec
	panes   []pane
	tab     int // the visible pane
	focus   focus
	overlay overlay

	// Subscription and connection.
	subCancel context.CancelFunc
	currentCh <-chan contract.Event
	lost      bool // attached and the server is gone
	lostErr   string
	retry     int
	retryAt   time.Time
	other     string // another genui now serving DIR (in-process only)
	attaching bool
	quitting  bool
}

var spinFrames = spinner.MiniDot.Frames

// New builds the workbench model with the panes of the pane table.
func New(opts Options) *Model { return newModel(opts, paneTable) }

// newModel builds the workbench with the panes of specs, in tab order.
func newModel(opts Options, specs []paneSpec) *Model {
	if opts.OpenURL == nil {
		opts.OpenURL = browser.OpenURL
	}
	opts.OpenURL = onlyWeb(opts.OpenURL)
	if opts.Copy == nil {
		opts.Copy = copyToClipboard
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.ExportDir == "" && opts.Dir != "" {
		opts.ExportDir = filepath.Join(opts.Dir, "export")
	}
	dark := true
	if opts.Dark != nil {
		dark = *opts.Dark
	}
	s := &shared{
		opts: opts, ctx: opts.Context, api: opts.API, mode: opts.Mode, base: opts.Base,
		keys: DefaultKeyMap(specs), styles: NewStyles(dark, opts.NoColor), now: opts.Now, tick: tea.Tick, execProcess: tea.ExecProcess,
		tools:  map[string]*toolState{},
		vars:   newVarTree(),
		events: newRing[eventRow](maxEvents), traffic: newRing[trafficRow](maxTraffic), logs: newRing[logRow](maxLogs),
		seenQueue: map[int64]int{}, queuedIDs: map[string]bool{}, calls: map[string]string{},
		list: newToolList(),
	}
	m := &Model{shared: s, help: help.New(), width: 80, height: 24, darkKnown: opts.Dark != nil, specs: specs}
	for _, sp := range specs {
		m.panes = append(m.panes, sp.new(s))
	}
	m.applyStyles()
	return m
}

// NoColorFromEnv reports whether NO_COLOR asks for no colors.
func NoColorFromEnv() bool { return os.Getenv("NO_COLOR") != "" }

// Init starts the subscription, the first fetches and the poll.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.subscribe(), m.fetchState(), m.fetchTools(), m.fetchPending(), m.requestsCmd(true), m.pollTick()}
	if !m.darkKnown {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// Update is the one place the model changes: one switch, one handler per
// message; what the root does not handle goes to the panes and dialogs.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m, m.handleResize(msg)
	case tea.BackgroundColorMsg:
		return m, m.handleBackground(msg)
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		return m, m.handlePaste(msg)
	case tea.MouseWheelMsg:
		return m, m.handleWheel(msg)
	case tea.MouseClickMsg:
		return m, m.handleClick(msg)
	case eventsMsg:
		return m, m.handleEvents(msg)
	case subscribedMsg:
		return m, m.handleSubscribed(msg)
	case stateMsg:
		return m, m.handleState(msg)
	case toolsMsg:
		return m, m.handleTools(msg)
	case inspectMsg:
		return m, m.handleInspect(msg)
	case uiMsg:
		return m, m.handleUI(msg)
	case changeMsg:
		return m, m.handleChange(msg)
	case changeUpgradedMsg:
		return m, m.handleChangeUpgraded(msg)
	case callMsg:
		return m, m.handleCall(msg)
	case cancelMsg:
		return m, m.handleCancel(msg)
	case requestsMsg:
		return m, m.handleRequests(msg)
	case trafficHistoryMsg:
		return m, m.handleTrafficHistory(msg)
	case answerMsg:
		return m, m.handleAnswer(msg)
	case resourceReadMsg:
		return m, m.handleResourceRead(msg)
	case openSaveMsg:
		d, cmd := newSaveDialog(m.shared, msg)
		m.overlay.push(d)
		return m, cmd
	case savedMsg:
		return m, m.handleSaved(msg)
	case pushDialogMsg:
		m.overlay.push(msg.d)
		return m, nil
	case refreshMsg:
		return m, m.handleRefresh(msg)
	case pingMsg:
		return m, m.handlePing(msg)
	case lintMsg:
		return m, m.handleLint(msg)
	case previewMsg:
		return m, m.handlePreview(msg)
	case exportMsg:
		return m, m.handleExport(msg)
	case pendingMsg:
		return m, m.handlePending(msg)
	case varsMsg:
		return m, m.handleVars(msg)
	case pollMsg:
		return m, m.handlePoll(msg)
	case discoverMsg:
		return m, m.handleDiscover(msg)
	case attachedMsg:
		return m, m.handleAttached(msg)
	case reconnectMsg:
		return m, m.handleReconnect(msg)
	case spinMsg:
		return m, m.handleSpin(msg)
	case rehighlightMsg:
		return m, m.handleRehighlight(msg)
	case openViewerMsg:
		v := newViewerDialog(m.shared, msg.title, msg.lines)
		if msg.unasked {
			v.keysFrom = m.now().Add(unaskedGrace)
		}
		m.overlay.push(v)
		return m, nil
	case showPaneMsg:
		prev := m.selected()
		m.list.selectName(msg.tool)
		m.focus = focusPane
		cmds := []tea.Cmd{m.selectionChanged(prev), m.show(msg.id)}
		if msg.then != nil {
			c, _ := m.current().Update(msg.then)
			cmds = append(cmds, c)
		}
		return m, tea.Batch(cmds...)
	}
	return m, m.toComponents(msg)
}

// toComponents gives a message the root does not handle to every dialog
// and every pane.
func (m *Model) toComponents(msg tea.Msg) tea.Cmd {
	cmds := []tea.Cmd{m.overlay.broadcast(msg)}
	for _, p := range m.panes {
		cmd, _ := p.Update(msg)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "genui tui"
	return v
}

// current is the visible pane.
func (m *Model) current() pane { return m.panes[m.tab] }

// paneIndex is the tab of the pane with id (-1 when there is none).
func (m *Model) paneIndex(id string) int {
	for i, sp := range m.specs {
		if sp.id == id {
			return i
		}
	}
	return -1
}

// pane returns the pane with id (nil when there is none).
func (m *Model) pane(id string) pane {
	if i := m.paneIndex(id); i >= 0 {
		return m.panes[i]
	}
	return nil
}

// showing reports whether the pane with id is visible.
func (m *Model) showing(id string) bool { return m.specs[m.tab].id == id }

// setTab shows pane i: the old one is told it is hidden, the new one that
// it is shown (it fetches what it needs).
func (m *Model) setTab(i int) tea.Cmd {
	if i < 0 || i >= len(m.panes) {
		return nil
	}
	var cmds []tea.Cmd
	if i != m.tab {
		c, _ := m.panes[m.tab].Update(paneHiddenMsg{})
		cmds = append(cmds, c)
	}
	m.tab = i
	c, _ := m.panes[i].Update(paneShownMsg{})
	return tea.Batch(append(cmds, c)...)
}

// show shows the pane with id.
func (m *Model) show(id string) tea.Cmd { return m.setTab(m.paneIndex(id)) }

// selectionChanged tells the panes the selected tool changed (they reset
// their position and fetch what they show).
func (m *Model) selectionChanged(prev string) tea.Cmd {
	tool := m.selected()
	if tool == prev {
		return nil
	}
	var cmds []tea.Cmd
	if t := m.peek(tool); tool != "" && (t == nil || !t.hasInspect) {
		cmds = append(cmds, m.fetchInspect(tool))
	}
	for _, p := range m.panes {
		c, _ := p.Update(toolSelectedMsg{prev: prev, tool: tool})
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}

func (m *Model) quit() tea.Cmd {
	m.quitting = true
	if m.subCancel != nil {
		m.subCancel()
	}
	return tea.Quit
}

func (m *Model) handleResize(msg tea.WindowSizeMsg) tea.Cmd {
	m.width, m.height = max(msg.Width, 20), max(msg.Height, 8)
	m.help.SetWidth(m.width)
	return nil
}

func (m *Model) handleBackground(msg tea.BackgroundColorMsg) tea.Cmd {
	if m.darkKnown && m.styles.Dark == msg.IsDark() {
		return nil
	}
	m.darkKnown = true
	if m.styles.Dark == msg.IsDark() {
		return nil
	}
	m.styles = NewStyles(msg.IsDark(), m.opts.NoColor)
	m.applyStyles()
	for _, t := range m.tools {
		if t.doc != nil {
			t.doc.style = "" // highlight again with the new palette
		}
	}
	return m.highlight()
}

// applyStyles hands the styles to the bubbles components.
func (m *Model) applyStyles() {
	st := m.styles
	m.help.Styles.ShortKey, m.help.Styles.ShortDesc, m.help.Styles.ShortSeparator = st.HelpKey, st.HelpDesc, st.HelpSep
	m.help.Styles.FullKey, m.help.Styles.FullDesc, m.help.Styles.FullSeparator = st.HelpKey, st.HelpDesc, st.HelpSep
	m.help.Styles.Ellipsis = st.HelpSep
	m.list.filter.SetStyles(inputStyles(st))
	for _, t := range m.tools {
		if t.form != nil {
			t.form.setStyles(st)
		}
	}
}

// Keys: the front dialog takes every key; then the tool filter while it
// is open; then a pane with an input open; then the focused pane or the
// tool list; then the global keys; with the list focused, keys nobody took
// go to the visible pane. A key that changes the selection tells the panes.

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	prev := m.selected()
	cmd := m.routeKey(msg)
	return tea.Batch(cmd, m.selectionChanged(prev))
}

func (m *Model) routeKey(msg tea.KeyPressMsg) tea.Cmd {
	interrupt := key.Matches(msg, m.keys.Interrupt)
	if d := m.overlay.front(); d != nil && !passesKeys(d, m.now()) {
		if !interrupt {
			return m.overlay.update(msg)
		}
		// ctrl+c backs out of any dialog: as esc, and closed if it stays.
		cmd := m.overlay.update(escKey)
		m.overlay.remove(d)
		return cmd
	}
	if m.list.filtering {
		if interrupt {
			msg = escKey
		}
		return m.filterKey(msg)
	}
	p := m.current()
	if m.focus == focusPane {
		if c, ok := p.(capturer); ok && c.capturing() {
			if interrupt {
				msg = escKey
			}
			cmd, _ := p.Update(msg)
			return cmd
		}
		if !interrupt {
			if cmd, ok := p.Update(msg); ok {
				return cmd
			}
		}
	} else if cmd, ok := m.listKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.globalKey(msg); ok {
		return cmd
	}
	if m.focus == focusList {
		cmd, _ := p.Update(msg)
		return cmd
	}
	return nil
}

// drop drops refinement i (feedback) of tool.
func (s *shared) drop(tool string, i int, feedback string) tea.Cmd {
	s.setBusy(tool, "dropping a refinement")
	return tea.Batch(s.doDrop(tool, i, feedback), s.spinTick())
}

// escKey is esc, as ctrl+c is read inside an input.
var escKey = tea.KeyPressMsg{Code: tea.KeyEscape}

// askQuit quits, or asks first when a tool call is running (quitting
// would cancel it).
func (m *Model) askQuit() tea.Cmd {
	var running []string
	for name, t := range m.tools {
		if t.busy == "calling" {
			running = append(running, name)
		}
	}
	if len(running) == 0 {
		return m.quit()
	}
	slices.Sort(running)
	m.overlay.push(newConfirmDialog(m.shared, fmt.Sprintf("A call of %s is still running: quit anyway (the call is cancelled)? y/n",
		strings.Join(running, ", ")), m.quit))
	return nil
}

// listKey moves in the tool list.
func (m *Model) listKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	page := max(m.layout().bodyH-4, 1)
	switch {
	case key.Matches(msg, k.Up):
		m.list.move(-1)
	case key.Matches(msg, k.Down):
		m.list.move(1)
	case key.Matches(msg, k.PageUp):
		m.list.move(-page)
	case key.Matches(msg, k.PageDown):
		m.list.move(page)
	case key.Matches(msg, k.Top):
		m.list.move(-1 << 30)
	case key.Matches(msg, k.Bottom):
		m.list.move(1 << 30)
	case key.Matches(msg, k.Enter):
		m.focus = focusPane
	case key.Matches(msg, k.Back) && m.list.query != "":
		m.list.setQuery("")
	default:
		return nil, false
	}
	return nil, true
}

// globalKey handles the keys that work wherever the focus is.
func (m *Model) globalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	tool := m.selected()
	for i, b := range k.Tabs {
		if key.Matches(msg, b) {
			return m.setTab(i), true
		}
	}
	needTool := func(f func() tea.Cmd) (tea.Cmd, bool) {
		if tool == "" {
			m.setStatus("no tool selected", true)
			return nil, true
		}
		return f(), true
	}
	switch {
	case key.Matches(msg, k.Quit), key.Matches(msg, k.Interrupt):
		return m.askQuit(), true
	case key.Matches(msg, k.Help):
		m.overlay.push(newHelpDialog(m))
	case key.Matches(msg, k.Palette):
		d, cmd := newPaletteDialog(m)
		m.overlay.push(d)
		return cmd, true
	case key.Matches(msg, k.Filter):
		m.list.filtering = true
		m.list.filter.SetValue(m.list.query)
		m.list.filter.CursorEnd()
		m.focus = focusList
		return m.list.filter.Focus(), true
	case key.Matches(msg, k.NextTab):
		return m.setTab((m.tab + 1) % len(m.panes)), true
	case key.Matches(msg, k.PrevTab):
		return m.setTab((m.tab + len(m.panes) - 1) % len(m.panes)), true
	case key.Matches(msg, k.FocusList):
		m.focus = focusList
	case key.Matches(msg, k.FocusPane):
		m.focus = focusPane
	case key.Matches(msg, k.Back):
		if m.focus == focusPane {
			m.focus = focusList
		} else {
			m.status = ""
		}
	case key.Matches(msg, k.Generate):
		return needTool(func() tea.Cmd {
			m.setBusy(tool, "generating")
			return tea.Batch(m.show(paneUI), m.fetchUI(tool, true), m.spinTick())
		})
	case key.Matches(msg, k.Refine):
		return needTool(func() tea.Cmd {
			d, cmd := newRefineDialog(m.shared, tool)
			m.overlay.push(d)
			return cmd
		})
	case key.Matches(msg, k.Regenerate):
		return needTool(func() tea.Cmd {
			m.setBusy(tool, "regenerating")
			return tea.Batch(m.doRegenerate(tool, false), m.spinTick())
		})
	case key.Matches(msg, k.RegenerateClear):
		return needTool(func() tea.Cmd {
			n := 0
			if t, ok := m.list.selectedTool(); ok {
				n = t.Refinements
			}
			m.overlay.push(newConfirmDialog(m.shared, fmt.Sprintf("Regenerate %s and clear its %d refinement(s)? y/n", tool, n), func() tea.Cmd {
				m.setBusy(tool, "regenerating")
				return tea.Batch(m.doRegenerate(tool, true), m.spinTick())
			}))
			return nil
		})
	case key.Matches(msg, k.DropLast), key.Matches(msg, k.DropAny):
		return needTool(func() tea.Cmd {
			t := m.peek(tool)
			if t == nil || !t.hasInspect || len(t.inspect.History) == 0 {
				m.setStatus(tool+" has no refinement to drop", false)
				return nil
			}
			hist := t.inspect.History
			if key.Matches(msg, k.DropAny) {
				m.overlay.push(newDropDialog(m.shared, tool, hist))
				return nil
			}
			last := len(hist) - 1
			m.overlay.push(newConfirmDialog(m.shared, fmt.Sprintf("Drop the last refinement of %s, “%s”, and regenerate from the other %d? y/n",
				tool, hist[last].Feedback, last), func() tea.Cmd { return m.drop(tool, last, hist[last].Feedback) }))
			return nil
		})
	case key.Matches(msg, k.Preview):
		return needTool(func() tea.Cmd {
			m.busyAll++
			return tea.Batch(m.doPreview(tool, false), m.spinTick())
		})
	case key.Matches(msg, k.CopyURL):
		return needTool(func() tea.Cmd {
			m.busyAll++
			return m.doPreview(tool, true)
		})
	case key.Matches(msg, k.Call):
		return needTool(func() tea.Cmd {
			cmd := m.show(paneCall)
			m.focus = focusPane
			c, _ := m.current().Update(callFormOpenMsg{})
			return tea.Batch(cmd, c)
		})
	case key.Matches(msg, k.CancelCall):
		t, why := m.runningCall()
		if t == "" {
			m.setStatus(why, false)
			return nil, true
		}
		return m.cancelCall(t), true
	case key.Matches(msg, k.Requests):
		return m.fetchRequests(), true
	case key.Matches(msg, k.Ping):
		return m.doPing(), true
	case key.Matches(msg, k.Lint):
		return m.doLint(), true
	case key.Matches(msg, k.RefreshTools):
		m.busyAll++
		m.setStatus("refreshing the upstream's tools…", false)
		return tea.Batch(m.doRefresh(), m.spinTick()), true
	case key.Matches(msg, k.Export):
		return needTool(func() tea.Cmd {
			m.setBusy(tool, "exporting")
			return tea.Batch(m.doExport(tool), m.spinTick())
		})
	case key.Matches(msg, k.ToggleDiff):
		return needTool(func() tea.Cmd {
			t := m.tool(tool)
			if t.change == nil {
				m.setStatus("no refine or regenerate of "+tool+" yet: nothing to diff", false)
				return nil
			}
			t.showDiff = !t.showDiff
			c, _ := m.pane(paneUI).Update(uiResetMsg{})
			return tea.Batch(c, m.show(paneUI))
		})
	case key.Matches(msg, k.Attach):
		return m.attach(), true
	default:
		return nil, false
	}
	return nil, true
}

func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	l := &m.list
	switch {
	case msg.String() == "enter":
		l.filtering = false
		l.filter.Blur()
		return nil
	case key.Matches(msg, m.keys.Back):
		l.filtering = false
		l.filter.Blur()
		l.filter.SetValue("")
		l.setQuery("")
		return nil
	case msg.String() == "up":
		l.move(-1)
		return nil
	case msg.String() == "down":
		l.move(1)
		return nil
	}
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	l.setQuery(l.filter.Value())
	return cmd
}

func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case m.overlay.front() != nil:
		return m.overlay.update(msg)
	case m.list.filtering:
		var cmd tea.Cmd
		m.list.filter, cmd = m.list.filter.Update(msg)
		prev := m.selected()
		m.list.setQuery(m.list.filter.Value())
		return tea.Batch(cmd, m.selectionChanged(prev))
	case m.focus == focusPane:
		cmd, _ := m.current().Update(msg)
		return cmd
	}
	return nil
}

// Mouse: the wheel scrolls what is under the pointer; a click selects a
// tool, a tab, or a row of the pane.

func (m *Model) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	ms := msg.Mouse()
	d := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		d = -3
	case tea.MouseWheelDown:
		d = 3
	default:
		return nil
	}
	l := m.layout()
	if ms.X < l.listW {
		prev := m.selected()
		m.list.offset = clamp(m.list.offset+d, 0, max(0, len(m.list.visible)-m.list.rows(l.bodyH-2)))
		m.list.cursor = clamp(m.list.cursor, m.list.offset, m.list.offset+m.list.rows(l.bodyH-2)-1)
		m.list.cursor = clamp(m.list.cursor, 0, len(m.list.visible)-1)
		return m.selectionChanged(prev)
	}
	cmd, _ := m.current().Update(scrollMsg{lines: d})
	return cmd
}

func (m *Model) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	ms := msg.Mouse()
	if ms.Button != tea.MouseLeft {
		return nil
	}
	l := m.layout()
	y := ms.Y - l.bodyY
	switch {
	case y < 0 || y >= l.bodyH:
		return nil
	case ms.X < l.listW:
		m.focus = focusList
		row := y - 1 // the border
		if m.list.filtering || m.list.query != "" {
			row--
		}
		if row < 0 {
			return nil
		}
		i := m.list.offset + row
		if i >= len(m.list.visible) {
			return nil
		}
		prev := m.selected()
		m.list.cursor = i
		return m.selectionChanged(prev)
	case y == 0: // the tab bar
		x := ms.X - l.listW
		for i, r := range l.tabX {
			if x >= r[0] && x < r[1] {
				return m.setTab(i)
			}
		}
		return nil
	default:
		m.focus = focusPane
		cmd, _ := m.current().Update(clickMsg{row: y - 2}) // tab bar and border
		return cmd
	}
}

// passesKeys reports whether the front dialog lets a key pressed at now
// through to what is under it (a viewer that just opened by itself).
func passesKeys(d dialog, now time.Time) bool {
	v, ok := d.(*viewerDialog)
	return ok && !v.takesKeys(now)
}
