package tui

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/pkg/browser"
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
	// API is the engine: *engine.Engine in-process, an apiclient.Client
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
	// OpenURL opens the browser (default github.com/pkg/browser); Copy puts
	// text on the clipboard (default OSC 52 through the terminal). Tests
	// inject both.
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

// Panes of the right side, in tab order.
const (
	tabDetail = iota
	tabUI
	tabCall
	tabEvents
	tabVars
	tabTraffic
	tabLog
	numTabs
)

var tabNames = [numTabs]string{"Detail", "UI", "Call", "Events", "Variables", "Traffic", "Log"}

// focus is where up/down go.
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

// Model is the workbench: the one tea.Model. Children (tool list, panes,
// forms) are plain structs it owns and draws.
type Model struct {
	opts   Options
	ctx    context.Context
	api    contract.API
	mode   Mode
	base   string
	keys   KeyMap
	styles Styles
	help   help.Model
	now    func() time.Time

	width, height int
	darkKnown     bool

	// Engine data.
	state     contract.State
	haveState bool
	infos     map[string]contract.ToolInfo
	inspect   map[string]contract.Inspection
	docs      map[string]*uiDoc
	changes   map[string]*changeView
	showDiff  map[string]bool
	results   map[string]*callResult
	forms     map[string]*callForm
	vars      *varTree
	events    *ring[eventRow]
	traffic   *ring[trafficRow]
	logs      *ring[logRow]
	seenQueue map[int64]int // queue seq -> index hint (dedupe PendingEvents vs EventQueued)
	lastTaken int64         // highest queue seq an agent took

	// Subscription and connection.
	subGen     int
	subCancel  context.CancelFunc
	currentCh  <-chan contract.Event
	lost       bool // attached and the server is gone
	lostErr    string
	retry      int
	retryAt    time.Time
	other      string // another genui now serving DIR (in-process only)
	attaching  bool
	statePend  bool // a State fetch is in flight
	stateAgain bool // fetch again when it returns

	// View state.
	list       toolList
	tab        int
	focus      focus
	panes      [numTabs]scroller
	evOpen     bool // Events: the selected event is expanded
	trOpen     bool // Traffic: the selected message is expanded
	showHelp   bool
	refine     *refineBox
	confirm    *confirmBox
	formActive bool
	busy       map[string]string // tool -> what runs ("refining", ...)
	// tick schedules a message after d (tea.Tick; tests replace it).
	tick      func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	busyAll   int // tool-less work running (refresh, preview)
	spin      int
	spinning  bool
	status    string
	statusErr bool
	quitting  bool
}

// scroller is one pane's position: a cursor (for panes with rows) and the
// first visible line; follow keeps the newest row in view.
type scroller struct {
	cursor, offset int
	follow         bool
}

// callResult is the last call of a tool through the Call tab.
type callResult struct {
	args    string
	res     contract.CallResult
	err     string
	lines   []string
	running bool
}

// refineBox is the feedback text area (r).
type refineBox struct {
	tool    string
	area    textarea.Model
	history []string // earlier feedback, oldest first
	pos     int      // len(history) = the draft
	draft   string
}

// confirmBox asks before something destructive (ctrl+r).
type confirmBox struct {
	tool   string
	prompt string
}

var spinFrames = spinner.MiniDot.Frames

// New builds the workbench model.
func New(opts Options) *Model {
	if opts.OpenURL == nil {
		opts.OpenURL = browser.OpenURL
	}
	if opts.Copy == nil {
		opts.Copy = func(s string) tea.Cmd { return tea.SetClipboard(s) }
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
	m := &Model{
		opts: opts, ctx: opts.Context, api: opts.API, mode: opts.Mode, base: opts.Base,
		keys: DefaultKeyMap(), styles: NewStyles(dark, opts.NoColor), help: help.New(), now: opts.Now,
		darkKnown: opts.Dark != nil,
		infos:     map[string]contract.ToolInfo{}, inspect: map[string]contract.Inspection{},
		docs: map[string]*uiDoc{}, changes: map[string]*changeView{}, showDiff: map[string]bool{},
		results: map[string]*callResult{}, forms: map[string]*callForm{},
		vars:   newVarTree(),
		events: newRing[eventRow](maxEvents), traffic: newRing[trafficRow](maxTraffic), logs: newRing[logRow](maxLogs),
		seenQueue: map[int64]int{},
		busy:      map[string]string{},
		width:     80, height: 24,
		tick: tea.Tick,
	}
	m.list = newToolList()
	for i := range m.panes {
		m.panes[i].follow = i == tabEvents || i == tabTraffic || i == tabLog
	}
	m.applyStyles()
	return m
}

// NoColorFromEnv reports whether NO_COLOR asks for no colors.
func NoColorFromEnv() bool { return os.Getenv("NO_COLOR") != "" }

// Init starts the subscription, the first fetches and the poll.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.subscribe(), m.fetchState(), m.fetchTools(), m.fetchPending(), m.pollTick()}
	if !m.darkKnown {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// Update is the one place the model changes: one switch, one handler per
// message.
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
	case callMsg:
		return m, m.handleCall(msg)
	case refreshMsg:
		return m, m.handleRefresh(msg)
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
	}
	return m, nil
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "genui tui"
	return v
}

// selected is the selected tool's name ("" when none).
func (m *Model) selected() string { return m.list.selectedName() }

// setStatus puts a message on the status line; errors also go to the Log
// tab.
func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = clean(s), isErr
	if isErr {
		m.logs.Push(logRow{time: m.now(), level: "ERROR", component: "tui", msg: clean(s)})
	}
}

// isBusy reports whether anything runs that a spinner should show.
func (m *Model) isBusy() bool {
	if len(m.busy) > 0 || m.busyAll > 0 || m.attaching {
		return true
	}
	for _, t := range m.list.tools {
		if t.UI.Generating || t.UI.State == contract.UIStateGenerating {
			return true
		}
	}
	return false
}
