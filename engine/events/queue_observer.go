package events

import "github.com/genui-dev/genui/engine/contract"

// QueueObserver is told about a Queue's traffic, so watchers (the TUI, the
// /events stream) see every queued event without draining the queue.
// Pushed runs under the queue's lock, in push order: it must not block or
// call back into the queue.
type QueueObserver struct {
	// Pushed is called for every pushed event.
	Pushed func(ev contract.QueuedEvent)
	// Drained is called when a /wait poller received a batch; pending is
	// what remains queued.
	Drained func(batch []contract.QueuedEvent, pending int)
}

// SetObserver installs o (replacing any earlier one). Set it before use.
func (q *Queue) SetObserver(o QueueObserver) {
	q.mu.Lock()
	q.observer = o
	q.mu.Unlock()
}

func (q *Queue) notePushedLocked(ev contract.QueuedEvent) {
	if q.observer.Pushed != nil {
		q.observer.Pushed(ev)
	}
}

// noteDrained reports a batch a poller received.
func (q *Queue) noteDrained(batch []contract.QueuedEvent) {
	q.mu.Lock()
	o, pending := q.observer, q.lenLocked()
	q.mu.Unlock()
	if o.Drained != nil && len(batch) > 0 {
		o.Drained(batch, pending)
	}
}
