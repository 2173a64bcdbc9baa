package httpapi

import (
	"context"
	"encoding/json"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/events"
	"github.com/genui-dev/genui/engine/registry"
)

// What the side server needs of the engine, declared here so it depends on
// these interfaces and not on *engine.Engine: the engine is an Engine, its
// Relay() an Upstream, its Registry() a Tools (engine/app wires them, as it
// does the MCP host's, host/engine.go).

// Engine is the engine's front door, which the side server serves one route
// per method, plus the hooks of its other routes.
type Engine interface {
	contract.API
	// AgentQueue is the agents' /wait queue; Push queues an event on it
	// (watchers see it as an EventQueued without draining it).
	AgentQueue() *events.Queue
	Push(source, typ, tool string, payload any) contract.QueuedEvent
	// LookupTool finds an upstream tool, waiting a bounded time for the
	// first tools/list (the preview's routes).
	LookupTool(ctx context.Context, name string) (*registry.Tool, error)
	// ReportSecurity reports what the preview saw a UI do (a navigation of
	// its frame away) and returns the event as the engine recorded it.
	ReportSecurity(ctx context.Context, tool string, ev contract.Security) (contract.Security, error)
	// SetURLs registers where this server listens (State); portConflict
	// says why DIR's port files name another genui.
	SetURLs(u contract.URLs, portConflict string)
}

// Upstream is the pass-through to the upstream the preview's
// resources/read and resources/list go through (engine.Relay).
type Upstream interface {
	// Wait waits, bounded, for a starting or reconnecting upstream.
	Wait(ctx context.Context) error
	// Forward sends a request and returns the upstream's result, or its
	// error, verbatim.
	Forward(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
}

// Tools is the upstream's tools as genui holds them (*registry.Registry):
// the side server tells them from genui's own _ui_* tools.
type Tools interface {
	Get(name string) (*registry.Tool, bool)
	List() []*registry.Tool
}
