package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/testenv"
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

// trafficLog collects the Traffic events of a subscription.
type trafficLog struct {
	mu   sync.Mutex
	rows []contract.Traffic
}

func watchTraffic(t *testing.T, e interface {
	Subscribe(context.Context) (<-chan contract.Event, error)
}) *trafficLog {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ch, err := e.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	l := &trafficLog{}
	go func() {
		for ev := range ch {
			if tr, ok := ev.Detail.(*contract.Traffic); ok {
				l.mu.Lock()
				l.rows = append(l.rows, *tr)
				l.mu.Unlock()
			}
		}
	}()
	return l
}

// wait returns the first row f accepts, failing after 10 s.
func (l *trafficLog) wait(t *testing.T, what string, f func(contract.Traffic) bool) contract.Traffic {
	t.Helper()
	var found contract.Traffic
	logged := func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, r := range l.rows {
			if f(r) {
				found = r
				return true
			}
		}
		return false
	}
	if testenv.Until(10*time.Second, logged) {
		return found
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var seen []string
	for _, r := range l.rows {
		seen = append(seen, fmt.Sprintf("%s %s %s id=%s tool=%s req=%s", r.Direction, r.Kind, r.Method, r.ID, r.Tool, r.RequestID))
	}
	t.Fatalf("no traffic row for %s; saw:\n%s", what, strings.Join(seen, "\n"))
	return contract.Traffic{}
}

// TestTrafficIsTheWire: both legs show the frames as sent, with their real
// ids; answers name the method (and tool) of the request they answer; the
// notifications/cancelled the host sent and the one genui sent upstream
// both show, each with the id of the request it cancels; no answer is
// invented for the cancelled call; genui's own answer to the upstream's
// request (sampling, relayed to the host) shows on the upstream leg.
func TestTrafficIsTheWire(t *testing.T) {
	s := newScripted()
	h := startHost(t, scriptedUpstream(s), host.UIMetaAlways)
	h.c.initialize(map[string]any{"sampling": map[string]any{}})
	tl := watchTraffic(t, h.e)

	_, hostID := h.c.start("tools/call", map[string]any{"name": "slow"})
	upReq := tl.wait(t, "the slow call upstream", func(r contract.Traffic) bool {
		return r.Direction == contract.GenuiToUpstream && r.Kind == "request" && r.Method == "tools/call" && r.Tool == "slow"
	})
	if len(upReq.ID) == 0 || !strings.Contains(string(upReq.Frame), `"id":`+string(upReq.ID)) {
		t.Fatalf("the upstream request has no real id: %s / %s", upReq.ID, upReq.Frame)
	}
	h.c.send(jsonrpc.NewNotification("notifications/cancelled", json.RawMessage(`{"requestId":`+hostID+`,"reason":"user"}`)))
	tl.wait(t, "the host's cancellation", func(r contract.Traffic) bool {
		return r.Direction == contract.HostToGenui && r.Method == "notifications/cancelled" && string(r.RequestID) == hostID && r.Tool == "slow"
	})
	tl.wait(t, "genui's cancellation upstream", func(r contract.Traffic) bool {
		return r.Direction == contract.GenuiToUpstream && r.Kind == "notification" && r.Method == "notifications/cancelled" &&
			string(r.RequestID) == string(upReq.ID) && r.Tool == "slow"
	})

	ch, _ := h.c.start("tools/call", map[string]any{"name": "ask"})
	var req *jsonrpc.Message
	select {
	case req = <-h.c.reqs:
	case <-time.After(10 * time.Second):
		t.Fatal("sampling/createMessage never reached the host")
	}
	h.c.send(jsonrpc.NewResult(req.ID, json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"sampled!"},"model":"m"}`)))
	<-ch
	upAsk := tl.wait(t, "the upstream's sampling request", func(r contract.Traffic) bool {
		return r.Direction == contract.UpstreamToGenui && r.Kind == "request" && r.Method == "sampling/createMessage"
	})
	tl.wait(t, "genui's answer to it, upstream", func(r contract.Traffic) bool {
		return r.Direction == contract.GenuiToUpstream && r.Kind == "response" && r.Method == "sampling/createMessage" &&
			string(r.ID) == string(upAsk.ID) && strings.Contains(string(r.Frame), "sampled!")
	})
	tl.wait(t, "the host's answer, with its method", func(r contract.Traffic) bool {
		return r.Direction == contract.HostToGenui && r.Kind == "response" && r.Method == "sampling/createMessage" && r.Latency > 0
	})
	tl.wait(t, "genui's answer to the host's call, with method, tool and latency", func(r contract.Traffic) bool {
		return r.Direction == contract.GenuiToHost && r.Kind == "response" && r.Method == "tools/call" && r.Tool == "ask" && r.Latency > 0
	})

	// The cancelled call got no answer from anyone: none is invented.
	tl.mu.Lock()
	defer tl.mu.Unlock()
	for _, r := range tl.rows {
		if (r.Kind == "response" || r.Kind == "error") && r.Tool == "slow" {
			t.Fatalf("an answer to the cancelled call: %s %s %s", r.Direction, r.Kind, r.Frame)
		}
	}
}
