// Package upstream is genui's connection to the wrapped MCP server.
//
// A Client speaks raw JSON-RPC to a stdio child process or an in-process
// server over io.Pipe (through its own newline-delimited transport, which
// passes every payload through byte for byte), or to a streamable HTTP or
// legacy SSE server (through mcp-go's client transport layer). It performs
// the MCP initialize handshake itself and keeps the connection up: a dead
// child is restarted and a failed connection is re-established with
// exponential backoff. Params and results travel as json.RawMessage so
// nothing the upstream sends is lost in re-encoding.
package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Transport names accepted in Config.Transport.
const (
	TransportStdio     = "stdio"
	TransportHTTP      = "http"
	TransportSSE       = "sse"
	TransportInProcess = "inprocess"
)

// Defaults applied by New when the Config leaves a field empty.
const (
	DefaultProtocolVersion = "2025-11-25"
	DefaultClientName      = "genui"
	DefaultClientVersion   = "dev"
	DefaultBackoffMin      = time.Second
	DefaultBackoffMax      = 30 * time.Second
	DefaultRequestTimeout  = 5 * time.Minute
)

// defaultCapabilities is what genui tells the upstream it supports: it relays
// roots, sampling and elicitation to the host.
var defaultCapabilities = json.RawMessage(`{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}}`)

// Tunables that are not part of Config; variables so tests can shorten them.
var (
	// initTimeout bounds transport start plus the initialize handshake.
	initTimeout = 30 * time.Second
	// stableAfter is how long a connection must stay up to reset the backoff.
	stableAfter = 10 * time.Second
	// healthInterval is how often an idle HTTP/SSE connection is pinged.
	healthInterval = 15 * time.Second
	// healthTimeout bounds one health ping.
	healthTimeout = 10 * time.Second
	// termGrace is how long a stdio child gets between SIGTERM and SIGKILL.
	termGrace = 2 * time.Second
)

// Config describes the upstream server and how to talk to it.
type Config struct {
	// Transport is "stdio", "http" (streamable HTTP), "sse" or "inprocess".
	// Empty means: inferred from Command, URL or InProcess.
	Transport string
	// Command, Args and Env start the stdio child. Env entries "K=V" are
	// appended to os.Environ().
	Command   string
	Args, Env []string
	// Dir is the stdio child's working directory ("" = genui's).
	Dir string
	// Started, when set, is this stdio command already started (Start):
	// the first connection uses it instead of starting another.
	Started *Started
	// URL and Headers address an http or sse upstream.
	URL     string
	Headers map[string]string
	// Redact hides secrets (values the configuration read from ${env:VAR})
	// in how the upstream is shown: State's Target and LastError, and the
	// errors that name the command or URL. Nil shows them as they are.
	Redact func(string) string
	// InProcess runs a server speaking newline-delimited JSON-RPC on r/w
	// (used for the built-in demo) over io.Pipe; it is (re)started on each
	// connect and must return when ctx ends or r reaches EOF.
	InProcess func(ctx context.Context, r io.Reader, w io.Writer) error
	// ProtocolVersion sent in initialize; default "2025-11-25".
	ProtocolVersion string
	// ClientName and ClientVersion form the clientInfo sent upstream;
	// defaults "genui" and "dev".
	ClientName, ClientVersion string
	// Capabilities are the client capabilities sent upstream; default
	// {"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}}.
	Capabilities json.RawMessage
	// Logger receives the client's logs; nil discards them.
	Logger *slog.Logger
	// Stderr receives the stdio child's stderr. Nil logs it through Logger
	// at info level, line by line. Never pass os.Stdout.
	Stderr io.Writer
	// BackoffMin and BackoffMax bound the reconnect delay (doubling);
	// defaults 1s and 30s.
	BackoffMin, BackoffMax time.Duration
	// RequestTimeout bounds Request when its ctx has no deadline; default 5m.
	RequestTimeout time.Duration
	// OAuth, for an http or sse upstream, signs in when it answers 401
	// (oauth.go); nil: a 401 is an error like any other.
	OAuth *OAuth
}

// Client is a connection to one upstream MCP server. Create it with New,
// set handlers, then call Run. Request, Notify, State and WaitReady are safe
// for concurrent use.
type Client struct {
	cfg    Config
	target string
	log    *slog.Logger
	nextID atomic.Int64
	queue  *notifyQueue
	// health ping period and bound for http/sse, copied from the package
	// tunables at New.
	healthEvery, healthWait time.Duration
	// maxLine bounds one line from a stdio/in-process upstream (maxLineBytes).
	maxLine int

	mu         sync.Mutex
	cur        *conn // nil while disconnected
	state      contract.UpstreamState
	changed    chan struct{} // closed and replaced on every state change
	running    bool
	stopped    bool
	initResult json.RawMessage
	onRequest  func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	capsFunc   func(ctx context.Context) json.RawMessage
	infoFunc   func() json.RawMessage
	// declared are the client capabilities the last handshake sent.
	declared json.RawMessage
	onState  func(contract.UpstreamState)
	tracer   Tracer
	// runCtx is Run's context (connections live in it); swapped hands Run
	// a connection Restart made current; kick cuts a reconnect backoff
	// short; restartMu lets one Restart run at a time.
	runCtx   context.Context
	failures int // failed connection attempts (Restart waits for one)
	// gen mirrors state.Generation for Generation (read on every call).
	gen       atomic.Int64
	swapped   chan *swapRequest
	kick      chan struct{}
	restartMu sync.Mutex
	// auth is the OAuth sign-in (http/sse with Config.OAuth), else nil.
	auth *authFlow
	// session is what a new connection is told again (session_state.go).
	session sessionState
}

// Tracer watches the connection's JSON-RPC frames as they go out and come
// in (genui's Traffic view): requests with their real ids, the answers,
// every notification (notifications/cancelled included) and genui's own
// answers to the server's requests. stdio and in-process connections hand
// over the bytes on the wire; HTTP and SSE ones the frames as mcp-go
// decoded them (see the README).
type Tracer interface {
	// Tracing reports whether frames are wanted now; it is asked for every
	// frame, so it must be cheap.
	Tracing() bool
	// Frame is one frame genui wrote (out) or read. frame is only valid
	// during the call.
	Frame(out bool, frame []byte)
}

// SetTracer sets the frame watcher. Call it before Run.
func (c *Client) SetTracer(t Tracer) {
	c.mu.Lock()
	c.tracer = t
	c.mu.Unlock()
}

func (c *Client) currentTracer() Tracer {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tracer
}

// Watcher is a Tracer that also says whether someone looks at the frames
// now (not only records them): a long tools/list answer is then read whole
// rather than parsed as it streams in, so it is shown as it came. A Tracer
// that is no Watcher is always looked at.
type Watcher interface {
	Watching() bool
}

// watched reports whether someone looks at the frames t gets.
func watched(t Tracer) bool {
	if t == nil {
		return false
	}
	if w, ok := t.(Watcher); ok {
		return t.Tracing() && w.Watching()
	}
	return t.Tracing()
}

// tracing returns the tracer when it wants frames now (nil otherwise).
func tracing(t Tracer) Tracer {
	if t != nil && t.Tracing() {
		return t
	}
	return nil
}

// New returns a Client for cfg with defaults filled in. It does not connect;
// call Run. Configuration errors are reported by Run.
func New(cfg Config) *Client {
	if cfg.Transport == "" {
		switch {
		case cfg.InProcess != nil:
			cfg.Transport = TransportInProcess
		case cfg.Command != "":
			cfg.Transport = TransportStdio
		case cfg.URL != "":
			cfg.Transport = TransportHTTP
		}
	}
	cfg.Transport = strings.ToLower(cfg.Transport)
	if cfg.ProtocolVersion == "" {
		cfg.ProtocolVersion = DefaultProtocolVersion
	}
	if cfg.ClientName == "" {
		cfg.ClientName = DefaultClientName
	}
	if cfg.ClientVersion == "" {
		cfg.ClientVersion = DefaultClientVersion
	}
	if len(cfg.Capabilities) == 0 {
		cfg.Capabilities = defaultCapabilities
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.BackoffMin <= 0 {
		cfg.BackoffMin = DefaultBackoffMin
	}
	if cfg.BackoffMax <= 0 {
		cfg.BackoffMax = DefaultBackoffMax
	}
	if cfg.BackoffMax < cfg.BackoffMin {
		cfg.BackoffMax = cfg.BackoffMin
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	log := cfg.Logger.With("component", "upstream", "transport", cfg.Transport)
	c := &Client{
		cfg:         cfg,
		target:      target(cfg),
		log:         log,
		healthEvery: healthInterval,
		healthWait:  healthTimeout,
		maxLine:     maxLineBytes,
		queue:       newNotifyQueue(log),
		changed:     make(chan struct{}),
		swapped:     make(chan *swapRequest),
		kick:        make(chan struct{}, 1),
		state: contract.UpstreamState{
			Transport: cfg.Transport,
			Target:    target(cfg),
			Since:     time.Now(),
		},
	}
	if cfg.OAuth != nil && (cfg.Transport == TransportHTTP || cfg.Transport == TransportSSE) {
		c.auth = newAuthFlow(*cfg.OAuth, cfg.URL, log)
		st := c.auth.snapshot()
		c.state.Auth = &st
		c.auth.publish = func(st contract.AuthState) { c.update(func(s *contract.UpstreamState) { s.Auth = &st }) }
		c.auth.kick = func() {
			select {
			case c.kick <- struct{}{}:
			default:
			}
		}
	}
	return c
}

// SignIn starts the upstream's OAuth sign-in anew (a new authorization URL
// in State().Auth); it fails for an upstream genui does not sign in to.
func (c *Client) SignIn() error {
	if c.auth == nil {
		return errors.New("the upstream is not an http or sse server genui signs in to")
	}
	c.auth.startSignIn()
	return nil
}

// SignOut forgets the upstream's tokens and drops the connection; genui
// connects again after the next SignIn.
func (c *Client) SignOut() error {
	if c.auth == nil {
		return errors.New("the upstream is not an http or sse server genui signs in to")
	}
	err := c.auth.signOut()
	c.mu.Lock()
	cn := c.cur
	c.mu.Unlock()
	if cn != nil {
		cn.fail("signed out of the upstream")
	}
	return err
}

// validate reports configuration errors in words a user can act on.
func (cfg *Config) validate() error {
	switch cfg.Transport {
	case TransportStdio:
		if strings.TrimSpace(cfg.Command) == "" {
			return errors.New("upstream: stdio transport needs a command")
		}
	case TransportHTTP, TransportSSE:
		u, err := url.Parse(cfg.URL)
		if err != nil {
			return fmt.Errorf("upstream: invalid URL %q: %w", cfg.URL, err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("upstream: invalid URL %q: want http(s)://host[:port]/path", cfg.URL)
		}
	case TransportInProcess:
		if cfg.InProcess == nil {
			return errors.New("upstream: inprocess transport needs an InProcess function")
		}
	case "":
		return errors.New("upstream: no upstream configured (need a command, a URL or an in-process server)")
	default:
		return fmt.Errorf("upstream: unknown transport %q (want stdio, http, sse or inprocess)", cfg.Transport)
	}
	if f, ok := cfg.Stderr.(*os.File); ok && f == os.Stdout {
		return errors.New("upstream: Stderr must not be os.Stdout (stdout may carry JSON-RPC)")
	}
	if !json.Valid(cfg.Capabilities) {
		return errors.New("upstream: Capabilities is not valid JSON")
	}
	return nil
}

// target renders the upstream for State.Target and errors, its secrets
// hidden (cfg.Redact).
func target(cfg Config) string {
	if cfg.Redact != nil {
		return cfg.Redact(shownTarget(cfg))
	}
	return shownTarget(cfg)
}

func shownTarget(cfg Config) string {
	switch cfg.Transport {
	case TransportStdio:
		parts := []string{quoteArg(cfg.Command)}
		for _, a := range cfg.Args {
			parts = append(parts, quoteArg(a))
		}
		return strings.Join(parts, " ")
	case TransportHTTP, TransportSSE:
		if u, err := url.Parse(cfg.URL); err == nil {
			return u.Redacted()
		}
		return cfg.URL
	case TransportInProcess:
		return "in-process"
	}
	return ""
}

func quoteArg(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\n\"'\\$") {
		return strconv.Quote(s)
	}
	return s
}

// SetNotificationHandler sets the function called for every upstream
// notification. Calls happen on one dedicated goroutine, in arrival order,
// never on the transport's read loop. Set it before Run.
func (c *Client) SetNotificationHandler(h func(method string, params json.RawMessage)) {
	c.queue.setHandler(h)
}

// SetRequestHandler sets the function answering server-to-client requests
// (sampling/createMessage, elicitation/create, roots/list, ping). It returns
// (result, nil) or (nil, *jsonrpc.Error); other errors become internal
// errors. Without a handler, ping answers {} and everything else gets
// method-not-found. Set it before Run.
func (c *Client) SetRequestHandler(h func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)) {
	c.mu.Lock()
	c.onRequest = h
	c.mu.Unlock()
}

// SetCapabilities sets a function each handshake asks for the client
// capabilities to declare (genui mirrors its host's); it may block, bounded
// by its own limit or ctx (the connection's life), and nil or invalid
// JSON means Config.Capabilities. Set it before Run.
func (c *Client) SetCapabilities(f func(ctx context.Context) json.RawMessage) {
	c.mu.Lock()
	c.capsFunc = f
	c.mu.Unlock()
}

// SetClientInfo sets a function each handshake asks, after the
// capabilities function, for the clientInfo to send (genui passes its
// host's on); nil or invalid JSON means Config.ClientName/ClientVersion.
// Set it before Run.
func (c *Client) SetClientInfo(f func() json.RawMessage) {
	c.mu.Lock()
	c.infoFunc = f
	c.mu.Unlock()
}

// DeclaredCapabilities are the client capabilities the last handshake
// declared (nil before the first).
func (c *Client) DeclaredCapabilities() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.declared
}

// SetStateHandler sets the function called with a State snapshot on every
// connect and disconnect. It is called without locks held, from Run's
// goroutine, so it should return quickly. Set it before Run.
func (c *Client) SetStateHandler(h func(contract.UpstreamState)) {
	c.mu.Lock()
	c.onState = h
	c.mu.Unlock()
}

// State returns a snapshot of the connection state.
func (c *Client) State() contract.UpstreamState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.shown(c.state)
}

// shown is st as it may be shown: LastError, which may quote the child's
// stderr, and the sign-in's message and step errors, which may quote the
// upstream's URL, with its secrets hidden (Target is already; the
// authorization URL is left whole: it is there to be opened, and carries
// the client id, never its secret).
func (c *Client) shown(st contract.UpstreamState) contract.UpstreamState {
	if c.cfg.Redact == nil {
		return st
	}
	if st.LastError != "" {
		st.LastError = c.cfg.Redact(st.LastError)
	}
	if st.Auth != nil {
		a := *st.Auth
		a.Message = c.cfg.Redact(a.Message)
		a.Steps = append([]contract.AuthStep(nil), a.Steps...)
		for i := range a.Steps {
			a.Steps[i].Error = c.cfg.Redact(a.Steps[i].Error)
			a.Steps[i].URL = c.cfg.Redact(a.Steps[i].URL)
		}
		st.Auth = &a
	}
	return st
}

// Transport is the upstream's transport (TransportStdio, ...).
func (c *Client) Transport() string { return c.cfg.Transport }

// Generation is State().Generation without its lock: the connection
// calls go to now (1 for the first; 0 before it).
func (c *Client) Generation() int { return int(c.gen.Load()) }

// InitializeResult is the raw result of the last successful initialize
// (capabilities, serverInfo, instructions), or nil before the first one.
func (c *Client) InitializeResult() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.initResult
}

// WaitReady blocks until the client is connected and initialized, ctx ends,
// or Run has returned.
func (c *Client) WaitReady(ctx context.Context) error {
	for {
		c.mu.Lock()
		if c.cur != nil && !c.cur.isDead() {
			c.mu.Unlock()
			return nil
		}
		if c.stopped {
			c.mu.Unlock()
			return errors.New("upstream client stopped")
		}
		ch, lastErr := c.changed, c.state.LastError
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			if lastErr != "" {
				return fmt.Errorf("waiting for upstream: %w (last error: %s)", ctx.Err(), lastErr)
			}
			return fmt.Errorf("waiting for upstream: %w", ctx.Err())
		}
	}
}

// live returns the connection requests should use, or the error to return
// for method when there is none. A connection that has died but that Run
// has not detached yet reports its own failure reason.
func (c *Client) live(method string) (*conn, error) {
	c.mu.Lock()
	cn := c.cur
	c.mu.Unlock()
	switch {
	case cn == nil:
		return nil, c.unavailable(method)
	case cn.isDead():
		return nil, deadError(cn, method)
	}
	return cn, nil
}

// unavailable builds the error Request returns while no connection is up.
func (c *Client) unavailable(method string) *jsonrpc.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.stopped:
		return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "upstream is shut down; cannot handle %s", method)
	case !c.running:
		return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "upstream is not started; cannot handle %s", method)
	case c.state.LastError != "":
		return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "upstream not connected (%s); cannot handle %s, reconnecting", c.state.LastError, method)
	default:
		return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "upstream not connected yet; cannot handle %s", method)
	}
}

// update changes the state under the lock, wakes waiters and calls the
// state handler outside the lock.
func (c *Client) update(f func(s *contract.UpstreamState)) { c.updateState(f, true) }

// updateState is update; tell false keeps the state handler out of it
// (Restart reports its own outcome).
func (c *Client) updateState(f func(s *contract.UpstreamState), tell bool) {
	c.mu.Lock()
	prev := c.state.Connected
	f(&c.state)
	if c.state.Connected != prev {
		c.state.Since = time.Now()
	}
	snap, h := c.shown(c.state), c.onState
	c.gen.Store(int64(c.state.Generation))
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	if h != nil && tell {
		h(snap)
	}
}
