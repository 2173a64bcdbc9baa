package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// recordStub is the stub with a traffic record: RecentTraffic answers
// page (frames 6..10 of 10; 5 no longer held).
type recordStub struct {
	*stubAPI
	page  contract.TrafficPage
	after []int64
}

func (r *recordStub) RecentTraffic(ctx context.Context, q contract.TrafficQuery) (contract.TrafficPage, error) {
	r.after = append(r.after, q.After)
	return r.page, nil
}

func numberedTraffic(seq int64) contract.Event {
	f := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"n":%d}}`, seq)
	return contract.Event{Time: fixedTime.Add(time.Duration(seq) * time.Second), Kind: contract.EventTraffic,
		Detail: &contract.Traffic{Seq: seq, Direction: contract.UpstreamToGenui, Kind: "notification",
			Method: "notifications/message", Size: len(f), Frame: []byte(f)}}
}

// A TUI that subscribes starts with the frames genui recorded (after a row
// for those it no longer held); frames the stream also delivers show once;
// a jump in the stream's numbers is a row saying how many are missing.
func TestTrafficStartsWithHistoryAndMarksGaps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stub := newStub()
		rs := &recordStub{stubAPI: stub, page: contract.TrafficPage{Skipped: 5, Last: 10}}
		for s := int64(6); s <= 10; s++ {
			rs.page.Events = append(rs.page.Events, numberedTraffic(s))
		}
		// The stream delivers 9 and 10 (the record has them too), then 13.
		for _, s := range []int64{9, 10, 13} {
			stub.events <- numberedTraffic(s)
		}
		d := newDriver(t, stub, func(o *Options) { o.API = rs })
		defer d.finish()
		synctest_wait(d)
		if len(rs.after) != 1 || rs.after[0] != 0 {
			t.Fatalf("RecentTraffic asked after %v, want once after 0", rs.after)
		}
		var got []string
		for i := range d.m.traffic.Len() {
			r := d.m.traffic.At(i)
			if r.kind == trafficGap {
				got = append(got, fmt.Sprintf("gap %d", r.gap))
				continue
			}
			got = append(got, fmt.Sprint(strings.TrimSuffix(strings.TrimPrefix(string(r.frame), `{"jsonrpc":"2.0","method":"notifications/message","params":{"n":`), "}}")))
		}
		if want := "gap 5,6,7,8,9,10,gap 2,13"; strings.Join(got, ",") != want {
			t.Fatalf("traffic rows %s, want %s", strings.Join(got, ","), want)
		}
		d.key("6")
		mustContain(t, d.screen(), "Traffic 8", "⋯ 5 older frame(s) not kept by genui", "⋯ 2 frame(s) dropped here: the stream fell behind")
	})
}
