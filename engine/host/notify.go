package host

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// onUpstreamNotification routes an upstream notification to hosts:
// progress to the host whose request carries the token, everything else to
// every session.
func (s *Server) onUpstreamNotification(method string, params json.RawMessage) {
	frame := jsonrpc.NewNotification(method, params)
	if method == "notifications/progress" {
		var p map[string]json.RawMessage
		var tok string
		if json.Unmarshal(params, &p) == nil {
			_ = json.Unmarshal(p["progressToken"], &tok) // genui's tokens are strings
		}
		s.mu.Lock()
		r := s.progress[tok]
		s.mu.Unlock()
		if r != nil {
			p["progressToken"] = r.token // the host's token, byte for byte
			if b, err := marshalRaw(p); err == nil {
				frame = jsonrpc.NewNotification(method, b)
			}
			if err := r.reply.Send(frame); err != nil {
				s.log.Debug("progress to host failed", "err", err)
			}
			return
		}
		s.noteDroppedProgress(tok)
		return
	}
	// Every session gets it: genui does not track which sessions
	// subscribed upstream (resources/updated included).
	for _, sess := range s.sessionList() {
		sess.sendOrActive(frame)
	}
}

// noteDroppedProgress warns about progress for a token no request in
// flight owns (the upstream sent it after its response, or for a request
// that was cancelled), at most once a second with a count, so a flood
// cannot flood the log.
func (s *Server) noteDroppedProgress(tok string) {
	n := s.droppedProgress.Add(1)
	now := time.Now().UnixNano()
	last := s.droppedWarnAt.Load()
	if now-last < int64(time.Second) || !s.droppedWarnAt.CompareAndSwap(last, now) {
		return
	}
	s.droppedProgress.Add(-n)
	s.log.Warn("progress for a request no longer in flight dropped", "token", tok, "dropped", n)
}

func (s *Server) sessionList() []*Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		out = append(out, sess)
	}
	return out
}

var errNoStream = errors.New("the session has no stream for server-initiated messages")

// sendStream writes frame on the session's GET stream only.
func (sess *Session) sendStream(frame []byte) error {
	sess.mu.Lock()
	out := sess.out
	sess.mu.Unlock()
	if out == nil {
		return errNoStream
	}
	return out.Send(frame)
}

// sendOrActive sends a session-level frame on the session stream, or, when
// the session has none (streamable HTTP without a GET stream), on its newest
// in-flight request stream.
func (sess *Session) sendOrActive(frame []byte) {
	if sess.isModern() {
		sess.sendModern(frame)
		return
	}
	sess.mu.Lock()
	out := sess.out
	sess.mu.Unlock()
	if out != nil {
		sess.send(frame)
		return
	}
	s := sess.srv
	s.mu.Lock()
	var r *route
	for i := len(s.active) - 1; i >= 0; i-- {
		if s.active[i].sess == sess {
			r = s.active[i]
			break
		}
	}
	s.mu.Unlock()
	if r != nil {
		_ = r.reply.Send(frame)
	}
}

// newestCall is the engine's view of the host's calls: the sequence
// number of the newest request in flight upstream, 0 when none is.
func (s *Server) newestCall() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.active); n > 0 {
		return s.active[n-1].seq
	}
	return 0
}

// noHostError is the error for a request no connected host can answer
// (none connected, or the capability not declared): its NoHost method
// tells the engine to offer the request to genui's own surfaces; with none
// open the upstream hears the JSON-RPC error it wraps.
type noHostError struct{ err *jsonrpc.Error }

func (n *noHostError) Error() string { return n.err.Error() }
func (n *noHostError) Unwrap() error { return n.err }

// NoHost marks the request as one no host can answer.
func (n *noHostError) NoHost() bool { return true }

func noHost(code int, format string, args ...any) error {
	return &noHostError{err: jsonrpc.Errorf(code, format, args...)}
}

// onUpstreamRequest relays a server-to-client request (sampling,
// elicitation, roots, ping) to the host whose request is in flight (newest
// first), or, with none in flight, to a session that can receive it, and
// returns the host's answer. The engine asks only for requests that belong
// to a host's call (or to none it knows): a call of genui's own surfaces
// is answered by them. A host that did not declare the capability the
// request needs (for a URL-mode elicitation: elicitation.url) never gets
// it: the engine hears a noHostError and offers it to genui's
// surfaces, and with none open the upstream hears -32601 at once.
// roots/list is answered only when its session is certain (one session
// with calls in flight, or with none in flight only one connected): a
// host's roots must never serve another session's call.
func (s *Server) onUpstreamRequest(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	capName := capabilityFor[method] // "" for ping and anything newer
	s.mu.Lock()
	var r *route
	if n := len(s.active); n > 0 {
		r = s.active[n-1]
	}
	busy := 0 // sessions with calls in flight
	for i, a := range s.active {
		if !slices.ContainsFunc(s.active[:i], func(b *route) bool { return b.sess == a.sess }) {
			busy++
		}
	}
	s.mu.Unlock()
	if method == "roots/list" && busy > 1 {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError,
			"roots/list refused: %d host sessions have calls in flight and genui cannot tell which one this request serves; "+
				"it answers none rather than hand one host's roots to another's call", busy)
	}
	if r != nil && r.ask != nil {
		return r.ask(ctx, method, params) // a modern request: multi round-trip, checks the capability itself
	}
	if r == nil {
		var cands []*Session
		for _, sess := range s.sessionList() {
			sess.mu.Lock()
			ok := sess.out != nil && sess.era != eraModern && !sess.closed
			sess.mu.Unlock()
			if ok {
				cands = append(cands, sess)
			}
		}
		if method == "roots/list" && len(cands) > 1 {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError,
				"roots/list refused: %d host sessions are connected and no call is in flight, so genui cannot tell whose roots are meant", len(cands))
		}
		for _, sess := range cands {
			if capName == "" || sess.declaresFor(capName, method, params) {
				r = &route{sess: sess, reply: SenderFunc(func(b []byte) error { sess.send(b); return nil })}
				break
			}
		}
		if r == nil && len(cands) > 0 {
			return nil, noHost(jsonrpc.CodeMethodNotFound, "%s: no connected host declared the %s capability", method, capName)
		}
	} else if capName != "" && !r.sess.declaresFor(capName, method, params) {
		return nil, noHost(jsonrpc.CodeMethodNotFound, "%s: the host did not declare the %s capability", method, capName)
	}
	if r == nil {
		if method == "ping" {
			return json.RawMessage("{}"), nil
		}
		return nil, noHost(jsonrpc.CodeInternalError, "genui has no connected host to answer %s", method)
	}
	return r.sess.request(ctx, r.reply, method, params, s.opts.ClientRequestTimeout)
}

// declaresFor reports whether the session's host can take this request:
// it declared capName, and for a URL-mode elicitation elicitation.url.
func (sess *Session) declaresFor(capName, method string, params json.RawMessage) bool {
	if !sess.declaresCapability(capName) {
		return false
	}
	if method != "elicitation/create" {
		return true
	}
	var p struct {
		Mode string `json:"mode"`
	}
	if json.Unmarshal(params, &p) != nil || p.Mode != "url" {
		return true
	}
	sess.mu.Lock()
	caps := sess.clientCaps
	sess.mu.Unlock()
	var c struct {
		Elicitation map[string]json.RawMessage `json:"elicitation"`
	}
	if json.Unmarshal(caps, &c) != nil {
		return false
	}
	v, ok := c.Elicitation["url"]
	return ok && string(v) != "null"
}

// request sends a server-to-client request to this host and waits for the
// answer, bounded by timeout.
func (sess *Session) request(ctx context.Context, via Sender, method string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	s := sess.srv
	id := json.RawMessage(strconv.Quote("genui-" + strconv.FormatInt(s.nextID.Add(1), 10)))
	ch := make(chan *jsonrpc.Message, 1)
	sess.mu.Lock()
	if sess.closed {
		sess.mu.Unlock()
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "host session closed")
	}
	sess.pending[string(id)] = ch
	sess.mu.Unlock()
	defer func() {
		sess.mu.Lock()
		delete(sess.pending, string(id))
		sess.mu.Unlock()
	}()
	if err := via.Send(jsonrpc.NewRequest(id, method, params)); err != nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "relaying %s to the host failed: %v", method, err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	select {
	case m, ok := <-ch:
		if !ok || m == nil {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "host session closed before answering %s", method)
		}
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-ctx.Done():
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "host did not answer %s within %s: %v", method, timeout, ctx.Err())
	case <-sess.ctx.Done():
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "host session closed before answering %s", method)
	}
}

// onEngineEvent tells hosts when tools or UIs change.
func (s *Server) onEngineEvent(ev contract.Event) {
	switch ev.Kind {
	case contract.EventToolsChanged:
		for _, sess := range s.sessionList() {
			sess.sendOrActive(jsonrpc.NewNotification("notifications/tools/list_changed", nil))
			sess.sendOrActive(jsonrpc.NewNotification("notifications/resources/list_changed", nil))
		}
		if d, ok := ev.Detail.(*contract.ToolsChanged); ok {
			for _, name := range append(append([]string{}, d.Diff.Changed...), d.Diff.Removed...) {
				s.resourceUpdated(contract.UIURI(name))
			}
		}
	case contract.EventUIUpdated:
		s.resourceUpdated(contract.UIURI(ev.Tool))
		for _, sess := range s.sessionList() {
			sess.sendOrActive(jsonrpc.NewNotification("notifications/resources/list_changed", nil))
		}
	}
}

func (s *Server) resourceUpdated(uri string) {
	params, _ := json.Marshal(map[string]string{"uri": uri})
	frame := jsonrpc.NewNotification("notifications/resources/updated", params)
	for _, sess := range s.sessionList() {
		sess.mu.Lock()
		sub := sess.subs[uri] || sess.era == eraModern // modern: listens filter
		sess.mu.Unlock()
		if sub {
			sess.sendOrActive(frame)
		}
	}
}
