package engine

import (
	"context"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/events"
)

// eventHub is the engine's event stream: it numbers events, tells the
// synchronous listeners (the MCP host), hands them to the broker that feeds
// Subscribe, and pushes the ones agents care about to the /wait queue.
type eventHub struct {
	broker *events.Broker[contract.Event]
	queue  *events.Queue
	// seqMu orders events: Seq is assigned and the event handed to the
	// broker under it.
	seqMu sync.Mutex
	seq   int64

	lmu       sync.RWMutex
	listeners []func(contract.Event)
}

func newEventHub() *eventHub {
	h := &eventHub{
		broker: events.NewBroker(256, events.WithLagEvent(func(pending int) (string, contract.Event) {
			return string(contract.EventLagged), contract.Event{Time: time.Now(), Kind: contract.EventLagged,
				Detail: &contract.Lagged{Pending: pending}}
		})),
		queue: events.NewQueue(1000),
	}
	h.queue.SetObserver(events.QueueObserver{
		Pushed: func(ev contract.QueuedEvent) { h.publish(contract.EventQueued, ev.Tool, &contract.Queued{Event: ev}) },
		Drained: func(batch []contract.QueuedEvent, pending int) {
			h.publish(contract.EventQueueDrained, "", &contract.QueueDrained{Count: len(batch),
				LastSeq: batch[len(batch)-1].Seq, Pending: pending})
		},
	})
	return h
}

// publish numbers an event, tells the synchronous listeners and hands it to
// the broker (streaming kinds may be dropped for slow subscribers, final
// ones never). Engine events agents care about also go to the /wait queue.
func (h *eventHub) publish(kind contract.EventKind, tool string, d contract.EventDetail) {
	h.publishAs(kind, tool, d, !kind.IsStreaming())
}

// publishFinal is publish for one event of a streaming kind that must not
// be dropped (a tools/call answer in the traffic).
func (h *eventHub) publishFinal(kind contract.EventKind, tool string, d contract.EventDetail) {
	h.publishAs(kind, tool, d, true)
}

func (h *eventHub) publishAs(kind contract.EventKind, tool string, d contract.EventDetail, final bool) {
	h.seqMu.Lock()
	h.seq++
	ev := contract.Event{Seq: h.seq, Time: time.Now(), Kind: kind, Tool: tool, Detail: d}
	if !final {
		h.broker.Publish(string(kind), ev)
	} else {
		h.broker.PublishFinal(string(kind), ev)
	}
	h.seqMu.Unlock()
	h.lmu.RLock()
	ls := h.listeners
	h.lmu.RUnlock()
	for _, l := range ls {
		l(ev)
	}
	switch kind {
	case contract.EventGenerationFinished, contract.EventGenerationFailed, contract.EventToolsChanged,
		contract.EventUpstreamUp, contract.EventUpstreamDown, contract.EventSecurity:
		h.queue.Push(contract.SourceEngine, string(kind), tool, d)
	}
}

// onEvent adds a synchronous listener.
func (h *eventHub) onEvent(f func(contract.Event)) {
	h.lmu.Lock()
	// Copy on write: publish reads the slice without holding the lock.
	h.listeners = append(append([]func(contract.Event){}, h.listeners...), f)
	h.lmu.Unlock()
}

// streaming reports whether anyone subscribes, so producers of streaming
// events (traffic, logs) can skip building them.
func (h *eventHub) streaming() bool { return h.broker.HasSubscribers() }

// publishTraffic reports one JSON-RPC message (cheap when nobody
// watches); a final one is never dropped for a slow subscriber.
func (h *eventHub) publishTraffic(t contract.Traffic, final bool) {
	if !h.broker.HasSubscribers() {
		return
	}
	// The event's copy is made here, past the check, so that t (taken by
	// address) does not put every frame on the heap when nobody watches.
	ev := t
	if final {
		h.publishFinal(contract.EventTraffic, "", &ev)
		return
	}
	h.publish(contract.EventTraffic, "", &ev)
}

// subscribe streams events until ctx ends or the hub shuts down.
func (h *eventHub) subscribe(ctx context.Context) <-chan contract.Event {
	in := h.broker.Subscribe(ctx)
	out := make(chan contract.Event)
	go func() {
		defer close(out)
		for ev := range in {
			select {
			case out <- ev.Payload:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func (h *eventHub) shutdown() { h.broker.Shutdown() }
