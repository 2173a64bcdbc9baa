package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/mark3labs/mcp-go/client/transport"
)

// Run connects and keeps the connection up until ctx ends. When the stdio
// child dies (or the HTTP/SSE connection fails) it reconnects after
// BackoffMin, doubling up to BackoffMax; the delay resets after a connection
// that stayed up longer than 10 s. Run returns nil when ctx is cancelled,
// after closing the connection (stdio: SIGTERM to the whole process group,
// SIGKILL after 2 s). It returns an error at once for an invalid Config.
func (c *Client) Run(ctx context.Context) error {
	if err := c.cfg.validate(); err != nil {
		return err
	}
	c.mu.Lock()
	if c.running || c.stopped {
		c.mu.Unlock()
		return errors.New("upstream: Run called more than once")
	}
	c.running = true
	c.runCtx = ctx
	c.mu.Unlock()
	if c.auth != nil {
		c.auth.mu.Lock()
		c.auth.base = ctx
		c.auth.mu.Unlock()
	}

	stopQueue := c.queue.start()
	defer stopQueue()
	defer c.update(func(s *contract.UpstreamState) {
		c.stopped = true
		c.cur = nil
		s.Connected = false
		s.PID = 0
	})

	attempt := 0
	for {
		up := c.connectOnce(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if up > stableAfter {
			attempt = 0
		}
		if c.auth != nil && c.auth.blocked() {
			// The upstream wants a sign-in: connect again once it is done
			// (kick), not on a timer that would only get 401s.
			c.log.Info("upstream waits for sign-in")
			select {
			case <-ctx.Done():
				return nil
			case <-c.kick:
				attempt = 0
			}
			c.update(func(s *contract.UpstreamState) { s.Restarts++ })
			continue
		}
		delay := backoffDelay(c.cfg.BackoffMin, c.cfg.BackoffMax, attempt)
		attempt++
		c.log.Info("upstream reconnecting", "in", delay)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		case <-c.kick: // Restart: try now (the files changed, the fix may be in)
			t.Stop()
			attempt = 0
		}
		c.update(func(s *contract.UpstreamState) { s.Restarts++ })
	}
}

// connectOnce runs one connection from dial to teardown and reports how long
// it was up (0 if it never came up).
func (c *Client) connectOnce(ctx context.Context) time.Duration {
	cn, err := c.dial(ctx)
	if err == nil {
		err = c.handshake(cn)
		if err != nil {
			c.closeConn(cn)
		}
	}
	if err != nil {
		if ctx.Err() == nil {
			if c.auth != nil && unauthorizedError(err) {
				err = fmt.Errorf("the upstream needs sign-in (HTTP 401): %w", err)
			}
			c.log.Warn("upstream connect failed", "err", err)
			// The sign-in state first: whoever the failure wakes (serve's
			// banner, WaitHandshake) must find the sign-in under way, not
			// a plain failed start.
			if c.auth != nil && unauthorizedError(err) {
				c.auth.unauthorized()
			}
			c.update(func(s *contract.UpstreamState) {
				s.LastError = err.Error()
				c.failures++
			})
		}
		return 0
	}

	since := time.Now()
	if cn.kind == TransportHTTP || cn.kind == TransportSSE {
		go c.monitorHealth(cn)
	}
	for waiting := true; waiting; {
		select {
		case <-cn.dead:
			waiting = false
		case <-ctx.Done():
			cn.fail(reasonShutdown)
			waiting = false
		case req := <-c.swapped:
			// Restart made a new connection ready: it replaces this one.
			c.swap(cn, req)
			cn, since = req.cn, time.Now()
		}
	}
	reason := cn.why()
	// Detach first so new requests fail fast while we tear down.
	c.update(func(s *contract.UpstreamState) {
		c.cur = nil
		s.Connected = false
		s.PID = 0
		if ctx.Err() == nil {
			s.LastError = reason
		}
	})
	if ctx.Err() == nil {
		c.log.Warn("upstream connection lost", "reason", reason)
	}
	c.closeConn(cn)
	return time.Since(since)
}

// handshake runs initialize / notifications/initialized on a fresh
// connection and publishes it as current.
func (c *Client) handshake(cn *conn) error {
	res, info, err := c.initialize(cn)
	if err != nil {
		return err
	}
	c.update(func(s *contract.UpstreamState) {
		c.cur = cn
		c.initResult = res
		s.Connected = true
		s.LastError = ""
		s.PID = cn.pid
		s.ServerInfo = info.ServerInfo
		s.ProtocolVersion = info.ProtocolVersion
		s.ClientCapabilities = c.declared
		s.ServerCapabilities, s.Instructions = info.Capabilities, info.Instructions
		s.Generation++
	})
	c.log.Info("upstream connected", "target", c.target, "pid", cn.pid,
		"protocol", info.ProtocolVersion, "server", string(info.ServerInfo))
	return nil
}

// initInfo is what genui reads of the upstream's initialize result.
type initInfo struct {
	ProtocolVersion string          `json:"protocolVersion"`
	ServerInfo      json.RawMessage `json:"serverInfo"`
	Capabilities    json.RawMessage `json:"capabilities"`
	Instructions    string          `json:"instructions"`
}

// initialize runs initialize / notifications/initialized on a fresh
// connection without publishing it.
func (c *Client) initialize(cn *conn) (json.RawMessage, initInfo, error) {
	var info initInfo
	caps := c.cfg.Capabilities
	c.mu.Lock()
	capsFunc, infoFunc := c.capsFunc, c.infoFunc
	c.mu.Unlock()
	if capsFunc != nil {
		if b := capsFunc(cn.ctx); len(b) > 0 && json.Valid(b) {
			caps = b
		}
	}
	var clientInfo any = map[string]string{"name": c.cfg.ClientName, "version": c.cfg.ClientVersion}
	if infoFunc != nil {
		if b := infoFunc(); len(b) > 0 && json.Valid(b) && b[0] == '{' {
			clientInfo = json.RawMessage(b)
		}
	}
	c.mu.Lock()
	c.declared = caps
	c.mu.Unlock()
	params, err := json.Marshal(map[string]any{
		"protocolVersion": c.cfg.ProtocolVersion,
		"capabilities":    caps,
		"clientInfo":      clientInfo,
	})
	if err != nil {
		return nil, info, fmt.Errorf("initialize params: %w", err)
	}
	ctx, cancel := context.WithTimeout(cn.ctx, initTimeout)
	defer cancel()
	res, err := c.roundTrip(ctx, cn, "initialize", params)
	if err != nil {
		// A child that exited during initialize: its exit and stderr say
		// why, not the broken pipe the request saw first.
		if ctx.Err() == nil && waitClosed(cn.dead, time.Second+stderrSettle) && cn.reason != reasonShutdown {
			return nil, info, errors.New(cn.why())
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, info, fmt.Errorf("initialize: no answer within %s", initTimeout)
		}
		return nil, info, fmt.Errorf("initialize: %w", err)
	}
	if err := json.Unmarshal(res, &info); err != nil {
		return nil, info, fmt.Errorf("initialize: malformed result: %w", err)
	}
	if info.ProtocolVersion == "" {
		return nil, info, errors.New("initialize: result has no protocolVersion")
	}
	if info.ProtocolVersion != c.cfg.ProtocolVersion {
		c.log.Info("upstream negotiated another protocol version", "asked", c.cfg.ProtocolVersion, "got", info.ProtocolVersion)
	}
	if h, ok := cn.tr.(transport.HTTPConnection); ok {
		h.SetProtocolVersion(info.ProtocolVersion)
	}
	if err := c.notify(ctx, cn, "notifications/initialized", nil); err != nil {
		return nil, info, fmt.Errorf("notifications/initialized: %w", err)
	}
	c.restoreSession(ctx, cn)
	if cn.isDead() {
		return nil, info, errors.New(cn.why())
	}
	return res, info, nil
}

// monitorHealth pings an HTTP/SSE upstream when it has been idle for a
// health interval and whenever a request failed at the transport level; a
// failed ping kills the connection so Run reconnects.
func (c *Client) monitorHealth(cn *conn) {
	t := time.NewTicker(c.healthEvery)
	defer t.Stop()
	for {
		select {
		case <-cn.dead:
			return
		case <-t.C:
			if !cn.idleFor(c.healthEvery) {
				continue // traffic shows the connection works
			}
		case <-cn.probe:
		}
		ctx, cancel := context.WithTimeout(cn.ctx, c.healthWait)
		_, err := cn.link.call(ctx, c.nextID.Add(1), "ping", nil)
		cancel()
		// Any JSON-RPC answer, even an error, proves the server is there.
		if err != nil && cn.ctx.Err() == nil {
			if errors.Is(err, transport.ErrSessionTerminated) {
				cn.fail("upstream session ended (server restarted?)")
			} else {
				cn.fail(fmt.Sprintf("upstream unreachable (%v)", err))
			}
			return
		}
	}
}

// backoffDelay is the wait before reconnect attempt n (0-based): min, 2*min,
// 4*min, ... capped at max.
func backoffDelay(min, max time.Duration, n int) time.Duration {
	d := min
	for i := 0; i < n; i++ {
		if d >= max/2 {
			return max
		}
		d *= 2
	}
	if d > max {
		return max
	}
	return d
}
