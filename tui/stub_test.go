package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/genui-dev/genui/engine/contract"
)

// stubAPI is an contract.API that answers from fixed data and records every
// call, for Update tests. Refine and Regenerate change the HTML so a diff
// shows; fail makes the next call of a method fail.
type stubAPI struct {
	contract.UnimplementedHost
	mu      sync.Mutex
	calls   []string
	state   contract.State
	tools   []contract.ToolInfo
	html    map[string]string
	refined map[string]int
	meta    map[string]contract.UIMeta // a UI's metadata, when a change set it
	fail    map[string]error
	pending []contract.QueuedEvent
	vars    contract.Variables
	events  chan contract.Event
	subs    int
	base    string
}

var stubTools = []string{"alpha", "beta", "gamma", "get_forecast", "zeta"}

func newStub() *stubAPI {
	s := &stubAPI{html: map[string]string{}, refined: map[string]int{}, meta: map[string]contract.UIMeta{}, fail: map[string]error{},
		events: make(chan contract.Event, 64), base: "http://127.0.0.1:50001"}
	s.state = contract.State{Version: "0.2.0", Dir: ".ui", Generator: "offline",
		Upstream: contract.UpstreamState{Transport: "stdio", Target: "stub-server", Connected: true},
		URLs:     contract.URLs{API: s.base, MCP: s.base + "/mcp"}, Refinements: map[string][]contract.Refinement{}}
	for i, n := range stubTools {
		ts := contract.ToolStatus{Name: n, ResourceURI: "ui://" + n, UI: contract.UIStatus{State: contract.UIStateNone}}
		if i == 1 {
			ts.UI = contract.UIStatus{State: contract.UIStateCached, Kind: "offline-rich"}
			s.html[n] = htmlOf(n, 0)
		}
		s.state.Tools = append(s.state.Tools, ts)
		s.tools = append(s.tools, contract.ToolInfo{ToolStatus: ts, Description: n + " does things",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string","description":"where"},` +
				`"days":{"type":"integer"},"units":{"type":"string","enum":["metric","imperial"]},"verbose":{"type":"boolean"},` +
				`"filters":{"type":"object"}},"required":["location"]}`)})
	}
	v, _ := contract.VariablesOf(s.state)
	s.vars = v
	return s
}

func htmlOf(tool string, n int) string {
	return fmt.Sprintf("<!doctype html>\n<html>\n<head><title>%s</title></head>\n<body>\n<h1>%s v%d</h1>\n</body>\n</html>\n", tool, tool, n)
}

func (s *stubAPI) record(format string, args ...any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := fmt.Sprintf(format, args...)
	s.calls = append(s.calls, c)
	name := strings.Fields(c)[0]
	if err := s.fail[name]; err != nil {
		delete(s.fail, name)
		return err
	}
	return nil
}

// called reports the calls whose text starts with prefix.
func (s *stubAPI) called(prefix string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, c := range s.calls {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}

func (s *stubAPI) failNext(method string, err error) {
	s.mu.Lock()
	s.fail[method] = err
	s.mu.Unlock()
}

func (s *stubAPI) tool(name string) *contract.ToolStatus {
	for i := range s.state.Tools {
		if s.state.Tools[i].Name == name {
			return &s.state.Tools[i]
		}
	}
	return nil
}

func (s *stubAPI) State(ctx context.Context) (contract.State, error) {
	if err := s.record("State"); err != nil {
		return contract.State{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state
	st.Tools = append([]contract.ToolStatus{}, s.state.Tools...)
	return st, nil
}

func (s *stubAPI) Variables(ctx context.Context) (contract.Variables, error) {
	return s.vars, s.record("Variables")
}

func (s *stubAPI) Tools(ctx context.Context) ([]contract.ToolInfo, error) {
	return s.tools, s.record("Tools")
}

func (s *stubAPI) UI(ctx context.Context, tool string) (contract.UIView, error) {
	if err := s.record("UI %s", tool); err != nil {
		return contract.UIView{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.html[tool]
	if !ok {
		h = htmlOf(tool, 0)
		s.html[tool] = h
		if t := s.tool(tool); t != nil {
			t.UI = contract.UIStatus{State: contract.UIStateCached, Kind: "offline-rich"}
		}
	}
	meta, found := s.meta[tool]
	if !found {
		meta = contract.UIMeta{UIType: "offline-rich", Provider: "offline"}
	}
	return contract.UIView{Tool: tool, URI: "ui://" + tool, MIMEType: contract.MIMEApp, HTML: h, CacheKey: "key-" + tool,
		FromCache: ok, Meta: meta}, nil
}

func (s *stubAPI) Inspect(ctx context.Context, tool string) (contract.Inspection, error) {
	if err := s.record("Inspect %s", tool); err != nil {
		return contract.Inspection{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in := contract.Inspection{CacheKey: "key-" + tool, History: s.state.Refinements[tool]}
	for _, t := range s.tools {
		if t.Name == tool {
			in.Tool = t
		}
	}
	return in, nil
}

func (s *stubAPI) change(tool, reason, feedback string, clear bool) contract.UIChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.html[tool]
	if clear {
		s.state.Refinements[tool] = nil
	}
	if feedback != "" {
		s.state.Refinements[tool] = append(s.state.Refinements[tool], contract.Refinement{Feedback: feedback, Source: contract.SourceTUI})
	}
	s.refined[tool]++
	s.html[tool] = htmlOf(tool, s.refined[tool])
	n := len(s.state.Refinements[tool])
	if t := s.tool(tool); t != nil {
		t.Refinements, t.UI = n, contract.UIStatus{State: contract.UIStateCached, Kind: "offline-rich"}
	}
	ch := contract.UIChange{Tool: tool, Reason: reason, Feedback: feedback, Refinements: n, RefinementsCleared: clear,
		OldHTML: old, HTML: s.html[tool], CacheKey: fmt.Sprintf("key-%s-%d", tool, s.refined[tool]),
		Meta: contract.UIMeta{UIType: "offline-rich"}, Duration: 3 * time.Millisecond}
	if feedback == "hide the reviewer" { // an offline page with its spec and the refinement's outcome
		o := contract.RefinementOutcome{Refinement: feedback, Status: "not applied", Reason: `no field "reviewer" in the result`}
		ch.Meta.Spec, ch.Meta.Outcomes, ch.Outcome = json.RawMessage(`{"version":1,"principal":"/rows"}`), []contract.RefinementOutcome{o}, &o
		s.meta[tool] = ch.Meta
	}
	return ch
}

func (s *stubAPI) Refine(ctx context.Context, req contract.RefineRequest) (contract.UIChange, error) {
	if req.RequireUnderstood && strings.Contains(req.Feedback, "unicorn") {
		_ = s.record("RefineRefused %s %q", req.Tool, req.Feedback)
		return contract.UIChange{}, contract.Errorf(contract.CodeNotUnderstood,
			"not understood offline: %q (nothing recorded: send it again to record it anyway)", req.Feedback)
	}
	if err := s.record("Refine %s %q %s", req.Tool, req.Feedback, req.Source); err != nil {
		return contract.UIChange{}, err
	}
	return s.change(req.Tool, "refine", req.Feedback, false), nil
}

func (s *stubAPI) DropRefinement(ctx context.Context, req contract.DropRefinementRequest) (contract.UIChange, error) {
	if err := s.record("DropRefinement %s %d %q %s", req.Tool, req.Index, req.Feedback, req.Source); err != nil {
		return contract.UIChange{}, err
	}
	s.mu.Lock()
	hist := s.state.Refinements[req.Tool]
	i := req.Index
	if i == -1 {
		i = len(hist) - 1
	}
	if i < 0 || i >= len(hist) || (req.Feedback != "" && hist[i].Feedback != req.Feedback) {
		s.mu.Unlock()
		return contract.UIChange{}, contract.Errorf(contract.CodeInvalidArgument, "no refinement %d", req.Index)
	}
	fb := hist[i].Feedback
	s.state.Refinements[req.Tool] = append(append([]contract.Refinement{}, hist[:i]...), hist[i+1:]...)
	s.mu.Unlock()
	ch := s.change(req.Tool, "drop", "", false)
	ch.Feedback = fb
	return ch, nil
}

func (s *stubAPI) ReadableUI(ctx context.Context, tool string) (contract.UIView, error) {
	v, err := s.UI(ctx, tool)
	if err == nil && tool == "beta" {
		v.Packed = true // as an offline page: served packed, shown unpacked
	}
	return v, err
}

func (s *stubAPI) Regenerate(ctx context.Context, req contract.RegenerateRequest) (contract.UIChange, error) {
	if err := s.record("Regenerate %s clear=%v %s", req.Tool, req.ClearRefinements, req.Source); err != nil {
		return contract.UIChange{}, err
	}
	return s.change(req.Tool, "regenerate", "", req.ClearRefinements), nil
}

func (s *stubAPI) CallTool(ctx context.Context, req contract.CallRequest) (contract.CallResult, error) {
	if err := s.record("CallTool %s %s %s", req.Name, req.Arguments, req.Source); err != nil {
		return contract.CallResult{}, err
	}
	res := fmt.Sprintf(`{"content":[{"type":"text","text":"called %s"}],"structuredContent":{"echo":%s}}`, req.Name, req.Arguments)
	return contract.CallResult{Result: json.RawMessage(res), Duration: 2 * time.Millisecond}, nil
}

func (s *stubAPI) RefreshTools(ctx context.Context) (contract.ToolDiff, error) {
	return contract.ToolDiff{Unchanged: stubTools}, s.record("RefreshTools")
}

func (s *stubAPI) Preview(ctx context.Context, tool string) (contract.PreviewInfo, error) {
	return contract.PreviewInfo{Tool: tool, URL: s.base + "/preview/" + tool}, s.record("Preview %s", tool)
}

func (s *stubAPI) PendingEvents(ctx context.Context) ([]contract.QueuedEvent, error) {
	return s.pending, s.record("PendingEvents")
}

// The call history: the stub keeps none (the History pane is tested over
// a real engine, historypane_test.go).
func (s *stubAPI) History(ctx context.Context, q contract.HistoryQuery) (contract.HistoryPage, error) {
	return contract.HistoryPage{Entries: []contract.HistoryEntry{}}, s.record("History")
}

func (s *stubAPI) HistoryEntry(ctx context.Context, id int64) (contract.HistoryEntry, error) {
	_ = s.record("HistoryEntry %d", id)
	return contract.HistoryEntry{}, contract.Errorf(contract.CodeNotFound, "no recorded call %d", id)
}

func (s *stubAPI) RerunCall(ctx context.Context, req contract.RerunRequest) (contract.Rerun, error) {
	_ = s.record("RerunCall %d", req.ID)
	return contract.Rerun{}, contract.Errorf(contract.CodeNotFound, "no recorded call %d", req.ID)
}

func (s *stubAPI) CompareCalls(ctx context.Context, req contract.CompareRequest) (contract.ResultDiff, error) {
	_ = s.record("CompareCalls %d %d", req.A, req.B)
	return contract.ResultDiff{}, contract.Errorf(contract.CodeNotFound, "no recorded call %d", req.A)
}

func (s *stubAPI) Checks(ctx context.Context) ([]contract.Check, error) {
	return []contract.Check{}, s.record("Checks")
}

func (s *stubAPI) AddCheck(ctx context.Context, req contract.AddCheckRequest) (contract.Check, error) {
	_ = s.record("AddCheck %s", req.Name)
	return contract.Check{}, contract.Errorf(contract.CodeNotFound, "no recorded call %d", req.HistoryID)
}

func (s *stubAPI) RunChecks(ctx context.Context, req contract.RunChecksRequest) (contract.CheckReport, error) {
	return contract.CheckReport{}, s.record("RunChecks")
}

func (s *stubAPI) Subscribe(ctx context.Context) (<-chan contract.Event, error) {
	if err := s.record("Subscribe"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs++
	return s.events, nil
}

// driver runs a Model inside a synctest bubble: every command runs in its
// own goroutine, and after each message the driver waits until all of them
// are blocked or done, then feeds their messages back into Update. Timers
// never fire (the bubble's clock stands still while the test runs), so a
// test sees exactly what its keys caused.
type driver struct {
	t     *testing.T
	m     *Model
	stub  *stubAPI
	out   chan tea.Msg
	quit  bool
	extra []tea.Msg // messages the test wants to see (clipboard, quit)
	ticks []time.Duration
}

func newDriver(t *testing.T, stub *stubAPI, tweak func(*Options)) *driver {
	return newDriverWith(t, stub, tweak, paneTable)
}

// newDriverWith is newDriver with the panes of specs.
func newDriverWith(t *testing.T, stub *stubAPI, tweak func(*Options), specs []paneSpec) *driver {
	d := &driver{t: t, stub: stub, out: make(chan tea.Msg, 4096)}
	// NoColor: syntax highlighting (chroma, through regexp2) starts a clock
	// goroutine that would outlive the bubble; highlighting is tested on
	// its own and in the teatest flows.
	opts := Options{API: stub, Mode: InProcess, Base: stub.base, Static: true, Dark: boolPtr(true), NoColor: true,
		Now:     func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		OpenURL: func(u string) error { return stub.record("OpenURL %s", u) },
		Copy: func(s string) tea.Cmd {
			_ = stub.record("Copy %s", s)
			return nil
		},
	}
	if tweak != nil {
		tweak(&opts)
	}
	d.m = newModel(opts, specs)
	d.m.tick = func(dur time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		d.ticks = append(d.ticks, dur)
		return nil
	}
	d.run(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	return d
}

func boolPtr(b bool) *bool { return &b }

// send delivers msg and everything it causes.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

func (d *driver) run(cmd tea.Cmd) {
	pending := []tea.Cmd{cmd}
	for round := 0; len(pending) > 0; round++ {
		if round > 100 {
			d.t.Fatal("commands keep causing commands after 100 rounds")
		}
		for _, c := range pending {
			if c == nil {
				continue
			}
			go func() {
				select {
				case d.out <- c():
				default:
				}
			}()
		}
		pending = nil
		synctest.Wait()
	drain:
		for {
			select {
			case msg := <-d.out:
				switch msg := msg.(type) {
				case nil:
				case tea.BatchMsg:
					pending = append(pending, msg...)
				case tea.QuitMsg:
					d.quit = true
				default:
					_, c := d.m.Update(msg)
					pending = append(pending, c)
					if fmt.Sprintf("%T", msg) == "tea.setClipboardMsg" {
						d.extra = append(d.extra, msg)
					}
				}
			default:
				break drain
			}
		}
	}
}

// key sends one key press, as the terminal would report it.
func (d *driver) key(k string) {
	d.t.Helper()
	d.send(keyPress(k))
}

// typeText sends each rune as a key press.
func (d *driver) typeText(s string) {
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyPress(k string) tea.KeyPressMsg { return keyMsgOf(k) }

// screen is the current view as plain text.
func (d *driver) screen() string { return stripANSI(d.m.View().Content) }

// finish ends the bubble's goroutines: the subscription closes.
func (d *driver) finish() {
	d.quit = true
	d.m.quitting = true
	close(d.stub.events)
	synctest.Wait()
}

// inBubble runs f with a fresh stub and driver inside a synctest bubble.
func inBubble(t *testing.T, tweak func(*Options), f func(t *testing.T, d *driver)) {
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, newStub(), tweak)
		defer d.finish()
		f(t, d)
	})
}

// The driver's view of the components.

func (d *driver) detailPane() *detailPane { return d.m.pane(paneDetail).(*detailPane) }
func (d *driver) callPane() *callPane     { return d.m.pane(paneCall).(*callPane) }
func (d *driver) eventsPane() *eventsPane { return d.m.pane(paneEvents).(*eventsPane) }

func (d *driver) refineBox() *refineDialog {
	r, _ := find[*refineDialog](&d.m.overlay)
	return r
}

func (d *driver) confirmBox() *confirmDialog {
	c, _ := find[*confirmDialog](&d.m.overlay)
	return c
}

func (d *driver) helpOpen() bool {
	_, ok := find[*helpDialog](&d.m.overlay)
	return ok
}
