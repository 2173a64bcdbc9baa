package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/traffic"
)

// A burst of notifications to a subscriber that does not read: the
// streaming frames beyond its buffer are dropped for it (the numbers show
// the gap), the tools/call answer after them never is, and the record
// keeps the newest frames, counting the rest as skipped.
func TestTrafficRecordBurst(t *testing.T) {
	hub, pairs := newEventHub(), traffic.NewPairs()
	rec := traffic.NewRecord(hub.publishTraffic)
	defer hub.shutdown()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ch := hub.subscribe(ctx)
	now := time.Now()
	rec.Add(pairs.Observe(contract.GenuiToUpstream, "", []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"burst"}}`), now), now)
	const burst = 10000
	for i := range burst {
		f := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":%d}}`, i)
		rec.Add(pairs.Observe(contract.UpstreamToGenui, "", f, now), now)
	}
	rec.Add(pairs.Observe(contract.UpstreamToGenui, "", []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`), now), now)
	last := int64(burst + 2)

	var seen int
	var prev int64
	gap := false
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev := <-ch:
			tr, ok := ev.Detail.(*contract.Traffic)
			if !ok {
				continue
			}
			seen++
			if tr.Seq != prev+1 {
				gap = true
			}
			prev = tr.Seq
			if tr.Seq != last {
				continue
			}
			if tr.Kind != "response" || tr.Method != "tools/call" || tr.Tool != "burst" {
				t.Fatalf("the last frame: %+v", tr)
			}
			if !gap || seen >= burst {
				t.Fatalf("saw %d of %d frames, gap %v: the burst was meant to overflow the subscriber", seen, last, gap)
			}
			page := rec.Recent(contract.TrafficQuery{})
			if len(page.Events) != contract.MaxRecentTraffic || page.Last != last || page.Skipped != last-contract.MaxRecentTraffic {
				t.Fatalf("recent: %d events, last %d, skipped %d", len(page.Events), page.Last, page.Skipped)
			}
			if tr := page.Events[len(page.Events)-1].Detail.(*contract.Traffic); tr.Seq != last || tr.Kind != "response" {
				t.Fatalf("recent's newest: %+v", tr)
			}
			return
		case <-deadline:
			t.Fatalf("the tools/call answer never arrived (saw %d frames, the last %d)", seen, prev)
		}
	}
}
