package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/genui-dev/genui/engine/events"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// The MCP host forwards everything genui does not handle itself to the
// upstream verbatim. These methods are that pass-through; front ends other
// than the host use API.

// Forward sends a request to the upstream verbatim and returns its result
// (or its error, as a *jsonrpc.Error) verbatim. Callers bound the wait with
// WaitUpstream first.
func (e *Engine) Forward(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	return e.request(ctx, method, params)
}

// NotifyUpstream sends a notification to the upstream verbatim.
func (e *Engine) NotifyUpstream(ctx context.Context, method string, params json.RawMessage) error {
	if e.Streaming() {
		e.PublishTraffic(trafficOf(GenuiToUpstream, "", "notification", method, nil, 0, jsonrpc.NewNotification(method, params)))
	}
	return e.up.Notify(ctx, method, params)
}

// UpstreamState is the upstream connection's state.
func (e *Engine) UpstreamState() UpstreamState { return e.up.State() }

// UpstreamInit is the upstream's initialize result (capabilities,
// instructions, serverInfo) verbatim, or nil before its first handshake.
func (e *Engine) UpstreamInit() json.RawMessage { return e.up.InitializeResult() }

// AgentQueue is the /wait queue the side server serves to agents. Pushing
// goes through Push; watchers see pushes and drains as events.
func (e *Engine) AgentQueue() *events.Queue { return e.queue }

// Watchers is how many Subscribe streams are open.
func (e *Engine) Watchers() int { return e.broker.SubscriberCount() }

// handshakePoll is how often WaitHandshake looks for a failed attempt.
const handshakePoll = 25 * time.Millisecond

// WaitHandshake waits until the upstream has completed its first
// initialize, at most Options.UpstreamWait, and reports whether it has. It
// gives up early once a connection attempt has failed (a command that does
// not start, a URL that refuses): the reconnect backoff would only make the
// caller wait for nothing; reason then says why.
func (e *Engine) WaitHandshake(ctx context.Context) (ok bool, reason string) {
	if len(e.up.InitializeResult()) > 0 {
		return true, ""
	}
	ctx, cancel := context.WithTimeout(ctx, e.opts.UpstreamWait)
	defer cancel()
	ready := make(chan struct{})
	go func() {
		if e.up.WaitReady(ctx) == nil {
			close(ready)
		}
	}()
	t := time.NewTicker(handshakePoll)
	defer t.Stop()
	for {
		select {
		case <-ready:
			return true, ""
		case <-ctx.Done():
			return len(e.up.InitializeResult()) > 0, "no handshake within " + e.opts.UpstreamWait.String()
		case <-t.C:
			if st := e.up.State(); !st.Connected && st.LastError != "" {
				return len(e.up.InitializeResult()) > 0, "its first attempt failed: " + st.LastError
			}
		}
	}
}
