package apitest

import (
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// testPendingEvents: PendingEvents shows what the agent has not fetched yet,
// in order, and leaves it there for the next /wait.
func testPendingEvents(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	h.Wait(t, "0") // start from an empty queue
	a := h.E.Push(contract.SourcePreview, "ui/message", "get_forecast", map[string]any{"text": "first"})
	b := h.E.Push(contract.SourcePreview, "ui/message", "get_forecast", map[string]any{"text": "second"})
	for range 2 { // looking twice changes nothing
		evs, err := api.PendingEvents(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 2 || evs[0].Seq != a.Seq || evs[1].Seq != b.Seq || !strings.Contains(string(evs[1].Payload), "second") ||
			evs[0].Source != contract.SourcePreview || evs[0].Tool != "get_forecast" {
			t.Fatalf("pending events: %+v", evs)
		}
	}
	code, body := h.Wait(t, "2")
	if code != 200 || !strings.Contains(string(body), "first") || !strings.Contains(string(body), "second") {
		t.Fatalf("/wait after PendingEvents: %d %s", code, body)
	}
	evs, err := api.PendingEvents(ctx)
	if err != nil || len(evs) != 0 {
		t.Fatalf("pending after the agent drained the queue: %+v (%v), want none", evs, err)
	}
}

// testSubscribeLog: genui's log records (and the upstream's stderr) reach
// watchers as EventLog events, with their component.
func testSubscribeLog(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	ch, err := api.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h.E.Logger().With("component", "apitest").Warn("a line for watchers", "n", 7)
	timeout := time.After(bound)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatal("event stream closed")
			}
			lr, isLog := ev.Detail.(*contract.LogRecord)
			if ev.Kind != contract.EventLog || !isLog || lr.Message != "a line for watchers" {
				continue
			}
			if lr.Level != "WARN" || lr.Component != "apitest" || lr.Attrs["n"] != float64(7) && lr.Attrs["n"] != int64(7) {
				t.Fatalf("log record: %+v", lr)
			}
			return
		case <-timeout:
			t.Fatalf("no log event within %s", bound)
		}
	}
}
