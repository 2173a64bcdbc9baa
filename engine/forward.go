package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/events"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
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

// The fast path's types, as front ends see them (they do not import the
// upstream package).
type (
	// Waiter receives the answer to a request sent with ForwardGo.
	Waiter = upstream.Waiter
	// Answer is that answer: the result or error object as sent, or Err.
	Answer = upstream.Answer
	// ForwardCall identifies a request sent with ForwardGo.
	ForwardCall = upstream.Call
)

// ErrNoFastPath: ForwardGo did not send the request; use Forward.
var ErrNoFastPath = upstream.ErrNoFastPath

// ForwardGo is Forward's fast path (upstream.Client.Go): it sends the
// request and returns at once; w gets the upstream's answer, on the
// connection's read loop. It refuses (an error wrapping
// upstream.ErrNoFastPath; nothing was sent) while someone watches traffic
// (Forward reports it), while the upstream is not connected (Forward waits)
// and for HTTP and SSE upstreams: then use Forward. Report failed answers
// with CountUpstreamError.
func (e *Engine) ForwardGo(method string, params json.RawMessage, w Waiter) (ForwardCall, error) {
	if e.Streaming() {
		return ForwardCall{}, ErrNoFastPath
	}
	return e.up.Go(method, params, w)
}

// CancelForward gives up on a request sent with ForwardGo (the upstream is
// told with reason); false when its answer is already on its way.
func (e *Engine) CancelForward(c ForwardCall, reason string) bool { return e.up.Cancel(c, reason) }

// CountUpstreamError counts a failed forwarded request in the metrics
// (ForwardGo's callers; Forward counts its own).
func (e *Engine) CountUpstreamError(err error) { e.countUpstreamError(err) }

// WantsExamples reports whether ObserveResult has a use: an LLM generator
// shows it one real result of a tool.
func (e *Engine) WantsExamples() bool { return e.llm() != nil }

// NotifyUpstream sends a notification to the upstream verbatim.
func (e *Engine) NotifyUpstream(ctx context.Context, method string, params json.RawMessage) error {
	if e.Streaming() {
		e.PublishTraffic(trafficOf(contract.GenuiToUpstream, "", "notification", method, nil, 0, jsonrpc.NewNotification(method, params)))
	}
	return e.up.Notify(ctx, method, params)
}

// UpstreamState is the upstream connection's state.
func (e *Engine) UpstreamState() contract.UpstreamState { return e.up.State() }

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
