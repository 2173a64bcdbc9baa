package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

func TestParseWaitTimeout(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{"", 30 * time.Second, false},
		{"0", 0, false},
		{"1", time.Second, false},
		{"0.05", 50 * time.Millisecond, false},
		{"2.5", 2500 * time.Millisecond, false},
		{"120", 120 * time.Second, false},
		{"121", 120 * time.Second, false},
		{"99999999999999999999999", 120 * time.Second, false},
		{strings.Repeat("9", 400), 120 * time.Second, false},
		{"007", 7 * time.Second, false},
		{"abc", 0, true},
		{"-1", 0, true},
		{"+1", 0, true},
		{"1e3", 0, true},
		{"0x10", 0, true},
		{"Inf", 0, true},
		{"NaN", 0, true},
		{" 1", 0, true},
		{"1s", 0, true},
		{"1.", 0, true},
		{".5", 0, true},
		{"1.2.3", 0, true},
		{"１", 0, true}, // fullwidth digit
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseWaitTimeout(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseWaitTimeout(%q) = %v, want error", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseWaitTimeout(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

// get performs GET target against h through httptest.
func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, target, nil))
	return rec
}

func TestWaitHandlerTimeout204(t *testing.T) {
	q := NewQueue(0)
	start := time.Now()
	rec := get(t, WaitHandler(q, nil), "/wait?timeout=0.05")
	if el := time.Since(start); el < 50*time.Millisecond || el > bound {
		t.Fatalf("took %v, want about 50ms", el)
	}
	if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Fatalf("got %d %q, want 204 with no body", rec.Code, rec.Body)
	}
}

func TestWaitHandlerEvents200(t *testing.T) {
	q := NewQueue(0)
	q.Push("preview", "ui/message", "weather", map[string]string{"text": "hi"})
	q.Push("engine", "generation-finished", "weather", nil)
	rec := get(t, WaitHandler(q, nil), "/wait?timeout=5")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("got %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	var evs []contract.QueuedEvent
	if err := json.Unmarshal(rec.Body.Bytes(), &evs); err != nil {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	if len(evs) != 2 || evs[0].Seq != 1 || evs[0].Type != "ui/message" || evs[0].Tool != "weather" ||
		string(evs[0].Payload) != `{"text":"hi"}` || evs[1].Seq != 2 || evs[1].Payload != nil {
		t.Fatalf("events = %+v", evs)
	}
	if !strings.Contains(rec.Body.String(), `"source":"preview"`) || strings.Contains(rec.Body.String(), `"payload":null`) {
		t.Fatalf("wire form = %s", rec.Body)
	}
	if q.Len() != 0 {
		t.Fatalf("queue not drained: Len %d", q.Len())
	}
}

func TestWaitHandlerWakesOnPush(t *testing.T) {
	q := NewQueue(0)
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() { done <- get(t, WaitHandler(q, nil), "/wait") }() // default 30 s
	eventually(t, "poller waiting", func() bool { return q.Stats().Pollers == 1 })
	q.Push("api", "x", "", nil)
	select {
	case rec := <-done:
		if rec.Code != http.StatusOK {
			t.Fatalf("code %d", rec.Code)
		}
	case <-time.After(bound):
		t.Fatal("handler not woken by Push")
	}
}

func TestWaitHandlerBadRequests(t *testing.T) {
	tests := []struct {
		method, target string
		wantCode       int
	}{
		{http.MethodGet, "/wait?timeout=abc", http.StatusBadRequest},
		{http.MethodGet, "/wait?timeout=-1", http.StatusBadRequest},
		{http.MethodGet, "/wait?timeout=1e2", http.StatusBadRequest},
		{http.MethodPost, "/wait", http.StatusMethodNotAllowed},
		{http.MethodHead, "/wait", http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			q := NewQueue(0)
			q.Push("api", "kept", "", nil)
			rec := httptest.NewRecorder()
			WaitHandler(q, nil).ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), tt.method, tt.target, nil))
			if rec.Code != tt.wantCode || rec.Header().Get("Content-Type") != "application/json" {
				t.Fatalf("got %d %q, want %d JSON", rec.Code, rec.Header().Get("Content-Type"), tt.wantCode)
			}
			var body struct{ Error string }
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error == "" {
				t.Fatalf("body %q is not {\"error\": ...} (%v)", rec.Body, err)
			}
			if q.Len() != 1 {
				t.Fatal("a rejected request drained the queue")
			}
		})
	}
}

// TestWaitHandlerClientDisconnect uses a real server: a client that gives up
// must end the handler's wait, and an event pushed afterwards stays queued.
func TestWaitHandlerClientDisconnect(t *testing.T) {
	q := NewQueue(0)
	srv := httptest.NewServer(WaitHandler(q, nil))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/wait?timeout=60", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = srv.Client().Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("client error = %v, want deadline exceeded", err)
	}
	// No Wait call is parked now (a leaked one would stay counted), so
	// nothing can take the next event.
	eventually(t, "handler wait to end", func() bool { return q.Stats().Pollers == 0 })
	q.Push("api", "after-disconnect", "", nil)
	if q.Len() != 1 {
		t.Fatalf("event pushed after disconnect was drained: Len %d", q.Len())
	}
	rec := get(t, WaitHandler(q, nil), "/wait?timeout=0")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "after-disconnect") {
		t.Fatalf("next poll got %d %s", rec.Code, rec.Body)
	}
}

// leaveAfterFirstCheck is a request context whose client "leaves" right
// after its first Err check: Wait sees it live and drains, the handler sees
// it gone before writing.
type leaveAfterFirstCheck struct {
	context.Context
	checks atomic.Int32
}

func (c *leaveAfterFirstCheck) Err() error {
	if c.checks.Add(1) > 1 {
		return context.Canceled
	}
	return nil
}

// TestWaitHandlerRequeuesWhenClientGone covers the window where the client
// leaves after the drain but before the write: the batch goes back.
func TestWaitHandlerRequeuesWhenClientGone(t *testing.T) {
	q := NewQueue(0)
	q.Push("api", "a", "", nil)
	q.Push("api", "b", "", nil)
	ctx := &leaveAfterFirstCheck{Context: t.Context()}
	rec := httptest.NewRecorder()
	WaitHandler(q, nil).ServeHTTP(rec, httptest.NewRequestWithContext(ctx, http.MethodGet, "/wait?timeout=1", nil))
	if ctx.checks.Load() < 2 {
		t.Fatalf("ctx checked %d times; the test needs Wait and the handler to check", ctx.checks.Load())
	}
	if rec.Body.Len() != 0 {
		t.Fatalf("wrote %q to a client that left", rec.Body)
	}
	if st := q.Stats(); st.Pending != 2 || st.Delivered != 0 {
		t.Fatalf("stats = %+v, want both events pending again", st)
	}
	evs := q.Wait(t.Context(), 0)
	if got := fmt.Sprint(seqs(evs)); got != "[1 2]" {
		t.Fatalf("requeued seqs = %s", got)
	}
}

// TestHTTP10kNoLossNoDup moves 10,000 events through real HTTP /wait with
// two pollers while four pushers run: each seq arrives exactly once.
func TestHTTP10kNoLossNoDup(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 10,000 events over HTTP")
	}
	res := runHTTPBulk(t, 10_000, 4, 2)
	if res.err != nil {
		t.Fatal(res.err)
	}
}
