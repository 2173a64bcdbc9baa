package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// reasonShutdown is the conn failure reason used when Run's ctx ends.
const reasonShutdown = "upstream shut down"

// Request sends a request upstream and returns the raw result. JSON-RPC
// errors from upstream come back unchanged as *jsonrpc.Error. When not
// connected, or when the connection dies while the request is in flight, it
// returns at once a *jsonrpc.Error with Code jsonrpc.CodeUpstreamUnavailable.
// When ctx ends while in flight it sends notifications/cancelled upstream
// and returns ctx.Err(). Without a ctx deadline, Config.RequestTimeout
// applies.
func (c *Client) Request(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if method == "" {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "invalid request: empty method")
	}
	if len(params) > 0 && !json.Valid(params) {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params for %s: not valid JSON", method)
	}
	cn, err := c.live(method)
	if err != nil {
		return nil, err
	}
	c.session.remember(method, params)
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.RequestTimeout)
		defer cancel()
	}
	return c.roundTrip(ctx, cn, method, params)
}

// Notify sends a notification upstream. params must be a JSON object or
// empty.
func (c *Client) Notify(ctx context.Context, method string, params json.RawMessage) error {
	if method == "" {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "invalid notification: empty method")
	}
	cn, err := c.live(method)
	if err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
	return c.notify(ctx, cn, method, params)
}

// roundTrip sends one request on cn and waits for its answer, the
// connection's death, or ctx.
func (c *Client) roundTrip(ctx context.Context, cn *conn, method string, params json.RawMessage) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // nothing sent, nothing to cancel
	}
	id := c.nextID.Add(1)
	type answer struct {
		resp *jsonrpc.Message
		err  error
	}
	sendCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cn.begin()
	defer cn.end()
	ch := make(chan answer, 1)
	start := time.Now()
	go func() {
		resp, err := cn.link.call(sendCtx, id, method, params)
		ch <- answer{resp, err}
	}()

	select {
	case a := <-ch:
		if a.err != nil {
			if ctx.Err() != nil {
				c.sendCancelled(cn, id, method, ctx)
				return nil, ctx.Err()
			}
			return nil, c.transportFailure(cn, method, a.err)
		}
		// Notifications the upstream sent before this response (progress,
		// logging) reach the handler before the caller sees the result,
		// however slow the handler (a host reading slowly): once the
		// response is out, the host's progress route is gone. Bounded by
		// the request's own deadline.
		if !c.queue.waitDelivered(ctx, c.queue.pushedCount()) {
			c.log.Warn("notifications sent before a response not all handed on before the request ended",
				"rid", jsonrpc.RequestID(ctx), "method", method, "err", context.Cause(ctx))
		}
		if c.log.Enabled(ctx, slog.LevelDebug) {
			c.log.Debug("upstream request", "rid", jsonrpc.RequestID(ctx), "method", method, "id", id, "took", time.Since(start))
		}
		return convertResponse(a.resp)
	case <-cn.dead:
		return nil, deadError(cn, method)
	case <-ctx.Done():
		c.sendCancelled(cn, id, method, ctx)
		return nil, ctx.Err()
	}
}

// deadError is the error for a request whose connection died under it.
func deadError(cn *conn, method string) *jsonrpc.Error {
	if cn.reason == reasonShutdown {
		return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "%s while handling %s", cn.reason, method)
	}
	if strings.HasPrefix(cn.reason, reasonRestarted) {
		return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "%s while handling %s; the new upstream serves now: call again", cn.reason, method)
	}
	verb := "reconnecting"
	if cn.kind == TransportStdio || cn.kind == TransportInProcess {
		verb = "restarting"
	}
	return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "%s", withStderr(fmt.Sprintf("%s while handling %s; %s", cn.reason, method, verb), cn.stderrLines))
}

// transportFailure turns a transport-level error into the error Request
// returns and, where it means the connection is broken, marks it dead.
func (c *Client) transportFailure(cn *conn, method string, err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je // refused before sending (bad params)
	}
	switch cn.kind {
	case TransportStdio, TransportInProcess:
		// The read loop saw EOF or a write failed: the process is dying.
		// Give Wait a moment to report the exit status.
		if !waitClosed(cn.dead, 300*time.Millisecond) {
			cn.fail(fmt.Sprintf("upstream connection broken (%v)", err))
		}
		return deadError(cn, method)
	default:
		if cn.isDead() {
			return deadError(cn, method)
		}
		if errors.Is(err, transport.ErrSessionTerminated) {
			cn.fail("upstream session ended (server restarted?)")
			return deadError(cn, method)
		}
		if unauthorizedError(err) {
			// Not a lost connection: the upstream wants a sign-in (the
			// 401 stays visible to Run, which starts it).
			je := jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "the upstream refused %s: it needs sign-in (HTTP 401)", method)
			return &unauthorizedCall{je, err}
		}
		cn.requestProbe()
		// Give the health probe a moment: if the connection is gone, say so
		// rather than passing on the transport's wording (mcp-go says
		// "unexpected nil response" when a streamable HTTP server dies).
		if waitClosed(cn.dead, 300*time.Millisecond) {
			return deadError(cn, method)
		}
		return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable,
			"lost the connection to the upstream while handling %s (%v); reconnecting", method, err)
	}
}

// sendCancelled tells the upstream to stop working on request id. It runs
// in the background (bounded) so the caller returns at once even if the
// upstream is not reading.
func (c *Client) sendCancelled(cn *conn, id int64, method string, ctx context.Context) {
	reason := "request cancelled"
	if cause := context.Cause(ctx); errors.Is(cause, context.DeadlineExceeded) {
		reason = "request timed out"
	} else if cause != nil && !errors.Is(cause, context.Canceled) {
		reason = cause.Error()
	}
	c.sendCancelledReason(cn, id, method, reason, jsonrpc.RequestID(ctx))
}

// notify sends a notification on cn, bounded by ctx and the connection's
// life (a stdio write can block if the child stops reading).
func (c *Client) notify(ctx context.Context, cn *conn, method string, params json.RawMessage) error {
	if err := checkObjectParams(params); err != nil {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params for %s: %v", method, err)
	}
	sendCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan error, 1)
	go func() { ch <- cn.link.notify(sendCtx, method, params) }()
	select {
	case err := <-ch:
		if err != nil && ctx.Err() == nil {
			return c.transportFailure(cn, method, err)
		}
		return err
	case <-cn.dead:
		return deadError(cn, method)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// checkObjectParams accepts empty params, null, or a JSON object.
func checkObjectParams(raw json.RawMessage) error {
	if isNullOrEmpty(raw) {
		return nil
	}
	if t := bytes.TrimSpace(raw); t[0] != '{' || !json.Valid(t) {
		return errors.New("params must be a JSON object")
	}
	return nil
}

// convertResponse maps a response frame to (result, *jsonrpc.Error).
func convertResponse(resp *jsonrpc.Message) (json.RawMessage, error) {
	if resp == nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "upstream sent an empty response")
	}
	if resp.Error != nil {
		return nil, resp.Error
	}
	if len(resp.Result) == 0 {
		return json.RawMessage("{}"), nil
	}
	return resp.Result, nil
}

// answerServerRequest runs the user's request handler (or the defaults:
// ping answers {}, anything else is method-not-found) for one
// server-to-client request, bounded by RequestTimeout and safe from panics.
// It returns the result or the JSON-RPC error to send back.
func (c *Client) answerServerRequest(ctx context.Context, method string, params json.RawMessage) (result json.RawMessage, rerr *jsonrpc.Error) {
	c.mu.Lock()
	h := c.onRequest
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, c.cfg.RequestTimeout)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("upstream request handler panicked", "method", method, "panic", r)
			result, rerr = nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error handling %s", method)
		}
	}()
	var err error
	switch {
	case h != nil:
		result, err = h(ctx, method, params)
	case method == "ping":
		result = json.RawMessage("{}")
	default:
		err = jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "method not found: %s", method)
	}
	if err != nil {
		je := jsonrpc.AsError(err)
		if len(je.Data) > 0 && !json.Valid(je.Data) {
			je = &jsonrpc.Error{Code: je.Code, Message: je.Message} // never send a broken frame
		}
		c.log.Debug("upstream server request failed", "method", method, "code", je.Code, "err", je.Message)
		return nil, je
	}
	if len(result) == 0 {
		result = json.RawMessage("{}")
	}
	return result, nil
}

// lineRequestHandler answers server-to-client requests arriving on a
// lineLink: params reach the handler byte for byte and the response frame
// echoes the request's id verbatim.
func (c *Client) lineRequestHandler(cn *conn) func(id json.RawMessage, method string, params json.RawMessage) []byte {
	return func(id json.RawMessage, method string, params json.RawMessage) []byte {
		result, je := c.answerServerRequest(cn.ctx, method, params)
		if je != nil {
			return jsonrpc.NewErrorResponse(id, je)
		}
		return jsonrpc.NewResultChecked(id, result)
	}
}

// mcpRequestHandler adapts answerServerRequest to an mcp-go transport
// (http): mcp-go has decoded the params, so they are re-encoded here.
func (c *Client) mcpRequestHandler(cn *conn) transport.RequestHandler {
	return func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		var params json.RawMessage
		if req.Params != nil {
			b, err := json.Marshal(req.Params)
			if err != nil {
				return transport.NewJSONRPCErrorResponse(req.ID, jsonrpc.CodeInvalidParams, fmt.Sprintf("invalid params for %s: %v", req.Method, err), nil), nil
			}
			params = b
		}
		t := tracing(c.currentTracer())
		var idb json.RawMessage
		if t != nil {
			idb, _ = json.Marshal(req.ID)
			t.Frame(false, jsonrpc.NewRequest(idb, req.Method, params))
		}
		result, je := c.answerServerRequest(ctx, req.Method, params)
		if je != nil {
			var data any
			if len(je.Data) > 0 {
				data = je.Data
			}
			if t != nil {
				t.Frame(true, jsonrpc.NewErrorResponse(idb, je))
			}
			return transport.NewJSONRPCErrorResponse(req.ID, je.Code, je.Message, data), nil
		}
		if t != nil {
			t.Frame(true, jsonrpc.NewResult(idb, result))
		}
		return transport.NewJSONRPCResultResponse(req.ID, result), nil
	}
}

// toNotificationParams turns raw params into mcp-go's NotificationParams
// without losing anything: numbers stay json.Number (re-encoded verbatim),
// and _meta is only set when present.
func toNotificationParams(raw json.RawMessage) (mcp.NotificationParams, error) {
	var p mcp.NotificationParams
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return p, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return p, errors.New("params must be a JSON object")
	}
	if meta, ok := m["_meta"]; ok {
		mm, ok := meta.(map[string]any)
		if !ok {
			return p, errors.New("_meta must be a JSON object")
		}
		p.Meta = mm
		delete(m, "_meta")
	}
	p.AdditionalFields = m
	return p, nil
}

// fromNotificationParams re-encodes params mcp-go decoded from the wire.
// Absent params stay nil; an empty _meta (which mcp-go invents while
// decoding) is dropped.
func fromNotificationParams(p mcp.NotificationParams) json.RawMessage {
	if p.Meta == nil && p.AdditionalFields == nil {
		return nil
	}
	m := make(map[string]any, len(p.AdditionalFields)+1)
	for k, v := range p.AdditionalFields {
		m[k] = v
	}
	if len(p.Meta) > 0 {
		m["_meta"] = p.Meta
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}

// unauthorizedCall is a request the upstream answered with 401: a
// *jsonrpc.Error for the caller that also unwraps to the transport's
// error, so Run sees the upstream wants a sign-in.
type unauthorizedCall struct {
	je  *jsonrpc.Error
	err error
}

func (e *unauthorizedCall) Error() string   { return e.je.Error() }
func (e *unauthorizedCall) Unwrap() []error { return []error{e.je, e.err} }
