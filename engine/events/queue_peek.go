package events

import (
	"encoding/json"
	"fmt"

	"github.com/genui-dev/genui/engine/contract"
)

// Peek returns what the next Wait would return, the dropped marker first and
// then the pending events in push order, without removing anything. Watchers
// (the TUI) look at the queue this way; only agents drain it.
func (q *Queue) Peek() []contract.QueuedEvent {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]contract.QueuedEvent, 0, q.lenLocked())
	if q.marker.count > 0 {
		out = append(out, contract.QueuedEvent{Seq: 0, Time: q.marker.time, Source: SourceQueue, Type: TypeDropped,
			Payload: json.RawMessage(fmt.Sprintf(`{"dropped":%d}`, q.marker.count))})
	}
	return append(out, q.events...)
}
