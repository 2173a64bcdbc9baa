package upstream

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
)

// maxQueued bounds notifications waiting for the handler; beyond it new
// ones are dropped (with a warning) rather than growing without limit.
const maxQueued = 100000

type notification struct {
	method string
	params json.RawMessage
}

// queued is a notification, or an answer that waits behind notifications
// (pushFunc).
type queued struct {
	notification
	fn func()
}

// notifyQueue hands upstream notifications to the handler on one goroutine,
// in arrival order. push never blocks, so the transport's read loop is never
// held up by a slow handler.
type notifyQueue struct {
	log *slog.Logger

	mu        sync.Mutex
	handler   func(method string, params json.RawMessage)
	items     []queued
	pushed    uint64
	delivered uint64
	progress  chan struct{} // closed and replaced when delivered advances
	wake      chan struct{} // capacity 1
	stopped   chan struct{} // closed when the delivery loop ends
}

func newNotifyQueue(log *slog.Logger) *notifyQueue {
	return &notifyQueue{log: log, progress: make(chan struct{}), wake: make(chan struct{}, 1), stopped: make(chan struct{})}
}

func (q *notifyQueue) setHandler(h func(string, json.RawMessage)) {
	q.mu.Lock()
	q.handler = h
	q.mu.Unlock()
}

// push enqueues one notification.
func (q *notifyQueue) push(method string, params json.RawMessage) {
	q.mu.Lock()
	if len(q.items) >= maxQueued {
		q.mu.Unlock()
		q.log.Warn("upstream notification dropped: handler too slow", "method", method)
		return
	}
	q.items = append(q.items, queued{notification: notification{method, params}})
	q.pushed++
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pushFunc enqueues f, to run on the delivery goroutine once everything
// pushed before it has been handled (an answer that must not overtake the
// notifications sent before it). It is never dropped.
func (q *notifyQueue) pushFunc(f func()) {
	q.mu.Lock()
	q.items = append(q.items, queued{fn: f})
	q.pushed++
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// idle reports whether everything pushed has been handled.
func (q *notifyQueue) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.delivered == q.pushed
}

// pushedCount is the number of notifications pushed so far.
func (q *notifyQueue) pushedCount() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pushed
}

// waitDelivered waits until the first target notifications have been
// handled, until ctx ends, or until the delivery loop stops; it reports
// whether they were.
func (q *notifyQueue) waitDelivered(ctx context.Context, target uint64) bool {
	for {
		q.mu.Lock()
		if q.delivered >= target {
			q.mu.Unlock()
			return true
		}
		ch, stopped := q.progress, q.stopped
		q.mu.Unlock()
		select {
		case <-ch:
		case <-stopped:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// start runs the delivery goroutine; the returned func stops it after the
// notifications already queued have been delivered.
func (q *notifyQueue) start() (stop func()) {
	done := make(chan struct{})
	go q.loop(done)
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

func (q *notifyQueue) loop(done <-chan struct{}) {
	defer close(q.stopped)
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			q.mu.Unlock()
			select {
			case <-q.wake:
				continue
			case <-done:
				return
			}
		}
		n := q.items[0]
		q.items[0] = queued{}
		q.items = q.items[1:]
		h := q.handler
		q.mu.Unlock()

		if n.fn != nil {
			q.run(n.fn)
		} else if h != nil {
			q.deliver(h, n.notification)
		}

		q.mu.Lock()
		q.delivered++
		close(q.progress)
		q.progress = make(chan struct{})
		q.mu.Unlock()
	}
}

func (q *notifyQueue) run(f func()) {
	defer func() {
		if r := recover(); r != nil {
			q.log.Error("upstream answer handler panicked", "panic", r)
		}
	}()
	f()
}

func (q *notifyQueue) deliver(h func(string, json.RawMessage), n notification) {
	defer func() {
		if r := recover(); r != nil {
			q.log.Error("upstream notification handler panicked", "method", n.method, "panic", r)
		}
	}()
	h(n.method, n.params)
}
