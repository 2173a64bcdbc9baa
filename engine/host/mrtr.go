package host

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Multi round-trip requests (2026-07-28) in a proxy. A modern tools/call,
// prompts/get or resources/read runs upstream as one legacy call in a
// session of its own. When the upstream asks genui for sampling,
// elicitation or roots during it, the modern client gets an input_required
// result naming the request, with an opaque requestState: a random token
// for the waiting call. The client's retry (same method and target, the
// token, inputResponses) hands the answer to the upstream and waits for the
// call's next step: its result, or the next input it needs. A call nobody
// retries within mrtrKeep is cancelled upstream. The token lives only in
// genui's memory, so it cannot be forged or replayed: it is single-use and
// bound to the method and the tool/prompt/resource it was issued for.

// mrtrCall is one upstream call that may need input from the client.
type mrtrCall struct {
	srv    *Server
	method string
	target string
	sess   *Session // the call's own session
	reply  atomic.Pointer[Sender]
	result chan mrtrOutcome
	asks   chan *inputAsk
	keys   atomic.Int64

	mu      sync.Mutex
	pending *inputAsk   // the ask the client was given
	timer   *time.Timer // expiry while waiting for the client
}

type mrtrOutcome struct {
	res json.RawMessage
	err error
}

// inputAsk is one server-to-client request of the upstream.
type inputAsk struct {
	key    string
	method string
	params json.RawMessage
	answer chan mrtrOutcome
}

// swapSender sends to the call's current reply stream (the latest round's).
type swapSender struct{ c *mrtrCall }

func (w swapSender) Send(frame []byte) error {
	if p := w.c.reply.Load(); p != nil {
		return (*p).Send(frame)
	}
	return nil
}

// roundTrips serves a modern tools/call, prompts/get or resources/read.
func (sess *Session) roundTrips(ctx context.Context, msg *jsonrpc.Message, reply Sender) (json.RawMessage, error) {
	s := sess.srv
	var p struct {
		Name           string                     `json:"name"`
		URI            string                     `json:"uri"`
		RequestState   *string                    `json:"requestState"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	_ = json.Unmarshal(msg.Params, &p)
	meta, _ := metaFrom(ctx)
	target := p.Name + p.URI
	if p.RequestState != nil {
		return s.continueCall(ctx, msg.Method, target, *p.RequestState, p.InputResponses, reply, meta)
	}
	call := &mrtrCall{srv: s, method: msg.Method, target: target,
		sess:   s.NewSession("mrtr-"+newToken()[:12], nil),
		result: make(chan mrtrOutcome, 1), asks: make(chan *inputAsk)}
	call.sess.mu.Lock()
	call.sess.era, call.sess.protocol = eraModern, modernVersion
	call.sess.mu.Unlock()
	call.reply.Store(&reply)
	// The call outlives this request when it needs input: it runs in its
	// session's context, with this request's values (request id, meta).
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(call.sess.ctx, cancel)
	cctx = context.WithValue(cctx, ctxAsk, askFunc(call.ask))
	go func() {
		defer func() { stop(); cancel() }()
		defer func() {
			// This goroutine is not under HandleFrame's recover.
			if v := recover(); v != nil {
				s.log.Error("panic while handling a modern request", "method", msg.Method, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				call.result <- mrtrOutcome{nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error (genui bug): %v", v)}
			}
		}()
		res, err := call.sess.dispatch(cctx, stripModernMeta(msg), swapSender{call},
			&reqLog{base: s.log, rid: jsonrpc.RequestID(cctx), session: call.sess.ID, method: msg.Method})
		call.result <- mrtrOutcome{res, err}
	}()
	return call.wait(ctx, meta)
}

// ask is the call's askFunc: it hands the upstream's request to the round
// waiting in wait and returns the client's answer.
func (c *mrtrCall) ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if method == "ping" {
		return json.RawMessage(`{}`), nil
	}
	short := method
	if i := strings.LastIndexByte(method, '/'); i >= 0 {
		short = method[:i]
	}
	a := &inputAsk{key: short + "-" + strconv.FormatInt(c.keys.Add(1), 10), method: method, params: params,
		answer: make(chan mrtrOutcome, 1)}
	select {
	case c.asks <- a:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.sess.ctx.Done():
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "the client's request ended before it could answer %s", method)
	}
	select {
	case o := <-a.answer:
		return o.res, o.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.sess.ctx.Done():
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "the client did not answer %s", method)
	}
}

// capabilityFor is the client capability a server-to-client request needs.
var capabilityFor = map[string]string{
	"sampling/createMessage": "sampling",
	"elicitation/create":     "elicitation",
	"roots/list":             "roots",
}

// declares reports whether client capabilities include name.
func declares(caps json.RawMessage, name string) bool {
	var c map[string]json.RawMessage
	_ = json.Unmarshal(caps, &c)
	_, ok := c[name]
	return ok
}

// wait runs one round: until the call finishes (its result is this
// request's), or needs input (an input_required result), or this request is
// cancelled (the call is cancelled upstream).
func (c *mrtrCall) wait(ctx context.Context, meta requestMeta) (json.RawMessage, error) {
	for {
		select {
		case o := <-c.result:
			c.sess.Close()
			return o.res, o.err
		case a := <-c.asks:
			if capName, known := capabilityFor[a.method]; !known || !declares(meta.caps, capName) {
				a.answer <- mrtrOutcome{err: jsonrpc.Errorf(jsonrpc.CodeMethodNotFound,
					"the client did not declare the capability %s needs", a.method)}
				continue
			}
			return c.inputRequired(a)
		case <-ctx.Done():
			c.sess.Close()
			return nil, context.Cause(ctx)
		}
	}
}

// inputRequired parks the call under a fresh token and returns the
// InputRequiredResult asking the client for a.
func (c *mrtrCall) inputRequired(a *inputAsk) (json.RawMessage, error) {
	s := c.srv
	token := newToken()
	c.mu.Lock()
	c.pending = a
	c.timer = time.AfterFunc(mrtrKeep, func() {
		if s.takeCall(token) == c {
			s.log.Info("client did not retry with the input the upstream asked for; cancelling the call",
				"method", c.method, "target", c.target, "ask", a.method)
			a.answer <- mrtrOutcome{err: jsonrpc.Errorf(jsonrpc.CodeInternalError, "the client did not answer %s within %s", a.method, mrtrKeep)}
			c.sess.Close()
		}
	})
	c.mu.Unlock()
	s.modern.mu.Lock()
	s.modern.calls[token] = c
	s.modern.mu.Unlock()
	return marshalRaw(map[string]any{
		"resultType":    "input_required",
		"inputRequests": map[string]any{a.key: map[string]any{"method": a.method, "params": a.params}},
		"requestState":  token,
	})
}

// takeCall removes and returns the call parked under token.
func (s *Server) takeCall(token string) *mrtrCall {
	s.modern.mu.Lock()
	defer s.modern.mu.Unlock()
	c := s.modern.calls[token]
	delete(s.modern.calls, token)
	return c
}

// continueCall serves a retry: the client's answer goes to the upstream and
// the call's next step is this request's result.
func (s *Server) continueCall(ctx context.Context, method, target, token string, responses map[string]json.RawMessage, reply Sender, meta requestMeta) (json.RawMessage, error) {
	c := s.takeCall(token)
	if c == nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "%s: requestState is unknown, used or expired (it is valid once, for %s)", method, mrtrKeep)
	}
	if c.method != method || c.target != target {
		s.modern.mu.Lock()
		s.modern.calls[token] = c // not this request's: leave it for the right one
		s.modern.mu.Unlock()
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "%s: requestState belongs to another request", method)
	}
	c.mu.Lock()
	c.timer.Stop()
	a := c.pending
	c.mu.Unlock()
	c.reply.Store(&reply)
	resp, ok := responses[a.key]
	if !ok {
		// The spec: ask again rather than fail.
		return c.inputRequired(a)
	}
	a.answer <- mrtrOutcome{res: resp}
	return c.wait(ctx, meta)
}
