package events

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestQueueBoundedByBytes: pushes with 1 MB payloads (1,000 of them took
// RSS to 1.7 GB and one /wait answer to 953 MB) keep the queue within
// DefaultQueueBytes: each payload is cut to MaxPayloadBytes with a note
// saying so, and payloads under the cut that fill the byte bound push the
// oldest out, counted by the dropped marker.
func TestQueueBoundedByBytes(t *testing.T) {
	q := NewQueue(1000)
	arg := json.RawMessage(`{"arguments":{"x":"` + strings.Repeat("a", 1<<20) + `"}}`)
	for range 40 {
		q.Push("api", "tools/call", "t", arg)
		if b := q.Bytes(); b > DefaultQueueBytes {
			t.Fatalf("queue holds %d bytes, cap %d", b, DefaultQueueBytes)
		}
	}
	evs := q.Wait(context.Background(), 0)
	if len(evs) != 40 {
		t.Fatalf("%d events, want 40 (cut, not dropped)", len(evs))
	}
	ev := evs[len(evs)-1]
	if len(ev.Payload) > MaxPayloadBytes {
		t.Fatalf("payload of %d bytes kept", len(ev.Payload))
	}
	var p struct {
		Truncated bool   `json:"truncated"`
		Bytes     int    `json:"bytes"`
		Preview   string `json:"preview"`
	}
	if err := json.Unmarshal(ev.Payload, &p); err != nil || !p.Truncated || p.Bytes < 1<<20 || !strings.HasPrefix(p.Preview, `{"arguments":{"x":"aaa`) {
		t.Fatalf("truncated payload %.200s: %+v %v", ev.Payload, p, err)
	}

	// Payloads just under the cut fill the queue by bytes long before its
	// count bound: the oldest go, counted by the dropped marker.
	mid := json.RawMessage(`"` + strings.Repeat("b", MaxPayloadBytes-100) + `"`)
	for range 300 {
		q.Push("api", "tools/call", "t", mid)
		if b := q.Bytes(); b > DefaultQueueBytes {
			t.Fatalf("queue holds %d bytes, cap %d", b, DefaultQueueBytes)
		}
	}
	evs = q.Wait(context.Background(), 0)
	body, _ := json.Marshal(evs)
	if len(body) > DefaultQueueBytes+len(evs)*256 {
		t.Fatalf("one /wait answer of %d bytes", len(body))
	}
	if evs[0].Type != TypeDropped || len(evs) >= 300 {
		t.Fatalf("%d events, the first %s: want the oldest dropped and counted", len(evs), evs[0].Type)
	}

	// Small payloads pass untouched.
	q.Push("api", "x", "", map[string]int{"n": 1})
	if evs := q.Wait(context.Background(), 0); len(evs) != 1 || string(evs[0].Payload) != `{"n":1}` {
		t.Fatalf("small payload: %+v", evs)
	}
	if q.Bytes() != 0 {
		t.Fatalf("%d bytes after draining", q.Bytes())
	}
}
