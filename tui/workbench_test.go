package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/pagepack"
)

// Issue 19's daily-use behaviour, key by key against the stub engine:
// search, the palette, the help, ctrl+c and esc, the hint line, the
// Events and Variables panes, opening a cut row whole.

// logEvent is an engine log line at second s.
func logEvent(s int, level, msg string, attrs map[string]any) contract.Event {
	return contract.Event{Time: fixedTime.Add(time.Duration(s) * time.Second), Kind: contract.EventLog,
		Detail: &contract.LogRecord{Level: level, Message: msg, Component: "upstream", Attrs: attrs}}
}

func trafficEvent(s int, dir, kind, method, id, frame string) contract.Event {
	return contract.Event{Time: fixedTime.Add(time.Duration(s) * time.Second), Kind: contract.EventTraffic,
		Detail: &contract.Traffic{Direction: dir, Kind: kind, Method: method, ID: json.RawMessage(id), Size: len(frame), Frame: json.RawMessage(frame)}}
}

func TestSearchFindsATermInLogAndTraffic(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		var evs []contract.Event
		for i := range 40 {
			evs = append(evs, logEvent(i, "INFO", fmt.Sprintf("line %d", i), nil))
		}
		evs[5] = logEvent(5, "WARN", "upstream stderr", map[string]any{"line": "Failed to request initial roots from the client"})
		evs[30] = logEvent(30, "ERROR", "upstream stderr", map[string]any{"line": "initial ROOTS missing again"})
		evs = append(evs, trafficEvent(50, contract.GenuiToUpstream, "request", "tools/call", "7", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"needle in traffic"}}}`),
			trafficEvent(51, contract.UpstreamToGenui, "response", "tools/call", "7", `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`))
		d.send(eventsMsg{gen: d.m.subGen, evs: evs})

		d.key("7")
		d.key("l")
		d.key("/")
		if !d.m.current().(capturer).capturing() {
			t.Fatal("/ in the focused Log pane did not open its search (it filters the tools instead?)")
		}
		if d.m.list.filtering {
			t.Fatal("/ with a pane focused filtered the tool list")
		}
		d.typeText("initial roots")
		s := d.screen()
		mustContain(t, s, "/ initial roots", "2 match(es)")
		d.key("enter") // keep it: the first match from the cursor on (the newest row: wraps to the first)
		lp := d.m.pane(paneLog).(*logPane)
		first := lp.rows.cursor
		if got := d.m.logs.At(first).attrs(); !strings.Contains(got, "Failed to request initial roots") {
			t.Fatalf("enter: the cursor is on %q", got)
		}
		mustContain(t, d.screen(), "1/2", "n next")
		d.key("n")
		if got := d.m.logs.At(lp.rows.cursor).attrs(); !strings.Contains(got, "ROOTS missing") {
			t.Fatalf("n: the cursor is on %q", got)
		}
		mustContain(t, d.screen(), "2/2")
		d.key("N")
		if lp.rows.cursor != first {
			t.Fatalf("N went to row %d, want %d", lp.rows.cursor, first)
		}
		// esc clears the search, then backs out of the pane.
		d.key("esc")
		mustNotContain(t, d.screen(), "/ initial roots")
		d.key("esc")
		if d.m.focus != focusList {
			t.Fatal("esc after the search did not focus the tool list")
		}

		// Traffic: the term is inside a frame's params, not in the row.
		d.key("6")
		d.key("l")
		d.key("/")
		d.typeText("needle")
		d.key("enter")
		tp := d.m.pane(paneTraffic).(*trafficPane)
		if r := d.m.traffic.At(tp.rows.cursor); r.kind != "request" {
			t.Fatalf("search in Traffic selected a %s", r.kind)
		}
		mustContain(t, d.screen(), "/ needle", "1/1")
	})
}

func TestLogLevelFilterWrapAndOpen(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		long := "Failed to request initial roots from the client: " + strings.Repeat("the rest of a long stderr line ", 8) + "END"
		d.send(eventsMsg{gen: d.m.subGen, evs: []contract.Event{
			logEvent(1, "INFO", "started", nil), logEvent(2, "WARN", "upstream stderr", map[string]any{"line": long}),
			logEvent(3, "DEBUG", "noise", nil), logEvent(4, "ERROR", "broken", nil),
		}})
		d.key("7")
		d.key("l")
		mustContain(t, d.screen(), "Log 4 ·", "started", "noise")
		mustNotContain(t, d.screen(), "END")
		d.key("f") // INFO and above
		d.key("f") // WARN and above
		s := d.screen()
		mustContain(t, s, "Log 2 of 4 · WARN and above", "broken", "Failed to reque")
		mustNotContain(t, s, "started", "noise")
		d.key("w")
		mustContain(t, d.screen(), "· wrapped", "END")
		d.key("w")
		// enter opens the selected line (the newest: broken); up, enter
		// on the long line, enter again shows it whole in the viewer.
		d.key("up")
		d.key("enter")
		d.key("enter")
		s = d.screen()
		mustContain(t, s, "Log · ", "esc closes · y copies", "line=", "END")
		d.key("y")
		if c := d.stub.called("Copy"); len(c) != 1 || !strings.Contains(c[0], "END") || !strings.Contains(c[0], "WARN upstream") {
			t.Fatalf("y in the viewer copied %q", c)
		}
		d.key("esc")
		if _, open := find[*viewerDialog](&d.m.overlay); open {
			t.Fatal("esc did not close the viewer")
		}
	})
}

func TestSearchInTextPanes(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("j") // beta: a cached UI, packed as offline pages are
		d.key("2")
		mustContain(t, d.screen(), "Shown unpacked, to read. Served packed")
		if len(d.stub.called("UI beta")) != 1 {
			t.Fatalf("the UI pane did not read beta's UI: %v", d.stub.calls)
		}
		d.key("l")
		d.key("/")
		d.typeText("<h1>")
		d.key("enter")
		mustContain(t, d.screen(), "/ <h1>", "1/1", "<h1>beta v0</h1>")
		// Sideways: > shifts the lines, < back.
		d.key("esc")
		d.key(">")
		mustContain(t, d.screen(), "from column 9")
		d.key("<")
		mustNotContain(t, d.screen(), "from column")
	})
}

func TestPaletteRunsAnAction(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key(":")
		s := d.screen()
		mustContain(t, s, "Actions", "generate UI", "regenerate, clear refinements")
		d.typeText("traffic")
		mustContain(t, d.screen(), "show Traffic")
		for range len("traffic") {
			d.key("backspace")
		}
		d.typeText("regen clear")
		s = d.screen()
		mustContain(t, s, "Actions 1/", "ctrl+r")
		mustNotContain(t, s, "export UI")
		d.key("enter")
		// The action ran as if its key were pressed: ctrl+r asks first.
		mustContain(t, d.screen(), "Regenerate alpha and clear its 0 refinement(s)? y/n")
		d.key("y")
		if c := d.stub.called("Regenerate"); len(c) != 1 || c[0] != "Regenerate alpha clear=true tui" {
			t.Fatalf("the palette's action: %v", c)
		}
		// ctrl+p opens it too; a pane's keys are in it with the pane's name.
		d.key("7")
		d.key("ctrl+p")
		d.typeText("level")
		mustContain(t, d.screen(), "Log: level filter")
		d.key("esc")
		if d.m.overlay.front() != nil {
			t.Fatal("esc did not close the palette")
		}
	})
}

func TestCtrlCBacksOutOfInputsAndQuitsFromTheTop(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		// From the call form: leaves the form, does not quit.
		d.key("c")
		d.typeText("Par")
		d.key("ctrl+c")
		if d.quit || d.callPane().active {
			t.Fatalf("ctrl+c in the form: quit %v, form active %v", d.quit, d.callPane().active)
		}
		// From the filter, the refine box, the palette, a pane's search.
		d.key("h")
		d.key("/")
		d.typeText("ga")
		d.key("ctrl+c")
		if d.quit || d.m.list.filtering {
			t.Fatal("ctrl+c in the filter")
		}
		for _, open := range []string{"r", ":"} {
			d.key(open)
			d.key("ctrl+c")
			if d.quit || d.m.overlay.front() != nil {
				t.Fatalf("ctrl+c after %s: quit %v, dialog %T", open, d.quit, d.m.overlay.front())
			}
		}
		d.key("7")
		d.key("l")
		d.key("/")
		d.key("ctrl+c")
		if d.quit || d.m.current().(capturer).capturing() {
			t.Fatal("ctrl+c in a search")
		}
		// A call is running: it asks; n stays.
		d.m.setBusy("alpha", "calling")
		d.key("ctrl+c")
		mustContain(t, d.screen(), "A call of alpha is still running: quit anyway")
		d.key("n")
		if d.quit {
			t.Fatal("n quit")
		}
		d.m.setBusy("alpha", "")
		d.key("ctrl+c")
		if !d.quit {
			t.Fatal("ctrl+c from the top did not quit")
		}
	})
}

func TestEscBacksOutOneLevel(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.send(eventsMsg{gen: d.m.subGen, evs: []contract.Event{logEvent(1, "INFO", "a", nil), logEvent(2, "INFO", "b", nil)}})
		d.key("7")
		d.key("l")
		d.key("/")
		d.typeText("a")
		d.key("enter")
		d.key("enter") // open the row
		lp := d.m.pane(paneLog).(*logPane)
		steps := []func() bool{
			func() bool { return !lp.rows.open },          // the opened row
			func() bool { return !lp.rows.find.active() }, // the search
			func() bool { return d.m.focus == focusList }, // the pane's focus
		}
		for i, ok := range steps {
			d.key("esc")
			if !ok() {
				t.Fatalf("esc %d did not back out the next level", i+1)
			}
		}
	})
}

func TestHintLineShowsHelpAt80x24(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		for _, sz := range [][2]int{{80, 24}, {60, 20}} {
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			lines := strings.Split(d.screen(), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, "? help") || !strings.Contains(last, "q quit") {
				t.Fatalf("%dx%d: the hint line lacks ? help / q quit: %q", sz[0], sz[1], last)
			}
		}
	})
}

func TestHeaderShowsTheFullPreviewURLWhenThereIsRoom(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.send(tea.WindowSizeMsg{Width: 140, Height: 30})
		mustContain(t, d.screen(), "preview http://127.0.0.1:50001/preview/alpha")
		d.send(tea.WindowSizeMsg{Width: 92, Height: 24})
		mustContain(t, d.screen(), "preview /preview/alpha")
		mustNotContain(t, d.screen(), "preview http://")
	})
}

func TestEventsOneRowPerEventInTimeOrder(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		at := func(s int) time.Time { return fixedTime.Add(time.Duration(s) * time.Second) }
		fin := &contract.GenerationFinished{UIType: "offline-rich", Generator: "offline", Duration: time.Millisecond}
		qfin := contract.QueuedEvent{Seq: 3, Time: at(10), Source: contract.SourceEngine, Type: string(contract.EventGenerationFinished), Tool: "beta"}
		d.send(eventsMsg{gen: d.m.subGen, evs: []contract.Event{
			{Seq: 1, Time: at(10), Kind: contract.EventGenerationFinished, Tool: "beta", Detail: fin},
			{Seq: 2, Time: at(10), Kind: contract.EventQueued, Tool: "beta", Detail: &contract.Queued{Event: qfin}},
		}})
		if n := d.m.events.Len(); n != 1 {
			t.Fatalf("an engine event the engine also queued is %d rows, want 1", n)
		}
		d.key("4")
		mustContain(t, d.screen(), "⧗ gen-finished")
		// A re-attached genui's pending events are older: they go before.
		old := contract.QueuedEvent{Seq: 1, Time: at(5), Source: contract.SourcePreview, Type: "ui/message", Tool: "alpha",
			Payload: json.RawMessage(`{"text":"earlier"}`)}
		d.send(pendingMsg{gen: d.m.subGen, evs: []contract.QueuedEvent{old, qfin}})
		if n := d.m.events.Len(); n != 2 {
			t.Fatalf("after the pending events (one already shown): %d rows, want 2", n)
		}
		for i := 1; i < d.m.events.Len(); i++ {
			if d.m.events.At(i).time.Before(d.m.events.At(i - 1).time) {
				t.Fatalf("row %d is older than row %d", i, i-1)
			}
		}
		if d.m.events.At(0).kind != "ui/message" {
			t.Fatalf("the older event is not first: %+v", d.m.events.At(0))
		}
		// An agent takes both: both marked.
		d.send(eventsMsg{gen: d.m.subGen, evs: []contract.Event{{Seq: 4, Time: at(11), Kind: contract.EventQueueDrained,
			Detail: &contract.QueueDrained{Count: 2, LastSeq: 3}}}})
		mustContain(t, d.screen(), "✓ ui/message", "✓ gen-finished")
		mustNotContain(t, d.screen(), "⧗")
	})
}

func TestVariablesNameListItems(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("5")
		d.key("l")
		// Expand "tools".
		vp := d.m.pane(paneVars).(*varsPane)
		for i := 0; i < d.m.vars.rows(); i++ {
			if n := d.m.vars.vars.Variables[d.m.vars.visible[i]]; n.Name == "tools" {
				vp.rows.cursor = i
			}
		}
		d.key("enter")
		s := d.screen()
		mustContain(t, s, "▸ alpha [0]", "▸ get_forecast [3]")
	})
}

// helloPane is a trivial pane added through the component interface: its
// file would hold exactly this, and one line registers it (below).
type helloPane struct {
	s      *shared
	greets int
}

var helloPaneSpec = paneSpec{id: "hello", name: "Hello", short: "Hi", about: "says hello to the selected tool",
	new: func(s *shared) pane { return &helloPane{s: s} }}

var helloKey = key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "greet again"))

func (p *helloPane) Keys() []key.Binding { return []key.Binding{helloKey} }

func (p *helloPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, helloKey) {
		p.greets++
		return nil, true
	}
	return nil, false
}

func (p *helloPane) View(w, h int, focused bool) paneView {
	return paneView{title: "Hello", lines: []string{fmt.Sprintf("hello, %s (%d)", p.s.selected(), p.greets)}}
}

// TestAddATrivialPane: a pane is its own file plus one registration line;
// the tab bar, number key, help and palette pick it up.
func TestAddATrivialPane(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		specs := append(append([]paneSpec(nil), paneTable...), helloPaneSpec) // the registration line
		d := newDriverWith(t, newStub(), nil, specs)
		defer d.finish()
		d.send(tea.WindowSizeMsg{Width: 140, Height: 30})
		// The eleventh pane has no number key (1-9, 0 are taken): shift+tab
		// from the first reaches it, the tab bar names it.
		n := fmt.Sprint(len(specs))
		d.key("shift+tab")
		mustContain(t, d.screen(), "Hi", "hello, alpha (0)")
		d.key("l")
		d.key("x")
		d.key("j")
		mustContain(t, d.screen(), "hello, alpha (1)")
		d.key("h")
		d.key("j")
		mustContain(t, d.screen(), "hello, beta (1)")
		d.key("?")
		mustContain(t, d.screen(), "This pane: "+n+" Hello — says hello to the selected tool", "greet again")
		d.key("esc")
		d.key(":")
		d.typeText("hello")
		mustContain(t, d.screen(), "Hello: greet again")
	})
}

func TestRefinementNotUnderstoodIsAskedFirst(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("r")
		d.typeText("make it sparkle like a unicorn")
		d.key("enter")
		if len(d.stub.called("RefineRefused")) != 1 || len(d.stub.called("Refine ")) != 0 {
			t.Fatalf("calls: %v", d.stub.calls)
		}
		mustContain(t, d.screen(), "not understood offline", "make it sparkle like a unicorn", "anyway (it changes")
		d.key("n")
		if len(d.stub.called("Refine ")) != 0 {
			t.Fatal("n recorded it")
		}
		d.key("r")
		d.typeText("make it sparkle like a unicorn")
		d.key("enter")
		d.key("y")
		if c := d.stub.called("Refine "); len(c) != 1 || c[0] != `Refine alpha "make it sparkle like a unicorn" tui` {
			t.Fatalf("y did not record it: %v", d.stub.calls)
		}
		mustContain(t, d.screen(), "alpha refined (1 refinement(s))")
	})
}

func TestDropRefinements(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		for _, fb := range []string{"dark theme", "bigger font", "25 per page"} {
			d.key("r")
			d.typeText(fb)
			d.key("enter")
		}
		// x: the last one, asked first.
		d.key("x")
		mustContain(t, d.screen(), "Drop the last refinement of alpha, “25 per page”")
		d.key("y")
		if c := d.stub.called("DropRefinement"); len(c) != 1 || c[0] != `DropRefinement alpha 2 "25 per page" tui` {
			t.Fatalf("x y: %v", c)
		}
		mustContain(t, d.screen(), "Dropped “25 per page”: 2 refinement(s) apply", "alpha dropped “25 per page” (2 refinement(s) left)")
		// D: any one, chosen from the list (newest selected).
		d.key("D")
		mustContain(t, d.screen(), "Drop a refinement of alpha (2)", "1. “dark theme”", "2. “bigger font”")
		d.key("up")
		d.key("enter")
		if c := d.stub.called("DropRefinement"); len(c) != 2 || c[1] != `DropRefinement alpha 0 "dark theme" tui` {
			t.Fatalf("D up enter: %v", c)
		}
		if h := d.stub.state.Refinements["alpha"]; len(h) != 1 || h[0].Feedback != "bigger font" {
			t.Fatalf("history left: %+v", h)
		}
		d.key("D")
		d.key("esc")
		if len(d.stub.called("DropRefinement")) != 2 {
			t.Fatal("esc dropped one")
		}
	})
}

func TestDiffMarksTheChangedWordsOfLongLines(t *testing.T) {
	long := `<main class="app" data-x="` + strings.Repeat("a", 150) + `" style="font-size:14px;color:#333">`
	cv := newChangeView(contract.UIChange{Tool: "t", Reason: "refine", Feedback: "bigger font", Refinements: 1,
		OldHTML: "<html>\n" + long + "\n</html>\n", HTML: "<html>\n" + strings.Replace(long, "14px", "18px", 1) + "\n</html>\n"})
	var minus, plus diffLine
	for _, d := range cv.diff {
		switch d.op {
		case '-':
			minus = d
		case '+':
			plus = d
		}
	}
	if minus.text[minus.from:minus.to] != "14px" || plus.text[plus.from:plus.to] != "18px" {
		t.Fatalf("changed words: %q -> %q", minus.text[minus.from:minus.to], plus.text[plus.from:plus.to])
	}
	// Drawn 60 wide, both lines shift so the change is in view.
	st := NewStyles(true, true)
	s := &shared{styles: st, tools: map[string]*toolState{}}
	var shown []string
	for _, l := range s.changeLines("t", cv, 60) {
		shown = append(shown, fit(ansi.Strip(l), 60))
	}
	joined := strings.Join(shown, "\n")
	if !strings.Contains(joined, "font-size:14px") || !strings.Contains(joined, "font-size:18px") {
		t.Fatalf("the change is not in view at 60 columns:\n%s", joined)
	}
}

// TestTrafficRows: the tool on tools/call rows and their answers, the
// request a cancellation gives up on, the frame as sent on enter.
func TestTrafficRows(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		at := func(s int) time.Time { return fixedTime.Add(time.Duration(s) * time.Second) }
		req := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"longRunningOperation","arguments":{"duration":30}}}`
		cancel := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"request cancelled"}}`
		d.send(eventsMsg{gen: d.m.subGen, evs: []contract.Event{
			{Time: at(1), Kind: contract.EventTraffic, Detail: &contract.Traffic{Direction: contract.GenuiToUpstream, Kind: "request",
				Method: "tools/call", Tool: "longRunningOperation", ID: json.RawMessage(`7`), Size: len(req), Frame: json.RawMessage(req)}},
			{Time: at(2), Kind: contract.EventTraffic, Detail: &contract.Traffic{Direction: contract.GenuiToUpstream, Kind: "notification",
				Method: "notifications/cancelled", Tool: "longRunningOperation", RequestID: json.RawMessage(`7`), Size: len(cancel), Frame: json.RawMessage(cancel)}},
		}})
		d.send(tea.WindowSizeMsg{Width: 160, Height: 30})
		d.key("6")
		s := d.screen()
		mustContain(t, s, "→up   req  tools/call longRunningOperation", "→up   note notifications/cancelled longRunningOperation (request 7)")
		d.key("l")
		d.key("enter")
		mustContain(t, d.screen(), "as sent:", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"request cancelled"}}`, "indented:")
	})
}

// TestDiffOfPackedPagesShowsSource: offline pages are served packed (their
// scripts in one encoded line); the diff after a refine compares the
// unpacked source, so the changed script line is what the UI tab shows.
func TestDiffOfPackedPagesShowsSource(t *testing.T) {
	page := func(size string) string {
		p, err := pagepack.Pack("<!doctype html><html><head><style>\nbody { margin: 0 }\nh1 { font-size: " + size +
			" }\n</style></head><body><h1>x</h1><script>\nconst a = 1;\nconst b = 2;\n</script></body></html>\n")
		if err != nil || !pagepack.IsPacked(p) {
			t.Fatalf("pack: %v (packed %v)", err, pagepack.IsPacked(p))
		}
		return p
	}
	cv := newChangeView(contract.UIChange{Tool: "t", Reason: "refine", OldHTML: page("14px"), HTML: page("18px")})
	var minus, plus []string
	for _, d := range cv.diff {
		switch d.op {
		case '-':
			minus = append(minus, d.text)
		case '+':
			plus = append(plus, d.text)
		}
	}
	if len(minus) != 1 || len(plus) != 1 || !strings.Contains(minus[0], "font-size: 14px") || !strings.Contains(plus[0], "font-size: 18px") {
		t.Fatalf("the diff of two packed pages is not their source's:\n- %q\n+ %q", minus, plus)
	}
}
