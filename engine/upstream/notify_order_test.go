package upstream

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"
)

// TestProgressBeforeResponseReachesASlowHandler: every notification the
// upstream sent before its response is handed to the handler before
// Request returns, however slow the handler (a host that reads slowly),
// so a host hears all of a request's progress before its answer and none
// is dropped for arriving after it.
func TestProgressBeforeResponseReachesASlowHandler(t *testing.T) {
	t.Parallel()
	const n = 300
	c := rawClient(t, TransportInProcess, &syncBuffer{})
	var mu sync.Mutex
	got := 0
	c.SetNotificationHandler(func(method string, _ json.RawMessage) {
		if method != "notifications/progress" {
			return
		}
		time.Sleep(5 * time.Millisecond) // n of these take 1.5 s
		mu.Lock()
		got++
		mu.Unlock()
	})
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := callTool(ctx, c, "flood", map[string]any{"bytes": n}, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got != n {
		t.Fatalf("%d of %d progress notifications handled before the response", got, n)
	}
}
