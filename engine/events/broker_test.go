package events

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// bound is the longest any test here waits for something that should be quick.
const bound = 5 * time.Second

// recv reads one event or fails after bound.
func recv[T any](t *testing.T, ch <-chan Event[T]) (Event[T], bool) {
	t.Helper()
	select {
	case ev, ok := <-ch:
		return ev, ok
	case <-time.After(bound):
		t.Fatal("no event within bound")
		return Event[T]{}, false
	}
}

// eventually polls cond until it holds or bound passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testenv.Eventually(t, bound, what, cond)
}

func TestBrokerSubscribeUnsubscribe(t *testing.T) {
	b := NewBroker[int](4)
	ctx1, cancel1 := context.WithCancel(t.Context())
	ctx2, cancel2 := context.WithCancel(t.Context())
	defer cancel2()
	ch1 := b.Subscribe(ctx1)
	ch2 := b.Subscribe(ctx2)
	if n := b.SubscriberCount(); n != 2 {
		t.Fatalf("SubscriberCount = %d, want 2", n)
	}

	cancel1()
	if _, ok := recv(t, ch1); ok {
		t.Fatal("ch1 delivered an event after cancel; want closed")
	}
	eventually(t, "count 1", func() bool { return b.SubscriberCount() == 1 })

	b.Publish("tick", 7)
	ev, ok := recv(t, ch2)
	if !ok || ev.Type != "tick" || ev.Payload != 7 {
		t.Fatalf("ch2 got %+v ok=%v, want tick/7", ev, ok)
	}
}

func TestBrokerSubscribeCancelledContext(t *testing.T) {
	b := NewBroker[string](0)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ch := b.Subscribe(ctx)
	if _, ok := recv(t, ch); ok {
		t.Fatal("subscription with a cancelled ctx delivered an event")
	}
	eventually(t, "no subscribers", func() bool { return b.SubscriberCount() == 0 })
}

func TestBrokerPublishOrderToAll(t *testing.T) {
	b := NewBroker[int](16)
	chs := []<-chan Event[int]{b.Subscribe(t.Context()), b.Subscribe(t.Context()), b.Subscribe(t.Context())}
	for i := range 10 {
		b.Publish("n", i)
	}
	for si, ch := range chs {
		for i := range 10 {
			ev, ok := recv(t, ch)
			if !ok || ev.Payload != i {
				t.Fatalf("subscriber %d event %d = %+v ok=%v", si, i, ev, ok)
			}
		}
	}
}

func TestBrokerPublishDoesNotBlockOnSlowSubscriber(t *testing.T) {
	b := NewBroker[int](1)
	slow := b.Subscribe(t.Context()) // never read until the end
	fast := b.Subscribe(t.Context())
	const n = 1000

	got := make(chan int)
	go func() {
		count := 0
		for range fast {
			count++
			if count == n {
				break
			}
		}
		got <- count
	}()
	done := make(chan struct{})
	go func() {
		for i := range n {
			b.Publish("n", i)
			if i%50 == 0 {
				runtime.Gosched() // let the fast reader keep up a little
			}
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(bound):
		t.Fatal("Publish blocked on a subscriber that never reads")
	}
	// The slow subscriber holds the first event (in its pump) and at most
	// one more (its buffer); the rest were dropped.
	ev, ok := recv(t, slow)
	if !ok || ev.Payload != 0 {
		t.Fatalf("slow subscriber first event = %+v ok=%v, want payload 0", ev, ok)
	}
	extra := 0
	for {
		select {
		case <-slow:
			extra++
			continue
		case <-time.After(50 * time.Millisecond):
		}
		break
	}
	if extra > 1 {
		t.Fatalf("slow subscriber got %d more events; buffer is 1", extra)
	}
	b.Shutdown() // ends the fast reader's range if it fell behind and missed some
	select {
	case c := <-got:
		if c == 0 {
			t.Fatal("fast subscriber received nothing")
		}
	case <-time.After(bound):
		t.Fatal("fast reader did not finish")
	}
}

func TestBrokerPublishFinalNeverBlocksNorDrops(t *testing.T) {
	b := NewBroker[string](1)
	ch := b.Subscribe(t.Context())
	b.Publish("progress", "50%") // fills the streaming buffer
	done := make(chan struct{})
	go func() {
		for i := range 100 {
			b.PublishFinal("done", strconv.Itoa(i))
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(bound):
		t.Fatal("PublishFinal blocked on a subscriber that does not read")
	}
	b.Publish("progress", "dropped") // the buffer is full: dropped
	ev, ok := recv(t, ch)
	if !ok || ev.Type != "progress" || ev.Payload != "50%" {
		t.Fatalf("first event = %+v ok=%v, want progress 50%%", ev, ok)
	}
	for i := range 100 {
		ev, ok := recv(t, ch)
		if !ok || ev.Type != "done" || ev.Payload != strconv.Itoa(i) {
			t.Fatalf("final event %d = %+v ok=%v", i, ev, ok)
		}
	}
	select {
	case ev := <-ch:
		t.Fatalf("unexpected event %+v: the streaming event published while full must be dropped", ev)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestBrokerLaggingSubscriberIsEndedNotSilentlyShort(t *testing.T) {
	b := NewBroker(1, WithMaxPending[int](10), WithLagEvent(func(pending int) (string, int) { return "lagged", pending }))
	ch := b.Subscribe(t.Context())
	for i := range 50 {
		b.PublishFinal("f", i)
	}
	var got []int
	var lagged bool
	for {
		ev, ok := recv(t, ch)
		if !ok {
			break
		}
		if ev.Type == "lagged" {
			lagged = true
			continue
		}
		if lagged {
			t.Fatalf("event %+v after the lag event", ev)
		}
		got = append(got, ev.Payload)
	}
	if !lagged {
		t.Fatal("no lag event before the channel closed")
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("events before the lag are not the first ones in order: %v", got)
		}
	}
	if len(got) < 10 || len(got) > 11 {
		t.Fatalf("got %d events before the lag, want the 10 pending (+1 in flight)", len(got))
	}
	eventually(t, "lagging subscriber removed", func() bool { return b.SubscriberCount() == 0 })
}

func TestBrokerShutdownDeliversQueuedFinals(t *testing.T) {
	b := NewBroker[int](1)
	ch := b.Subscribe(t.Context())
	for i := range 5 {
		b.PublishFinal("f", i)
	}
	b.Shutdown()
	for i := range 5 {
		ev, ok := recv(t, ch)
		if !ok || ev.Payload != i {
			t.Fatalf("event %d after Shutdown = %+v ok=%v", i, ev, ok)
		}
	}
	if _, ok := recv(t, ch); ok {
		t.Fatal("channel still open after the queued events")
	}
}

func TestBrokerShutdown(t *testing.T) {
	b := NewBroker[int](2)
	chs := []<-chan Event[int]{b.Subscribe(t.Context()), b.Subscribe(t.Context())}
	b.Shutdown()
	for i, ch := range chs {
		if _, ok := recv(t, ch); ok {
			t.Fatalf("subscriber %d still open after Shutdown", i)
		}
	}
	if n := b.SubscriberCount(); n != 0 {
		t.Fatalf("SubscriberCount after Shutdown = %d", n)
	}
	if _, ok := recv(t, b.Subscribe(t.Context())); ok {
		t.Fatal("Subscribe after Shutdown returned an open channel")
	}
	b.Publish("late", 1) // must not panic
	b.PublishFinal("late", 1)
	b.Shutdown() // idempotent
}

// TestBrokerConcurrentChurn publishes while subscribers come and go; under
// -race it catches sends on closed channels and data races.
func TestBrokerConcurrentChurn(t *testing.T) {
	b := NewBroker[int](4)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var published, subscriptions atomic.Int64
	for range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				published.Add(1)
				if i%2 == 0 {
					b.Publish("p", i)
				} else {
					b.PublishFinal("f", i)
				}
			}
		})
	}
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithCancel(t.Context())
				ch := b.Subscribe(ctx)
				subscriptions.Add(1)
				<-ch // reads one event or sees the close after Shutdown
				cancel()
				for range ch { // drain until closed
				}
			}
		})
	}
	// Churn enough that publishes and subscriptions overlap many times over.
	eventually(t, "50 subscriptions among publishes", func() bool { return subscriptions.Load() >= 50 && published.Load() >= 1000 })
	close(stop)
	b.Shutdown()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(bound):
		t.Fatal("goroutines did not finish")
	}
	if n := b.SubscriberCount(); n != 0 {
		t.Fatalf("SubscriberCount = %d after churn and Shutdown", n)
	}
}
