package upstream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// ErrNoRestart is Restart's error for an upstream it cannot restart (an
// HTTP or SSE server: genui does not own its process).
var ErrNoRestart = errors.New("upstream: only a stdio (or in-process) upstream can be restarted")

// reasonRestarted starts the failure reason of a connection Restart
// replaced: calls still in flight on it end with it.
const reasonRestarted = "upstream restarted"

// swapRequest hands Run a connection Restart made ready.
type swapRequest struct {
	cn     *conn
	res    []byte
	info   initInfo
	reason string
	done   chan struct{}
}

// Restart replaces the upstream with a fresh one (its files changed):
// a new child is started and initialized while the old one keeps
// serving; only once the new one has answered initialize does it become
// the upstream, and the old one is stopped (its process group). Calls in
// flight on the old one end at once with an error that says the upstream
// restarted (why: the reason). When the new one does not start (a syntax
// error, a crash at startup, no answer to initialize) the old one keeps
// serving and the error says why. While the upstream is down (it crashed
// and Run waits out its backoff), Restart makes Run try again now, and
// reports that attempt. Restarts run one at a time; ctx bounds the wait.
func (c *Client) Restart(ctx context.Context, why string) error {
	switch c.cfg.Transport {
	case TransportStdio, TransportInProcess:
	default:
		return fmt.Errorf("%w (this one is %s: it reconnects on its own)", ErrNoRestart, c.cfg.Transport)
	}
	c.restartMu.Lock()
	defer c.restartMu.Unlock()
	c.mu.Lock()
	old, runCtx, running, stopped := c.cur, c.runCtx, c.running, c.stopped
	c.mu.Unlock()
	if !running || stopped || runCtx == nil {
		return errors.New("upstream: not running")
	}
	if old == nil || old.isDead() {
		return c.reconnectNow(ctx)
	}
	start := time.Now()
	cn, err := c.dial(runCtx)
	if err != nil {
		return fmt.Errorf("the new upstream did not start: %w", err)
	}
	stop := context.AfterFunc(ctx, func() { cn.fail("restart cancelled: " + context.Cause(ctx).Error()) })
	res, info, err := c.initialize(cn)
	stop()
	if err != nil {
		reason := err.Error()
		if cn.isDead() && !strings.Contains(reason, cn.reason) {
			reason += " (" + cn.why() + ")"
		}
		c.closeConn(cn)
		return fmt.Errorf("the new upstream did not start: %s", reason)
	}
	req := &swapRequest{cn: cn, res: res, info: info, reason: reasonRestarted + " (" + why + ")", done: make(chan struct{})}
	select {
	case c.swapped <- req:
	case <-ctx.Done():
		c.closeConn(cn)
		return fmt.Errorf("restart: %w", ctx.Err())
	case <-time.After(initTimeout):
		// Run is not holding a connection (the old one died meanwhile):
		// it connects on its own.
		c.closeConn(cn)
		return errors.New("restart: the old upstream went away meanwhile; genui reconnects on its own")
	}
	<-req.done
	c.log.Info("upstream restarted", "why", why, "pid", cn.pid, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// swap makes req's connection the current one (on Run's goroutine) and
// retires old: its calls end with req.reason, its process group stops.
func (c *Client) swap(old *conn, req *swapRequest) {
	c.updateState(func(s *contract.UpstreamState) {
		c.cur = req.cn
		c.initResult = req.res
		s.Connected = true
		s.LastError = ""
		s.PID = req.cn.pid
		s.ServerInfo = req.info.ServerInfo
		s.ProtocolVersion = req.info.ProtocolVersion
		s.ClientCapabilities = c.declared
		s.ServerCapabilities, s.Instructions = req.info.Capabilities, req.info.Instructions
		s.Restarts++
		s.Generation++
	}, false)
	old.fail(req.reason)
	if l, ok := old.link.(*lineLink); ok {
		l.failAsync() // fast-path calls end now, not when the process is gone
	}
	close(req.done)
	go c.closeConn(old)
}

// reconnectNow cuts Run's reconnect backoff short and waits for that
// attempt's outcome.
func (c *Client) reconnectNow(ctx context.Context) error {
	c.mu.Lock()
	gen, fails, ch := c.state.Generation, c.failures, c.changed
	c.mu.Unlock()
	select {
	case c.kick <- struct{}{}:
	default:
	}
	ctx, cancel := context.WithTimeout(ctx, initTimeout+5*time.Second)
	defer cancel()
	for {
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("restart: no connection: %w", ctx.Err())
		}
		c.mu.Lock()
		st, f, stopped := c.shown(c.state), c.failures, c.stopped
		ch = c.changed
		c.mu.Unlock()
		switch {
		case st.Generation > gen:
			return nil
		case f > fails:
			return fmt.Errorf("the new upstream did not start: %s", st.LastError)
		case stopped:
			return errors.New("upstream: stopped")
		}
	}
}
