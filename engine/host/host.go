// Package host is the MCP server genui presents to hosts (Claude Code, VS
// Code, the preview page). Everything the upstream offers passes through
// verbatim as raw JSON; genui adds UI metadata to tools, its own ui://
// resources and the _ui_* wrapper tools.
//
// The JSON-RPC layer is genui's own rather than mcp-go's server: mcp-go
// re-encodes tools and results through typed structs (it always emits
// "annotations", and cannot carry unknown content types or tool fields),
// which would break pass-through fidelity.
package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pkg/browser"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/registry"
)

func init() {
	// pkg/browser writes the opener's output to os.Stdout by default, which
	// in `genui mcp` carries JSON-RPC only.
	browser.Stdout, browser.Stderr = io.Discard, io.Discard
}

// UI metadata modes (--ui-metadata).
const (
	UIMetaAlways = "always"
	UIMetaAuto   = "auto"
	UIMetaNever  = "never"
)

// ExtensionID is the MCP Apps extension identifier.
const ExtensionID = "io.modelcontextprotocol/ui"

// Protocol versions genui serves. The newest (stateless) one is negotiated
// through server/discover; the others through initialize.
var (
	legacyVersions  = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
	modernVersion   = "2026-07-28"
	defaultProtocol = "2025-11-25"
)

const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// Options configure a Server.
type Options struct {
	// Engine, Upstream and Tools are the engine (see engine.go):
	// *engine.Engine, its Relay() and its Registry(). All three are required.
	Engine   Engine
	Upstream Upstream
	Tools    Tools
	// Version is genui's version, for serverInfo.
	Version    string
	UIMetadata string // always (default) | auto | never
	Logger     *slog.Logger
	// Capabilities is whose client capabilities the upstream is told of:
	// CapabilitiesHost or CapabilitiesWorkbench; "" is host with a stdio
	// host (ExpectStdioHost) and workbench without (capabilities.go).
	Capabilities string
	// NoWrappers leaves genui's own _ui_* tools out.
	NoWrappers bool
	// OpenBrowser opens a URL for _ui_preview (default: the system browser,
	// github.com/pkg/browser).
	OpenBrowser func(url string) error
	// ClientRequestTimeout bounds a relayed server-to-client request
	// (sampling, elicitation, roots). Default 10 min.
	ClientRequestTimeout time.Duration
	// ReadyTimeout bounds how long a request waits for the upstream's first
	// tools/list before failing with a clear error (default 30 s).
	ReadyTimeout time.Duration
	// SessionIdle closes streamable HTTP sessions idle this long with no
	// open stream (default 1 h).
	SessionIdle time.Duration
	// MaxSessions caps HTTP sessions (default 1000): past it a new one
	// evicts the oldest session never used after its initialize, else the
	// least recently used session idle longer than SessionEvictIdle, or is
	// refused (503 with Retry-After) when there is none.
	MaxSessions int
	// SessionEvictIdle is how long a session that has been used must have
	// been idle (no request, no stream, nothing in flight) before a new one
	// may evict it at MaxSessions (default 5 min): a flood of new sessions
	// never pushes out a client that was active within it.
	SessionEvictIdle time.Duration
	// ToolsPageSize is the most tools one tools/list answer carries
	// (default 1000); more come with a nextCursor.
	ToolsPageSize int
	// MaxListens caps open subscriptions/listen streams (default 256);
	// MaxListenSubscriptions caps the resource URIs one listen may name
	// (default 1000). Requests beyond them get a clear error.
	MaxListens, MaxListenSubscriptions int
	// ListenStallTimeout closes a listen stream whose client has not taken
	// a notification for this long (default 10 s).
	ListenStallTimeout time.Duration
	// ObserveRequest, when set, receives every request's method, whether
	// it was forwarded to the upstream, whether it failed, and how long it
	// took (genui's /metrics).
	ObserveRequest func(method string, proxied, failed bool, d time.Duration)
	// AllowedOrigins are origins served besides loopback pages (the Origin
	// rule of every HTTP endpoint, and CORS on the MCP endpoints): exact
	// origins ("vscode-webview://abc", "http://devbox.lan:3000", "null")
	// or a scheme with a wildcard host ("vscode-webview://*", not for
	// http/https). See Origins.
	AllowedOrigins []string
	// StdoutQueueLimit bounds the bytes waiting for a stdio host that does
	// not read its stdout (default 64 MiB); past it frames are dropped with
	// a warning rather than stalling the upstream connection.
	StdoutQueueLimit int
}

// Server serves MCP to any number of host sessions.
type Server struct {
	e     Engine
	up    Upstream
	tools Tools
	opts  Options
	log   *slog.Logger

	mu       sync.Mutex
	sessions map[string]*Session
	progress map[string]*route // progress token (JSON text) -> where to send
	active   []*route          // requests forwarded upstream, newest last
	extra    map[string]ExtraResource
	readMemo sync.Map // ui:// URI -> memoized resources/read result
	nextID   atomic.Int64
	modern   modernState // the 2026-07-28 revision (modern.go)
	// droppedProgress counts progress notifications dropped since the last
	// warning, logged at most once a second (droppedWarnAt, unix ns).
	droppedProgress atomic.Int64
	droppedWarnAt   atomic.Int64
	// droppedOutput counts frames dropped for a stdio host that does not
	// read (warned at most once a second, droppedOutputAt unix ns).
	droppedOutput   atomic.Int64
	droppedOutputAt atomic.Int64
	// fastForwarded counts requests that took the stdio fast path.
	fastForwarded atomic.Int64
	// stdio: the capabilities and clientInfo of the host whose
	// capabilities the upstream's handshake declares (capabilities.go).
	stdio hostInit
	// origins is the Origin rule: loopback plus Options.AllowedOrigins.
	origins *Origins
	// upSubs are the upstream resource subscriptions hosts hold
	// (upstream_subs.go).
	upSubs upstreamSubs
}

// route is where output related to one host request goes.
type route struct {
	sess  *Session
	reply Sender
	// seq orders the request among all calls in flight, the host's and
	// genui's own surfaces' (Upstream.NextCallSeq): a server-to-client
	// request belongs to the newest.
	seq   int64
	token json.RawMessage // the host's own progress token, if any
	// Modern (2026-07-28) requests: server-to-client requests go through
	// ask (multi round-trip), log messages only at logLevel or above.
	ask      askFunc
	logLevel string
}

// Sender writes one JSON-RPC frame to a host.
type Sender interface {
	Send(frame []byte) error
}

// SenderFunc adapts a function to Sender.
type SenderFunc func([]byte) error

// Send implements Sender.
func (f SenderFunc) Send(b []byte) error { return f(b) }

// New builds a Server and hooks it to the engine's notifications.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.UIMetadata == "" {
		opts.UIMetadata = UIMetaAlways
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.ClientRequestTimeout <= 0 {
		opts.ClientRequestTimeout = 10 * time.Minute
	}
	if opts.ReadyTimeout <= 0 {
		opts.ReadyTimeout = defaultReadyTimeout
	}
	if opts.SessionIdle <= 0 {
		opts.SessionIdle = time.Hour
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = defaultMaxSessions
	}
	if opts.SessionEvictIdle <= 0 {
		opts.SessionEvictIdle = defaultSessionEvictIdle
	}
	if opts.ToolsPageSize <= 0 {
		opts.ToolsPageSize = defaultToolsPageSize
	}
	if opts.MaxListens <= 0 {
		opts.MaxListens = defaultMaxListens
	}
	if opts.MaxListenSubscriptions <= 0 {
		opts.MaxListenSubscriptions = defaultMaxListenSubscriptions
	}
	if opts.ListenStallTimeout <= 0 {
		opts.ListenStallTimeout = defaultListenStallTimeout
	}
	if opts.OpenBrowser == nil {
		opts.OpenBrowser = browser.OpenURL
	}
	s := &Server{e: opts.Engine, up: opts.Upstream, tools: opts.Tools, opts: opts, log: opts.Logger,
		sessions: map[string]*Session{}, progress: map[string]*route{}}
	var err error
	if s.origins, err = NewOrigins(opts.AllowedOrigins); err != nil {
		s.log.Error("allowed origins left out", "err", err)
	}
	s.stdio.known = make(chan struct{})
	s.modern.init()
	s.up.SetNotificationHandler(s.onUpstreamNotification)
	s.up.SetRequestHandler(s.onUpstreamRequest)
	s.up.SetHostCalls(s.newestCall)
	s.e.OnEvent(s.onEngineEvent)
	s.e.OnEvent(s.onUpstreamUp)
	s.e.SetSampler(s.sample)
	s.up.SetClientCapabilities(s.upstreamCapabilities)
	s.up.SetClientInfo(s.upstreamClientInfo)
	s.e.SetSessionSource(s.Sessions)
	s.addOwnResources()
	return s
}

// Session is one connected host.
type Session struct {
	ID  string
	srv *Server

	mu          sync.Mutex
	out         Sender // session-level stream; may be nil (HTTP without GET stream)
	initialized bool
	protocol    string
	clientInfo  json.RawMessage
	clientCaps  json.RawMessage
	uiCapable   bool
	stdio       bool // the session ServeStdio serves
	inflight    map[string]context.CancelFunc
	fast        map[string]*fastCall // fast-path requests in flight (fastpath.go)
	pending     map[string]chan *jsonrpc.Message
	subs        map[string]bool // genui's own ui:// resources subscribed
	// pagedFrom is the first load (in progress, or ended) this session got
	// tools/list pages of before it ended (tools_list.go).
	pagedFrom *registry.Loading
	// upHeld are the upstream resources this (legacy) session subscribed
	// to: holds on the shared upstream subscriptions, released at Close.
	upHeld map[string]bool
	// initEarly: initialize was answered before the upstream's handshake,
	// without its capabilities; list_changed follows when it arrives.
	initEarly bool
	// era is "" until the session initializes (legacy) or sends a modern
	// request (modern: stateless, notifications only on listens).
	era     string
	listens []*listenSub
	// early holds ids whose notifications/cancelled arrived before the
	// request registered (concurrent HTTP posts, goroutine start-up).
	early  map[string]time.Time
	closed bool
	ctx    context.Context
	cancel context.CancelFunc
	// streams are the open GET /mcp streams, newest last; out is the
	// newest. lastSeen is the last HTTP activity (for idle expiry).
	streams  []Sender
	lastSeen time.Time
	// used: the session made a request after its initialize or opened a
	// stream. Until then it is the cheapest to evict at MaxSessions.
	used bool
	// replay holds the session's resumable SSE streams (replay.go).
	replay *replayLog
}

// NewSession registers a host session. out receives frames that belong to
// no request (list_changed, resources/updated); it may be nil and set later.
func (s *Server) NewSession(id string, out Sender) *Session {
	s.mu.Lock()
	sess := s.newSessionLocked(id, out)
	s.mu.Unlock()
	s.sessionsChanged()
	return sess
}

// newSessionLocked registers a new session; s.mu is held.
func (s *Server) newSessionLocked(id string, out Sender) *Session {
	ctx, cancel := context.WithCancel(context.Background())
	sess := &Session{ID: id, srv: s, out: out, inflight: map[string]context.CancelFunc{},
		pending: map[string]chan *jsonrpc.Message{}, subs: map[string]bool{}, ctx: ctx, cancel: cancel,
		lastSeen: time.Now()}
	s.sessions[id] = sess
	return sess
}

// sessionsChanged tells engine watchers (the TUI) the session list changed.
func (s *Server) sessionsChanged() { s.e.SessionsChanged(s.Sessions()) }

// Session returns a registered session and marks it active.
func (s *Server) Session(id string) (*Session, bool) {
	s.mu.Lock()
	sess, ok := s.sessions[id]
	s.mu.Unlock()
	if ok {
		sess.mu.Lock()
		sess.lastSeen = time.Now()
		sess.mu.Unlock()
	}
	return sess, ok
}

// expireIdle closes HTTP sessions that have had no request, no open stream
// and nothing in flight for longer than idle (clients that vanish without
// DELETE). It runs whenever a session is created, so it costs nothing in
// between and the session map stays bounded by activity.
func (s *Server) expireIdle(idle time.Duration) {
	now := time.Now()
	var stale []*Session
	s.mu.Lock()
	for _, sess := range s.sessions {
		sess.mu.Lock()
		if sess.out == nil && len(sess.inflight) == 0 && len(sess.fast) == 0 && len(sess.pending) == 0 && now.Sub(sess.lastSeen) > idle {
			stale = append(stale, sess)
		}
		sess.mu.Unlock()
	}
	s.mu.Unlock()
	for _, sess := range stale {
		s.log.Info("closing idle HTTP session", "session", sess.ID, "idle", now.Sub(sess.lastSeen).Round(time.Second))
		sess.Close()
	}
}

// Defaults of Options.MaxSessions and SessionEvictIdle.
const (
	defaultMaxSessions      = 1000
	defaultSessionEvictIdle = 5 * time.Minute
)

// busyRetryAfter is the Retry-After of a refused session when every
// session is busy (streams open, requests in flight): no time is known.
const busyRetryAfter = 5 * time.Second

// errTooManySessions refuses a new HTTP session at the cap.
var errTooManySessions = errors.New("too many MCP sessions")

// sessionsFullError is a refused new session: how many there are and when
// one may be evicted.
type sessionsFullError struct {
	n, max     int
	idle       time.Duration // SessionEvictIdle
	retryAfter time.Duration
	busy       bool // no session is idle at all
}

func (e *sessionsFullError) Error() string {
	why := fmt.Sprintf("every one was active within the last %s", e.idle)
	if e.busy {
		why = "every one is busy (open streams or requests in flight)"
	}
	return fmt.Sprintf("%v: %d of at most %d, and %s; retry in %s, close a session (DELETE /mcp), or raise mcp.sessions.max / lower mcp.sessions.evictIdle",
		errTooManySessions, e.n, e.max, why, e.retryAfter)
}

func (e *sessionsFullError) Unwrap() error { return errTooManySessions }

// RetryAfter is when a session may have become evictable.
func (e *sessionsFullError) RetryAfter() time.Duration { return e.retryAfter }

// admitSession registers a new HTTP session (with out as its stream) if
// there is room: idle ones past SessionIdle go first, and at MaxSessions
// one idle session (no stream, nothing in flight) is evicted: the oldest
// that never made a request after its initialize (what a flood of
// initialize requests leaves; a real client makes its next request at
// once), else the least recently used one idle longer than
// SessionEvictIdle. Every client reaches the server over loopback, so the
// source that a flood is limited by is not an address but this: sessions
// nobody uses make room for new ones. A session used within
// SessionEvictIdle, or with a stream open, is never evicted for a new one:
// when every session is such, the new one is refused (*sessionsFullError,
// with the time until the oldest idle session passes the bound). The count
// is checked and the session registered under one lock, so concurrent
// initializes never pass the cap.
func (s *Server) admitSession(out Sender) (*Session, error) {
	s.expireIdle(s.opts.SessionIdle)
	now := time.Now()
	s.mu.Lock()
	n := len(s.sessions)
	if n < s.opts.MaxSessions {
		sess := s.newSessionLocked(newSessionID(), out)
		s.mu.Unlock()
		s.sessionsChanged()
		return sess, nil
	}
	var victim, unused *Session
	var oldest, oldestUnused time.Time
	for _, sess := range s.sessions {
		sess.mu.Lock()
		idle := sess.out == nil && len(sess.inflight) == 0 && len(sess.fast) == 0 && len(sess.pending) == 0 && !sess.stdio && !sess.closed
		seen, used := sess.lastSeen, sess.used
		sess.mu.Unlock()
		switch {
		case !idle:
		case !used && (unused == nil || seen.Before(oldestUnused)):
			unused, oldestUnused = sess, seen
		case used && (victim == nil || seen.Before(oldest)):
			victim, oldest = sess, seen
		}
	}
	full := &sessionsFullError{n: n, max: s.opts.MaxSessions, idle: s.opts.SessionEvictIdle}
	switch idleFor := now.Sub(oldest); {
	case unused != nil:
		victim, oldest = unused, oldestUnused
	case victim == nil:
		s.mu.Unlock()
		full.busy, full.retryAfter = true, busyRetryAfter
		return nil, full
	case idleFor <= s.opts.SessionEvictIdle:
		s.mu.Unlock()
		full.retryAfter = max(s.opts.SessionEvictIdle-idleFor, time.Second)
		return nil, full
	}
	// The victim leaves the map and the new session enters it under one
	// lock: concurrent initializes each evict their own victim.
	delete(s.sessions, victim.ID)
	sess := s.newSessionLocked(newSessionID(), out)
	s.mu.Unlock()
	if victim == unused {
		s.log.Debug("evicting the oldest HTTP session never used after its initialize", "session", victim.ID,
			"age", now.Sub(oldest).Round(time.Millisecond), "sessions", n, "max", s.opts.MaxSessions)
	} else {
		s.log.Info("evicting the least recently used idle HTTP session", "session", victim.ID, "idle", now.Sub(oldest).Round(time.Second),
			"sessions", n, "max", s.opts.MaxSessions)
	}
	victim.Close()
	return sess, nil
}

// writeSessionsFull answers a refused new session: 503, Retry-After in
// whole seconds (rounded up), and the reason.
func writeSessionsFull(w http.ResponseWriter, id json.RawMessage, err error) {
	var full *sessionsFullError
	if errors.As(err, &full) {
		w.Header().Set("Retry-After", strconv.Itoa(int((full.retryAfter+time.Second-1)/time.Second)))
	}
	writeJSONError(w, http.StatusServiceUnavailable, id, jsonrpc.CodeInternalError, err.Error())
}

// addStream makes a new GET stream the session's output.
func (sess *Session) addStream(st Sender) {
	sess.mu.Lock()
	sess.streams = append(sess.streams, st)
	sess.out = st
	sess.used = true
	sess.mu.Unlock()
}

// removeStream drops a closed GET stream; the newest remaining one (if any)
// becomes the output again.
func (sess *Session) removeStream(st Sender) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	for i, x := range sess.streams {
		if x == st {
			sess.streams = append(sess.streams[:i], sess.streams[i+1:]...)
			break
		}
	}
	if sess.out == st {
		sess.out = nil
		if n := len(sess.streams); n > 0 {
			sess.out = sess.streams[n-1]
		}
	}
	sess.lastSeen = time.Now()
}

// markUsed records that the session made a request after its initialize
// (admitSession evicts sessions never used first).
func (sess *Session) markUsed() {
	sess.mu.Lock()
	sess.used = true
	sess.mu.Unlock()
}

// Sessions lists connected sessions.
func (s *Server) Sessions() []contract.SessionInfo {
	s.mu.Lock()
	list := make([]*Session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		list = append(list, sess)
	}
	s.mu.Unlock()
	out := make([]contract.SessionInfo, 0, len(list))
	for _, sess := range list {
		sess.mu.Lock()
		out = append(out, contract.SessionInfo{ID: sess.ID, Protocol: sess.protocol, ClientInfo: sess.clientInfo,
			UICapable: sess.uiCapable, InFlight: len(sess.inflight) + len(sess.fast)})
		sess.mu.Unlock()
	}
	return out
}

// SetOut replaces the session-level stream.
func (sess *Session) SetOut(out Sender) {
	sess.mu.Lock()
	sess.out = out
	sess.mu.Unlock()
}

// Close ends the session: in-flight work is cancelled, pending relayed
// requests fail.
func (sess *Session) Close() {
	sess.mu.Lock()
	if sess.closed {
		sess.mu.Unlock()
		return
	}
	sess.closed = true
	for _, c := range sess.inflight {
		c()
	}
	fast := sess.fast
	sess.fast = nil
	for id, ch := range sess.pending {
		close(ch)
		delete(sess.pending, id)
	}
	held := make([]string, 0, len(sess.upHeld))
	for uri := range sess.upHeld {
		held = append(held, uri)
	}
	sess.upHeld = nil
	sess.mu.Unlock()
	sess.srv.releaseUpstreamAll(held)
	for _, fc := range fast {
		fc.cancel("host session closed")
	}
	sess.cancel()
	s := sess.srv
	s.mu.Lock()
	delete(s.sessions, sess.ID)
	for tok, r := range s.progress {
		if r.sess == sess {
			delete(s.progress, tok)
		}
	}
	s.mu.Unlock()
	s.sessionsChanged()
}

func (sess *Session) send(frame []byte) {
	sess.mu.Lock()
	out := sess.out
	sess.mu.Unlock()
	if out == nil {
		return
	}
	sess.srv.e.TraceFrame(contract.GenuiToHost, sess.ID, frame, 0)
	if err := out.Send(frame); err != nil {
		sess.srv.log.Debug("send to host failed", "session", sess.ID, "err", err)
	}
}

// HandleFrame processes one frame from the host. Requests are answered
// through reply (which may be the session stream); HandleFrame returns when
// the request is answered, so transports call it in a goroutine per request.
// It never panics on bad input: malformed frames get JSON-RPC errors, and
// a panic while serving a request (a bug) is logged and answered with
// -32603 instead of taking the process (and the upstream) down: every
// transport's request goroutine goes through here.
func (sess *Session) HandleFrame(ctx context.Context, raw []byte, reply Sender) {
	defer sess.recoverFrame(raw, reply)
	s := sess.srv
	// Every frame is recorded (genui's traffic record), watched or not.
	s.e.TraceFrame(contract.HostToGenui, sess.ID, raw, 0)
	reply = sess.traced(reply, time.Now())
	msg, perr := jsonrpc.Parse(raw)
	if perr != nil {
		// Answer everything but a broken response (a response cannot be
		// answered); use the request's id when it is a valid one.
		if msg != nil && msg.IsResponse() {
			s.log.Warn("malformed response from the host dropped", "session", sess.ID, "err", perr)
			return
		}
		_ = reply.Send(jsonrpc.NewErrorResponse(answerID(msg), jsonrpc.AsError(perr)))
		return
	}
	if msg.IsRequest() && strings.HasPrefix(msg.Method, "notifications/") {
		// MCP: notifications never carry an id. With one it is a request
		// JSON-RPC must answer, and nothing to act on or forward.
		_ = reply.Send(jsonrpc.NewErrorResponse(msg.ID, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
			"invalid request: %s is a notification and must not carry an id", msg.Method)))
		return
	}
	switch {
	case msg.IsResponse():
		sess.deliverResponse(msg)
	case msg.IsNotification():
		sess.handleNotification(ctx, msg)
	default:
		reqID := newRequestID()
		ctx = jsonrpc.WithRequestID(ctx, reqID)
		log := &reqLog{base: s.log, rid: reqID, session: sess.ID, method: msg.Method}
		log.Debug("request")
		start := time.Now()
		st := &reqState{}
		ctx = context.WithValue(ctx, reqStateKey{}, st)
		res, err := sess.handleRequest(ctx, msg, reply, log)
		if s.opts.ObserveRequest != nil {
			s.opts.ObserveRequest(msg.Method, st.proxied.Load(), err != nil, time.Since(start))
		}
		if errors.Is(err, errCancelledByHost) {
			log.Info("request cancelled by host", "ms", time.Since(start).Milliseconds())
			return
		}
		if err != nil {
			je := jsonrpc.AsError(err)
			log.Info("request failed", "code", je.Code, "err", je.Message, "ms", time.Since(start).Milliseconds())
			_ = reply.Send(jsonrpc.NewErrorResponse(msg.ID, je))
			return
		}
		if log.enabled(slog.LevelDebug) {
			log.Debug("request done", "ms", time.Since(start).Milliseconds())
		}
		if fw, ok := reply.(*jsonrpc.FrameWriter); ok && st.ready.Load() {
			// A memoized UI read: compact, ASCII, shared; written as is.
			_ = fw.WritePartsRef(resultHead, msg.ID, resultKey, res, closeBrace)
			return
		}
		_ = reply.Send(jsonrpc.NewResult(msg.ID, res))
	}
}

var errCancelledByHost = errors.New("cancelled by host")

// answerID is the id an error answer to a frame that failed to parse
// carries: its own when readable, else null.
func answerID(msg *jsonrpc.Message) json.RawMessage {
	if msg != nil && jsonrpc.ValidID(msg.ID) {
		return msg.ID
	}
	return nil
}

// recoverFrame turns a panic in HandleFrame into a log line and, for a
// request with a valid id, a -32603 answer.
func (sess *Session) recoverFrame(raw []byte, reply Sender) {
	v := recover()
	if v == nil {
		return
	}
	sess.srv.log.Error("panic while handling a frame from the host", "session", sess.ID,
		"panic", fmt.Sprint(v), "frame", clipBytes(raw, 200), "stack", string(debug.Stack()))
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(raw, &m) != nil || len(m.Method) == 0 || !jsonrpc.ValidID(m.ID) {
		return // nothing to answer: a notification or a response
	}
	_ = reply.Send(jsonrpc.NewErrorResponse(m.ID, jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error (genui bug): %v", v)))
}

// clipBytes shortens b for a log line.
func clipBytes(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// reqState is what HandleFrame learns about a request while it is served:
// whether it was forwarded upstream (forward sets it), and whether its
// result is a memoized frame-ready result (compact JSON, no newline,
// never modified: uiReadResult), which is written without a copy.
type reqState struct {
	proxied, ready atomic.Bool
}

type reqStateKey struct{}

func markProxied(ctx context.Context) {
	if st, ok := ctx.Value(reqStateKey{}).(*reqState); ok {
		st.proxied.Store(true)
	}
}

func markReady(ctx context.Context) {
	if st, ok := ctx.Value(reqStateKey{}).(*reqState); ok {
		st.ready.Store(true)
	}
}

// traced reports every frame sent through reply as traffic; responses carry
// the time since start (when the request arrived).
func (sess *Session) traced(reply Sender, start time.Time) Sender {
	return SenderFunc(func(frame []byte) error {
		sess.srv.e.TraceFrame(contract.GenuiToHost, sess.ID, frame, time.Since(start))
		return reply.Send(frame)
	})
}

func (sess *Session) deliverResponse(msg *jsonrpc.Message) {
	key := string(msg.ID)
	sess.mu.Lock()
	ch, ok := sess.pending[key]
	delete(sess.pending, key)
	sess.mu.Unlock()
	if !ok {
		sess.srv.log.Warn("response from host to an unknown request", "session", sess.ID, "id", key)
		return
	}
	ch <- msg
}

func (sess *Session) handleNotification(ctx context.Context, msg *jsonrpc.Message) {
	s := sess.srv
	switch msg.Method {
	case "notifications/initialized":
		sess.mu.Lock()
		sess.initialized = true
		sess.mu.Unlock()
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		if sess.cancelFast(string(p.RequestID)) {
			return // the upstream is told
		}
		sess.mu.Lock()
		cancel := sess.inflight[string(p.RequestID)]
		if cancel == nil && len(p.RequestID) > 0 {
			sess.rememberEarlyCancelLocked(string(p.RequestID))
		}
		sess.mu.Unlock()
		if cancel != nil {
			cancel() // the upstream client tells the upstream
		}
	default:
		// roots/list_changed and anything else the host says goes upstream.
		nctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := s.up.Notify(nctx, msg.Method, msg.Params); err != nil {
			s.log.Debug("forwarding host notification failed", "method", msg.Method, "err", err)
		}
	}
}

func (sess *Session) handleRequest(ctx context.Context, msg *jsonrpc.Message, reply Sender, log *reqLog) (json.RawMessage, error) {
	s := sess.srv
	modern := isModernRequest(msg)
	if !modern {
		switch msg.Method {
		case "initialize":
			return sess.initialize(ctx, msg.Params)
		case "server/discover":
			if _, err := s.waitHandshake(ctx); err != nil {
				return nil, err
			}
			return s.discover(), nil
		case "ping":
			return json.RawMessage("{}"), nil
		}
		if err := sess.acceptRequest(msg.Params); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idKey := string(msg.ID)
	cancelledByHost := atomic.Bool{}
	sess.mu.Lock()
	if _, ok := sess.early[idKey]; ok {
		delete(sess.early, idKey)
		sess.mu.Unlock()
		return nil, errCancelledByHost
	}
	sess.inflight[idKey] = func() { cancelledByHost.Store(true); cancel(errCancelledByHost) }
	sess.mu.Unlock()
	defer func() {
		sess.mu.Lock()
		delete(sess.inflight, idKey)
		sess.mu.Unlock()
	}()
	var res json.RawMessage
	var err error
	if modern {
		res, err = sess.handleModern(ctx, msg, reply, log)
	} else {
		res, err = sess.dispatch(ctx, msg, reply, log)
	}
	if err != nil && cancelledByHost.Load() {
		return nil, errCancelledByHost
	}
	return res, err
}

// Bounds of Session.early.
const (
	earlyCancelTTL = 30 * time.Second
	earlyCancelMax = 1024
)

// rememberEarlyCancelLocked records a cancel for an id not (yet) in flight;
// entries expire after earlyCancelTTL and there are at most earlyCancelMax.
func (sess *Session) rememberEarlyCancelLocked(id string) {
	if sess.early == nil {
		sess.early = map[string]time.Time{}
	}
	now := time.Now()
	for k, at := range sess.early {
		if now.Sub(at) > earlyCancelTTL || len(sess.early) >= earlyCancelMax {
			delete(sess.early, k)
		}
	}
	sess.early[id] = now
}

// acceptRequest lets a legacy session send ordinary requests. Lenient
// like most servers: a host that skipped initialize is served with the
// default protocol. (Modern requests never get here: see modern.go.)
func (sess *Session) acceptRequest(json.RawMessage) error {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.protocol == "" {
		sess.protocol = defaultProtocol
	}
	return nil
}

func (sess *Session) setClientCapsLocked(caps json.RawMessage) {
	sess.clientCaps = caps
	sess.uiCapable = uiCapableCaps(caps)
}

func (sess *Session) initialize(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "initialize: params must be an object: %v", err)
	}
	version := defaultProtocol
	for _, v := range legacyVersions {
		if v == p.ProtocolVersion {
			version = v
		}
	}
	s := sess.srv
	// The capabilities count at once: the upstream's handshake may be
	// waiting for them (a stdio host's are mirrored upstream).
	sess.mu.Lock()
	sess.setClientCapsLocked(p.Capabilities)
	stdio := sess.stdio
	sess.mu.Unlock()
	s.setHostInit(stdio, p.Capabilities, p.ClientInfo)
	// The answer carries the upstream's capabilities and instructions, so
	// it waits (bounded) for the upstream's handshake; without it, the
	// session hears list_changed when the upstream arrives.
	complete, err := s.waitHandshake(ctx)
	if err != nil {
		return nil, err
	}
	sess.mu.Lock()
	sess.protocol = version
	sess.clientInfo = p.ClientInfo
	sess.initEarly = !complete
	sess.era = eraLegacy
	sess.mu.Unlock()
	res := map[string]any{
		"protocolVersion": version,
		"capabilities":    s.capabilities(),
		"serverInfo":      map[string]any{"name": "genui", "title": "genui (MCP Apps proxy)", "version": s.opts.Version},
	}
	if instr := s.upstreamInstructions(); instr != "" {
		res["instructions"] = instr
	}
	return json.Marshal(res)
}

// discover answers server/discover (2026-07-28): every revision genui
// serves, the capabilities modern clients get, and the cacheable result
// fields.
func (s *Server) discover() json.RawMessage {
	res := map[string]any{
		"resultType":        "complete",
		"supportedVersions": supportedVersions(),
		"capabilities":      s.modernCapabilities(),
		"ttlMs":             0,
		"cacheScope":        "private",
		"_meta":             map[string]any{metaServerInfo: s.serverInfo()},
	}
	if instr := s.upstreamInstructions(); instr != "" {
		res["instructions"] = instr
	}
	b, _ := json.Marshal(res)
	return b
}

// capabilities are the upstream's, with genui's tools and resources
// features switched on (genui always has tools and ui:// resources).
func (s *Server) capabilities() map[string]json.RawMessage {
	caps := map[string]json.RawMessage{}
	var init struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if raw := s.up.InitializeResult(); len(raw) > 0 {
		_ = json.Unmarshal(raw, &init)
	}
	for k, v := range init.Capabilities {
		caps[k] = v
	}
	caps["tools"] = mergeObject(caps["tools"], map[string]any{"listChanged": true})
	caps["resources"] = mergeObject(caps["resources"], map[string]any{"listChanged": true, "subscribe": true})
	caps["extensions"] = mergeObject(caps["extensions"], map[string]any{
		ExtensionID: map[string]any{"mimeTypes": []string{contract.MIMEApp}}})
	return caps
}

func mergeObject(raw json.RawMessage, add map[string]any) json.RawMessage {
	m := map[string]any{}
	_ = json.Unmarshal(raw, &m)
	if m == nil {
		m = map[string]any{}
	}
	for k, v := range add {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

func (s *Server) upstreamInstructions() string {
	var init struct {
		Instructions string `json:"instructions"`
	}
	if raw := s.up.InitializeResult(); len(raw) > 0 {
		_ = json.Unmarshal(raw, &init)
	}
	return init.Instructions
}

// showUI reports whether this session's tools/list carries UI metadata.
func (sess *Session) showUI() bool {
	switch sess.srv.opts.UIMetadata {
	case UIMetaNever:
		return false
	case UIMetaAuto:
		sess.mu.Lock()
		defer sess.mu.Unlock()
		return sess.uiCapable
	}
	return true
}

func errorf(code int, format string, args ...any) error { return jsonrpc.Errorf(code, format, args...) }

// CallWrapper runs one of genui's own _ui_* tools outside an MCP session
// (the HTTP tool API) and returns its CallToolResult.
func (s *Server) CallWrapper(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if s.opts.NoWrappers || !IsWrapper(name) {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "%q is not one of genui's tools", name)
	}
	return s.callWrapper(ctx, name, args)
}
