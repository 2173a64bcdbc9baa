package events

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// seqs lists the Seq of each event, 0 for dropped markers.
func seqs(evs []contract.QueuedEvent) []int64 {
	out := make([]int64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Seq
	}
	return out
}

func TestQueueWaitTimeoutEmpty(t *testing.T) {
	q := NewQueue(0)
	start := time.Now()
	evs := q.Wait(t.Context(), 50*time.Millisecond)
	el := time.Since(start)
	if evs != nil {
		t.Fatalf("Wait on empty queue = %v, want nil", evs)
	}
	if el < 50*time.Millisecond || el > bound {
		t.Fatalf("Wait returned after %v, want about 50ms", el)
	}
}

func TestQueueWaitReturnsQueuedInOrder(t *testing.T) {
	q := NewQueue(0)
	for i := range 5 {
		q.Push("engine", "t", fmt.Sprintf("tool%d", i), map[string]int{"i": i})
	}
	// With events queued Wait returns them at once: with an hour's
	// timeout, one that waited would trip the hang bound.
	got := make(chan []contract.QueuedEvent, 1)
	go func() { got <- q.Wait(t.Context(), time.Hour) }()
	var evs []contract.QueuedEvent
	select {
	case evs = <-got:
	case <-time.After(bound):
		t.Fatal("Wait with queued events waits for its timeout")
	}
	if got := fmt.Sprint(seqs(evs)); got != "[1 2 3 4 5]" {
		t.Fatalf("seqs = %s, want [1 2 3 4 5]", got)
	}
	for i, ev := range evs {
		if ev.Tool != fmt.Sprintf("tool%d", i) || string(ev.Payload) != fmt.Sprintf(`{"i":%d}`, i) ||
			ev.Source != "engine" || ev.Type != "t" || ev.Time.IsZero() {
			t.Fatalf("event %d = %+v", i, ev)
		}
	}
	if q.Len() != 0 {
		t.Fatalf("Len after drain = %d", q.Len())
	}
	if evs := q.Wait(t.Context(), 0); evs != nil {
		t.Fatalf("second Wait = %v, want nil (drained)", evs)
	}
}

func TestQueueWaitZeroTimeoutDoesNotBlock(t *testing.T) {
	q := NewQueue(0)
	if evs := q.Wait(t.Context(), 0); evs != nil {
		t.Fatalf("Wait(0) on empty = %v", evs)
	}
	q.Push("api", "x", "", nil)
	if evs := q.Wait(t.Context(), 0); len(evs) != 1 || evs[0].Payload != nil {
		t.Fatalf("Wait(0) = %+v, want one event without payload", evs)
	}
}

func TestQueuePushDuringWait(t *testing.T) {
	q := NewQueue(0)
	got := make(chan []contract.QueuedEvent, 1)
	go func() { got <- q.Wait(t.Context(), time.Hour) }() // only a Push ends it
	eventually(t, "poller waiting", func() bool { return q.Stats().Pollers == 1 })
	q.Push("api", "a", "", nil)
	q.Push("api", "b", "", nil)

	var all []contract.QueuedEvent
	select {
	case evs := <-got:
		all = append(all, evs...)
	case <-time.After(bound):
		t.Fatal("waiter not woken by Push")
	}
	if len(all) < 2 { // the second push may have missed the first response
		all = append(all, q.Wait(t.Context(), bound)...)
	}
	if len(all) != 2 || all[0].Type != "a" || all[1].Type != "b" {
		t.Fatalf("events = %+v, want a then b", all)
	}
}

func TestQueueWaitContextCancelDoesNotDrain(t *testing.T) {
	q := NewQueue(0)
	ctx, cancel := context.WithCancel(t.Context())
	got := make(chan []contract.QueuedEvent, 1)
	go func() { got <- q.Wait(ctx, bound) }()
	eventually(t, "poller waiting", func() bool { return q.Stats().Pollers == 1 })
	cancel()
	select {
	case evs := <-got:
		if evs != nil {
			t.Fatalf("cancelled Wait = %v", evs)
		}
	case <-time.After(bound):
		t.Fatal("cancelled Wait did not return")
	}
	q.Push("api", "kept", "", nil)
	if evs := q.Wait(ctx, 0); evs != nil {
		t.Fatalf("Wait with a done ctx drained %v", evs)
	}
	if q.Len() != 1 {
		t.Fatalf("Len = %d, want 1", q.Len())
	}
}

func TestQueuePayloadEncoding(t *testing.T) {
	tests := []struct {
		name    string
		payload any
		want    string
	}{
		{"nil", nil, ""},
		{"nil raw", json.RawMessage(nil), ""},
		{"map", map[string]any{"a": 1}, `{"a":1}`},
		{"string", "hi", `"hi"`},
		{"raw kept and compacted", json.RawMessage(`{ "x" : [1, 2] }`), `{"x":[1,2]}`},
		{"bad raw", json.RawMessage(`{nope`), `{"error":"payload not JSON-encodable: `},
		{"channel", make(chan int), `{"error":"payload not JSON-encodable: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := NewQueue(1).Push("api", "x", "", tt.payload)
			got := string(ev.Payload)
			if tt.want == "" && got != "" || len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
				t.Fatalf("payload = %q, want prefix %q", got, tt.want)
			}
			if got != "" && !json.Valid(ev.Payload) {
				t.Fatalf("payload %q is not valid JSON", got)
			}
		})
	}
}

func TestQueueOverflow(t *testing.T) {
	tests := []struct {
		capacity    int
		push        int
		wantSeqs    string // 0 is the dropped marker
		wantDropped int
	}{
		{3, 3, "[1 2 3]", 0},
		{3, 5, "[0 3 4 5]", 2},
		{1, 10, "[0 10]", 9},
		{2, 1000, "[0 999 1000]", 998},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("cap%d_push%d", tt.capacity, tt.push), func(t *testing.T) {
			q := NewQueue(tt.capacity)
			for range tt.push {
				q.Push("engine", "e", "", nil)
			}
			wantLen := tt.capacity
			if tt.push < wantLen {
				wantLen = tt.push
			}
			if tt.wantDropped > 0 {
				wantLen++
			}
			st := q.Stats()
			if st.Pending != wantLen || q.Len() != wantLen || st.Pushed != int64(tt.push) || st.Dropped != int64(tt.wantDropped) {
				t.Fatalf("stats before drain = %+v, Len %d; want pending %d", st, q.Len(), wantLen)
			}
			evs := q.Wait(t.Context(), 0)
			if got := fmt.Sprint(seqs(evs)); got != tt.wantSeqs {
				t.Fatalf("seqs = %s, want %s", got, tt.wantSeqs)
			}
			if tt.wantDropped > 0 {
				m := evs[0]
				if m.Type != TypeDropped || m.Source != SourceQueue || string(m.Payload) != fmt.Sprintf(`{"dropped":%d}`, tt.wantDropped) {
					t.Fatalf("marker = %+v", m)
				}
			}
			st = q.Stats()
			if st.Pushed != st.Delivered+st.Dropped || st.Pending != 0 {
				t.Fatalf("stats after drain = %+v: pushed != delivered + dropped", st)
			}
		})
	}
}

func TestQueueOverflowMarkerResetsAfterDrain(t *testing.T) {
	q := NewQueue(2)
	for range 4 {
		q.Push("e", "e", "", nil)
	}
	q.Wait(t.Context(), 0) // marker {2}, 3, 4
	for range 3 {
		q.Push("e", "e", "", nil) // 5, 6, 7: drops 5
	}
	evs := q.Wait(t.Context(), 0)
	if got := fmt.Sprint(seqs(evs)); got != "[0 6 7]" || string(evs[0].Payload) != `{"dropped":1}` {
		t.Fatalf("second batch = %s marker %s, want [0 6 7] with dropped 1", got, evs[0].Payload)
	}
	if st := q.Stats(); st.Dropped != 3 || st.Delivered != 4 || st.Pushed != 7 {
		t.Fatalf("stats = %+v, want dropped 3 delivered 4 pushed 7", st)
	}
}

func TestQueueUnread(t *testing.T) {
	q := NewQueue(3)
	for range 5 {
		q.Push("e", "e", "", nil) // marker{2}, 3, 4, 5
	}
	batch := q.Wait(t.Context(), 0)
	q.Push("e", "e", "", nil) // 6
	q.unread(batch)           // marker{2}, 3, 4, 5, 6 -> over capacity: drop 3
	evs := q.Wait(t.Context(), 0)
	if got := fmt.Sprint(seqs(evs)); got != "[0 4 5 6]" || string(evs[0].Payload) != `{"dropped":3}` {
		t.Fatalf("after unread = %s marker %s, want [0 4 5 6] with dropped 3", got, evs[0].Payload)
	}
	if st := q.Stats(); st.Pushed != 6 || st.Delivered != 3 || st.Dropped != 3 {
		t.Fatalf("stats = %+v, want pushed 6 delivered 3 dropped 3", st)
	}
}

func TestQueuePollerTracking(t *testing.T) {
	q := NewQueue(0)
	if st := q.Stats(); st.Pollers != 0 || !st.LastPollReturned.IsZero() || st.SinceLastPoll != "" {
		t.Fatalf("fresh stats = %+v", st)
	}
	ctx, cancel := context.WithCancel(t.Context())
	results := make(chan []contract.QueuedEvent, 3)
	for range 3 {
		go func() { results <- q.Wait(ctx, bound) }()
	}
	eventually(t, "3 pollers", func() bool { return q.Stats().Pollers == 3 })

	q.Push("api", "one", "", nil)
	first := <-results // exactly one waiter gets it
	if len(first) != 1 || first[0].Type != "one" {
		t.Fatalf("first result = %+v", first)
	}
	eventually(t, "2 pollers", func() bool { return q.Stats().Pollers == 2 })
	cancel()
	for range 2 {
		select {
		case evs := <-results:
			if evs != nil {
				t.Fatalf("another waiter also got %+v", evs)
			}
		case <-time.After(bound):
			t.Fatal("cancelled waiter did not return")
		}
	}
	st := q.Stats()
	if st.Pollers != 0 || st.LastPollReturned.IsZero() || st.SinceLastPoll == "" || st.Delivered != 1 {
		t.Fatalf("final stats = %+v", st)
	}
}

// TestQueueConcurrentExactlyOnce runs many pushers and pollers at once:
// every seq must arrive exactly once, in increasing order per poller.
func TestQueueConcurrentExactlyOnce(t *testing.T) {
	const pushers, perPusher, pollers = 8, 2000, 4
	const total = pushers * perPusher
	q := NewQueue(total) // large enough that nothing is dropped

	var pushWG sync.WaitGroup
	for p := range pushers {
		pushWG.Go(func() {
			for i := range perPusher {
				q.Push("api", "n", "", map[string]int{"p": p, "i": i})
			}
		})
	}
	pushersDone := make(chan struct{})
	go func() { pushWG.Wait(); close(pushersDone) }()

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var mu sync.Mutex
	seen := make(map[int64]int, total)
	var pollWG sync.WaitGroup
	for range pollers {
		pollWG.Go(func() {
			var last int64
			for {
				evs := q.Wait(ctx, 20*time.Millisecond)
				if evs == nil {
					select {
					case <-pushersDone:
						if q.Len() == 0 {
							return
						}
					case <-ctx.Done():
						return
					default:
					}
					continue
				}
				mu.Lock()
				for _, ev := range evs {
					seen[ev.Seq]++
					if ev.Seq <= last {
						t.Errorf("poller saw seq %d after %d", ev.Seq, last)
					}
					last = ev.Seq
				}
				mu.Unlock()
			}
		})
	}
	pollWG.Wait()
	if ctx.Err() != nil {
		t.Fatal("pollers did not finish in time")
	}
	for s := int64(1); s <= total; s++ {
		if seen[s] != 1 {
			t.Fatalf("seq %d seen %d times", s, seen[s])
		}
	}
	if len(seen) != total {
		t.Fatalf("saw %d distinct seqs, want %d", len(seen), total)
	}
	if st := q.Stats(); st.Pushed != total || st.Delivered != total || st.Dropped != 0 || st.Pending != 0 {
		t.Fatalf("stats = %+v", st)
	}
}
