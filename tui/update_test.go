package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/internal/testenv"
)

// Update is tested key by key against a stub engine (stub_test.go): each
// test presses keys and checks what the engine was asked and what the
// screen shows.

func stripANSI(s string) string { return ansi.Strip(s) }

func mustContain(t *testing.T, screen string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(screen, w) {
			t.Fatalf("screen lacks %q:\n%s", w, screen)
		}
	}
}

func mustNotContain(t *testing.T, screen string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(screen, b) {
			t.Fatalf("screen has %q:\n%s", b, screen)
		}
	}
}

func TestStartFetchesStateToolsQueueAndSubscribes(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		for _, c := range []string{"Subscribe", "State", "Tools", "PendingEvents", "Inspect alpha"} {
			if len(d.stub.called(c)) == 0 {
				t.Errorf("no %s call at start; calls: %v", c, d.stub.calls)
			}
		}
		if len(d.ticks) == 0 || d.ticks[0] != time.Second {
			t.Errorf("no 1 s state poll scheduled: %v", d.ticks)
		}
		s := d.screen()
		mustContain(t, s, "genui 0.2.0", "in-process", "stub-server", "gen offline", "Tools 5/5", "› alpha", "○ none",
			"● rich", "MCP http://127.0.0.1:50001/mcp", "/preview/alpha", "/wait: no agent · 0 queued", "alpha does things")
	})
}

func TestMoveKeys(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		steps := []struct{ key, want string }{
			{"down", "beta"}, {"j", "gamma"}, {"up", "beta"}, {"k", "alpha"}, {"k", "alpha"},
			{"end", "zeta"}, {"home", "alpha"}, {"pgdown", "zeta"}, {"pgup", "alpha"}, {"ctrl+d", "zeta"}, {"ctrl+u", "alpha"},
		}
		for _, s := range steps {
			d.key(s.key)
			if got := d.m.selected(); got != s.want {
				t.Fatalf("after %s: selected %q, want %q", s.key, got, s.want)
			}
		}
		if len(d.stub.called("Inspect zeta")) != 1 {
			t.Errorf("moving to zeta did not inspect it (once): %v", d.stub.called("Inspect"))
		}
	})
}

func TestFocusKeys(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		for _, s := range []struct {
			key  string
			want focus
		}{{"right", focusPane}, {"left", focusList}, {"l", focusPane}, {"h", focusList}, {"enter", focusPane}, {"esc", focusList}} {
			d.key(s.key)
			if d.m.focus != s.want {
				t.Fatalf("after %s: focus %v, want %v", s.key, d.m.focus, s.want)
			}
		}
		// With the pane focused, up/down scroll the pane, not the list.
		d.key("l")
		d.key("down")
		if d.m.selected() != "alpha" || d.detailPane().text.offset != 1 {
			t.Fatalf("down in the pane: selected %s, detail offset %d", d.m.selected(), d.detailPane().text.offset)
		}
	})
}

func TestFilterKey(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("/")
		if !d.m.list.filtering {
			t.Fatal("/ did not open the filter")
		}
		d.typeText("ga")
		mustContain(t, d.screen(), "Tools 1/5", "› gamma")
		mustNotContain(t, d.screen(), "alpha ")
		// q is text while filtering, not quit.
		d.typeText("q")
		if d.quit || d.m.list.query != "gaq" {
			t.Fatalf("q while filtering: quit %v, query %q", d.quit, d.m.list.query)
		}
		d.key("esc")
		if d.m.list.filtering || d.m.list.query != "" || len(d.m.list.visible) != 5 {
			t.Fatalf("esc: filtering %v query %q visible %d", d.m.list.filtering, d.m.list.query, len(d.m.list.visible))
		}
		d.key("/")
		d.typeText("forecast")
		d.key("enter")
		if d.m.list.filtering || d.m.selected() != "get_forecast" {
			t.Fatalf("enter keeps the filter: filtering %v selected %q", d.m.list.filtering, d.m.selected())
		}
		mustContain(t, d.screen(), "/ forecast", "Tools 1/5")
		d.key("esc") // back clears a kept filter
		if d.m.list.query != "" {
			t.Fatalf("esc did not clear the kept filter: %q", d.m.list.query)
		}
	})
}

func TestTabKeys(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		// The number keys reach the first ten panes; tab and shift+tab
		// every pane (TestPanesBeyondTen: panes past ten).
		for i := 0; i < len(paneTable) && tabKey(i) != ""; i++ {
			d.key(tabKey(i))
			if d.m.tab != i {
				t.Fatalf("key %d: tab %d", i+1, d.m.tab)
			}
		}
		d.key("1")
		d.key("shift+tab")
		if !d.m.showing(paneTable[len(paneTable)-1].id) {
			t.Fatalf("shift+tab from Detail: %d, want the last pane", d.m.tab)
		}
		d.key("tab")
		if !d.m.showing(paneDetail) {
			t.Fatalf("tab from the last pane: %d, want Detail", d.m.tab)
		}
		if len(d.stub.called("Variables")) == 0 {
			t.Error("the Variables tab did not fetch variables")
		}
		// The UI tab loads a cached UI by itself, never generates one.
		d.key("2")
		if len(d.stub.called("UI alpha")) != 0 {
			t.Fatal("the UI tab generated alpha's UI (only g does)")
		}
		mustContain(t, d.screen(), "No UI loaded. g generates")
		d.key("j")
		if len(d.stub.called("UI beta")) != 1 {
			t.Fatalf("the UI tab did not load beta's cached UI: %v", d.stub.calls)
		}
		mustContain(t, d.screen(), "ui://beta", "<h1>beta v0</h1>")
		d.key("5")
		mustContain(t, d.screen(), "Variables", "version", "upstream")
	})
}

func TestGenerateKey(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("g")
		if len(d.stub.called("UI alpha")) != 1 || !d.m.showing(paneUI) {
			t.Fatalf("g: UI calls %v, tab %d", d.stub.called("UI"), d.m.tab)
		}
		mustContain(t, d.screen(), "UI of alpha: offline-rich, generated", "<title>alpha</title>", "● rich")
	})
}

func TestRefineKey(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("j") // beta has a cached UI
		d.key("r")
		if d.refineBox() == nil {
			t.Fatal("r did not open the refine box")
		}
		mustContain(t, d.screen(), "Refine beta — enter sends · esc cancels")
		d.key("enter")
		mustContain(t, d.screen(), "feedback is empty")
		d.typeText("dark theme")
		d.key("enter")
		if c := d.stub.called("Refine"); len(c) != 1 || c[0] != `Refine beta "dark theme" tui` {
			t.Fatalf("refine calls %v", c)
		}
		s := d.screen()
		mustContain(t, s, "beta · UI · what changed", "Refinement 1 “dark theme”", "+1 −1", "-<h1>beta v0</h1>", "+<h1>beta v1</h1>",
			"beta refined (1 refinement(s))", "✎1")
		// d toggles to the HTML and back.
		d.key("d")
		mustContain(t, d.screen(), "d shows what the last refine changed")
		d.key("d")
		mustContain(t, d.screen(), "what changed")
		// Earlier feedback comes back with up; esc cancels.
		d.key("r")
		d.key("up")
		if got := d.refineBox().area.Value(); got != "dark theme" {
			t.Fatalf("up in the refine box: %q, want the earlier feedback", got)
		}
		d.key("down")
		if got := d.refineBox().area.Value(); got != "" {
			t.Fatalf("down back to the draft: %q", got)
		}
		d.key("esc")
		if d.refineBox() != nil || len(d.stub.called("Refine")) != 1 {
			t.Fatal("esc did not cancel the refine box")
		}
	})
}

func TestRegenerateKeys(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("R")
		if c := d.stub.called("Regenerate"); len(c) != 1 || c[0] != "Regenerate alpha clear=false tui" {
			t.Fatalf("R: %v", c)
		}
		mustContain(t, d.screen(), "alpha regenerated")
		d.key("ctrl+r")
		mustContain(t, d.screen(), "Regenerate alpha and clear its 0 refinement(s)? y/n")
		d.key("n")
		if len(d.stub.called("Regenerate")) != 1 || d.confirmBox() != nil {
			t.Fatal("n still regenerated")
		}
		d.key("ctrl+r")
		d.key("y")
		if c := d.stub.called("Regenerate"); len(c) != 2 || c[1] != "Regenerate alpha clear=true tui" {
			t.Fatalf("ctrl+r y: %v", c)
		}
		mustContain(t, d.screen(), "regenerated, refinements cleared")
	})
}

func TestPreviewAndCopyKeys(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("p")
		if c := d.stub.called("OpenURL"); len(c) != 1 || c[0] != "OpenURL http://127.0.0.1:50001/preview/alpha" {
			t.Fatalf("p opened %v", c)
		}
		mustContain(t, d.screen(), "opened http://127.0.0.1:50001/preview/alpha")
		d.key("y")
		if c := d.stub.called("Copy"); len(c) != 1 || c[0] != "Copy http://127.0.0.1:50001/preview/alpha" {
			t.Fatalf("y copied %v", c)
		}
		if len(d.stub.called("OpenURL")) != 1 {
			t.Fatal("y opened a browser")
		}
		mustContain(t, d.screen(), "copied http://127.0.0.1:50001/preview/alpha")
		// No browser (exit status 3 from xdg-open on a server): the URL is
		// shown and copied instead.
		d.stub.failNext("OpenURL", errors.New("exit status 3"))
		d.key("p")
		mustContain(t, d.screen(), "no browser opened (exit status 3); copied the URL: http://127.0.0.1:50001/preview/alpha")
		if c := d.stub.called("Copy"); len(c) != 2 || c[1] != "Copy http://127.0.0.1:50001/preview/alpha" {
			t.Fatalf("p without a browser copied %v", c)
		}
	})
}

func TestCallKeyAndForm(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("c")
		if !d.m.showing(paneCall) || !d.callPane().active {
			t.Fatalf("c: tab %d, form active %v", d.m.tab, d.callPane().active)
		}
		s := d.screen()
		mustContain(t, s, "Arguments", "location*", "days", "units", "‹ unset ›", "verbose", "[ ] unset", "filters")
		d.key("enter")
		mustContain(t, d.screen(), "✗ fix location before calling", "✗ required")
		d.typeText("Paris")
		d.key("tab")
		d.typeText("x")
		d.key("enter")
		mustContain(t, d.screen(), "not an integer")
		d.key("ctrl+u") // textinput: delete to the start
		d.typeText("3")
		d.key("tab") // units: an enum
		d.key("space")
		d.key("right")
		d.key("left")
		d.key("left") // metric -> imperial -> metric -> unset
		if f := d.m.tool("alpha").form; f.fields[2].name != "units" || f.fields[2].pick != -1 {
			t.Fatalf("units after space, right, left, left: pick %d", f.fields[2].pick)
		}
		d.key("space")
		d.key("shift+tab") // back to days
		d.key("up")        // and to location
		if f := d.m.tool("alpha").form; f.cur != 0 {
			t.Fatalf("shift+tab and up: field %d, want 0", f.cur)
		}
		d.key("tab")
		d.key("tab")
		d.key("tab") // verbose: a boolean
		d.key("space")
		d.key("tab") // filters: JSON object
		d.typeText("[1]")
		d.key("enter")
		mustContain(t, d.screen(), "must be a JSON object")
		d.key("left") // the cursor, not a choice: this is a text field
		if v := d.m.tool("alpha").form.fields[4].input.Value(); v != "[1]" || d.m.tool("alpha").form.fields[2].pick != 0 {
			t.Fatalf("left in a text field: value %q, units pick %d", v, d.m.tool("alpha").form.fields[2].pick)
		}
		d.key("end")
		d.key("ctrl+u")
		d.typeText(`{"a":1}`)
		d.key("enter")
		c := d.stub.called("CallTool")
		if len(c) != 1 {
			t.Fatalf("calls %v", d.stub.calls)
		}
		want := `CallTool alpha {"days":3,"filters":{"a":1},"location":"Paris","units":"metric","verbose":true} tui`
		if c[0] != want {
			t.Fatalf("call\n got %s\nwant %s", c[0], want)
		}
		mustContain(t, d.screen(), "Result", "content[0] text", "called alpha", "structuredContent", `"location": "Paris"`, "called alpha in 2ms")
		d.key("esc")
		if d.callPane().active {
			t.Fatal("esc did not leave the form")
		}
		d.key("q")
		if !d.quit {
			t.Fatal("q outside the form did not quit")
		}
	})
}

func TestRefreshExportAndDiffKeys(t *testing.T) {
	dir := t.TempDir()
	inBubble(t, func(o *Options) { o.ExportDir = dir }, func(t *testing.T, d *driver) {
		d.key("u")
		if len(d.stub.called("RefreshTools")) != 1 {
			t.Fatal("u did not refresh the tools")
		}
		mustContain(t, d.screen(), "tools refreshed: no change (5 tools)")
		d.key("e")
		b, err := os.ReadFile(filepath.Join(dir, "alpha.html"))
		if err != nil || !strings.Contains(string(b), "<h1>alpha v0</h1>") {
			t.Fatalf("e wrote %q, %v", b, err)
		}
		mustContain(t, d.screen(), "exported alpha to "+filepath.Join(dir, "alpha.html"))
		d.key("d")
		mustContain(t, d.screen(), "nothing to diff")
	})
}

func TestHelpAndQuitKeys(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("?")
		s := d.screen()
		mustContain(t, s, "Keys — any key closes", "This pane: 1 Detail", "search", "next match", "Everywhere")
		// The rest, page by page: the global keys, the Call pane's, panes, badges.
		for range 5 {
			d.key("pgdown")
			s += d.screen()
		}
		mustContain(t, s, "palette", "regenerate, clear refinements", "copy preview URL", "export UI", "refresh tools",
			"In the Call pane", "Tool list badges", "○ none", "✎2", "two refinements apply")
		d.key("x") // closes help, does nothing else
		if d.helpOpen() || d.m.selected() != "alpha" {
			t.Fatalf("a key in help: help %v, selected %s", d.helpOpen(), d.m.selected())
		}
		// The help bar comes from the key map.
		mustContain(t, d.screen(), "/ filter", "1-9, 0 panes", "g generate UI", "r refine", "? help")
		d.key("ctrl+c")
		if !d.quit {
			t.Fatal("ctrl+c did not quit")
		}
	})
}

func TestAttachKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Everything a bubble's goroutines block on is made inside it.
		other := newStub()
		other.base = "http://127.0.0.1:50002"
		other.state.URLs = contract.URLs{API: other.base, MCP: other.base + "/mcp"}
		other.state.Upstream.Target = "their-server"
		other.state.Instance = "i-other"
		released := 0
		d := newDriver(t, newStub(), func(o *Options) {
			o.Dir = t.TempDir()
			o.Dial = func(base string) contract.API { return other }
			o.Locate = func(string) (DirGenui, error) {
				return DirGenui{Base: other.base, Instance: "i-other", Held: true}, nil
			}
			o.Release = func() { released++ }
		})
		defer d.finish()
		d.key("a")
		if len(other.called("Subscribe")) != 0 {
			t.Fatal("a with no other genui did something")
		}
		d.send(discoverMsg{base: other.base})
		mustContain(t, d.screen(), "▶ press a to attach to the genui now serving", "a attach")
		// A request of the old engine's upstream is not the new one's.
		d.stub.events <- pending("old-1", contract.RequestElicitation, "elicitation/create", "", contract.SourceAPI,
			`{"message":"from the old genui","requestedSchema":{"type":"object","properties":{}}}`)
		synctest_wait(d)
		mustContain(t, d.screen(), "from the old genui")
		d.m.overlay.remove(d.m.overlay.front()) // the dialog has the keys; left open, a would type
		d.key("a")
		if len(d.m.requests) != 0 {
			t.Fatalf("the old genui's requests are still queued: %v", d.m.requests)
		}
		if released != 1 || d.m.mode != Attached || d.m.base != other.base {
			t.Fatalf("after a: released %d, mode %v, base %s", released, d.m.mode, d.m.base)
		}
		if len(other.called("Subscribe")) != 1 {
			t.Fatal("no subscription to the attached genui")
		}
		mustContain(t, d.screen(), "attached", "their-server", "attached to http://127.0.0.1:50002")
		close(other.events)
		synctest.Wait()
	})
}

func TestEventsPane(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		q := contract.QueuedEvent{Seq: 7, Time: time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC), Source: contract.SourcePreview,
			Type: "ui/message", Tool: "beta", Payload: json.RawMessage(`{"text":"hi from the UI"}`)}
		d.stub.events <- contract.Event{Seq: 1, Kind: contract.EventQueued, Tool: "beta", Detail: &contract.Queued{Event: q}}
		d.stub.events <- contract.Event{Seq: 2, Time: q.Time.Add(time.Second), Kind: contract.EventGenerationFinished, Tool: "beta",
			Detail: &contract.GenerationFinished{UIType: "offline-rich", Generator: "offline", Duration: time.Millisecond}}
		d.stub.events <- contract.Event{Seq: 3, Kind: contract.EventTraffic, Detail: &contract.Traffic{Direction: contract.GenuiToUpstream,
			Kind: "request", Method: "tools/call", ID: json.RawMessage(`5`), Size: 40, Frame: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"tools/call"}`)}}
		d.stub.events <- contract.Event{Seq: 4, Kind: contract.EventLog, Detail: &contract.LogRecord{Level: "WARN", Message: "upstream stderr", Component: "upstream",
			Attrs: map[string]any{"line": "boom"}}}
		synctest_wait(d)
		d.key("4")
		mustContain(t, d.screen(), "Events 2", "⧗ ui/message", "beta", "from preview  “hi from", "gen-finished")
		d.key("l")
		d.key("up")
		d.key("enter")
		mustContain(t, d.screen(), "queued for agents (/wait seq 7)", "returns it", `"text": "hi from the UI"`)
		// Watching never drains; an agent taking it marks it.
		d.stub.events <- contract.Event{Seq: 5, Time: q.Time.Add(2 * time.Second), Kind: contract.EventQueueDrained, Detail: &contract.QueueDrained{Count: 1, LastSeq: 7}}
		synctest_wait(d)
		mustContain(t, d.screen(), "✓ ui/message", "taken by an agent")
		d.key("esc")
		if d.eventsPane().rows.open {
			t.Fatal("esc did not close the expanded event")
		}
		d.key("end")
		if !d.eventsPane().rows.follow {
			t.Fatal("end does not follow again")
		}
		d.key("6")
		mustContain(t, d.screen(), "Traffic 1", "→up", "req", "tools/call")
		d.key("enter")
		mustContain(t, d.screen(), `"method": "tools/call"`)
		d.key("7")
		mustContain(t, d.screen(), "WARN", "upstream", "line=boom")
		// Pending events fetched at start are shown once even when the
		// subscription reports them too.
		d.send(pendingMsg{gen: d.m.subGen, evs: []contract.QueuedEvent{q}})
		if n := d.m.events.Len(); n != 3 {
			t.Fatalf("events after a duplicate pending event: %d, want 3", n)
		}
	})
}

// TestEventsPaneShowsSecurityEvents: a security event (a UI navigated its
// frame away) is a line in the Events pane with what happened and what
// genui did, and its detail opens with enter.
func TestEventsPaneShowsSecurityEvents(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.stub.events <- contract.Event{Seq: 1, Kind: contract.EventSecurity, Tool: "beta", Detail: &contract.Security{
			Kind: contract.SecurityNavigation, Source: contract.SourcePreview, URL: "http://127.0.0.1:9999/plain?d=x",
			Detail: "the page tried to navigate its frame to http://127.0.0.1:9999/plain?d=x (blocked)", UIType: "llm",
			Action: "the LLM page was dropped: the offline UI is served until the UI is refined or regenerated"}}
		synctest_wait(d)
		d.key("4")
		mustContain(t, d.screen(), "Events 1", "security", "beta", "the page tried to navig")
		d.key("l")
		d.key("enter")
		mustContain(t, d.screen(), `"kind": "navigation"`, `"action": "the LLM page was dropped`)
	})
}

// synctest_wait lets the subscription reader deliver what the test queued:
// the bubble's clock moves past one coalescing window.
func synctest_wait(d *driver) {
	time.Sleep(2 * coalesceWindow)
	d.run(nil)
}

func TestErrorsGoToStatusAndLog(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.stub.failNext("Refine", &contract.Error{Code: contract.CodeUpstreamUnavailable, Message: "upstream stub is not connected"})
		d.key("r")
		d.typeText("bigger")
		d.key("enter")
		mustContain(t, d.screen(), "✗ alpha: upstream stub is not connected")
		d.key("7")
		mustContain(t, d.screen(), "ERROR", "tui", "alpha: upstream stub is not connected")
		if d.m.anyBusy() {
			t.Fatal("busy after a failure")
		}
	})
}

// tabMiddle is the middle cell of pane i's label in the tab bar
// (relative to the pane column); the test fails when it is not shown.
func tabMiddle(t *testing.T, l screenLayout, i int) int {
	t.Helper()
	for _, c := range l.tabs {
		if c.pane == i && !c.marker {
			return (c.x0 + c.x1) / 2
		}
	}
	t.Fatalf("pane %d has no label in the tab bar %+v", i, l.tabs)
	return 0
}

func TestMouse(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		l := d.m.layout()
		// Click the third tool (border row + 2).
		d.send(tea.MouseClickMsg{X: 3, Y: l.bodyY + 3, Button: tea.MouseLeft})
		if d.m.selected() != "gamma" || d.m.focus != focusList {
			t.Fatalf("click on a tool: selected %s focus %v", d.m.selected(), d.m.focus)
		}
		// Click the Events tab.
		x := l.listW + tabMiddle(t, l, d.m.paneIndex(paneEvents))
		d.send(tea.MouseClickMsg{X: x, Y: l.bodyY, Button: tea.MouseLeft})
		if !d.m.showing(paneEvents) {
			t.Fatalf("click on the Events tab: tab %d", d.m.tab)
		}
		d.key("1")
		d.send(tea.MouseWheelMsg{X: l.listW + 5, Y: l.bodyY + 5, Button: tea.MouseWheelDown})
		if d.detailPane().text.offset != 3 {
			t.Fatalf("wheel over the pane: offset %d, want 3", d.detailPane().text.offset)
		}
		d.send(tea.MouseWheelMsg{X: 2, Y: l.bodyY + 2, Button: tea.MouseWheelDown})
		if d.m.list.offset != 0 { // 5 tools fit: nothing to scroll
			t.Fatalf("wheel over a list that fits: offset %d", d.m.list.offset)
		}
	})
}

func TestAttachedReconnects(t *testing.T) {
	inBubble(t, func(o *Options) { o.Mode = Attached }, func(t *testing.T, d *driver) {
		// The server goes away: the stream ends.
		close(d.stub.events)
		synctest_wait(d)
		if !d.m.lost {
			t.Fatal("a closed stream did not mark the server lost")
		}
		mustContain(t, d.screen(), "⚠ lost the genui at http://127.0.0.1:50001", "reconnecting, attempt 1")
		// The first retry fails; the banner stays and backoff grows.
		d.stub.failNext("State", errors.New("connection refused"))
		d.send(reconnectMsg{gen: d.m.subGen})
		if !d.m.lost || d.m.retry != 1 {
			t.Fatalf("after a failed retry: lost %v retry %d", d.m.lost, d.m.retry)
		}
		mustContain(t, d.screen(), "connection refused", "attempt 2")
		// The server is back.
		d.stub.mu.Lock()
		d.stub.events = make(chan contract.Event, 64)
		d.stub.mu.Unlock()
		d.send(reconnectMsg{gen: d.m.subGen})
		if d.m.lost {
			t.Fatal("still lost after a good reconnect")
		}
		mustContain(t, d.screen(), "reconnected to http://127.0.0.1:50001")
		mustNotContain(t, d.screen(), "⚠ lost")
		if b := backoff(0); b != 250*time.Millisecond || backoff(10) != 5*time.Second {
			t.Fatalf("backoff %s .. %s", b, backoff(10))
		}
	})
}

// TestAttachedFollowsARestartedServer: a genui that comes back on another
// port (Claude Code restarted genui mcp) is found through DIR/mcp-port.
func TestAttachedFollowsARestartedServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		restarted := newStub()
		restarted.base = "http://127.0.0.1:50003"
		restarted.state.Instance = "i-restarted"
		var mu sync.Mutex
		var onDir *DirGenui // what DIR's files say
		d := newDriver(t, newStub(), func(o *Options) {
			o.Mode, o.Dir = Attached, dir
			o.Dial = func(base string) contract.API {
				if base == restarted.base {
					return restarted
				}
				return newStub()
			}
			o.Locate = func(string) (DirGenui, error) {
				mu.Lock()
				defer mu.Unlock()
				if onDir == nil {
					return DirGenui{}, os.ErrNotExist
				}
				return *onDir, nil
			}
		})
		defer d.finish()
		close(d.stub.events)
		synctest_wait(d)
		d.send(reconnectMsg{gen: d.m.subGen}) // nothing on DIR yet
		if !d.m.lost || !strings.HasPrefix(d.m.lostErr, "the genui on "+dir+" is gone: ") {
			t.Fatalf("with nothing on DIR: lost %v, %q", d.m.lost, d.m.lostErr)
		}
		mu.Lock()
		onDir = &DirGenui{Base: restarted.base, Instance: "i-restarted", Held: true}
		mu.Unlock()
		d.send(reconnectMsg{gen: d.m.subGen})
		if d.m.lost || d.m.base != restarted.base || instanceOf(d.m.api) != "i-restarted" {
			t.Fatalf("after the server moved: lost %v base %s", d.m.lost, d.m.base)
		}
		mustContain(t, d.screen(), "reconnected to http://127.0.0.1:50003")
		d.stub.mu.Lock()
		d.stub.events = make(chan contract.Event) // finish closes it
		d.stub.mu.Unlock()
		close(restarted.events)
		synctest.Wait()
	})
}

func TestResizeNoColorAndLightDark(t *testing.T) {
	inBubble(t, func(o *Options) { o.NoColor = true }, func(t *testing.T, d *driver) {
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}, {60, 16}} {
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			v := d.m.View().Content
			lines := strings.Split(v, "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d: %d lines", sz[0], sz[1], len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Fatalf("%dx%d: line %d is %d cells: %q", sz[0], sz[1], i, w, ansi.Strip(l))
				}
			}
			if strings.Contains(v, "\x1b[38;") || strings.Contains(v, "\x1b[48;") {
				t.Fatalf("NO_COLOR view has colors: %q", v[:200])
			}
		}
	})
	inBubble(t, func(o *Options) { o.Dark = nil }, func(t *testing.T, d *driver) {
		if !d.m.styles.Dark {
			t.Fatal("the default palette is not the dark one")
		}
		d.send(tea.BackgroundColorMsg{Color: lightColor{}})
		if d.m.styles.Dark {
			t.Fatal("a light background kept the dark palette")
		}
	})
}

type lightColor struct{}

func (lightColor) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

// TestEventBurstsAreCoalesced: a burst becomes one message (one redraw).
func TestEventBurstsAreCoalesced(t *testing.T) {
	ch := make(chan contract.Event, 3000)
	for i := range 3000 {
		ch <- contract.Event{Seq: int64(i), Kind: contract.EventLog, Detail: &contract.LogRecord{Level: "INFO", Message: "x"}}
	}
	msg := readEvents(1, ch)().(eventsMsg)
	if len(msg.evs) != 3000 || msg.closed {
		t.Fatalf("one read got %d events (closed %v), want the whole burst", len(msg.evs), msg.closed)
	}
	close(ch)
	if msg := readEvents(1, ch)().(eventsMsg); !msg.closed {
		t.Fatal("a closed channel is not reported")
	}
}

// TestBuffersAreBounded: the panes keep at most their capacity.
func TestBuffersAreBounded(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		evs := make([]contract.Event, 0, maxLogs+10)
		for i := range maxLogs + 10 {
			evs = append(evs, contract.Event{Seq: int64(i), Kind: contract.EventLog, Detail: &contract.LogRecord{Level: "INFO", Message: "x"}})
		}
		d.send(eventsMsg{gen: d.m.subGen, evs: evs})
		if d.m.logs.Len() != maxLogs || d.m.logs.Dropped() != 10 {
			t.Fatalf("log rows %d (dropped %d), want %d", d.m.logs.Len(), d.m.logs.Dropped(), maxLogs)
		}
	})
}

// TestHighlightHTML: every line stands alone (styles do not run across
// lines), the text is unchanged, and no style means plain lines.
func TestHighlightHTML(t *testing.T) {
	src := "<!doctype html>\n<html>\n<!-- a\ncomment -->\n<script>\nconst x = `a\nb`;\n</script>\n\t<p class=\"x\">hi</p>\n</html>"
	lines := highlightHTML(src, "github-dark")
	plain := cleanLines(src)
	if len(lines) != len(plain) {
		t.Fatalf("%d highlighted lines, %d plain", len(lines), len(plain))
	}
	colored := 0
	for i, l := range lines {
		if ansi.Strip(l) != plain[i] {
			t.Errorf("line %d: %q, want %q", i, ansi.Strip(l), plain[i])
		}
		if strings.Contains(l, "\x1b[") {
			colored++
			if !strings.HasSuffix(l, "m") || strings.Count(l, "\x1b[") < 2 {
				t.Errorf("line %d does not close its style: %q", i, l)
			}
		}
	}
	if colored < len(lines)/2 {
		t.Fatalf("only %d of %d lines highlighted", colored, len(lines))
	}
	if got := highlightHTML(src, ""); strings.Join(got, "\n") != strings.Join(plain, "\n") {
		t.Fatal("no style is not plain")
	}
}

// panicky is an engine whose Regenerate panics.
type panicky struct{ *stubAPI }

func (panicky) Regenerate(context.Context, contract.RegenerateRequest) (contract.UIChange, error) {
	panic("boom in a command")
}

// TestPanicRestoresTheTerminal: a panic in a command ends the program with
// an error, and the terminal is given back (alternate screen left).
func TestPanicRestoresTheTerminal(t *testing.T) {
	var out lockedBuffer
	in, typeIn := io.Pipe()
	go func() {
		// R once the first screen is up.
		testenv.Until(10*time.Second, func() bool { return strings.Contains(out.String(), "Tools 5/5") })
		_, _ = typeIn.Write([]byte("R"))
	}()
	defer typeIn.Close()
	err := Run(context.Background(), Options{API: panicky{newStub()}, Static: true, Dark: boolPtr(true), NoColor: true},
		tea.WithInput(in), tea.WithOutput(&out), tea.WithWindowSize(80, 24), tea.WithoutSignals())
	if !errors.Is(err, tea.ErrProgramPanic) {
		t.Fatalf("Run after a panic: %v", err)
	}
	s := out.String()
	last := strings.LastIndex(s, "\x1b[?1049")
	if !strings.Contains(s, "\x1b[?1049h") || !strings.HasPrefix(s[last:], "\x1b[?1049l") {
		t.Fatalf("the alternate screen was not left after the panic: %q", s[max(0, len(s)-300):])
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRefineOutcomeAndSpecShown: a refinement's outcome (here not applied,
// with the reason) is shown after it, and the UI pane shows the page's
// view spec and every refinement's outcome.
func TestRefineOutcomeAndSpecShown(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("j")
		d.key("r")
		d.typeText("hide the reviewer")
		d.key("enter")
		mustContain(t, d.screen(), "Refinement 1 “hide the reviewer”", `✗ not applied: no field "reviewer" in the result`)
		d.key("d")
		mustContain(t, d.screen(), "✗ “hide the reviewer” not applied", "View spec", `"principal": "/rows"`)
	})
}
