package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// The forwarding fast path (Go): a request is written to a stdio or
// in-process upstream by the caller's goroutine and its answer handed to a
// Waiter by the connection's read loop: no goroutine, channel, context or
// timer per call. One sweeper per connection expires calls past
// RequestTimeout. HTTP and SSE upstreams, and calls that need a context,
// use Request.

// ErrNoFastPath is Go's error when the request was not sent: the upstream
// is not connected, or not over a stdio or in-process connection. The
// caller uses Request, which waits for a connection and reports why not.
var ErrNoFastPath = errors.New("upstream: no fast path for this request")

// Go sends a request upstream and returns at once; w.Answered gets the
// answer, exactly once. params must be valid JSON (the caller checked) or
// empty. Without an error, notifications the upstream sent before its
// answer have reached the notification handler before w is told. Errors
// (wrapping ErrNoFastPath when nothing was sent) mean w will not be
// called: use Request instead.
func (c *Client) Go(method string, params json.RawMessage, w jsonrpc.Waiter) (id int64, err error) {
	c.mu.Lock()
	cn := c.cur
	c.mu.Unlock()
	if cn == nil || cn.isDead() {
		return 0, ErrNoFastPath
	}
	l, ok := cn.link.(*lineLink)
	if !ok {
		return 0, ErrNoFastPath
	}
	c.session.remember(method, params)
	id = c.nextID.Add(1)
	deadline := time.Now().Add(c.cfg.RequestTimeout).UnixNano()
	if err := l.callAsync(id, method, params, deadline, w); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNoFastPath, err)
	}
	return id, nil
}

// Cancel gives up on the call Go sent as id: its Waiter is not told, the
// upstream gets notifications/cancelled with reason. It reports whether the
// call was still waiting (false: its answer is being or was handed on).
// Ids are unique per Client, so a call of a connection that has since been
// replaced is not found: its Waiter has been or is being told the
// connection was lost.
func (c *Client) Cancel(id int64, reason string) bool {
	c.mu.Lock()
	cn := c.cur
	c.mu.Unlock()
	if cn == nil || id == 0 {
		return false
	}
	l, ok := cn.link.(*lineLink)
	if !ok {
		return false
	}
	pc, ok := l.cancelAsync(id)
	if ok {
		c.sendCancelledReason(cn, id, pc.method, reason, "")
	}
	return ok
}

// sweepInterval is how often a connection's sweeper looks for calls past
// their deadline: often enough that a call ends within about an eighth of
// the timeout after it, at most once a second.
func sweepInterval(timeout time.Duration) time.Duration {
	return min(max(timeout/8, 5*time.Millisecond), time.Second)
}

// hookAsync wires a line link's asynchronous calls to the Client: answers
// wait behind notifications read before them, expired calls are cancelled
// upstream, and calls left when the link ends fail like Request's would.
func (c *Client) hookAsync(cn *conn, l *lineLink) {
	l.sweepEvery = sweepInterval(c.cfg.RequestTimeout)
	l.onAnswer = func(w jsonrpc.Waiter, a jsonrpc.Answer, owned bool) {
		if c.queue.idle() {
			w.Answered(a)
			return
		}
		if !owned {
			a.Result, a.Error = bytes.Clone(a.Result), bytes.Clone(a.Error)
		}
		c.queue.pushFunc(func() { w.Answered(a) })
	}
	l.onTimeout = func(id int64, method string) {
		c.sendCancelledReason(cn, id, method, "request timed out", "")
	}
	l.onAsyncEnd = func(calls []pendingCall, err error) {
		go func() {
			if !waitClosed(cn.dead, 300*time.Millisecond) {
				reason := "upstream connection closed"
				if err != nil {
					reason = readEndReason(err)
				}
				cn.fail(fmt.Sprintf("upstream connection broken (%s)", reason))
			}
			for _, pc := range calls {
				pc.w.Answered(jsonrpc.Answer{Err: deadError(cn, pc.method)})
			}
		}()
	}
}

// sendCancelledReason tells the upstream to stop working on request id,
// in the background (bounded), so the caller never waits for it.
func (c *Client) sendCancelledReason(cn *conn, id int64, method, reason, rid string) {
	if method == "initialize" {
		return // MCP forbids cancelling initialize
	}
	params, err := json.Marshal(struct {
		RequestID int64  `json:"requestId"`
		Reason    string `json:"reason"`
	}{id, reason})
	if err != nil {
		return
	}
	go func() {
		nctx, cancel := context.WithTimeout(cn.ctx, 5*time.Second)
		defer cancel()
		if err := c.notify(nctx, cn, "notifications/cancelled", params); err != nil {
			c.log.Debug("upstream notifications/cancelled not sent", "rid", rid, "id", id, "err", err)
		}
	}()
}
