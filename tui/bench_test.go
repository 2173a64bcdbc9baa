package tui

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/genui-dev/genui/engine/contract"
)

// The frame budget: rendering the whole screen with 1,000 tools and 10,000
// events must stay well under 5 ms (a redraw is at most every 33 ms). The
// empty model is the same run's baseline: what the frame costs with
// nothing in it. Run: make bench, or
//
//	go test -run '^$' -bench . -benchmem ./tui/

// bigModel is a model holding 1,000 tools and 10,000 events (mixed as
// they arrive: queued events, generation events, traffic and log lines),
// fed through Update in bursts the way the subscription delivers them.
func bigModel(b *testing.B, tools, events int) *Model {
	b.Helper()
	m := New(Options{API: newStub(), Base: "http://127.0.0.1:40000", Static: true, Dark: boolPtr(true),
		Now: func() time.Time { return fixedTime }})
	m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	st := contract.State{Version: "0.2.0", Generator: "offline", Refinements: map[string][]contract.Refinement{},
		Upstream: contract.UpstreamState{Target: "bench", Connected: true},
		URLs:     contract.URLs{API: "http://127.0.0.1:40000", MCP: "http://127.0.0.1:40000/mcp"}}
	for i := range tools {
		ts := contract.ToolStatus{Name: fmt.Sprintf("tool_%04d_with_a_longish_name", i), UI: contract.UIStatus{State: contract.UIStateNone}}
		switch i % 4 {
		case 1:
			ts.UI = contract.UIStatus{State: contract.UIStateCached, Kind: "offline-rich"}
			ts.Refinements = i % 7
		case 2:
			ts.UI = contract.UIStatus{State: contract.UIStateFallback, FallbackReason: "timeout"}
		case 3:
			ts.Visibility = []string{"app"}
		}
		st.Tools = append(st.Tools, ts)
	}
	m.Update(stateMsg{gen: m.subGen, st: st})
	batch := make([]contract.Event, 0, 1000)
	for i := range events {
		ev := contract.Event{Seq: int64(i), Time: fixedTime, Tool: st.Tools[i%tools].Name}
		switch i % 4 {
		case 0:
			ev.Kind, ev.Detail = contract.EventQueued, &contract.Queued{Event: contract.QueuedEvent{Seq: int64(i + 1), Time: fixedTime,
				Source: contract.SourcePreview, Type: "ui/message", Tool: ev.Tool, Payload: json.RawMessage(`{"text":"hello from a UI"}`)}}
		case 1:
			ev.Kind, ev.Detail = contract.EventGenerationFinished, &contract.GenerationFinished{UIType: "offline-rich", Generator: "offline", Duration: time.Millisecond}
		case 2:
			ev.Kind, ev.Detail = contract.EventTraffic, &contract.Traffic{Direction: contract.GenuiToUpstream, Kind: "request",
				Method: "tools/call", ID: json.RawMessage(fmt.Sprint(i)), Size: 120, Frame: json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)}
		default:
			ev.Kind, ev.Detail = contract.EventLog, &contract.LogRecord{Level: "INFO", Message: "upstream stderr", Component: "upstream",
				Attrs: map[string]any{"line": "working on it"}}
		}
		batch = append(batch, ev)
		if len(batch) == cap(batch) {
			m.Update(eventsMsg{gen: m.subGen, evs: batch})
			batch = make([]contract.Event, 0, 1000)
		}
	}
	if len(batch) > 0 {
		m.Update(eventsMsg{gen: m.subGen, evs: batch})
	}
	m.statePend = false
	return m
}

// benchView measures rendering the full screen with pane tab shown, and
// reports the frame time and the memory the model holds (retainedMB: heap
// in use after building it, minus before).
func benchView(b *testing.B, tools, events int, pane string) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := bigModel(b, tools, events)
	runtime.GC()
	runtime.ReadMemStats(&after)
	m.setTab(m.paneIndex(pane))
	m.list.cursor = len(m.list.visible) / 2 // mid-list: the window must scroll
	_ = m.View()
	start := time.Now()
	n := 0
	for b.Loop() {
		_ = m.View()
		n++
	}
	el := time.Since(start)
	b.ReportMetric(float64(el.Microseconds())/1000/float64(n), "ms/frame")
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "retainedMB")
	runtime.KeepAlive(m)
}

func BenchmarkView(b *testing.B) {
	b.Run("empty", func(b *testing.B) { benchView(b, 0, 0, paneEvents) })
	b.Run("1000tools_10000events/events", func(b *testing.B) { benchView(b, 1000, 10000, paneEvents) })
	b.Run("1000tools_10000events/traffic", func(b *testing.B) { benchView(b, 1000, 10000, paneTraffic) })
	b.Run("1000tools_10000events/detail", func(b *testing.B) { benchView(b, 1000, 10000, paneDetail) })
}

// BenchmarkIngest is the cost of taking a burst of 1,000 events into the
// ring buffers (one coalesced message).
func BenchmarkIngest(b *testing.B) {
	m := bigModel(b, 1000, 0)
	evs := make([]contract.Event, 1000)
	for i := range evs {
		evs[i] = contract.Event{Seq: int64(i), Time: fixedTime, Kind: contract.EventLog,
			Detail: &contract.LogRecord{Level: "INFO", Message: "line", Attrs: map[string]any{"n": i}}}
	}
	for b.Loop() {
		m.Update(eventsMsg{gen: m.subGen, evs: evs})
		m.statePend = false
	}
}
