package host

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// The stdio forwarding fast path. A plain request from the stdio host (one
// genui passes through untouched: no progress token or other _meta to
// rewrite, not a _ui_* wrapper, not for resources, not genui's own
// initialize/ping/tools/list) is forwarded by the stdin reader itself: one
// pass over the frame (jsonrpc.ScanValid) checks it is JSON and finds its
// method, id and params, the upstream gets the
// bytes as they are (Upstream.Go), and the upstream connection's read
// loop writes the answer to stdout (fastCall.Answered). No goroutine,
// channel, context or timer per call; the request id and logger are built
// only when a line is logged. Everything else (and everything while
// someone watches traffic, or while the upstream is not connected) takes
// the general path, HandleFrame.
//
// A fast call is still a request in flight like any other: it is listed in
// Server.active (server-to-client requests during it are routed by it, and
// roots/list counts it), cancellable by the host, counted in the
// session's in-flight requests and in the metrics.

// fastCall is one request on the fast path.
type fastCall struct {
	route                       // in Server.active while it runs
	out    *jsonrpc.FrameWriter // the stdio session's stdout
	hostID string               // the host's id, JSON text as sent
	method string
	tool   string // tools/call, when the engine keeps example results
	args   []byte // its arguments then (the example's)
	start  time.Time
	rid    int64 // request id, formatted only when logged
	call   int64 // the id the upstream sees (Upstream.Go)
	// The call's history record (tools/call, when the history keeps the
	// tool's calls): filled in as the call goes (history.go).
	hist       contract.CallRecord
	histBuf    *recordBuf // what hist points into (pooled)
	histResult int
	recording  bool
}

// fastMethod reports whether requests of method may take the fast path:
// the ones dispatch forwards verbatim. tools/call is checked further.
func fastMethod(m []byte) bool {
	switch string(m) {
	case "initialize", "ping", "server/discover", "tools/list":
		return false
	}
	return !bytes.HasPrefix(m, []byte("resources/")) && !bytes.HasPrefix(m, []byte("notifications/"))
}

// knownMethod returns method as a string, without allocating for the
// methods hosts send most.
func knownMethod(m []byte) string {
	switch string(m) {
	case "tools/call":
		return "tools/call"
	case "prompts/get":
		return "prompts/get"
	case "prompts/list":
		return "prompts/list"
	case "completion/complete":
		return "completion/complete"
	case "logging/setLevel":
		return "logging/setLevel"
	}
	return string(m)
}

// forwardFast forwards frame on the fast path when it qualifies and
// reports whether it did; frame may be reused once it returns.
func (sess *Session) forwardFast(frame []byte, out *jsonrpc.FrameWriter) bool {
	s := sess.srv
	if s.e.Streaming() {
		return false // traffic for watchers: the general path reports it
	}
	top, ok := jsonrpc.ScanValid(frame) // invalid JSON: the general path answers -32700
	if !ok || top.Other || top.Dup || top.Result != nil || top.Error != nil || string(top.JSONRPC) != `"2.0"` {
		return false
	}
	m, ok := jsonrpc.PlainString(top.Method)
	if !ok || len(m) == 0 || !fastMethod(m) || !plainID(top.ID) {
		return false
	}
	params := top.Params
	var name, args []byte
	if params != nil {
		if params[0] != '{' {
			return false
		}
		if name, args, ok = fastParams(params); !ok {
			return false
		}
	}
	var tool []byte
	if string(m) == "tools/call" {
		name, ok := jsonrpc.PlainString(name)
		if !ok || len(name) == 0 || (!s.opts.NoWrappers && bytes.HasPrefix(name, []byte("_ui_")) && IsWrapper(string(name))) {
			return false
		}
		tool = name
	}
	fc := &fastCall{route: route{sess: sess, reply: out, seq: s.up.NextCallSeq()}, out: out, hostID: string(top.ID),
		method: knownMethod(m), start: time.Now(), rid: ridCounter.Add(1)}
	if tool != nil {
		if pol := s.e.HistoryPolicy(unsafe.String(unsafe.SliceData(tool), len(tool))); pol.Record {
			fc.beginRecord(pol, tool, args)
		}
		if s.e.WantsExamples() {
			fc.tool = knownTool(fc, tool)
			if fc.recording && len(fc.hist.Arguments) == len(args) {
				fc.args = fc.hist.Arguments // the history's copy, alive until the answer is recorded
			} else {
				fc.args = bytes.Clone(args)
			}
		}
	}
	sess.mu.Lock()
	if sess.closed || sess.fast[fc.hostID] != nil || sess.inflight[fc.hostID] != nil {
		sess.mu.Unlock()
		return false // the general path handles a reused id as it always did
	}
	if _, ok := sess.early[fc.hostID]; ok { // cancelled before it arrived
		delete(sess.early, fc.hostID)
		sess.mu.Unlock()
		return true
	}
	if sess.protocol == "" {
		sess.protocol = defaultProtocol // lenient, like acceptRequest
	}
	if sess.fast == nil {
		sess.fast = map[string]*fastCall{}
	}
	sess.fast[fc.hostID] = fc
	sess.mu.Unlock()
	s.addActive(&fc.route)
	s.fastForwarded.Add(1) // before the answer can be out
	call, err := s.up.Go(fc.method, params, fc)
	if err != nil {
		s.fastForwarded.Add(-1)
		// Nothing was sent: the general path waits for the upstream or
		// says why it cannot.
		sess.mu.Lock()
		delete(sess.fast, fc.hostID)
		sess.mu.Unlock()
		s.removeActive(&fc.route)
		return false
	}
	sess.mu.Lock()
	fc.call = call
	sess.mu.Unlock()
	return true
}

// knownTool returns the tool name as a string: the history's copy when
// it records the call (no allocation), else a new one.
func knownTool(fc *fastCall, tool []byte) string {
	if fc.recording {
		return fc.hist.Tool // in the pooled buffer: valid until the answer is recorded
	}
	return string(tool)
}

// plainID reports whether id is a JSON string or number (the frame as a
// whole is validated later).
func plainID(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	c := id[0]
	return c == '"' || c == '-' || c >= '0' && c <= '9'
}

// fastParams reports whether params carry nothing genui rewrites: no
// top-level _meta (progress tokens, the modern revision's envelope) and
// no escaped key that might spell one; it also returns the raw "name"
// member (nil when absent or given twice) and the raw "arguments", all in
// one pass.
func fastParams(params []byte) (name, args []byte, ok bool) {
	ok = true
	names := 0
	if !jsonrpc.EachMember(params, func(key, v []byte) bool {
		switch {
		case string(key) == "name":
			name, names = v, names+1
		case string(key) == "arguments":
			args = v
		case string(key) == "_meta" || bytes.IndexByte(key, '\\') >= 0:
			ok = false
		}
		return ok
	}) {
		return nil, nil, false
	}
	if names != 1 {
		name = nil
	}
	return name, args, ok
}

// Answered writes the upstream's answer to the host: on the upstream
// connection's read loop (or its sweeper), without blocking (stdout's
// FrameWriter queues what the host has not read yet).
func (fc *fastCall) Answered(a jsonrpc.Answer) {
	sess := fc.sess
	s := sess.srv
	if !fc.claim() {
		return // cancelled by the host or its session closed
	}
	defer s.removeActive(&fc.route) // after the answer is out
	var je *jsonrpc.Error
	switch {
	case a.Err != nil:
		je = jsonrpc.AsError(a.Err)
	case a.Error != nil:
		je = upstreamError(a.Error)
	default:
		res := a.Result
		if bytes.IndexByte(res, '\r') >= 0 || bytes.IndexByte(res, '\n') >= 0 {
			var buf bytes.Buffer
			if json.Compact(&buf, res) == nil {
				res = buf.Bytes()
			}
		}
		_ = fc.out.WriteParts(resultHead, unsafeBytes(fc.hostID), resultKey, res, closeBrace)
		if fc.tool != "" {
			s.e.ObserveResult(fc.tool, fc.args, res, time.Since(fc.start))
		}
		fc.endRecord(res, "")
	}
	if je != nil {
		fc.endRecord(nil, je.Message)
		s.up.CountError(je)
		if s.log.Enabled(context.Background(), slog.LevelInfo) {
			fc.logger().Info("request failed", "code", je.Code, "err", je.Message, "ms", time.Since(fc.start).Milliseconds())
		}
		_ = fc.out.Send(jsonrpc.NewErrorResponse(json.RawMessage(fc.hostID), je))
	} else if s.log.Enabled(context.Background(), slog.LevelDebug) {
		fc.logger().Debug("request done", "ms", time.Since(fc.start).Milliseconds())
	}
	if s.opts.ObserveRequest != nil {
		s.opts.ObserveRequest(fc.method, true, je != nil, time.Since(fc.start))
	}
}

var (
	resultHead = []byte(`{"jsonrpc":"2.0","id":`)
	resultKey  = []byte(`,"result":`)
	closeBrace = []byte(`}`)
)

// upstreamError is the error a host gets for an upstream's error answer:
// code, message and data as sent (re-encoded), or an internal error for an
// error object genui cannot read.
func upstreamError(raw json.RawMessage) *jsonrpc.Error {
	var e jsonrpc.Error
	if err := json.Unmarshal(raw, &e); err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "upstream sent a malformed error: " + clipBytes(raw, 200)}
	}
	return &e
}

// claim takes the call out of its session's in-flight requests (the caller
// then takes it out of Server.active); false when it was cancelled (or its
// session closed) first, and nothing may be sent.
func (fc *fastCall) claim() bool {
	sess := fc.sess
	sess.mu.Lock()
	mine := sess.fast[fc.hostID] == fc
	if mine {
		delete(sess.fast, fc.hostID)
	}
	sess.mu.Unlock()
	return mine
}

// cancelFast cancels the fast call the host knows as id, if there is one:
// the upstream is told, the host gets no answer.
func (sess *Session) cancelFast(id string) bool {
	sess.mu.Lock()
	fc := sess.fast[id]
	if fc != nil {
		delete(sess.fast, id)
	}
	sess.mu.Unlock()
	if fc == nil {
		return false
	}
	fc.cancel("cancelled by host")
	return true
}

// cancel gives the call up (its registration already removed).
func (fc *fastCall) cancel(reason string) {
	s := fc.sess.srv
	s.removeActive(&fc.route)
	fc.sess.mu.Lock()
	call := fc.call
	fc.sess.mu.Unlock()
	s.up.Cancel(call, reason)
	fc.endRecord(nil, reason)
	if s.log.Enabled(context.Background(), slog.LevelInfo) {
		fc.logger().Info("request "+reason, "ms", time.Since(fc.start).Milliseconds())
	}
	if s.opts.ObserveRequest != nil {
		s.opts.ObserveRequest(fc.method, true, true, time.Since(fc.start))
	}
}

// logger is the call's logger, built when a line is logged.
func (fc *fastCall) logger() *slog.Logger {
	return fc.sess.srv.log.With("rid", formatRID(fc.rid), "session", fc.sess.ID, "method", fc.method)
}

// addActive and removeActive keep Server.active, the requests in flight
// upstream, newest last.
func (s *Server) addActive(r *route) {
	s.mu.Lock()
	s.active = append(s.active, r)
	s.mu.Unlock()
}

func (s *Server) removeActive(r *route) {
	s.mu.Lock()
	for i := len(s.active) - 1; i >= 0; i-- {
		if s.active[i] == r {
			s.active = append(s.active[:i], s.active[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
}

// reqLog is a general-path request's logger, built when a line is logged:
// most requests log nothing, and slog.With costs allocations.
type reqLog struct {
	base                 *slog.Logger
	rid, session, method string
	l                    atomic.Pointer[slog.Logger]
}

func (r *reqLog) logger() *slog.Logger {
	if l := r.l.Load(); l != nil {
		return l
	}
	l := r.base.With("rid", r.rid, "session", r.session, "method", r.method)
	r.l.Store(l)
	return l
}

func (r *reqLog) enabled(level slog.Level) bool { return r.base.Enabled(context.Background(), level) }

// Info, Debug and Warn log a line (the arguments are built by the caller:
// guard costly ones with enabled).
func (r *reqLog) Info(msg string, args ...any) {
	if r.enabled(slog.LevelInfo) {
		r.logger().Info(msg, args...)
	}
}

func (r *reqLog) Debug(msg string, args ...any) {
	if r.enabled(slog.LevelDebug) {
		r.logger().Debug(msg, args...)
	}
}

func (r *reqLog) Warn(msg string, args ...any) {
	if r.enabled(slog.LevelWarn) {
		r.logger().Warn(msg, args...)
	}
}

// unsafeBytes views s as bytes without copying (for writing only).
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

var ridCounter atomic.Int64

func newRequestID() string { return formatRID(ridCounter.Add(1)) }

func formatRID(n int64) string { return "r" + strconv.FormatInt(n, 36) }
