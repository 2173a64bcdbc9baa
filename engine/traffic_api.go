package engine

import (
	"context"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/traffic"
)

// Traffic events: every JSON-RPC frame on both legs, as it went over the
// wire. The upstream connection hands its frames to upstreamTracer (written
// and read, real ids, cancellations, genui's answers to the server's
// requests); the MCP host reports its side with TraceFrame. Both pair
// answers with their requests (traffic.Pairs: method, tool, latency),
// number the frame and keep it in a bounded record (traffic.Record:
// RecentTraffic reads it, so a TUI that attaches starts with history and
// one that fell behind fills its gap), whether or not anyone watches; the
// event is published while someone does. The answer to a tools/call is
// published as a final event, never dropped for a slow subscriber: a burst
// of notifications cannot hide the result of the call that caused it.

// TraceFrame reports one frame between an MCP host session and genui
// (direction HostToGenui or GenuiToHost); latency is the host's measure for
// an answer (used when genui did not see the request).
func (e *Engine) TraceFrame(direction, session string, frame []byte, latency time.Duration) {
	now := time.Now()
	t := e.pairs.Observe(direction, session, frame, now)
	if t.Latency == 0 && (t.Kind == "response" || t.Kind == "error") {
		t.Latency = latency
	}
	e.traffic.Add(t, now)
}

// upstreamTracer is the upstream connection's frame watcher
// (upstream.Tracer).
type upstreamTracer struct {
	hub     *eventHub
	pairs   *traffic.Pairs
	traffic *traffic.Record
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
	u.traffic.Add(u.pairs.Observe(dir, "", frame, now), now)
}

// RecentTraffic implements contract.API.
func (e *Engine) RecentTraffic(ctx context.Context, q contract.TrafficQuery) (contract.TrafficPage, error) {
	if err := ctx.Err(); err != nil {
		return contract.TrafficPage{}, err
	}
	return e.traffic.Recent(q), nil
}
