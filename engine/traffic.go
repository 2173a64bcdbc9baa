package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Traffic events: every JSON-RPC frame on both legs, as it went over the
// wire. The upstream connection hands its frames to upstreamTracer (written
// and read, real ids, cancellations, genui's answers to the server's
// requests); the MCP host reports its side with TraceFrame. Both pair
// answers with their requests (method, tool, latency), number the frame
// and keep it in a bounded record (trafficRecord: RecentTraffic reads it,
// so a TUI that attaches starts with history and one that fell behind
// fills its gap), whether or not anyone watches; the event is published
// while someone does. The answer to a tools/call is published as a final
// event, never dropped for a slow subscriber: a burst of notifications
// cannot hide the result of the call that caused it.

// TraceFrame reports one frame between an MCP host session and genui
// (direction HostToGenui or GenuiToHost); latency is the host's measure for
// an answer (used when genui did not see the request).
func (e *Engine) TraceFrame(direction, session string, frame []byte, latency time.Duration) {
	now := time.Now()
	t := e.pairs.observe(direction, session, frame, now)
	if t.Latency == 0 && (t.Kind == "response" || t.Kind == "error") {
		t.Latency = latency
	}
	e.traffic.add(e.hub, t, now)
}

// upstreamTracer is the upstream connection's frame watcher
// (upstream.Tracer).
type upstreamTracer struct {
	hub     *eventHub
	pairs   *trafficPairs
	traffic *trafficRecord
}

// Tracing is always true: every frame is numbered and recorded.
func (u upstreamTracer) Tracing() bool { return true }

// Watching reports whether someone subscribes (upstream.Watcher).
func (u upstreamTracer) Watching() bool { return u.hub.streaming() }

func (u upstreamTracer) Frame(out bool, frame []byte) {
	dir := contract.UpstreamToGenui
	if out {
		dir = contract.GenuiToUpstream
	}
	now := time.Now()
	u.traffic.add(u.hub, u.pairs.observe(dir, "", frame, now), now)
}

// trafficRecord numbers the frames and keeps the newest: at most
// contract.MaxRecentTraffic of them and maxTrafficBytes of their copies.
type trafficRecord struct {
	mu    sync.Mutex
	seq   int64
	buf   []contract.Event // a ring: start is the oldest, n held
	start int
	n     int
	bytes int
}

const maxTrafficBytes = 8 << 20

func newTrafficRecord() *trafficRecord {
	return &trafficRecord{buf: make([]contract.Event, contract.MaxRecentTraffic)}
}

// add numbers t, keeps it and publishes it (a tools/call answer as a
// final event). Numbering and publishing happen under one lock, so
// subscribers see the numbers in order.
func (r *trafficRecord) add(hub *eventHub, t contract.Traffic, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	t.Seq = r.seq
	for r.n > 0 && (r.n == len(r.buf) || r.bytes+len(t.Frame) > maxTrafficBytes) {
		old := r.buf[r.start].Detail.(*contract.Traffic)
		r.bytes -= len(old.Frame)
		r.buf[r.start] = contract.Event{}
		r.start = (r.start + 1) % len(r.buf)
		r.n--
	}
	r.buf[(r.start+r.n)%len(r.buf)] = contract.Event{Time: at, Kind: contract.EventTraffic, Detail: &t}
	r.n++
	r.bytes += len(t.Frame)
	hub.publishTraffic(t, t.Method == "tools/call" && (t.Kind == "response" || t.Kind == "error"))
}

// recent is RecentTraffic.
func (r *trafficRecord) recent(q contract.TrafficQuery) contract.TrafficPage {
	limit := q.Limit
	if limit <= 0 || limit > contract.MaxRecentTraffic {
		limit = contract.MaxRecentTraffic
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	page := contract.TrafficPage{Last: r.seq, Events: []contract.Event{}}
	after := max(q.After, 0)
	if after >= r.seq {
		return page
	}
	first := r.seq - int64(r.n) + 1 // the oldest number held
	from := max(after+1, first, r.seq-int64(limit)+1)
	page.Skipped = from - (after + 1)
	for s := from; s <= r.seq; s++ {
		ev := r.buf[(r.start+int(s-first))%len(r.buf)]
		d := *ev.Detail.(*contract.Traffic)
		ev.Detail = &d
		page.Events = append(page.Events, ev)
	}
	return page
}

// trafficPairs remembers the requests seen in flight, per leg, session and
// direction, so an answer names the method (and tool) it answers and how
// long it took, and a notifications/cancelled names the tool it gives up
// on. Bounded: requests never answered are forgotten after pairTTL, and
// the map never holds more than maxPairs.
type trafficPairs struct {
	mu      sync.Mutex
	pending map[pairKey]trafficRequest
}

type pairKey struct{ session, dir, id string }

type trafficRequest struct {
	method, tool string
	at           time.Time
}

const (
	maxPairs = 4096
	pairTTL  = 10 * time.Minute
)

func newTrafficPairs() *trafficPairs { return &trafficPairs{pending: map[pairKey]trafficRequest{}} }

// reverse is the direction answers to dir's requests go.
func reverse(dir string) string {
	switch dir {
	case contract.HostToGenui:
		return contract.GenuiToHost
	case contract.GenuiToHost:
		return contract.HostToGenui
	case contract.GenuiToUpstream:
		return contract.UpstreamToGenui
	case contract.UpstreamToGenui:
		return contract.GenuiToUpstream
	}
	return dir
}

// observe classifies one frame and pairs it: requests are remembered,
// answers and cancellations look theirs up.
func (p *trafficPairs) observe(dir, session string, frame []byte, now time.Time) contract.Traffic {
	t := trafficOf(dir, session, frame)
	top, ok := jsonrpc.Scan(bytes.TrimSpace(frame))
	if !ok {
		t.Kind = "error" // not a JSON object: not JSON-RPC
		return t
	}
	method := jsonString(top.Method)
	id := bytes.TrimSpace(top.ID)
	hasID := len(id) > 0 && string(id) != "null"
	if hasID {
		t.ID = bytes.Clone(id)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case method != "" && hasID:
		t.Kind, t.Method = "request", method
		if method == "tools/call" {
			t.Tool = jsonString(jsonrpc.Member(top.Params, "name"))
		}
		p.remember(pairKey{session, dir, string(id)}, trafficRequest{method: method, tool: t.Tool, at: now}, now)
	case method != "":
		t.Kind, t.Method = "notification", method
		if method == "notifications/cancelled" {
			if rid := bytes.TrimSpace(jsonrpc.Member(top.Params, "requestId")); len(rid) > 0 {
				t.RequestID = bytes.Clone(rid)
				k := pairKey{session, dir, string(rid)}
				if req, ok := p.pending[k]; ok {
					t.Tool = req.tool
					delete(p.pending, k)
				}
			}
		}
	case hasID:
		t.Kind = "response"
		if len(top.Error) > 0 && string(bytes.TrimSpace(top.Error)) != "null" {
			t.Kind = "error"
		}
		k := pairKey{session, reverse(dir), string(id)}
		if req, ok := p.pending[k]; ok {
			t.Method, t.Tool, t.Latency = req.method, req.tool, now.Sub(req.at)
			delete(p.pending, k)
		}
	default:
		t.Kind = "error" // an object that is no JSON-RPC message
	}
	return t
}

// remember records a request, forgetting stale ones when the map is full.
func (p *trafficPairs) remember(k pairKey, r trafficRequest, now time.Time) {
	if len(p.pending) >= maxPairs {
		for k, v := range p.pending {
			if now.Sub(v.at) > pairTTL {
				delete(p.pending, k)
			}
		}
		if len(p.pending) >= maxPairs {
			clear(p.pending)
		}
	}
	p.pending[k] = r
}

// jsonString is the JSON string s's value ("" when s is not a string).
func jsonString(s []byte) string {
	if v, ok := jsonrpc.PlainString(bytes.TrimSpace(s)); ok {
		return string(v)
	}
	var v string
	if json.Unmarshal(s, &v) != nil {
		return ""
	}
	return v
}

// trafficOf is a frame as a Traffic event carries it: cut to
// MaxTrafficFrame bytes (then, or when it is not JSON, as a JSON string).
func trafficOf(direction, session string, frame []byte) contract.Traffic {
	t := contract.Traffic{Direction: direction, Session: session, Size: len(frame)}
	frame = bytes.TrimSpace(frame)
	switch {
	case len(frame) > contract.MaxTrafficFrame:
		// A cut frame is not JSON: carry it as a JSON string.
		b, _ := json.Marshal(string(bytes.ToValidUTF8(frame[:contract.MaxTrafficFrame], nil)))
		t.Frame, t.Truncated = b, true
	case json.Valid(frame):
		t.Frame = bytes.Clone(frame)
	default:
		b, _ := json.Marshal(string(bytes.ToValidUTF8(frame, nil)))
		t.Frame = b
	}
	return t
}

// RecentTraffic implements contract.API.
func (e *Engine) RecentTraffic(ctx context.Context, q contract.TrafficQuery) (contract.TrafficPage, error) {
	if err := ctx.Err(); err != nil {
		return contract.TrafficPage{}, err
	}
	return e.traffic.recent(q), nil
}
