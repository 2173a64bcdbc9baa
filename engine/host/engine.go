package host

import (
	"context"
	"encoding/json"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/registry"
)

// What the MCP host needs of the engine, declared here so the host depends
// on these interfaces and not on the engine package: *engine.Engine is an
// Engine, its Relay() an Upstream, its Registry() a Tools (engine/app wires
// them; engine/layering_test.go checks the host imports no engine package
// but the contract, the registry and jsonrpc).

// Engine is the engine's front door plus the hooks the host uses: events
// for notifications and traffic, the session list, MCP sampling for the
// engine's generators, and tool results for its LLM prompts.
type Engine interface {
	contract.API
	// OnEvent registers a synchronous listener of every event.
	OnEvent(func(contract.Event))
	// Streaming reports whether anyone watches events (then traffic is
	// reported, and the fast path is off).
	Streaming() bool
	// TraceFrame reports one frame between a host session and genui.
	TraceFrame(direction, session string, frame []byte, latency time.Duration)
	// SetSessionSource registers the list of connected sessions for State;
	// SessionsChanged tells watchers it changed.
	SetSessionSource(func() []contract.SessionInfo)
	SessionsChanged([]contract.SessionInfo)
	// SetSampler gives the engine the hosts' sampling/createMessage (an
	// error wrapping contract.ErrNoSampler when no session can sample).
	SetSampler(func(ctx context.Context, params json.RawMessage) (json.RawMessage, error))
	// ObserveResult hands the engine a real tools/call result when
	// WantsExamples (an LLM generator shows it one per tool).
	ObserveResult(tool string, args, result json.RawMessage, took time.Duration)
	WantsExamples() bool
	// OwnCapabilities are the client capabilities genui answers itself
	// (roots; elicitation and sampling when its surfaces may answer): the
	// upstream is told them besides the stdio host's.
	OwnCapabilities() json.RawMessage
	// HistoryPolicy says what the call history keeps of a tool's calls
	// (Record false: nothing; how many bytes of arguments and result) and
	// the upstream generation now; it does not keep tool. RecordCall hands
	// the history a finished call, which it owns from then on; it never
	// blocks.
	HistoryPolicy(tool string) contract.HistoryPolicy
	RecordCall(rec *contract.CallRecord)
}

// Upstream is the pass-through to the upstream (engine.Relay).
type Upstream interface {
	// Forward sends a request and returns the upstream's result, or its
	// error as a *jsonrpc.Error, verbatim.
	Forward(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	// Go is Forward's fast path: it sends and returns the id the upstream
	// sees; w gets the answer on the connection's read loop. An error means
	// nothing was sent: use Forward.
	Go(method string, params json.RawMessage, w jsonrpc.Waiter) (int64, error)
	// Cancel gives up on a request Go sent; false when its answer is
	// already on its way.
	Cancel(id int64, reason string) bool
	// CountError counts a failed request Go sent in the metrics.
	CountError(err error)
	// Notify sends a notification verbatim.
	Notify(ctx context.Context, method string, params json.RawMessage) error
	// InitializeResult is the upstream's initialize result, nil before its
	// first handshake.
	InitializeResult() json.RawMessage
	// Wait waits, bounded, for a starting or reconnecting upstream.
	Wait(ctx context.Context) error
	// WaitHandshake waits, bounded, for the upstream's first initialize;
	// failed says why when the upstream's attempt failed (it did not start
	// or exited during initialize), reason why it returned without it.
	WaitHandshake(ctx context.Context) (ok bool, reason string, failed error)
	// The upstream's notifications and server-to-client requests, and the
	// client capabilities its handshake declares, come from the host.
	SetNotificationHandler(func(method string, params json.RawMessage))
	SetRequestHandler(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error))
	SetClientCapabilities(func(ctx context.Context) json.RawMessage)
	SetClientInfo(func() json.RawMessage)
	// Restart makes the upstream's handshake again (a new child for a
	// stdio upstream); an error when it cannot (an HTTP upstream).
	Restart(ctx context.Context, why string) error
	// NextCallSeq numbers a request forwarded upstream among every call in
	// flight (the host's and genui's surfaces'); SetHostCalls registers
	// the host's newest one, so the engine can tell whose call a
	// server-to-client request belongs to. A request the host cannot take
	// is answered with an error whose NoHost method is true (see noHost):
	// the engine then offers it to genui's own surfaces.
	NextCallSeq() int64
	SetHostCalls(func() int64)
}

// Tools is the upstream's tools as genui holds them (*registry.Registry).
type Tools interface {
	Get(name string) (*registry.Tool, bool)
	List() []*registry.Tool
	// Snapshot is List without the copy (read-only).
	Snapshot() []*registry.Tool
	// WithUI is every tool's JSON with genui's UI metadata, Raw verbatim.
	WithUI() []json.RawMessage
	Raw() []json.RawMessage
	// WaitReady waits for the first tools/list.
	WaitReady(ctx context.Context) error
	// WaitTools waits until need tools can be listed: the whole list once
	// loaded (l nil), or during the first load the tools parsed so far
	// (see registry.Registry.WaitTools).
	WaitTools(ctx context.Context, need int) (tools []*registry.Tool, l *registry.Loading, err error)
}
