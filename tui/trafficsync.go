package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// The Traffic pane's rows follow genui's traffic numbers (Traffic.Seq):
// each subscription starts by reading genui's record of recent frames
// (RecentTraffic), so an attached TUI starts with history and a
// resubscription fills what it missed; a jump in the numbers the stream
// delivers (the stream fell behind and genui dropped frames for it) is a
// row that says how many frames are missing there.

// trafficSync is where the Traffic pane is in genui's numbering.
type trafficSync struct {
	last int64 // the newest traffic number shown (0: none)
	// resync: a subscription started and its history is not in yet (the
	// stream's first frames may jump; the history fills in).
	resync bool
	// streamRows counts the rows the stream added since the subscription
	// started; streamFirst is the first number it delivered.
	streamRows  int
	streamFirst int64
	// reordered counts history merges (a search starts over).
	reordered int
}

// trafficHistoryMsg is RecentTraffic's answer for subscription gen.
type trafficHistoryMsg struct {
	gen   int
	after int64
	page  contract.TrafficPage
	err   error
}

// trafficSubscribed starts following a new subscription: it reads the
// frames genui recorded after the newest one shown.
func (s *shared) trafficSubscribed() tea.Cmd {
	s.trafficSync.resync, s.trafficSync.streamRows, s.trafficSync.streamFirst = true, 0, 0
	return s.fetchTraffic(s.trafficSync.last)
}

func (s *shared) fetchTraffic(after int64) tea.Cmd {
	api, gen := s.api, s.subGen
	ctx, cancel := s.callCtx(quickCall)
	return func() tea.Msg {
		defer cancel()
		page, err := api.RecentTraffic(ctx, contract.TrafficQuery{After: after})
		return trafficHistoryMsg{gen: gen, after: after, page: page, err: err}
	}
}

// addTraffic adds a frame from the stream, after a row saying how many
// frames are missing when its number jumps.
func (s *shared) addTraffic(ev contract.Event, t *contract.Traffic) {
	ts := &s.trafficSync
	if t.Seq > 0 {
		switch {
		case !ts.resync && t.Seq <= ts.last:
			return // the history had it
		case ts.resync:
			if ts.streamFirst == 0 {
				ts.streamFirst = t.Seq
			}
		case ts.last > 0 && t.Seq > ts.last+1:
			s.traffic.Push(trafficRow{time: ev.Time, kind: trafficGap, gap: t.Seq - ts.last - 1})
			ts.streamRows++
		}
		ts.last = max(ts.last, t.Seq)
	}
	s.traffic.Push(newTrafficRow(ev, t))
	ts.streamRows++
}

// handleTrafficHistory puts the recorded frames the stream did not deliver
// before the ones it did.
func (s *shared) handleTrafficHistory(msg trafficHistoryMsg) tea.Cmd {
	ts := &s.trafficSync
	if msg.gen != s.subGen || !ts.resync {
		return nil
	}
	if msg.err != nil {
		ts.resync = false // an engine without a record: the stream alone
		return nil
	}
	if msg.after > 0 && msg.page.Last < msg.after {
		// Another genui (or a restarted one) numbers from 1 again.
		ts.last = 0
		return s.fetchTraffic(0)
	}
	ts.resync = false
	var hist []trafficRow
	if msg.page.Skipped > 0 {
		t := s.now()
		if len(msg.page.Events) > 0 {
			t = msg.page.Events[0].Time
		}
		hist = append(hist, trafficRow{time: t, kind: trafficGap, method: "record", gap: msg.page.Skipped})
	}
	for _, ev := range msg.page.Events {
		t, ok := ev.Detail.(*contract.Traffic)
		if !ok || t.Seq <= msg.after || (ts.streamFirst > 0 && t.Seq >= ts.streamFirst) {
			continue
		}
		hist = append(hist, newTrafficRow(ev, t))
		ts.last = max(ts.last, t.Seq)
	}
	if len(hist) == 0 {
		return nil
	}
	// Rebuild the ring: the rows held before the subscription, the
	// history, then what the stream added since.
	n := s.traffic.Len()
	fresh := min(ts.streamRows, n)
	rebuilt := newRing[trafficRow](s.traffic.Cap())
	rebuilt.dropped = s.traffic.Dropped()
	for i := range n - fresh {
		rebuilt.Push(s.traffic.At(i))
	}
	for _, r := range hist {
		rebuilt.Push(r)
	}
	for i := n - fresh; i < n; i++ {
		rebuilt.Push(s.traffic.At(i))
	}
	s.traffic = rebuilt
	ts.reordered++
	return nil
}

// trafficGap is the kind of a row that stands for frames missing there.
const trafficGap = "gap"

// gapText is what a gap row says: frames the stream skipped, or (record)
// frames genui no longer held when the history was read.
func gapText(r trafficRow) string {
	if r.method == "record" {
		return fmt.Sprintf("⋯ %d older frame(s) not kept by genui", r.gap)
	}
	return fmt.Sprintf("⋯ %d frame(s) dropped here: the stream fell behind", r.gap)
}
