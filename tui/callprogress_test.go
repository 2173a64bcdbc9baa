package tui

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/genui-dev/genui/engine/contract"
)

// inHostBubble is inBubble with the host side of the API (hostStub).
func inHostBubble(t *testing.T, f func(t *testing.T, d *driver, hs *hostStub)) {
	synctest.Test(t, func(t *testing.T) {
		hs := newHostStub()
		d := newDriver(t, hs.stubAPI, func(o *Options) { o.API = hs })
		defer d.finish()
		defer hs.stopAll()
		f(t, d, hs)
	})
}

// TestCallProgressAndCancel: a running call shows its progress (a bar with
// progress/total and the message, from the call's events, tied to the call
// id the TUI made), ctrl+x cancels it (CancelCall with that id, shown in the
// help bar while it runs) and the result says "cancelled" at once.
func TestCallProgressAndCancel(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		d.key("end") // zeta, the last tool
		if d.m.selected() != "zeta" {
			t.Fatalf("selected %q", d.m.selected())
		}
		d.key("c")
		d.typeText("Paris")
		d.key("enter")
		synctest_wait(d)
		r := d.m.tool("zeta").result
		if r == nil || !r.running || r.callID == "" || !strings.HasPrefix(r.callID, "tui-") {
			t.Fatalf("result %+v", r)
		}
		s := d.screen()
		mustContain(t, s, "calling zeta", "2/3 (67%)", "step two", "ctrl+x cancels the call", "ctrl+x cancel")
		if r.progress.steps != 2 {
			t.Fatalf("steps %d", r.progress.steps)
		}
		// A task-augmented call shows its task's status.
		d.stub.events <- contract.Event{Kind: contract.EventTaskStatus, Tool: "zeta", Detail: &contract.TaskStatus{CallID: r.callID,
			Task: contract.Task{TaskID: "task-7", Status: contract.TaskWorking, StatusMessage: "halfway there"}}}
		synctest_wait(d)
		mustContain(t, d.screen(), "task task-7: working — halfway there")
		// Progress of another call (another surface's) changes nothing.
		d.stub.events <- contract.Event{Kind: contract.EventCallProgress, Tool: "zeta", Detail: &contract.CallProgress{CallID: "api-1", Progress: 3, Message: "not ours"}}
		synctest_wait(d)
		mustNotContain(t, d.screen(), "not ours")

		d.key("ctrl+x") // in the form
		if c := hs.called("CancelCall"); len(c) != 1 || c[0] != "CancelCall "+r.callID {
			t.Fatalf("cancel calls %v", c)
		}
		r = d.m.tool("zeta").result
		if r.running || !r.cancelled {
			t.Fatalf("after ctrl+x: running %v cancelled %v", r.running, r.cancelled)
		}
		s = d.screen()
		mustContain(t, s, "⊘ cancelled: the call of zeta was cancelled", "at 2/3 after 2 progress step(s) — step two", "was cancelled (the upstream was told)")
		if len(d.m.calls) != 0 {
			t.Fatalf("calls left %v", d.m.calls)
		}
		// ctrl+x with nothing running says so.
		d.key("esc")
		d.key("ctrl+x")
		mustContain(t, d.screen(), "no call is running")
	})
}

// TestCallWithoutTotalShowsAnIndeterminateBar: progress without a total is
// a moving bar with the count and the message.
func TestCallWithoutTotalShowsAnIndeterminateBar(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		hs.steps = []contract.CallProgress{{Progress: 5, Message: "five things done"}}
		d.key("end")
		d.key("c")
		d.typeText("x")
		d.key("enter")
		synctest_wait(d)
		mustContain(t, d.screen(), "░ 5", "five things done")
		d.key("esc")
		d.key("h")
		d.key("ctrl+x") // from the tool list: the global key
		if c := hs.called("CancelCall"); len(c) != 1 {
			t.Fatalf("cancel calls %v", c)
		}
		mustContain(t, d.screen(), "⊘ cancelled")
	})
}
