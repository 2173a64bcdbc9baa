package engine

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/metrics"
	"github.com/genui-dev/genui/engine/upstream"
)

// Relay is the engine's pass-through: the MCP host forwards everything
// genui does not handle itself to the upstream verbatim through it, and
// gets the upstream's notifications and server-to-client requests back.
// The upstream connection reports every frame as traffic while someone
// watches (upstreamTracer). Get it with
// Engine.Relay; it is safe for concurrent use.
type Relay struct {
	up  *upstream.Client
	met *metrics.Metrics
	hub *eventHub
	// upstreamWait bounds a new request's wait for a starting upstream,
	// reconnectWait one for an upstream that was up and is reconnecting.
	upstreamWait, reconnectWait time.Duration
	// toolsChanged is the engine's reaction to tools/list_changed (a
	// refresh); the host is not told (it re-announces after the refresh).
	toolsChanged func()
	// surfaceNotification takes the notifications that belong to calls
	// of genui's own surfaces (their progress, their tasks' status) and
	// reports true for those: hosts never see them.
	surfaceNotification func(method string, params json.RawMessage) bool
	// hostCalls is the MCP host's newest call in flight (its NextCallSeq
	// number; 0 when none), so a server-to-client request is matched to
	// the newest call, a host's or a surface's (requests.go).
	hostCalls func() int64
	// seq numbers calls in flight (NextCallSeq).
	seq atomic.Int64

	mu             sync.RWMutex
	onNotification func(method string, params json.RawMessage)
	onRequest      func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
}

// Forward sends a request to the upstream verbatim and returns its result
// (or its error, as a *jsonrpc.Error) verbatim. Callers bound the wait with
// Wait first.
func (r *Relay) Forward(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	return r.request(ctx, method, params)
}

// Go is Forward's fast path (upstream.Client.Go): it sends the request and
// returns at once with the id the upstream sees; w gets the upstream's
// answer, on the connection's read loop. It refuses (an error wrapping
// upstream.ErrNoFastPath; nothing was sent) while someone watches traffic
// (Forward reports it), while the upstream is not connected (Forward waits)
// and for HTTP and SSE upstreams: then use Forward. Report failed answers
// with CountError.
func (r *Relay) Go(method string, params json.RawMessage, w jsonrpc.Waiter) (int64, error) {
	if r.hub.streaming() {
		return 0, upstream.ErrNoFastPath
	}
	return r.up.Go(method, params, w)
}

// Cancel gives up on the request Go sent as id (the upstream is told with
// reason); false when its answer is already on its way.
func (r *Relay) Cancel(id int64, reason string) bool { return r.up.Cancel(id, reason) }

// CountError counts a failed forwarded request in the metrics (Go's
// callers; Forward counts its own): unavailable (not connected, connection
// lost) or rpc (an error answer). A request the caller cancelled is not the
// upstream's failure.
func (r *Relay) CountError(err error) {
	if err == nil || r.met == nil || errors.Is(err, context.Canceled) {
		return
	}
	if jsonrpc.AsError(err).Code == jsonrpc.CodeUpstreamUnavailable {
		r.met.UpstreamError("unavailable")
		return
	}
	r.met.UpstreamError("rpc")
}

// Notify sends a notification to the upstream verbatim.
func (r *Relay) Notify(ctx context.Context, method string, params json.RawMessage) error {
	return r.up.Notify(ctx, method, params)
}

// InitializeResult is the upstream's initialize result (capabilities,
// instructions, serverInfo) verbatim, or nil before its first handshake.
func (r *Relay) InitializeResult() json.RawMessage { return r.up.InitializeResult() }

// SetNotificationHandler receives upstream notifications (tools/list_changed
// is the engine's: it refreshes the tools). Set before Engine.Run.
func (r *Relay) SetNotificationHandler(f func(method string, params json.RawMessage)) {
	r.mu.Lock()
	r.onNotification = f
	r.mu.Unlock()
}

// SetRequestHandler receives server-to-client requests from the upstream
// (sampling, elicitation, roots) to relay to a host.
func (r *Relay) SetRequestHandler(f func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)) {
	r.mu.Lock()
	r.onRequest = f
	r.mu.Unlock()
}

// SetClientCapabilities sets the function the upstream's handshake asks for
// the client capabilities to declare (the MCP host mirrors its host's
// sampling, elicitation and roots); see upstream.Client.SetCapabilities.
func (r *Relay) SetClientCapabilities(f func(ctx context.Context) json.RawMessage) {
	r.up.SetCapabilities(f)
}

// SetClientInfo sets the function the upstream's handshake asks for the
// clientInfo to send (the MCP host passes its host's on); see
// upstream.Client.SetClientInfo.
func (r *Relay) SetClientInfo(f func() json.RawMessage) { r.up.SetClientInfo(f) }

// Restart replaces the upstream with a fresh one whose handshake is made
// anew (upstream.Client.Restart; upstream.ErrNoRestart for an HTTP or SSE
// upstream): why says what it is told now that it was not.
func (r *Relay) Restart(ctx context.Context, why string) error { return r.up.Restart(ctx, why) }

// declared reports whether the upstream's last handshake declared the
// client capability name (sampling, elicitation, roots).
func (r *Relay) declared(name string) bool {
	var c map[string]json.RawMessage
	if json.Unmarshal(r.up.DeclaredCapabilities(), &c) != nil {
		return false
	}
	v, ok := c[name]
	return ok && string(v) != "null"
}

// Wait lets a request that arrives while the upstream is starting or
// restarting wait for it, bounded (Options.UpstreamWait, or
// Options.ReconnectWait once it has been up); requests already in flight
// when it dies fail at once.
func (r *Relay) Wait(ctx context.Context) error {
	if r.up.State().Connected {
		return nil
	}
	wait := r.upstreamWait
	if st := r.up.State(); len(r.up.InitializeResult()) == 0 && st.LastError != "" {
		// It never came up and its attempt failed (the command does not
		// start, the server exits during initialize): say why now; the
		// retries' backoff would only make the caller wait for the same.
		return contract.Errorf(contract.CodeUpstreamUnavailable, "the upstream server did not start: %s", st.LastError)
	}
	if len(r.up.InitializeResult()) > 0 {
		// It was up before and is reconnecting: a quick restart (stdio
		// backoff starts at 1 s) is worth waiting for, a long outage is not.
		wait = min(wait, r.reconnectWait)
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if err := r.up.WaitReady(wctx); err != nil {
		if ctx.Err() != nil {
			return contract.AsError(ctx.Err())
		}
		st := r.up.State()
		return contract.Errorf(contract.CodeUpstreamUnavailable, "upstream %s is not connected after %s (last error: %s)",
			st.Target, wait, st.LastError)
	}
	return nil
}

// handshakePoll is how often WaitHandshake looks for a failed attempt.
const handshakePoll = 25 * time.Millisecond

// WaitHandshake waits until the upstream has completed its first
// initialize, at most Options.UpstreamWait, and reports whether it has. It
// gives up early once a connection attempt has failed (a command that does
// not start, a server that exits during initialize, a URL that refuses):
// the reconnect backoff would only make the caller wait for nothing;
// failed then says why (the upstream's last error, with the last lines of
// its stderr). reason says why it returned without the handshake.
func (r *Relay) WaitHandshake(ctx context.Context) (ok bool, reason string, failed error) {
	if len(r.up.InitializeResult()) > 0 {
		return true, "", nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.upstreamWait)
	defer cancel()
	ready := make(chan struct{})
	go func() {
		if r.up.WaitReady(ctx) == nil {
			close(ready)
		}
	}()
	t := time.NewTicker(handshakePoll)
	defer t.Stop()
	for {
		select {
		case <-ready:
			return true, "", nil
		case <-ctx.Done():
			return len(r.up.InitializeResult()) > 0, "no handshake within " + r.upstreamWait.String(), nil
		case <-t.C:
			if st := r.up.State(); !st.Connected && st.LastError != "" {
				if len(r.up.InitializeResult()) > 0 {
					return true, "", nil
				}
				return false, "its first attempt failed: " + st.LastError, errors.New(st.LastError)
			}
		}
	}
}

// request sends a request upstream (the connection reports its frames as
// traffic).
func (r *Relay) request(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	res, err := r.up.Request(ctx, method, params)
	r.CountError(err)
	return res, err
}

// listTools is request of tools/list through upstream.Client.ListTools
// (the tools split as the answer streamed in, when they were).
func (r *Relay) listTools(ctx context.Context, params json.RawMessage, each func([]json.RawMessage)) (json.RawMessage, []json.RawMessage, bool, error) {
	res, tools, split, err := r.up.ListTools(ctx, params, each)
	r.CountError(err)
	return res, tools, split, err
}

func (r *Relay) upstreamNotification(method string, params json.RawMessage) {
	if method == "notifications/tools/list_changed" {
		r.toolsChanged()
		return
	}
	if r.surfaceNotification != nil && r.surfaceNotification(method, params) {
		return
	}
	r.mu.RLock()
	h := r.onNotification
	r.mu.RUnlock()
	if h != nil {
		h(method, params)
	}
}

// askHost hands a server-to-client request to the MCP host's handler; with
// none, ping is answered and anything else is NoHostAnswer.
func (r *Relay) askHost(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	r.mu.RLock()
	h := r.onRequest
	r.mu.RUnlock()
	if h == nil {
		if method == "ping" {
			return json.RawMessage("{}"), nil
		}
		return nil, &NoHostAnswer{Err: jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "no host connected to answer %s", method)}
	}
	return h(ctx, method, params)
}

// NextCallSeq numbers a request sent upstream for a caller (genui's
// surfaces and the MCP host's sessions share the sequence), so a
// server-to-client request can be matched to the newest call in flight.
func (r *Relay) NextCallSeq() int64 { return r.seq.Add(1) }

// SetHostCalls registers the MCP host's newest call in flight: f returns
// its NextCallSeq number, 0 when the host has none. It must be cheap.
// Set before Engine.Run.
func (r *Relay) SetHostCalls(f func() int64) {
	r.mu.Lock()
	r.hostCalls = f
	r.mu.Unlock()
}

// newestHostCall is the host's newest call in flight (0: none).
func (r *Relay) newestHostCall() int64 {
	r.mu.RLock()
	f := r.hostCalls
	r.mu.RUnlock()
	if f == nil {
		return 0
	}
	return f()
}
