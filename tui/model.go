package tui

import (
	"context"
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/pkg/browser"

	"github.com/genui-dev/genui/engine/contract"
)

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
	case signInMsg:
		return m, m.handleSignIn(msg)
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
	case showTabMsg:
		return m, m.show(msg.id)
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
