package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// TestRelayNeedsTheHostsCapability: a host that did not declare sampling
// never gets the upstream's sampling/createMessage; the upstream hears
// -32601 at once instead of waiting for a host that will not answer.
func TestRelayNeedsTheHostsCapability(t *testing.T) {
	s := newScripted()
	// An hour for the host to answer: a relay that waited for this host
	// would trip the client's hang bound (pipeClient.call); the refusal is
	// -32601, not a timeout.
	h := startHostOpts(t, scriptedUpstream(s), host.Options{ClientRequestTimeout: time.Hour})
	h.c.initialize(map[string]any{"roots": map[string]any{}}) // no sampling
	r := h.c.call("tools/call", map[string]any{"name": "ask"})
	if r.Error != nil || !strings.Contains(string(r.Result), `-32601`) {
		t.Fatalf("the upstream's sampling request: %s %v, want it refused with -32601", r.Result, r.Error)
	}
	select {
	case m := <-h.c.reqs:
		t.Fatalf("a host without the sampling capability got %s", m.Method)
	default:
	}
}

// TestUpstreamDeclaresTheStdioHostsCapabilities: in `genui mcp` (one stdio
// host) the upstream is told exactly the sampling/elicitation/roots
// capabilities the host declared, not genui's full relay support.
func TestUpstreamDeclaresTheStdioHostsCapabilities(t *testing.T) {
	s := newScripted()
	log := slog.New(slog.DiscardHandler)
	up := scriptedUpstream(s)
	up.BackoffMin, up.BackoffMax = 50*time.Millisecond, 200*time.Millisecond
	e, err := engine.New(engine.Options{Upstream: up, Dir: t.TempDir(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log})
	srv.ExpectStdioHost()
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{}, 2)
	go func() { _ = e.Run(ctx); done <- struct{}{} }()
	go func() { _ = srv.ServeStdio(ctx, inR, outW); _ = outW.Close(); done <- struct{}{} }()
	t.Cleanup(func() {
		_ = inW.Close()
		cancel()
		<-done
		<-done
	})
	c := &pipeClient{t: t, w: inW, resp: map[string]chan *jsonrpc.Message{}, reqs: make(chan *jsonrpc.Message, 16), change: make(chan struct{})}
	go c.read(outR)
	time.Sleep(200 * time.Millisecond) // the upstream is up and waiting for the host
	c.initialize(map[string]any{"roots": map[string]any{"listChanged": true}, "x-other": map[string]any{}})
	c.result("tools/list", nil, nil)
	caps := s.initCapabilities()
	if len(caps) == 0 {
		t.Fatal("the upstream was never initialized")
	}
	var got, want any
	_ = json.Unmarshal(caps[0], &got)
	_ = json.Unmarshal([]byte(`{"roots":{"listChanged":true}}`), &want)
	if mustJSON(got) != mustJSON(want) {
		t.Fatalf("upstream told capabilities %s, want the host's roots only", caps[0])
	}
}

// TestRootsNeverReachAnotherSession: the upstream asks for roots while
// two sessions have calls in flight, the asking one older: genui cannot
// tell whose call it serves, so it refuses rather than hand the newer
// session's request (and its roots) to the other's call.
func TestRootsNeverReachAnotherSession(t *testing.T) {
	s := newScripted()
	h := startHostOpts(t, scriptedUpstream(s), host.Options{ClientRequestTimeout: 2 * time.Second})
	h.c.initialize(map[string]any{"roots": map[string]any{}})
	outB := &frameSink{}
	b := h.srv.NewSession("B", outB)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b.HandleFrame(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"b","version":"1"}}}`), outB)
	chA, _ := h.c.start("tools/call", map[string]any{"name": "roots_later"})
	s.waitCalled(t, "roots_later") // A's call is in flight before B's starts
	replyB := &frameSink{}
	go b.HandleFrame(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`), replyB)
	var a *jsonrpc.Message
	select {
	case a = <-chA:
	case <-time.After(15 * time.Second):
		t.Fatal("session A's call did not finish")
	}
	for _, f := range append(outB.take(), replyB.take()...) {
		if bytes.Contains(f, []byte(`"roots/list"`)) {
			t.Fatalf("session B got session A's roots request: %s", f)
		}
	}
	select {
	case m := <-h.c.reqs:
		t.Fatalf("session A got %s although another session's call was in flight too", m.Method)
	default:
	}
	if a.Error != nil || !strings.Contains(string(a.Result), "sessions") {
		t.Fatalf("A's call: %s %v, want the upstream to have heard why genui refused", a.Result, a.Error)
	}
}
