package events

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
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
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
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
				time.Sleep(time.Microsecond) // let the fast reader keep up a little
			}
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(bound):
		t.Fatal("Publish blocked on a subscriber that never reads")
	}
	// The slow subscriber holds exactly the first event; the rest were dropped.
	ev, ok := recv(t, slow)
	if !ok || ev.Payload != 0 {
		t.Fatalf("slow subscriber first event = %+v ok=%v, want payload 0", ev, ok)
	}
	select {
	case ev := <-slow:
		t.Fatalf("slow subscriber got a second event %+v; buffer is 1", ev)
	default:
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

func TestBrokerPublishFinalDelivers(t *testing.T) {
	b := NewBroker[string](1)
	ch := b.Subscribe(t.Context())
	b.Publish("progress", "50%") // fills the buffer

	errc := make(chan error, 1)
	go func() { errc <- b.PublishFinal(t.Context(), "done", "result") }()
	select {
	case err := <-errc:
		t.Fatalf("PublishFinal returned (%v) before the subscriber made room", err)
	case <-time.After(50 * time.Millisecond):
	}
	for _, want := range []string{"progress", "done"} {
		ev, ok := recv(t, ch)
		if !ok || ev.Type != want {
			t.Fatalf("got %+v ok=%v, want type %q", ev, ok, want)
		}
	}
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("PublishFinal: %v", err)
		}
	case <-time.After(bound):
		t.Fatal("PublishFinal did not return")
	}
}

func TestBrokerPublishFinalBounded(t *testing.T) {
	tests := []struct {
		name    string
		end     func(b *Broker[int], cancelSub context.CancelFunc)
		wantErr bool
	}{
		{"ctx deadline with a stuck subscriber", func(*Broker[int], context.CancelFunc) {}, true},
		{"subscriber leaves", func(_ *Broker[int], cancelSub context.CancelFunc) { cancelSub() }, false},
		{"broker shuts down", func(b *Broker[int], _ context.CancelFunc) { b.Shutdown() }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBroker[int](1)
			subCtx, cancelSub := context.WithCancel(t.Context())
			defer cancelSub()
			b.Subscribe(subCtx)
			b.Publish("fill", 0)

			ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
			defer cancel()
			errc := make(chan error, 1)
			go func() { errc <- b.PublishFinal(ctx, "final", 1) }()
			time.Sleep(20 * time.Millisecond) // let it block
			tt.end(b, cancelSub)
			select {
			case err := <-errc:
				if tt.wantErr != (err != nil) {
					t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
				}
				if err != nil && !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("err = %v, want DeadlineExceeded inside", err)
				}
			case <-time.After(bound):
				t.Fatal("PublishFinal hung")
			}
		})
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
	if err := b.PublishFinal(t.Context(), "late", 1); err != nil {
		t.Fatalf("PublishFinal after Shutdown: %v", err)
	}
	b.Shutdown() // idempotent
}

// TestBrokerConcurrentChurn publishes while subscribers come and go; under
// -race it catches sends on closed channels and data races.
func TestBrokerConcurrentChurn(t *testing.T) {
	b := NewBroker[int](4)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if i%2 == 0 {
					b.Publish("p", i)
				} else {
					ctx, cancel := context.WithTimeout(t.Context(), time.Millisecond)
					_ = b.PublishFinal(ctx, "f", i)
					cancel()
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
				<-ch // reads one event or sees the close after Shutdown
				cancel()
				for range ch { // drain until closed
				}
			}
		})
	}
	time.Sleep(200 * time.Millisecond)
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
