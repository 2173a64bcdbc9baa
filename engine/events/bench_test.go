package events

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// percentiles reports p50 and p99 of lat (sorted in place).
func percentiles(lat []time.Duration) (p50, p99 time.Duration) {
	if len(lat) == 0 {
		return 0, 0
	}
	slices.Sort(lat)
	return lat[len(lat)*50/100], lat[min(len(lat)-1, len(lat)*99/100)]
}

// reportLatency adds p50-ns and p99-ns to the benchmark line and returns p50.
func reportLatency(b *testing.B, lat []time.Duration) time.Duration {
	p50, p99 := percentiles(lat)
	b.ReportMetric(float64(p50.Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(p99.Nanoseconds()), "p99-ns")
	return p50
}

// waitForPoller waits until a Wait call is parked on q, failing after
// bound. It runs before each measured push, so its short sleeps do not count.
func waitForPoller(b *testing.B, q *Queue) {
	deadline := time.Now().Add(bound)
	for q.Stats().Pollers == 0 {
		if time.Now().After(deadline) {
			b.Fatal("no poller waiting on the queue")
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// delivery is one event as a poller saw it.
type delivery struct {
	seq int64
	at  time.Time
}

// BenchmarkWaitLatency measures push-to-delivery latency with a poller
// already waiting: "chan" is the baseline (a plain unbuffered channel
// between two goroutines), "queue" is Queue.Wait in process, "http" is
// GET /wait over a real loopback HTTP server, decoded by the client. Each
// reports p50-ns and p99-ns; "http" and "queue" also report their p50 as a
// multiple of the channel baseline.
func BenchmarkWaitLatency(b *testing.B) {
	var chanP50 time.Duration
	ratio := func(b *testing.B, p50 time.Duration) {
		if chanP50 > 0 {
			b.ReportMetric(float64(p50)/float64(chanP50), "x-chan-p50")
		}
	}

	b.Run("chan", func(b *testing.B) {
		ch := make(chan time.Time)
		ack := make(chan time.Duration)
		go func() {
			for t0 := range ch {
				ack <- time.Since(t0)
			}
		}()
		defer close(ch)
		lat := make([]time.Duration, 0, b.N)
		for b.Loop() {
			ch <- time.Now()
			lat = append(lat, <-ack)
		}
		chanP50 = reportLatency(b, lat)
	})

	b.Run("queue", func(b *testing.B) {
		q := NewQueue(0)
		ctx, cancel := context.WithCancel(b.Context())
		defer cancel()
		got := make(chan delivery)
		go func() {
			for ctx.Err() == nil {
				for _, ev := range q.Wait(ctx, 10*time.Second) {
					got <- delivery{ev.Seq, time.Now()}
				}
			}
		}()
		lat := make([]time.Duration, 0, b.N)
		var seq int64
		for b.Loop() {
			waitForPoller(b, q)
			t0 := time.Now()
			q.Push("api", "bench", "", nil)
			seq++
			lat = append(lat, receiveSeq(b, got, seq).Sub(t0))
		}
		ratio(b, reportLatency(b, lat))
	})

	b.Run("http", func(b *testing.B) {
		q := NewQueue(0)
		srv := httptest.NewServer(WaitHandler(q, nil))
		defer srv.Close()
		ctx, cancel := context.WithCancel(b.Context())
		defer cancel()
		got := make(chan delivery)
		pollErr := make(chan error, 1)
		go func() {
			for ctx.Err() == nil {
				evs, err := poll(ctx, srv.Client(), srv.URL+"/wait?timeout=10")
				if err != nil {
					if ctx.Err() == nil {
						pollErr <- err
					}
					return
				}
				now := time.Now()
				for _, ev := range evs {
					select {
					case got <- delivery{ev.Seq, now}:
					case <-ctx.Done():
						return
					}
				}
			}
		}()
		lat := make([]time.Duration, 0, b.N)
		var seq int64
		for b.Loop() {
			waitForPoller(b, q)
			t0 := time.Now()
			q.Push("api", "bench", "", nil)
			seq++
			select {
			case err := <-pollErr:
				b.Fatal(err)
			default:
			}
			lat = append(lat, receiveSeq(b, got, seq).Sub(t0))
		}
		ratio(b, reportLatency(b, lat))
	})
}

// receiveSeq reads the next delivery and fails unless it is seq (so a lost
// or duplicated event fails the benchmark).
func receiveSeq(b *testing.B, got <-chan delivery, seq int64) time.Time {
	select {
	case d := <-got:
		if d.seq != seq {
			b.Fatalf("delivered seq %d, want %d (lost or duplicated)", d.seq, seq)
		}
		return d.at
	case <-time.After(bound):
		b.Fatalf("seq %d not delivered within %v", seq, bound)
		return time.Time{}
	}
}

// poll does one GET /wait and returns its events (nil for 204).
func poll(ctx context.Context, c *http.Client, url string) ([]contract.QueuedEvent, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNoContent:
		return nil, nil
	case http.StatusOK:
		var evs []contract.QueuedEvent
		if err := json.NewDecoder(resp.Body).Decode(&evs); err != nil {
			return nil, fmt.Errorf("decoding /wait body: %w", err)
		}
		return evs, nil
	default:
		return nil, fmt.Errorf("GET /wait: status %s", resp.Status)
	}
}

// bulkResult is the outcome of runHTTPBulk.
type bulkResult struct {
	err     error
	elapsed time.Duration
	batches int
}

// runHTTPBulk pushes n events from pushers goroutines while pollers clients
// drain them through GET /wait on a real loopback server, then checks that
// every seq arrived exactly once.
func runHTTPBulk(tb testing.TB, n, pushers, pollers int) bulkResult {
	q := NewQueue(n) // room for all: nothing may be dropped
	srv := httptest.NewServer(WaitHandler(q, nil))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: pollers}}
	defer client.CloseIdleConnections()

	ctx, cancel := context.WithTimeout(tb.Context(), 60*time.Second)
	defer cancel()
	// all ends the remaining long polls once every event has arrived.
	all, allArrived := context.WithCancel(ctx)
	defer allArrived()
	start := time.Now()

	var pushWG sync.WaitGroup
	for p := range pushers {
		pushWG.Go(func() {
			for i := p; i < n; i += pushers {
				q.Push("api", "bulk", "", map[string]int{"i": i})
			}
		})
	}
	pushed := make(chan struct{})
	go func() { pushWG.Wait(); close(pushed) }()

	var (
		mu       sync.Mutex
		seen     = make([]int, n+1)
		received int
		doneAt   time.Time
		batches  int
		errs     []error
		pollWG   sync.WaitGroup
	)
	for range pollers {
		pollWG.Go(func() {
			for {
				evs, err := poll(all, client, srv.URL+"/wait?timeout=0.2")
				if err != nil {
					mu.Lock()
					if ctx.Err() != nil || all.Err() == nil { // a real error, not our own "all arrived"
						errs = append(errs, err)
					}
					mu.Unlock()
					return
				}
				if evs == nil {
					select {
					case <-pushed:
						if q.Len() == 0 {
							return
						}
					default:
					}
					continue
				}
				mu.Lock()
				batches++
				for _, ev := range evs {
					if ev.Seq < 1 || ev.Seq > int64(n) {
						errs = append(errs, fmt.Errorf("unexpected seq %d (type %s)", ev.Seq, ev.Type))
						continue
					}
					seen[ev.Seq]++
					received++
				}
				if received >= n && doneAt.IsZero() {
					doneAt = time.Now()
					allArrived()
				}
				mu.Unlock()
			}
		})
	}
	pollWG.Wait()
	if doneAt.IsZero() {
		doneAt = time.Now()
	}
	res := bulkResult{elapsed: doneAt.Sub(start), batches: batches}
	if len(errs) > 0 {
		res.err = fmt.Errorf("%d poll errors, first: %w", len(errs), errs[0])
		return res
	}
	lost, dup := 0, 0
	for s := 1; s <= n; s++ {
		switch {
		case seen[s] == 0:
			lost++
		case seen[s] > 1:
			dup++
		}
	}
	if lost > 0 || dup > 0 {
		res.err = fmt.Errorf("%d events: %d lost, %d duplicated", n, lost, dup)
	}
	if st := q.Stats(); res.err == nil && (st.Delivered != int64(n) || st.Dropped != 0 || st.Pending != 0) {
		res.err = fmt.Errorf("queue stats %+v, want %d delivered and none dropped", st, n)
	}
	return res
}

// BenchmarkWaitBulk10k moves 10,000 events (4 pushers, 2 HTTP pollers)
// through GET /wait per iteration and fails on any loss or duplicate.
func BenchmarkWaitBulk10k(b *testing.B) {
	const n = 10_000
	var total time.Duration
	batches := 0
	for b.Loop() {
		res := runHTTPBulk(b, n, 4, 2)
		if res.err != nil {
			b.Fatal(res.err)
		}
		total += res.elapsed
		batches += res.batches
	}
	b.ReportMetric(float64(n)*float64(b.N)/total.Seconds(), "events/s")
	b.ReportMetric(float64(n*b.N)/float64(batches), "events/batch")
}
