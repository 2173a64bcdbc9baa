package events

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// DefaultQueueCapacity is the Queue bound used when NewQueue gets <= 0.
const DefaultQueueCapacity = 1000

// Byte bounds of a Queue: the events it holds (their payloads plus
// eventOverhead each) stay within DefaultQueueBytes, and a payload larger
// than MaxPayloadBytes is replaced by {"truncated":true,"bytes":N,
// "preview":"<its first previewBytes bytes>"}. So one /wait answer, and the
// queue's memory, stay near 16 MiB whatever the pushers send.
const (
	DefaultQueueBytes = 16 << 20
	MaxPayloadBytes   = 64 << 10
	previewBytes      = 1 << 10
	eventOverhead     = 128 // the envelope's fields, roughly
)

// The queue's own marker event (see Queue). Sources and types of the
// events genui pushes are the engine's (engine.Source*, engine.EventKind
// and the ui/* message types): the queue itself does not care.
const (
	SourceQueue = "queue"
	// TypeDropped marks events the queue discarded because it was full; its
	// payload is {"dropped": N}.
	TypeDropped = "dropped"
)

// Queue is the bounded event queue behind GET /wait. Wait drains everything
// queued in one go, so with several concurrent pollers each event reaches
// exactly one of them. When full, Push drops the oldest event and a single
// "dropped" marker at the head of the queue counts the losses, so memory
// stays bounded: at most capacity events plus the marker. The marker is not
// a pushed event: it has Seq 0, Source "queue", Type "dropped" and payload
// {"dropped": N}, N being the events lost since the previous drain; the
// gap in Seq shows which.
//
// Create one with NewQueue; all methods are safe for concurrent use.
type Queue struct {
	capacity int

	mu      sync.Mutex
	events  []contract.QueuedEvent // pending pushed events, oldest first, len <= capacity
	bytes   int                    // size of events (payloads + eventOverhead each), <= DefaultQueueBytes
	marker  dropMarker             // losses since the last drain; count 0 = no marker
	nextSeq int64
	// notify is closed and replaced by a push while pollers wait on it.
	notify    chan struct{}
	pushed    int64
	delivered int64
	dropped   int64
	pollers   int
	lastPoll  time.Time
	observer  QueueObserver
}

// dropMarker is the pending "dropped" event in compact form.
type dropMarker struct {
	count int64
	time  time.Time // when the last drop happened
}

// NewQueue returns an empty queue holding at most capacity events
// (DefaultQueueCapacity when capacity <= 0).
func NewQueue(capacity int) *Queue {
	if capacity <= 0 {
		capacity = DefaultQueueCapacity
	}
	return &Queue{capacity: capacity, notify: make(chan struct{})}
}

// Push queues an event and wakes waiting pollers. It assigns Seq (1, 2, 3,
// ... for this queue) and Time. payload is JSON-encoded (a json.RawMessage is
// checked and kept); nil means no payload. A payload that cannot be encoded
// is replaced by {"error": "..."} so the event itself is never lost; one
// over MaxPayloadBytes is cut (see MaxPayloadBytes). The returned event is
// what pollers and observers get.
func (q *Queue) Push(source, typ, tool string, payload any) contract.QueuedEvent {
	raw := truncatePayload(encodePayload(typ, payload))
	q.mu.Lock()
	defer q.mu.Unlock()
	q.nextSeq++
	q.pushed++
	ev := contract.QueuedEvent{Seq: q.nextSeq, Time: time.Now(), Source: source, Type: typ, Tool: tool, Payload: raw}
	q.events = append(q.events, ev)
	q.bytes += eventSize(ev)
	q.trimLocked(ev.Time)
	q.notePushedLocked(ev)
	q.wakeLocked()
	return ev
}

// Wait blocks until events are queued, timeout passes or ctx ends. With
// events it removes all of them (marker first, then in push order) and
// returns them; on timeout or ctx end it returns nil and leaves the queue
// untouched. A timeout <= 0 only checks once without blocking.
func (q *Queue) Wait(ctx context.Context, timeout time.Duration) []contract.QueuedEvent {
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}

	q.mu.Lock()
	if q.notify == nil {
		q.notify = make(chan struct{})
	}
	q.pollers++
	defer func() {
		q.pollers--
		q.lastPoll = time.Now()
		q.mu.Unlock()
	}()
	for {
		if ctx.Err() != nil {
			return nil
		}
		if evs := q.drainLocked(); evs != nil {
			return evs
		}
		if timeout <= 0 {
			return nil
		}
		notify := q.notify
		q.mu.Unlock()
		select {
		case <-notify:
			q.mu.Lock()
		case <-expired:
			q.mu.Lock()
			return nil
		case <-ctx.Done():
			q.mu.Lock()
			return nil
		}
	}
}

// Bytes reports the size the queue accounts for its pending events.
func (q *Queue) Bytes() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.bytes
}

// Len reports how many events the next Wait would return (marker included).
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.lenLocked()
}

// Stats returns a snapshot of the queue's counters.
func (q *Queue) Stats() contract.QueueStats {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := contract.QueueStats{
		Pending:          q.lenLocked(),
		Pushed:           q.pushed,
		Delivered:        q.delivered,
		Dropped:          q.dropped,
		Pollers:          q.pollers,
		LastPollReturned: q.lastPoll,
	}
	if !q.lastPoll.IsZero() {
		s.SinceLastPoll = time.Since(q.lastPoll).Round(time.Millisecond).String()
	}
	return s
}

// unread puts a batch that Wait returned back at the head of the queue, for
// a caller that could not hand it on (the HTTP client went away). Events
// pushed meanwhile stay behind it; the capacity bound still applies.
func (q *Queue) unread(batch []contract.QueuedEvent) {
	if len(batch) == 0 {
		return
	}
	var head dropMarker
	if batch[0].Type == TypeDropped && batch[0].Source == SourceQueue {
		var p struct {
			Dropped int64 `json:"dropped"`
		}
		_ = json.Unmarshal(batch[0].Payload, &p) // we wrote it; a zero count just loses the note
		head = dropMarker{count: p.Dropped, time: batch[0].Time}
		batch = batch[1:]
	}

	q.mu.Lock()
	defer q.mu.Unlock()
	if head.count > 0 {
		q.marker.count += head.count
		if q.marker.time.IsZero() {
			q.marker.time = head.time
		}
	}
	q.events = append(append(make([]contract.QueuedEvent, 0, len(batch)+len(q.events)), batch...), q.events...)
	for _, ev := range batch {
		q.bytes += eventSize(ev)
	}
	q.delivered -= int64(len(batch))
	q.trimLocked(time.Now())
	q.wakeLocked()
}

// trimLocked drops the oldest events beyond capacity or DefaultQueueBytes
// into the marker.
func (q *Queue) trimLocked(now time.Time) {
	capacity := q.capacity
	if capacity <= 0 {
		capacity = DefaultQueueCapacity
	}
	for len(q.events) > capacity || q.bytes > DefaultQueueBytes && len(q.events) > 0 {
		q.bytes -= eventSize(q.events[0])
		q.events[0] = contract.QueuedEvent{} // release the payload
		q.events = q.events[1:]
		q.dropped++
		q.marker.count++
		q.marker.time = now
	}
}

// wakeLocked wakes every waiting poller.
func (q *Queue) wakeLocked() {
	if q.pollers > 0 && q.notify != nil {
		close(q.notify)
		q.notify = make(chan struct{})
	}
}

// drainLocked removes and returns everything pending, or nil.
func (q *Queue) drainLocked() []contract.QueuedEvent {
	n := q.lenLocked()
	if n == 0 {
		return nil
	}
	out := make([]contract.QueuedEvent, 0, n)
	if q.marker.count > 0 {
		out = append(out, contract.QueuedEvent{
			Seq:     0,
			Time:    q.marker.time,
			Source:  SourceQueue,
			Type:    TypeDropped,
			Payload: json.RawMessage(fmt.Sprintf(`{"dropped":%d}`, q.marker.count)),
		})
		q.marker = dropMarker{}
	}
	out = append(out, q.events...)
	q.delivered += int64(len(q.events))
	q.events = nil
	q.bytes = 0
	return out
}

func (q *Queue) lenLocked() int {
	n := len(q.events)
	if q.marker.count > 0 {
		n++
	}
	return n
}

// encodePayload turns a Push payload into JSON, never failing.
func encodePayload(typ string, payload any) json.RawMessage {
	if payload == nil {
		return nil
	}
	if raw, ok := payload.(json.RawMessage); ok && raw == nil {
		return nil
	}
	b, err := json.Marshal(payload)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": "payload not JSON-encodable: " + err.Error()})
	}
	return b
}

// eventSize is what an event counts against DefaultQueueBytes.
func eventSize(ev contract.QueuedEvent) int {
	return len(ev.Payload) + len(ev.Source) + len(ev.Type) + len(ev.Tool) + eventOverhead
}

// truncatePayload replaces a payload over MaxPayloadBytes with a note of
// its size and the start of its JSON text.
func truncatePayload(raw json.RawMessage) json.RawMessage {
	if len(raw) <= MaxPayloadBytes {
		return raw
	}
	preview := strings.ToValidUTF8(string(raw[:previewBytes]), "")
	b, err := json.Marshal(struct {
		Truncated bool   `json:"truncated"`
		Bytes     int    `json:"bytes"`
		Preview   string `json:"preview"`
	}{true, len(raw), preview})
	if err != nil {
		return json.RawMessage(`{"truncated":true}`)
	}
	return b
}
