package host_test

import (
	"context"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
)

// TestTrafficSeenByWatchers: while someone watches the engine's events,
// every frame between a host session and genui is reported: the request as
// it arrived and the response with its latency, under the session's id.
func TestTrafficSeenByWatchers(t *testing.T) {
	h := startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways)
	h.c.initialize(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ch, err := h.e.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := h.c.call("tools/call", map[string]any{"name": "custom", "arguments": map[string]any{"a": "x"}})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	var in, out *contract.Traffic
	for in == nil || out == nil {
		select {
		case ev := <-ch:
			tr, ok := ev.Detail.(*contract.Traffic)
			if !ok || tr.Session != "stdio" {
				continue
			}
			switch {
			case tr.Direction == contract.HostToGenui && tr.Kind == "request" && tr.Method == "tools/call":
				in = tr
			case tr.Direction == contract.GenuiToHost && tr.Kind == "response" && in != nil && string(tr.ID) == string(in.ID):
				out = tr
			}
		case <-ctx.Done():
			t.Fatalf("no host traffic (request %v, response %v)", in != nil, out != nil)
		}
	}
	if out.Latency <= 0 || out.Size == 0 || len(out.Frame) == 0 {
		t.Fatalf("response traffic: %+v", out)
	}
}
