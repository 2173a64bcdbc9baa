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
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
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

// TestUpstreamInitializeIsTheHosts: the proxy must not change the server.
// In `genui mcp` (one stdio host, the host capability mode by default) the
// upstream's initialize carries exactly the sampling, elicitation, roots
// and extensions capabilities and the clientInfo the host sent (what genui
// leaves out, tasks and experimental, is documented), nothing genui's own
// surfaces could answer; with roots configured genui adds only those. The
// workbench mode declares sampling and elicitation besides.
func TestUpstreamInitializeIsTheHosts(t *testing.T) {
	hostCaps := map[string]any{"roots": map[string]any{"listChanged": true}, "x-other": map[string]any{},
		"extensions": map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}},
		"tasks":      map[string]any{"list": map[string]any{}}}
	wantHost := `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}},"roots":{"listChanged":true}}`
	for _, c := range []struct {
		name, mode string
		roots      []contract.Root
		host       map[string]any
		want       string
	}{
		{"host", "", nil, hostCaps, wantHost},
		{"no capabilities", "", nil, map[string]any{}, `{}`},
		{"configured roots", "", []contract.Root{{URI: "file:///srv", Name: "srv"}}, map[string]any{}, `{"roots":{"listChanged":true}}`},
		{"workbench", host.CapabilitiesWorkbench, nil, map[string]any{},
			`{"elicitation":{"form":{},"url":{}},"sampling":{}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newScripted()
			up := scriptedUpstream(s)
			up.BackoffMin, up.BackoffMax = 50*time.Millisecond, 200*time.Millisecond
			// Surfaces as in every running genui: the host mode must still
			// not declare what they could answer.
			e, c2 := startStdioHost(t, up, c.roots, c.mode)
			info := map[string]any{"name": "claude-code", "version": "2.1.0", "title": "Claude Code"}
			c2.result("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": c.host, "clientInfo": info}, nil)
			c2.result("tools/list", nil, nil)
			caps, infos := s.initCapabilities(), s.initClientInfo()
			if len(caps) == 0 {
				t.Fatal("the upstream was never initialized")
			}
			if got := canonical(t, caps[0]); got != canonical(t, []byte(c.want)) {
				t.Errorf("upstream told capabilities %s, want %s", caps[0], c.want)
			}
			wantInfo := mustJSON(info)
			if c.mode == host.CapabilitiesWorkbench {
				wantInfo = `{"name":"genui","version":"` + engine.Version + `"}`
			}
			if got := canonical(t, infos[0]); got != canonical(t, []byte(wantInfo)) {
				t.Errorf("upstream told clientInfo %s, want %s", infos[0], wantInfo)
			}
			// /state says what the upstream was told and which roots genui answers.
			st, err := e.State(context.Background())
			if err != nil || canonical(t, st.Upstream.ClientCapabilities) != canonical(t, caps[0]) || len(st.Roots) != len(c.roots) {
				t.Errorf("state: clientCapabilities %s roots %+v (%v), want %s and %+v", st.Upstream.ClientCapabilities, st.Roots, err, caps[0], c.roots)
			}
		})
	}
}

// startStdioHost runs an engine on up with genui's surfaces (as in every
// running genui) and a host server whose one host is the stdio session
// (`genui mcp`) in capability mode mode, and returns the engine and that
// host's client, not yet initialized.
func startStdioHost(t *testing.T, up upstream.Config, roots []contract.Root, mode string) (*engine.Engine, *pipeClient) {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	e, err := engine.New(engine.Options{Upstream: up, Dir: t.TempDir(), Logger: log, Surfaces: true, Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	srv := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log, Capabilities: mode})
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
	return e, c
}

// canonical re-encodes JSON with sorted keys.
func canonical(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return mustJSON(v)
}

// TestRootsNeverReachAnotherSession: the upstream asks for roots while
// two sessions have calls in flight, the asking one older: genui cannot
// tell whose call it serves, so it refuses rather than hand the newer
// session's request (and its roots) to the other's call.
func TestRootsNeverReachAnotherSession(t *testing.T) {
	s := newScripted()
	// The host capability mode: the upstream is told of the first host's
	// roots (the workbench's declares none unless configured).
	h := startHostOpts(t, scriptedUpstream(s), host.Options{ClientRequestTimeout: 2 * time.Second, Capabilities: host.CapabilitiesHost})
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

// TestLateHostIsToldToTheUpstream: a host that initializes after the
// upstream's handshake gave up waiting for it (the upstream was told of no
// host capabilities, and a server offers what the client declares) gets
// the upstream restarted: the new handshake declares the host's
// capabilities and clientInfo, /state says so, and the host's calls go
// through.
func TestLateHostIsToldToTheUpstream(t *testing.T) {
	host.SetHostCapsWait(t, 100*time.Millisecond)
	s := newScripted()
	e, c := startStdioHost(t, scriptedUpstream(s), nil, "")
	s.waitInitialize(t, "the first handshake")
	if caps := s.initCapabilities(); len(caps) != 1 || canonical(t, caps[0]) != `{}` {
		t.Fatalf("before the host: upstream told %s, want no capabilities", caps)
	}
	info := map[string]any{"name": "late-host", "version": "1"}
	hostCaps := map[string]any{"sampling": map[string]any{}, "elicitation": map[string]any{"form": map[string]any{}}}
	c.result("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": hostCaps, "clientInfo": info}, nil)
	s.waitInitialize(t, "the host initialized late: the upstream should be restarted to hear its capabilities")
	caps, infos := s.initCapabilities(), s.initClientInfo()
	want := `{"elicitation":{"form":{}},"sampling":{}}`
	if got := canonical(t, caps[len(caps)-1]); got != want {
		t.Errorf("after the late host: upstream told %s, want %s", got, want)
	}
	if got := canonical(t, infos[len(infos)-1]); got != mustJSON(info) {
		t.Errorf("after the late host: upstream told clientInfo %s, want the host's", got)
	}
	testenv.Eventually(t, 30*time.Second, "/state shows the capabilities the new handshake declared", func() bool {
		st, err := e.State(context.Background())
		return err == nil && canonical(t, st.Upstream.ClientCapabilities) == want
	})
	if r := c.call("tools/list", nil); r.Error != nil {
		t.Errorf("tools/list after the restart: %v", r.Error)
	}
}
