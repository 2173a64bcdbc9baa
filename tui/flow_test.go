package tui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/genui-dev/genui/engine/apitest"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/internal/testenv"
)

// The teatest flows run the whole program (tea.Program, renderer, a
// terminal emulator reading its output) over a real engine serving the
// built-in demo, and compare screens with golden files at 80x24 and 120x40
// (go test ./tui/ -run TestFlow -update rewrites them). The engine is real;
// only what changes from run to run is pinned, by goldenAPI: clock times,
// durations and the side server's random port. The cache keys shown are
// real: they hold the digest of the offline pages' rich views (engine's
// templateVersion), so a change to viewdefs' rich.js or textlines.js moves
// them, and these files are rewritten with it.

func TestMain(m *testing.M) {
	time.Local = time.UTC // the Detail pane shows local times
	os.Exit(m.Run())
}

var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

const fixedBase = "http://127.0.0.1:40000"

// goldenAPI passes every call to a real engine and pins times, durations
// and URLs in what comes back, so screens are the same on every run.
type goldenAPI struct {
	contract.API
	base string // the real side server's URL, replaced by fixedBase
}

func (g goldenAPI) url(s string) string { return strings.ReplaceAll(s, g.base, fixedBase) }

func pinMeta(m *contract.UIMeta) {
	m.GeneratedAt, m.Duration = fixedTime, 5*time.Millisecond
}

func (g goldenAPI) State(ctx context.Context) (contract.State, error) {
	st, err := g.API.State(ctx)
	u := &st.URLs
	u.API, u.UI, u.MCP, u.SSE, u.Wait, u.State = g.url(u.API), g.url(u.UI), g.url(u.MCP), g.url(u.SSE), g.url(u.Wait), g.url(u.State)
	st.Upstream.Since = fixedTime
	for i := range st.Tools {
		if !st.Tools[i].UI.GeneratedAt.IsZero() {
			st.Tools[i].UI.GeneratedAt = fixedTime
		}
	}
	for _, h := range st.Refinements {
		for i := range h {
			h[i].Time = fixedTime
		}
	}
	return st, err
}

func (g goldenAPI) UI(ctx context.Context, tool string) (contract.UIView, error) {
	v, err := g.API.UI(ctx, tool)
	pinMeta(&v.Meta)
	return v, err
}

func (g goldenAPI) Inspect(ctx context.Context, tool string) (contract.Inspection, error) {
	in, err := g.API.Inspect(ctx, tool)
	if in.Meta != nil {
		pinMeta(in.Meta)
	}
	for i := range in.History {
		in.History[i].Time = fixedTime
	}
	return in, err
}

func (g goldenAPI) pinChange(ch contract.UIChange, err error) (contract.UIChange, error) {
	ch.Duration = 5 * time.Millisecond
	pinMeta(&ch.Meta)
	return ch, err
}

func (g goldenAPI) Refine(ctx context.Context, req contract.RefineRequest) (contract.UIChange, error) {
	return g.pinChange(g.API.Refine(ctx, req))
}

func (g goldenAPI) Regenerate(ctx context.Context, req contract.RegenerateRequest) (contract.UIChange, error) {
	return g.pinChange(g.API.Regenerate(ctx, req))
}

func (g goldenAPI) CallTool(ctx context.Context, req contract.CallRequest) (contract.CallResult, error) {
	r, err := g.API.CallTool(ctx, req)
	r.Duration = 2 * time.Millisecond
	return r, err
}

func (g goldenAPI) Preview(ctx context.Context, tool string) (contract.PreviewInfo, error) {
	p, err := g.API.Preview(ctx, tool)
	p.URL = g.url(p.URL)
	return p, err
}

func (g goldenAPI) PendingEvents(ctx context.Context) ([]contract.QueuedEvent, error) {
	evs, err := g.API.PendingEvents(ctx)
	for i := range evs {
		evs[i].Time = fixedTime
	}
	return evs, err
}

func (g goldenAPI) Subscribe(ctx context.Context) (<-chan contract.Event, error) {
	in, err := g.API.Subscribe(ctx)
	if err != nil {
		return nil, err
	}
	out := make(chan contract.Event)
	go func() {
		defer close(out)
		for ev := range in {
			ev.Time = fixedTime
			switch d := ev.Detail.(type) {
			case *contract.GenerationFinished:
				c := *d
				c.Duration = 5 * time.Millisecond
				ev.Detail = &c
			case *contract.Queued:
				c := *d
				c.Event.Time = fixedTime
				ev.Detail = &c
			case *contract.CallFinished:
				c := *d
				c.Duration = 2 * time.Millisecond
				ev.Detail = &c
			case *contract.Traffic, *contract.LogRecord, *contract.GenerationProgress:
				continue // no host here; log lines carry timings
			}
			select {
			case out <- ev:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// term is a terminal emulator fed with the program's output.
type term struct {
	mu  sync.Mutex
	emu *vt.Emulator
	out io.Reader
}

func newTerm(w, h int, out io.Reader) *term {
	emu := vt.NewEmulator(w, h)
	go func() { _, _ = io.Copy(io.Discard, emu) }() // the emulator's answers to queries
	return &term{emu: emu, out: out}
}

// screen is what the terminal shows now, as text.
func (t *term) screen() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, _ := io.ReadAll(t.out)
	if len(b) > 0 {
		// A tty turns LF into CR LF (onlcr); the renderer relies on it.
		_, _ = t.emu.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
	}
	lines := strings.Split(t.emu.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// waitFor waits (bounded) until cond holds for the screen and the screen
// stays the same for a moment (everything the last key caused arrived).
func (t *term) waitFor(tb testing.TB, what string, cond func(string) bool) string {
	tb.Helper()
	last, stableSince := "", time.Time{}
	settled := func() bool {
		s := t.screen()
		defer func() { last = s }()
		switch {
		case !cond(s):
			stableSince = time.Time{}
		case s != last || stableSince.IsZero():
			stableSince = time.Now()
		case time.Since(stableSince) > 300*time.Millisecond:
			return true
		}
		return false
	}
	if !testenv.Until(20*time.Second, settled) {
		tb.Fatalf("waiting for %s: the screen is\n%s", what, last)
	}
	return last
}

func has(subs ...string) func(string) bool {
	return func(s string) bool {
		for _, x := range subs {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	}
}

func TestFlow(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) { flow(t, sz[0], sz[1]) })
	}
}

// flow: start on the demo, filter to a tool, generate and refine it (badge,
// count and the UI tab change, the diff is shown), regenerate, call it
// through the form and see the result, and see an event pushed to the
// /wait queue in Events, still pending for agents.
func flow(t *testing.T, w, h int) {
	hs := apitest.Start(t, apitest.WithRoots(contract.Root{URI: "file:///work/project", Name: "project"}))
	api := goldenAPI{API: hs.E, base: hs.APIURL}
	opened := make(chan string, 4)
	// NoColor: the golden screens are text, and highlighting (tested on
	// its own) would only slow the flow down, a lot under -race.
	m := New(Options{API: api, Mode: InProcess, Base: fixedBase, Static: true, Dark: boolPtr(true), NoColor: true,
		Now: func() time.Time { return fixedTime }, PollInterval: time.Hour,
		OpenURL: func(u string) error { opened <- u; return nil },
		Copy:    func(string) tea.Cmd { return nil }})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	term := newTerm(w, h, tm.Output())
	snap := func(name string, s string) {
		t.Helper()
		t.Run(name, func(t *testing.T) { golden.RequireEqual(t, s) })
	}
	keys := func(ks ...string) {
		for _, k := range ks {
			tm.Send(keyPress(k))
		}
	}

	// Everything the golden holds, the first tool's inspection (cache key)
	// and the queued event included: under load they arrive apart.
	s := term.waitFor(t, "the demo's tools", has("Tools 8/8", "get_forecast", "run_battery", "genui-demo", "cache key", "1 queued"))
	snap("1_start", s)

	keys("/")
	tm.Type("forecast")
	keys("enter")
	s = term.waitFor(t, "the filter", has("Tools 1/8", "/ forecast", "› get_forecast"))
	snap("2_filtered", s)

	keys("g")
	term.waitFor(t, "the generated UI", has("UI of get_forecast", "● rich"))
	keys("r")
	tm.Type("dark theme, call it Forecast Board")
	keys("enter")
	s = term.waitFor(t, "the refinement's diff", has("what changed", "Refinement 1", "✎1", "✓ applied", `+<html lang="en" data-theme="dark">`))
	snap("3_refined", s)

	keys("R")
	s = term.waitFor(t, "the regeneration", has("get_forecast regenerated", "Regenerated"))
	snap("4_regenerated", s)

	keys("c")
	tm.Type("Lisbon")
	keys("enter")
	s = term.waitFor(t, "the call's result", has("Result", "called get_forecast", "Lisbon", "5 queued"))
	snap("5_called", s)

	hs.E.Push(contract.SourcePreview, "ui/message", "get_forecast", map[string]any{"text": "hello from the preview"})
	keys("esc")
	keys("4")
	s = term.waitFor(t, "the queued event", has("Events", "⧗ ui/message", "from preview"))
	snap("6_events", s)

	// The TUI looked; the agent still gets it.
	code, body := hs.Wait(t, "1")
	if code != 200 || !strings.Contains(string(body), "hello from the preview") {
		t.Fatalf("/wait after the TUI showed the event: %d %s", code, body)
	}
	keys("9")
	s = term.waitFor(t, "the Resources pane", has("Resources", "Roots", "file:///golden/work", "Resource templates"))
	snap("7_resources", s)

	keys("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// Roots pins the roots genui answers roots/list with.
func (g goldenAPI) Roots(ctx context.Context) ([]contract.Root, error) {
	rs, err := g.API.Roots(ctx)
	for i := range rs {
		rs[i] = contract.Root{URI: "file:///golden/work", Name: "work"}
	}
	return rs, err
}
