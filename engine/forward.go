package engine

import (
	"context"
	"encoding/json"

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
