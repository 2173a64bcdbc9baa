package tui

import (
	"context"
	"encoding/json"
	"os/exec"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// shared is what every component reads and the one place engine data is
// kept: the options, the engine, the styles, the clock, the state and each
// tool's data, the event, traffic and log buffers, and the status line. The
// root model embeds it and changes it in Update; panes and dialogs hold a
// pointer to read it and to build engine commands (commands.go) from it.
type shared struct {
	opts   Options
	ctx    context.Context
	api    contract.API
	mode   Mode
	base   string
	keys   KeyMap
	styles Styles
	now    func() time.Time
	// tick schedules a message after d (tea.Tick; tests replace it).
	tick func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	// execProcess runs a program on the terminal ($EDITOR;
	// tea.ExecProcess; tests replace it).
	execProcess func(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd

	// Engine data.
	state     contract.State
	haveState bool
	tools     map[string]*toolState
	list      toolList // the left column: the tools and the selection
	vars      *varTree
	events    *ring[eventRow]
	traffic   *ring[trafficRow]
	// trafficSync follows genui's traffic numbers (trafficsync.go).
	trafficSync trafficSync
	logs        *ring[logRow]
	seenQueue   map[int64]int   // queue seq -> index hint (dedupe PendingEvents vs EventQueued)
	queuedIDs   map[string]bool // seq|time|source|type|tool|payload of queued events shown (dedupe across re-attaches)
	// eventsReordered counts rows moved before newer ones (a search over
	// the events starts over).
	eventsReordered int
	lastTaken       int64 // highest queue seq an agent took
	// calls maps the call ids of the Call pane's calls to their tools
	// (their progress events name the call, not the tool).
	calls map[string]string
	// requests are the upstream's requests awaiting an answer that this
	// TUI may answer, oldest first (requests.go).
	requests []*contract.PendingRequest

	// Subscription generation: results of an older one are ignored.
	subGen     int
	statePend  bool // a State fetch is in flight
	stateAgain bool // fetch again when it returns

	busyAll   int // tool-less work running (refresh, preview)
	spin      int
	spinning  bool
	status    string
	statusErr bool
}

// toolState is everything the workbench holds about one tool: what the
// engine said about it and what the panes made of it.
type toolState struct {
	info       contract.ToolInfo // from Tools (schemas)
	hasInfo    bool
	inspect    contract.Inspection // from Inspect (cache, history)
	hasInspect bool
	doc        *uiDoc      // the UI as the UI pane shows it
	change     *changeView // the last refine or regenerate
	showDiff   bool        // the UI pane shows the change, not the HTML
	result     *callResult // the last call through the Call pane
	form       *callForm   // the Call pane's form
	busy       string      // what runs for it ("refining", ...)
}

// tool returns name's data, creating it.
func (s *shared) tool(name string) *toolState {
	t := s.tools[name]
	if t == nil {
		t = &toolState{}
		s.tools[name] = t
	}
	return t
}

// peek returns name's data, or nil.
func (s *shared) peek(name string) *toolState { return s.tools[name] }

// busy is what runs for tool ("" for nothing).
func (s *shared) busy(tool string) string {
	if t := s.tools[tool]; t != nil {
		return t.busy
	}
	return ""
}

func (s *shared) setBusy(tool, what string) { s.tool(tool).busy = what }

// anyBusy reports whether any tool has work running.
func (s *shared) anyBusy() bool {
	for _, t := range s.tools {
		if t.busy != "" {
			return true
		}
	}
	return false
}

// forgetUIs drops what a previous engine said about each tool's UI (after
// reconnecting to a restarted genui); alsoChanges drops the last changes
// and call results too (after attaching to another genui).
func (s *shared) forgetUIs(alsoChanges bool) {
	for _, t := range s.tools {
		t.doc, t.inspect, t.hasInspect = nil, contract.Inspection{}, false
		if alsoChanges {
			t.change, t.showDiff, t.result = nil, false, nil
		}
	}
}

// selected is the selected tool's name ("" when none).
func (s *shared) selected() string { return s.list.selectedName() }

// serverDeclares reports whether the upstream's initialize declared the
// capability name (true while its capabilities are not known: ask).
func (s *shared) serverDeclares(name string) bool {
	var caps map[string]json.RawMessage
	if json.Unmarshal(s.state.Upstream.ServerCapabilities, &caps) != nil {
		return true
	}
	v, ok := caps[name]
	return ok && string(v) != "null"
}

// setStatus puts a message on the status line and in the Log pane (where
// it can be read whole when the status line cuts it; errors as ERROR).
func (s *shared) setStatus(msg string, isErr bool) {
	s.status, s.statusErr = clean(msg), isErr
	level := "INFO"
	if isErr {
		level = "ERROR"
	}
	s.logs.Push(logRow{time: s.now(), level: level, component: "tui", msg: clean(msg)})
}

// isBusy reports whether anything runs that a spinner should show.
func (s *shared) isBusy() bool {
	if s.anyBusy() || s.busyAll > 0 {
		return true
	}
	for _, t := range s.list.tools {
		if t.UI.Generating || t.UI.State == contract.UIStateGenerating {
			return true
		}
	}
	return false
}

// spinner is the spinner's current frame.
func (s *shared) spinner() string {
	if s.opts.Static {
		return spinFrames[0]
	}
	return spinFrames[s.spin%len(spinFrames)]
}

func (s *shared) spinTick() tea.Cmd {
	if s.opts.Static || s.spinning {
		return nil
	}
	s.spinning = true
	return s.tick(100*time.Millisecond, func(time.Time) tea.Msg { return spinMsg{} })
}

func (s *shared) pollTick() tea.Cmd {
	return s.tick(s.opts.PollInterval, func(time.Time) tea.Msg { return pollMsg{} })
}
