// Package events holds genui's two event paths:
//
//   - Broker, a small generic publish/subscribe broker the engine uses to tell
//     its front ends (TUI, /events SSE stream) what happened. Streaming updates
//     may be dropped for a slow subscriber; final events never are, and
//     publishing never blocks.
//   - Queue, the bounded event queue behind `GET /wait`: anything pushes
//     events, long-polling clients drain them, each event reaches exactly one
//     poller. WaitHandler serves it over HTTP.
package events

import (
	"context"
	"sync"
	"sync/atomic"
)

// DefaultBrokerBuffer is how many undelivered streaming events a subscriber
// may have before further streaming events are dropped for it, used when
// NewBroker is given a size <= 0.
const DefaultBrokerBuffer = 64

// DefaultMaxPending bounds a subscriber's undelivered events of any kind:
// one that falls further behind is ended (after the lag event, if the
// broker has one).
const DefaultMaxPending = 10000

// Event is one typed event published on a Broker.
type Event[T any] struct {
	Type    string
	Payload T
}

// Broker fans events out to subscribers. Each subscriber has its own queue
// drained by its own goroutine into its channel, so Publish and
// PublishFinal never wait for a reader. The zero value is not usable; call
// NewBroker. All methods are safe for concurrent use.
type Broker[T any] struct {
	bufferSize int
	maxPending int
	lag        func(pending int) (string, T)

	mu     sync.RWMutex
	subs   map[*subscriber[T]]struct{}
	closed bool
	// live mirrors len(subs) for HasSubscribers, which runs on hot paths.
	live atomic.Int32
}

// subscriber is one Subscribe call: a queue, a pump goroutine and the
// channel the pump feeds.
type subscriber[T any] struct {
	ch   chan Event[T]
	wake chan struct{} // cap 1: the queue grew or the subscription is ending
	// done is closed when the reader is gone (ctx ended): the pump stops at
	// once and drops what is queued.
	done     chan struct{}
	doneOnce sync.Once
	stop     func() bool // stops the ctx watcher; guarded by Broker.mu

	mu      sync.Mutex
	pending []Event[T]
	// draining: deliver what is queued, then close ch (Shutdown, lag).
	draining bool
}

// BrokerOption configures a Broker.
type BrokerOption[T any] func(*Broker[T])

// WithLagEvent sets the last event a subscriber gets when it is ended for
// falling more than the max-pending bound behind.
func WithLagEvent[T any](f func(pending int) (string, T)) BrokerOption[T] {
	return func(b *Broker[T]) { b.lag = f }
}

// NewBroker returns a broker whose subscribers each hold up to bufferSize
// undelivered streaming events (DefaultBrokerBuffer when bufferSize <= 0).
func NewBroker[T any](bufferSize int, opts ...BrokerOption[T]) *Broker[T] {
	if bufferSize <= 0 {
		bufferSize = DefaultBrokerBuffer
	}
	b := &Broker[T]{bufferSize: bufferSize, maxPending: DefaultMaxPending, subs: make(map[*subscriber[T]]struct{})}
	for _, o := range opts {
		o(b)
	}
	return b
}

// Subscribe returns a channel that receives every event published from now
// on (streaming events may be dropped if the reader falls behind). The
// channel is closed when ctx ends, after the broker shuts down and the
// queued events are delivered, or when the subscriber falls more than the
// max-pending bound behind. After Shutdown it is returned already closed.
func (b *Broker[T]) Subscribe(ctx context.Context) <-chan Event[T] {
	s := &subscriber[T]{
		ch:   make(chan Event[T]),
		wake: make(chan struct{}, 1),
		done: make(chan struct{}),
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		close(s.ch)
		return s.ch
	}
	b.subs[s] = struct{}{}
	b.live.Store(int32(len(b.subs)))
	s.stop = context.AfterFunc(ctx, func() { b.remove(s) })
	go s.pump()
	return s.ch
}

// Publish queues an event for every subscriber without blocking; a
// subscriber with bufferSize undelivered events misses it. Use it for
// streaming updates.
func (b *Broker[T]) Publish(t string, payload T) {
	ev := Event[T]{Type: t, Payload: payload}
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs {
		s.enqueue(ev, b.bufferSize)
	}
}

// PublishFinal queues an event for every current subscriber without
// blocking and without dropping it. A subscriber already holding the
// max-pending number of undelivered events is ended instead: it gets what
// is queued, the lag event (WithLagEvent), and then its channel closes, so
// a reader never silently misses a final event.
func (b *Broker[T]) PublishFinal(t string, payload T) {
	ev := Event[T]{Type: t, Payload: payload}
	var lagged []*subscriber[T]
	b.mu.RLock()
	for s := range b.subs {
		if !s.enqueue(ev, b.maxPending) {
			lagged = append(lagged, s)
		}
	}
	b.mu.RUnlock()
	for _, s := range lagged {
		b.mu.Lock()
		if _, ok := b.subs[s]; ok {
			delete(b.subs, s)
			b.live.Store(int32(len(b.subs)))
			s.stop()
		}
		b.mu.Unlock()
		s.drainAndClose(b.lag)
	}
}

// Shutdown ends every subscription: each gets what is already queued for
// it and then its channel closes. Later Subscribe calls get a closed channel
// and Publish does nothing. It is safe to call more than once.
func (b *Broker[T]) Shutdown() {
	b.mu.Lock()
	b.closed = true
	subs := b.subs
	b.subs = make(map[*subscriber[T]]struct{})
	b.live.Store(0)
	for s := range subs {
		s.stop()
	}
	b.mu.Unlock()
	for s := range subs {
		s.drainAndClose(nil)
	}
}

// SubscriberCount reports how many subscriptions are live.
func (b *Broker[T]) SubscriberCount() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.subs)
}

// HasSubscribers reports whether anyone listens (a cheap check before
// building an expensive streaming event).
func (b *Broker[T]) HasSubscribers() bool { return b.live.Load() > 0 }

// remove ends one subscription at once (its reader is gone).
func (b *Broker[T]) remove(s *subscriber[T]) {
	b.mu.Lock()
	delete(b.subs, s)
	b.live.Store(int32(len(b.subs)))
	b.mu.Unlock()
	s.doneOnce.Do(func() { close(s.done) })
}

// enqueue appends ev unless the subscriber already holds limit undelivered
// events (it reports false then) or is ending.
func (s *subscriber[T]) enqueue(ev Event[T], limit int) bool {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return true
	}
	if len(s.pending) >= limit {
		s.mu.Unlock()
		return false
	}
	s.pending = append(s.pending, ev)
	s.mu.Unlock()
	s.poke()
	return true
}

// drainAndClose lets the pump deliver what is queued (plus the lag event,
// when lag is set) and then close the channel.
func (s *subscriber[T]) drainAndClose(lag func(int) (string, T)) {
	s.mu.Lock()
	if !s.draining {
		s.draining = true
		if lag != nil {
			t, p := lag(len(s.pending))
			s.pending = append(s.pending, Event[T]{Type: t, Payload: p})
		}
	}
	s.mu.Unlock()
	s.poke()
}

func (s *subscriber[T]) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pump moves queued events into the channel, in order, until the reader
// leaves or a drain completes; it closes the channel when it returns.
func (s *subscriber[T]) pump() {
	defer close(s.ch)
	for {
		s.mu.Lock()
		if len(s.pending) == 0 {
			draining := s.draining
			s.pending = nil // let a burst's backing array go
			s.mu.Unlock()
			if draining {
				return
			}
			select {
			case <-s.wake:
				continue
			case <-s.done:
				return
			}
		}
		ev := s.pending[0]
		var zero Event[T]
		s.pending[0] = zero
		s.pending = s.pending[1:]
		s.mu.Unlock()
		select {
		case s.ch <- ev:
		case <-s.done:
			return
		}
	}
}
