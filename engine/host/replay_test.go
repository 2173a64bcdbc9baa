package host_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
)

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	id   string
	data string
}

// sseReader parses events from an SSE body as they arrive.
func sseReader(body io.Reader) <-chan sseEvent {
	ch := make(chan sseEvent, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		var ev sseEvent
		var has bool
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if has {
					ch <- ev
				}
				ev, has = sseEvent{}, false
			case strings.HasPrefix(line, "id: "):
				ev.id, has = strings.TrimPrefix(line, "id: "), true
			case strings.HasPrefix(line, "data: "):
				ev.data += strings.TrimPrefix(line, "data: ")
				has = true
			}
		}
	}()
	return ch
}

func nextEvent(t *testing.T, ch <-chan sseEvent, what string) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatalf("stream ended before %s", what)
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10s", what)
	}
	return sseEvent{}
}

// openSSE sends req and returns the parsed events and a function that drops
// the connection.
func openSSE(t *testing.T, req *http.Request) (<-chan sseEvent, func(), *http.Response) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, cancel, &http.Response{StatusCode: resp.StatusCode, Body: io.NopCloser(bytes.NewReader(b))}
	}
	t.Cleanup(func() { resp.Body.Close() })
	return sseReader(resp.Body), cancel, resp
}

func ssePost(t *testing.T, base, sid, frame string) *http.Request {
	req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(frame))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	return req
}

func resumeGet(t *testing.T, base, sid, lastEventID string) *http.Request {
	req, err := http.NewRequest(http.MethodGet, base+"/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Last-Event-ID", lastEventID)
	return req
}

// TestSSEStreamResumesWithLastEventID: a tools/call answered on an SSE
// stream whose connection drops after the first progress event is not
// cancelled; a GET with Last-Event-ID gets exactly what that stream missed
// (the response), not the events of another stream of the session.
func TestSSEStreamResumesWithLastEventID(t *testing.T) {
	up := newRevUpstream(1)
	ts, srv := startHTTPUp(t, upstream.Config{Transport: "inprocess", InProcess: up.serve})
	sid := httpInit(t, ts.URL)

	events, drop, resp := openSSE(t, ssePost(t, ts.URL, sid,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"progress","arguments":{"who":"A","hold_ms":600},"_meta":{"progressToken":"tok"}}}`))
	if events == nil {
		t.Fatalf("POST tools/call: status %d", resp.StatusCode)
	}
	prime := nextEvent(t, events, "the priming event")
	if prime.id == "" || prime.data != "" {
		t.Fatalf("first event %+v, want an id and empty data (priming)", prime)
	}
	progress := nextEvent(t, events, "the progress event")
	if !strings.Contains(progress.data, "notifications/progress") || progress.id == "" || progress.id == prime.id {
		t.Fatalf("second event %+v, want progress with a new id", progress)
	}
	drop() // the connection breaks before the response

	// Another request of the session, on its own stream, meanwhile.
	other, _, _ := openSSE(t, ssePost(t, ts.URL, sid, `{"jsonrpc":"2.0","id":8,"method":"ping"}`))
	nextEvent(t, other, "the other stream's priming event")
	if ev := nextEvent(t, other, "the ping response"); !strings.Contains(ev.data, `"id":8`) {
		t.Fatalf("ping stream: %+v", ev)
	}

	// The call finishes while nobody listens.
	testenv.Eventually(t, 30*time.Second, "the call's response stored on its dropped stream", func() bool { return host.StreamEnded(srv, sid, progress.id) })
	resumed, _, resp := openSSE(t, resumeGet(t, ts.URL, sid, progress.id))
	if resumed == nil {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("resume: status %d %s", resp.StatusCode, b)
	}
	var got []sseEvent
	for ev := range resumed { // the stream ends after the response
		got = append(got, ev)
	}
	if len(got) != 1 {
		t.Fatalf("resumed stream carried %d events %+v, want exactly the missed response", len(got), got)
	}
	m, err := jsonrpc.Parse([]byte(got[0].data))
	if err != nil || string(m.ID) != "7" || !strings.Contains(string(m.Result), "done A") {
		t.Fatalf("resumed event %+v: want the response to id 7", got[0])
	}
	if got[0].id == "" || got[0].id == progress.id {
		t.Fatalf("resumed event id %q", got[0].id)
	}

	// Resuming from the priming id replays progress and response, in order.
	again, _, _ := openSSE(t, resumeGet(t, ts.URL, sid, prime.id))
	var ids []string
	for ev := range again {
		ids = append(ids, ev.id)
	}
	if len(ids) != 2 || ids[0] != progress.id || ids[1] != got[0].id {
		t.Fatalf("replay from the priming id: %v, want [%s %s]", ids, progress.id, got[0].id)
	}
}

// TestSSEResumeOfUnknownStreamIsAClearError: a Last-Event-ID naming a POST
// stream genui does not hold gets 400 with a JSON-RPC error, not a stream
// that never delivers.
func TestSSEResumeOfUnknownStreamIsAClearError(t *testing.T) {
	up := newRevUpstream(1)
	ts, _ := startHTTPUp(t, upstream.Config{Transport: "inprocess", InProcess: up.serve})
	sid := httpInit(t, ts.URL)
	for _, id := range []string{"p999-3", "garbage", "p1-x"} {
		_, _, resp := openSSE(t, resumeGet(t, ts.URL, sid, id))
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("Last-Event-ID %q: status %d, want 400", id, resp.StatusCode)
		}
		var e struct {
			Error *jsonrpc.Error `json:"error"`
		}
		b, _ := io.ReadAll(resp.Body)
		if json.Unmarshal(b, &e) != nil || e.Error == nil || !strings.Contains(e.Error.Message, "Last-Event-ID") {
			t.Fatalf("Last-Event-ID %q: body %s", id, b)
		}
	}
}
