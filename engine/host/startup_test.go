package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
)

// slowStart is an in-process upstream that takes d to start answering,
// like a server that spends a while booting before its handshake.
func slowStart(s *scripted, d time.Duration) upstream.Config {
	return upstream.Config{Transport: "inprocess", InProcess: func(ctx context.Context, r io.Reader, w io.Writer) error {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil
		}
		return s.serve(ctx, r, w)
	}}
}

var initParams = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
	"clientInfo": map[string]any{"name": "test", "version": "1"}}

type initResult struct {
	Capabilities map[string]json.RawMessage `json:"capabilities"`
	Instructions string                     `json:"instructions"`
}

// TestInitializeWaitsForTheUpstreamHandshake: the host's first initialize
// arrives while the upstream is still starting; its answer must still carry
// the upstream's capabilities (prompts, logging) and instructions, or
// capability-respecting clients never use them.
func TestInitializeWaitsForTheUpstreamHandshake(t *testing.T) {
	h := startHostOpts(t, slowStart(newScripted(), 400*time.Millisecond), host.Options{})
	var res initResult
	h.c.result("initialize", initParams, &res)
	for _, c := range []string{"prompts", "logging", "tools", "resources"} {
		if _, ok := res.Capabilities[c]; !ok {
			t.Errorf("first initialize lacks the %s capability: %s", c, mustJSON(res.Capabilities))
		}
	}
	if res.Instructions != "scripted upstream" {
		t.Errorf("first initialize lacks the upstream's instructions: %q", res.Instructions)
	}
}

// TestInitializeAnswersWhenTheUpstreamIsLate: when the upstream cannot come
// up within the bound, initialize answers with what is known (genui's own
// capabilities, no instructions: it did not wait for the upstream), and the
// session hears
// list_changed for tools, resources and prompts once the upstream arrives.
func TestInitializeAnswersWhenTheUpstreamIsLate(t *testing.T) {
	const bound = 300 * time.Millisecond
	h := startHostOpts(t, slowStart(newScripted(), 1500*time.Millisecond), host.Options{}, func(o *engine.Options) { o.UpstreamWait = bound })
	start := time.Now()
	var res initResult
	h.c.result("initialize", initParams, &res)
	took := time.Since(start)
	if took < bound {
		t.Errorf("initialize took %s, less than the %s bound", took, bound)
	}
	if _, ok := res.Capabilities["prompts"]; ok || res.Instructions != "" {
		t.Fatalf("initialize answered before the upstream claims its capabilities: %s %q", mustJSON(res.Capabilities), res.Instructions)
	}
	for _, c := range []string{"tools", "resources"} {
		if _, ok := res.Capabilities[c]; !ok {
			t.Errorf("initialize lacks genui's own %s capability: %s", c, mustJSON(res.Capabilities))
		}
	}
	h.c.send(jsonrpc.NewNotification("notifications/initialized", nil))
	for _, m := range []string{"notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/prompts/list_changed"} {
		if _, err := h.c.waitNotif(func(n *jsonrpc.Message) bool { return n.Method == m }, 10*time.Second); err != nil {
			t.Fatalf("%s after the upstream arrived: %v", m, err)
		}
	}
	r := h.c.call("prompts/list", nil)
	if r.Error != nil || !strings.Contains(string(r.Result), `"name":"p"`) {
		t.Fatalf("prompts/list after the upstream arrived: %s %v", r.Result, r.Error)
	}
}

// TestInitializeDoesNotWaitForAFailedUpstream: an upstream whose first
// attempt fails (here: it exits at once) does not hold initialize for the
// whole bound, and initialize is an error naming the cause: a host that
// showed the server connected would only see its requests fail later.
func TestInitializeDoesNotWaitForAFailedUpstream(t *testing.T) {
	up := upstream.Config{Transport: "inprocess", InProcess: func(ctx context.Context, r io.Reader, w io.Writer) error {
		return errors.New("cannot find module ./server.js") // closes at once, before any handshake
	}}
	// With an hour's bound, an initialize that waited for it would trip the
	// client's hang bound (pipeClient.call).
	h := startHostOpts(t, up, host.Options{}, func(o *engine.Options) { o.UpstreamWait = time.Hour })
	start := time.Now()
	r := h.c.call("initialize", initParams)
	if r.Error == nil || r.Error.Code != jsonrpc.CodeUpstreamUnavailable ||
		!strings.HasPrefix(r.Error.Message, "the upstream server did not start: ") || !strings.Contains(r.Error.Message, "cannot find module ./server.js") {
		t.Fatalf("initialize with an upstream that stops at once: %s %v, want a -32001 error naming the cause", r.Result, r.Error)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("initialize took %s", d)
	}
	// A host that goes on anyway hears the same cause at once, not a
	// timeout after the (here hour-long) wait.
	r = h.c.call("tools/call", map[string]any{"name": "anything"})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(r.Error.Message, "cannot find module ./server.js") {
		t.Fatalf("tools/call with an upstream that did not start: %s %v, want a -32001 error naming the cause", r.Result, r.Error)
	}
}
