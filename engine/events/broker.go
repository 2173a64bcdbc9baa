// Package events holds genui's two event paths:
//
//   - Broker, a small generic publish/subscribe broker the engine uses to tell
//     its front ends (TUI, /events SSE stream) what happened. Streaming updates
//     may be dropped for a slow subscriber; final results are delivered.
//   - Queue, the bounded event queue behind `GET /wait`: anything pushes
//     events, long-polling clients drain them, each event reaches exactly one
//     poller. WaitHandler serves it over HTTP.
package events

import (
	"context"
	"fmt"
	"sync"
)

// DefaultBrokerBuffer is the per-subscriber channel buffer used when
// NewBroker is given a size <= 0.
const DefaultBrokerBuffer = 64

// Event is one typed event published on a Broker.
type Event[T any] struct {
	Type    string
	Payload T
}

// Broker fans events out to subscribers. The zero value is not usable; call
// NewBroker. All methods are safe for concurrent use.
type Broker[T any] struct {
	bufferSize int

	mu     sync.RWMutex
	subs   map[*subscriber[T]]struct{}
	closed bool
}

// subscriber is one Subscribe call. Sends hold mu for reading; end closes
// done first (which releases any blocked PublishFinal send) and then takes mu
// for writing before closing ch, so no send ever hits a closed channel.
type subscriber[T any] struct {
	ch      chan Event[T]
	done    chan struct{}
	endOnce sync.Once
	mu      sync.RWMutex
	closed  bool        // guarded by mu
	stop    func() bool // stops the ctx watcher; guarded by Broker.mu
}

// NewBroker returns a broker whose subscriber channels hold bufferSize
// events (DefaultBrokerBuffer when bufferSize <= 0).
func NewBroker[T any](bufferSize int) *Broker[T] {
	if bufferSize <= 0 {
		bufferSize = DefaultBrokerBuffer
	}
	return &Broker[T]{bufferSize: bufferSize, subs: make(map[*subscriber[T]]struct{})}
}

// Subscribe returns a channel that receives every event published from now
// on (Publish may drop some if the reader falls behind). The channel is
// closed when ctx ends or the broker shuts down; after Shutdown it is
// returned already closed.
func (b *Broker[T]) Subscribe(ctx context.Context) <-chan Event[T] {
	s := &subscriber[T]{
		ch:   make(chan Event[T], b.bufferSize),
		done: make(chan struct{}),
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		s.end()
		return s.ch
	}
	b.subs[s] = struct{}{}
	s.stop = context.AfterFunc(ctx, func() { b.remove(s) })
	return s.ch
}

// Publish sends an event to every subscriber without blocking: a subscriber
// whose buffer is full misses it. Use it for streaming updates.
func (b *Broker[T]) Publish(t string, payload T) {
	ev := Event[T]{Type: t, Payload: payload}
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs {
		s.trySend(ev)
	}
}

// PublishFinal delivers an event to every current subscriber, waiting for
// slow readers until ctx ends. Subscribers that go away meanwhile are skipped.
// It returns an error naming how many subscribers it could not reach when ctx
// ends first.
func (b *Broker[T]) PublishFinal(ctx context.Context, t string, payload T) error {
	ev := Event[T]{Type: t, Payload: payload}
	b.mu.RLock()
	subs := make([]*subscriber[T], 0, len(b.subs))
	for s := range b.subs {
		subs = append(subs, s)
	}
	b.mu.RUnlock()

	missed := 0
	for _, s := range subs {
		if !s.send(ctx, ev) {
			missed++
		}
	}
	if missed > 0 {
		return fmt.Errorf("events: final event %q not delivered to %d of %d subscribers: %w",
			t, missed, len(subs), context.Cause(ctx))
	}
	return nil
}

// Shutdown closes every subscriber channel; later Subscribe calls get a
// closed channel and Publish does nothing. It is safe to call more than once.
func (b *Broker[T]) Shutdown() {
	b.mu.Lock()
	b.closed = true
	subs := b.subs
	b.subs = make(map[*subscriber[T]]struct{})
	for s := range subs {
		s.stop()
	}
	b.mu.Unlock()
	for s := range subs {
		s.end()
	}
}

// SubscriberCount reports how many subscriptions are live.
func (b *Broker[T]) SubscriberCount() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.subs)
}

// remove ends one subscription (its ctx ended).
func (b *Broker[T]) remove(s *subscriber[T]) {
	b.mu.Lock()
	delete(b.subs, s)
	b.mu.Unlock()
	s.end()
}

// end closes the subscription's channel exactly once.
func (s *subscriber[T]) end() {
	s.endOnce.Do(func() {
		close(s.done)
		s.mu.Lock()
		s.closed = true
		close(s.ch)
		s.mu.Unlock()
	})
}

// trySend delivers ev if there is buffer room; it never blocks.
func (s *subscriber[T]) trySend(ev Event[T]) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return
	}
	select {
	case s.ch <- ev:
	default:
	}
}

// send delivers ev, waiting for room until ctx ends. It reports false only
// when ctx ended first; a subscription that ended counts as delivered (there
// is nobody left to miss it).
func (s *subscriber[T]) send(ctx context.Context, ev Event[T]) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return true
	}
	select { // buffer room wins even when ctx has already ended
	case s.ch <- ev:
		return true
	default:
	}
	select {
	case s.ch <- ev:
		return true
	case <-s.done:
		return true
	case <-ctx.Done():
		return false
	}
}
