package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// conn is one live connection: a started transport plus whatever keeps it
// alive (child process, in-process server goroutine). A conn is never reused;
// reconnecting builds a new one.
type conn struct {
	kind   string
	tr     transport.Interface
	ctx    context.Context // lives as long as the connection
	cancel context.CancelFunc

	// dead is closed (once, by fail) when the connection is gone; reason
	// says why, e.g. "upstream exited (exit status 1)".
	dead     chan struct{}
	deadOnce sync.Once
	reason   string

	// probe asks the health monitor (http/sse) for an immediate ping.
	probe chan struct{}
	// inflight counts requests in progress; lastActive is the UnixNano time
	// the last one finished. The health monitor only pings an idle
	// connection: mcp-go's HTTP server can drop a notification when two
	// requests of one session overlap.
	inflight   atomic.Int64
	lastActive atomic.Int64

	// stdio: the child; waitDone is closed once cmd.Wait has returned.
	cmd      *exec.Cmd
	pid      int
	waitDone chan struct{}

	// inprocess: pipe ends to close on shutdown; waitDone is closed once the
	// server function has returned.
	pipes []io.Closer
}

func newConn(parent context.Context, kind string) *conn {
	ctx, cancel := context.WithCancel(parent)
	cn := &conn{
		kind:   kind,
		ctx:    ctx,
		cancel: cancel,
		dead:   make(chan struct{}),
		probe:  make(chan struct{}, 1),
	}
	cn.lastActive.Store(time.Now().UnixNano())
	return cn
}

// begin and end bracket one request for the idle check.
func (cn *conn) begin() { cn.inflight.Add(1) }
func (cn *conn) end() {
	cn.lastActive.Store(time.Now().UnixNano())
	cn.inflight.Add(-1)
}

// idleFor reports whether no request ran on cn for at least d.
func (cn *conn) idleFor(d time.Duration) bool {
	return cn.inflight.Load() == 0 && time.Since(time.Unix(0, cn.lastActive.Load())) >= d
}

// fail marks the connection dead with reason; later calls are no-ops.
func (cn *conn) fail(reason string) {
	cn.deadOnce.Do(func() {
		cn.reason = reason
		close(cn.dead)
	})
}

// isDead reports whether fail has been called.
func (cn *conn) isDead() bool {
	select {
	case <-cn.dead:
		return true
	default:
		return false
	}
}

// requestProbe asks the health monitor to ping now (http/sse only).
func (cn *conn) requestProbe() {
	select {
	case cn.probe <- struct{}{}:
	default:
	}
}

// dial builds and starts the transport for the configured upstream. It does
// not run the MCP handshake.
func (c *Client) dial(ctx context.Context) (*conn, error) {
	cn := newConn(ctx, c.cfg.Transport)
	var err error
	switch c.cfg.Transport {
	case TransportStdio:
		err = c.dialStdio(cn)
	case TransportInProcess:
		err = c.dialInProcess(cn)
	case TransportHTTP:
		err = c.dialHTTP(cn)
	case TransportSSE:
		err = c.dialSSE(cn)
	default:
		err = fmt.Errorf("unknown transport %q", c.cfg.Transport)
	}
	if err != nil {
		c.closeConn(cn)
		return nil, err
	}
	return cn, nil
}

// startTransport starts tr bounded by initTimeout. The transport keeps the
// conn's context (it is the lifetime of SSE streams and server-request
// handlers), so the bound works by cancelling that context on expiry.
func startTransport(cn *conn, tr transport.Interface) error {
	timer := time.AfterFunc(initTimeout, cn.cancel)
	err := tr.Start(cn.ctx)
	if !timer.Stop() {
		return fmt.Errorf("transport start timed out after %s", initTimeout)
	}
	return err
}

func (c *Client) dialStdio(cn *conn) error {
	stderr := c.cfg.Stderr
	if stderr == nil {
		stderr = newLineLogger(c.log)
	}
	cmdFunc := func(_ context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
		// Not CommandContext: cancelling would only kill the direct child.
		// Shutdown signals the whole process group instead (closeConn).
		cmd := exec.Command(command, args...)
		cmd.Env = append(os.Environ(), env...)
		setProcessGroup(cmd)
		// Bounds Wait if a grandchild keeps an inherited pipe open.
		cmd.WaitDelay = time.Second
		cn.cmd = cmd
		return cmd, nil
	}
	st := transport.NewStdioWithOptions(c.cfg.Command, c.cfg.Env, c.cfg.Args,
		transport.WithCommandFunc(cmdFunc),
		transport.WithCommandLogger(c.log),
		transport.WithCommandStderrWriter(stderr),
	)
	c.attach(st)
	st.SetRequestHandler(c.serverRequestHandler(cn))
	cn.tr = st
	err := startTransport(cn, st)
	if cn.cmd != nil && cn.cmd.Process != nil {
		// Started (even if Start then timed out): watch it so closeConn can
		// reap it and in-flight requests learn of its exit at once.
		cn.pid = cn.cmd.Process.Pid
		cn.waitDone = make(chan struct{})
		go func() {
			err := cn.cmd.Wait()
			close(cn.waitDone)
			if err == nil {
				cn.fail("upstream exited (exit status 0)")
			} else {
				cn.fail(fmt.Sprintf("upstream exited (%v)", err))
			}
		}()
	}
	if err != nil {
		return fmt.Errorf("start %s: %w", c.target, err)
	}
	return nil
}

func (c *Client) dialInProcess(cn *conn) error {
	clientR, serverW := io.Pipe() // server -> client
	serverR, clientW := io.Pipe() // client -> server
	// Closing the server's ends on shutdown gives the client's read loop a
	// clean EOF and fails any server read or write still pending.
	cn.pipes = []io.Closer{serverW, serverR}
	st := transport.NewIO(clientR, clientW, nil)
	transport.WithCommandLogger(c.log)(st)
	c.attach(st)
	st.SetRequestHandler(c.serverRequestHandler(cn))
	cn.tr = st
	cn.waitDone = make(chan struct{})
	serve := c.cfg.InProcess
	go func() {
		defer close(cn.waitDone)
		err := safeServe(func() error { return serve(cn.ctx, serverR, serverW) })
		_ = serverW.Close() // EOF for the client's read loop
		if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
			cn.fail("in-process upstream stopped")
		} else {
			cn.fail(fmt.Sprintf("in-process upstream stopped (%v)", err))
		}
	}()
	if err := startTransport(cn, st); err != nil {
		return fmt.Errorf("start in-process upstream: %w", err)
	}
	return nil
}

// safeServe runs f, turning a panic into an error so a broken in-process
// server cannot take the whole program down.
func safeServe(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

func (c *Client) dialHTTP(cn *conn) error {
	h, err := transport.NewStreamableHTTP(c.cfg.URL,
		transport.WithHTTPHeaders(c.cfg.Headers),
		transport.WithContinuousListening(),
		transport.WithHTTPLogger(c.log),
	)
	if err != nil {
		return fmt.Errorf("upstream URL: %w", err)
	}
	c.attach(h)
	h.SetRequestHandler(c.serverRequestHandler(cn))
	cn.tr = h
	if err := startTransport(cn, h); err != nil {
		return fmt.Errorf("connect %s: %w", c.target, err)
	}
	return nil
}

func (c *Client) dialSSE(cn *conn) error {
	s, err := transport.NewSSE(c.cfg.URL,
		transport.WithHeaders(c.cfg.Headers),
		transport.WithSSELogger(c.log),
		// Requests are bounded by their own contexts (RequestTimeout); the
		// transport's 60 s default would cut long tool calls short.
		transport.WithResponseTimeout(24*time.Hour),
		transport.WithEndpointTimeout(initTimeout),
	)
	if err != nil {
		return fmt.Errorf("upstream URL: %w", err)
	}
	c.attach(s)
	s.SetConnectionLostHandler(func(err error) {
		cn.fail(fmt.Sprintf("upstream SSE stream closed (%v)", err))
	})
	cn.tr = s
	if err := startTransport(cn, s); err != nil {
		return fmt.Errorf("connect %s: %w", c.target, err)
	}
	return nil
}

// attach routes the transport's notifications into the ordered queue. The
// callback runs on the transport's read loop, so it only enqueues.
func (c *Client) attach(tr transport.Interface) {
	tr.SetNotificationHandler(func(n mcp.JSONRPCNotification) {
		c.queue.push(n.Method, fromNotificationParams(n.Params))
	})
}

// closeConn tears a connection down, bounded in time. For stdio it sends
// SIGTERM to the child's whole process group, waits up to termGrace, then
// SIGKILLs the group, so grandchildren (npx, sh -c) die too.
func (c *Client) closeConn(cn *conn) {
	cn.fail("connection closed")
	cn.cancel()
	switch {
	case cn.cmd != nil && cn.cmd.Process != nil:
		pid := cn.cmd.Process.Pid
		_ = signalGroup(pid, sigTerm)
		if !waitClosed(cn.waitDone, termGrace) {
			c.log.Warn("upstream ignored SIGTERM; killing process group", "pid", pid)
		}
		// Also reaps grandchildren that outlived the child.
		_ = signalGroup(pid, sigKill)
		if !waitClosed(cn.waitDone, 3*time.Second) {
			// Never call the transport's Close (it Waits too) while our
			// Wait is still running.
			c.log.Error("upstream process did not exit after SIGKILL", "pid", pid)
			return
		}
		closeBounded(c, cn.tr)
	case cn.waitDone != nil: // in-process
		closeBounded(c, cn.tr)
		for _, p := range cn.pipes {
			_ = p.Close()
		}
		if !waitClosed(cn.waitDone, termGrace) {
			c.log.Error("in-process upstream did not stop within the grace period")
		}
	default:
		closeBounded(c, cn.tr)
	}
}

// closeBounded closes tr, giving up (with a log line) after 6 s; the HTTP
// transport's Close sends a DELETE bounded at 5 s.
func closeBounded(c *Client, tr transport.Interface) {
	if tr == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := tr.Close(); err != nil {
			c.log.Debug("upstream transport close", "err", err)
		}
	}()
	if !waitClosed(done, 6*time.Second) {
		c.log.Warn("upstream transport close timed out")
	}
}

// waitClosed waits for ch to be closed, at most d. A nil ch counts as closed.
func waitClosed(ch <-chan struct{}, d time.Duration) bool {
	if ch == nil {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
