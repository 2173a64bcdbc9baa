package upstream

// Tests of Go, the forwarding fast path: answers handed over from the read
// loop byte for byte and after the notifications sent before them,
// timeouts by the sweeper, cancellation, unreadable replies and a dying
// child.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// waiter collects one answer (slices copied, as the contract asks) and
// what the notification handler had seen when it came.
type waiter struct {
	ch    chan jsonrpc.Answer
	notes *notes
	seen  int
}

func newWaiter(n *notes) *waiter { return &waiter{ch: make(chan jsonrpc.Answer, 1), notes: n} }

func (w *waiter) Answered(a jsonrpc.Answer) {
	a.Result, a.Error = bytes.Clone(a.Result), bytes.Clone(a.Error)
	if w.notes != nil {
		w.notes.mu.Lock()
		w.seen = len(w.notes.list)
		w.notes.mu.Unlock()
	}
	w.ch <- a
}

func (w *waiter) wait(t *testing.T, d time.Duration) jsonrpc.Answer {
	t.Helper()
	select {
	case a := <-w.ch:
		return a
	case <-time.After(d):
		t.Fatalf("no answer within %s", d)
		return jsonrpc.Answer{}
	}
}

func goTool(t *testing.T, c *Client, name string, w jsonrpc.Waiter) int64 {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"name": name, "arguments": map[string]any{}})
	call, err := c.Go("tools/call", b, w)
	if err != nil {
		t.Fatalf("Go %s: %v", name, err)
	}
	return call
}

func TestGoAnswersExactlyAfterEarlierNotifications(t *testing.T) {
	t.Parallel()
	for _, kind := range lineKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			c := rawClient(t, kind, &syncBuffer{})
			var got notes
			c.SetNotificationHandler(got.handle)
			runClient(t, c)
			waitReady(t, c, 10*time.Second)

			w := newWaiter(&got)
			goTool(t, c, "notify", w)
			a := w.wait(t, 10*time.Second)
			if a.Err != nil || a.Error != nil || string(a.Result) != `{"content":[]}` {
				t.Fatalf("answer = %+v", a)
			}
			if w.seen != 4 {
				t.Errorf("the handler had %d of the 4 notifications sent before the answer when it came", w.seen)
			}

			w = newWaiter(nil)
			goTool(t, c, "fail", w)
			a = w.wait(t, 10*time.Second)
			want := `{"code":-32042,"message":"custom failure","data":` + rawErrorData + `}`
			if a.Err != nil || a.Result != nil || string(a.Error) != want {
				t.Fatalf("error answer = %+v, want the error object %s as sent", a, want)
			}

			w = newWaiter(nil)
			goTool(t, c, "garbled", w)
			a = w.wait(t, 10*time.Second)
			var je *jsonrpc.Error
			if !errors.As(a.Err, &je) || !strings.Contains(je.Message, "unreadable reply") {
				t.Fatalf("garbled reply: %+v", a)
			}
			// The connection still works.
			w = newWaiter(nil)
			goTool(t, c, "echo", w)
			if a := w.wait(t, 10*time.Second); a.Err != nil || !bytes.Contains(a.Result, []byte(`"ok"`)) {
				t.Fatalf("after the garbled reply: %+v", a)
			}
		})
	}
}

func TestGoTimeoutAndCancelTellTheUpstream(t *testing.T) {
	t.Parallel()
	stderr := &syncBuffer{}
	cfg := stdioConfig(t, "raw", stderr)
	cfg.RequestTimeout = 300 * time.Millisecond
	c := New(cfg)
	runClient(t, c)
	waitReady(t, c, 10*time.Second)

	w := newWaiter(nil)
	start := time.Now()
	call := goTool(t, c, "hang", w)
	a := w.wait(t, 5*time.Second)
	if !errors.Is(a.Err, context.DeadlineExceeded) {
		t.Fatalf("hang: %+v, want DeadlineExceeded", a)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("timed out after %s, before its 300ms timeout", d)
	}
	want := fmt.Sprintf(`RAW cancelled {"requestId":%d,"reason":"request timed out"}`, call)
	waitFor(t, 5*time.Second, want, func() bool { return strings.Contains(stderr.String(), want) })

	w = newWaiter(nil)
	call = goTool(t, c, "hang", w)
	waitFor(t, 5*time.Second, "the call upstream", func() bool {
		return strings.Contains(stderr.String(), fmt.Sprintf("RAW call hang id=%d", call))
	})
	if !c.Cancel(call, "cancelled by host") {
		t.Fatal("Cancel: the call was not waiting")
	}
	if c.Cancel(call, "again") {
		t.Error("a second Cancel found the call still waiting")
	}
	want = fmt.Sprintf(`RAW cancelled {"requestId":%d,"reason":"cancelled by host"}`, call)
	waitFor(t, 5*time.Second, want, func() bool { return strings.Contains(stderr.String(), want) })
	select {
	case a := <-w.ch:
		t.Fatalf("a cancelled call was answered: %+v", a)
	case <-time.After(500 * time.Millisecond): // well past the timeout
	}
}

func TestGoFailsWhenTheChildDies(t *testing.T) {
	t.Parallel()
	stderr := &syncBuffer{}
	c := New(stdioConfig(t, "mcp", stderr))
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	pid := c.State().PID
	w := newWaiter(nil)
	b, _ := json.Marshal(map[string]any{"name": "slow", "arguments": map[string]any{"ms": 5000}})
	if _, err := c.Go("tools/call", b, w); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "slow call in flight", func() bool { return strings.Contains(stderr.String(), "slow: start") })
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a := w.wait(t, 5*time.Second)
	var je *jsonrpc.Error
	if !errors.As(a.Err, &je) || je.Code != jsonrpc.CodeUpstreamUnavailable ||
		!regexp.MustCompile(`upstream exited \(signal: killed\) while handling tools/call; restarting`).MatchString(je.Message) {
		t.Fatalf("answer = %+v", a)
	}
	// Not connected: Go refuses (Request waits, or explains).
	idle := New(stdioConfig(t, "mcp", stderr))
	if _, err := idle.Go("tools/call", b, w); !errors.Is(err, ErrNoFastPath) {
		t.Errorf("Go before Run: %v, want ErrNoFastPath", err)
	}
}
