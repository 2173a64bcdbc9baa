package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// conn is one live connection: a started link plus whatever keeps it alive
// (child process, in-process server goroutine). A conn is never reused;
// reconnecting builds a new one.
type conn struct {
	kind string
	link link
	// tr is mcp-go's transport behind link for http/sse, nil otherwise.
	tr     transport.Interface
	ctx    context.Context // lives as long as the connection
	cancel context.CancelFunc

	// dead is closed (once, by fail) when the connection is gone; reason
	// says why, e.g. "upstream exited (exit status 1)".
	dead     chan struct{}
	deadOnce sync.Once
	reason   string
	// stderrLines are the exited child's last stderr lines (stdio).
	stderrLines []string

	// probe asks the health monitor (http/sse) for an immediate ping.
	probe chan struct{}
	// inflight counts requests in progress; lastActive is the UnixNano time
	// the last one finished. The health monitor only pings an idle
	// connection: mcp-go's HTTP server can drop a notification when two
	// requests of one session overlap.
	inflight   atomic.Int64
	lastActive atomic.Int64

	// stdio: the child; waitDone is closed once cmd.Wait has returned;
	// watchdog is genui's end of the watchdog's pipe (nil without one).
	cmd      *exec.Cmd
	pid      int
	waitDone chan struct{}
	watchdog io.Closer

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
func (cn *conn) fail(reason string) { cn.failWith(reason, nil) }

// failWith is fail for a child that exited, with its last stderr lines.
func (cn *conn) failWith(reason string, stderr []string) {
	cn.deadOnce.Do(func() {
		cn.reason, cn.stderrLines = reason, stderr
		close(cn.dead)
	})
}

// why is the reason the connection failed, with the child's last stderr
// lines when it exited (for the state, the log and a failed handshake).
// Only after dead is closed.
func (cn *conn) why() string { return withStderr(cn.reason, cn.stderrLines) }

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

// child is a started stdio child: its pipes and the result of Wait.
type child struct {
	cmd      *exec.Cmd
	inW      io.WriteCloser // the child's stdin
	outR     io.ReadCloser  // the child's stdout
	waited   <-chan error   // Wait's result, once
	stderrR  *os.File       // Started's stderr pipe, read once a logger is known (nil otherwise)
	watchdog io.Closer
}

// spawn starts cfg's command in its own process group on two OS pipes,
// its stderr going to stderr. stdout is a plain pipe (not
// cmd.StdoutPipe), so Wait never closes it under the read loop and the
// child's last lines are read. On Linux, Start and Wait run on one
// goroutine that holds its OS thread until the child is reaped: the
// parent-death signal is tied to the thread that forked the child.
func spawn(cfg Config, target string, stderr io.Writer) (*child, error) {
	// Not CommandContext: cancelling would only kill the direct child.
	// Shutdown signals the whole process group instead (closeConn).
	cmd := exec.Command(cfg.Command, cfg.Args...) //nolint:noctx // the process group is stopped by closeConn
	cmd.Dir = cfg.Dir
	cmd.Env = append(os.Environ(), cfg.Env...)
	setProcessGroup(cmd)
	// Bounds Wait if a grandchild keeps the inherited stderr pipe open.
	cmd.WaitDelay = time.Second
	cmd.Stderr = stderr
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: stdin pipe: %w", target, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start %s: stdout pipe: %w", target, err)
	}
	widenPipe(outR)
	cmd.Stdin, cmd.Stdout = inR, outW
	started, waited := make(chan error, 1), make(chan error, 1)
	go func() {
		if childNeedsLockedThread {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
		}
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		waited <- cmd.Wait()
	}()
	err = <-started
	// The child holds its own copies now.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("start %s: %w", target, err)
	}
	return &child{cmd: cmd, inW: inW, outR: outR, waited: waited}, nil
}

// Started is a stdio upstream started before its Client runs (Start), so
// the child boots while genui opens its log, loads its cache and starts
// its listeners. Config.Started hands it to the Client, whose first
// connection uses it.
type Started struct {
	ch   *child
	mu   sync.Mutex
	used bool
}

// Start starts cfg's stdio command now; nil (and no error) for other
// transports. Its stderr waits in a pipe until the Client's logger (or
// Config.Stderr) takes it over. Stop it if no Client ever runs with it.
func Start(cfg Config) (*Started, error) {
	if cfg.Transport == "" && cfg.Command != "" {
		cfg.Transport = TransportStdio
	}
	if cfg.Transport != TransportStdio || strings.TrimSpace(cfg.Command) == "" {
		return nil, nil
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ch, err := spawn(cfg, target(cfg), errW)
	errW.Close() // the child holds its copy
	if err != nil {
		errR.Close()
		return nil, err
	}
	ch.stderrR = errR
	// If genui dies before a Client takes the child (SIGKILL), the
	// watchdog stops its process group.
	ch.watchdog = startWatchdog(ch.cmd.Process.Pid, slog.New(slog.DiscardHandler))
	return &Started{ch: ch}, nil
}

// take hands the child over once.
func (st *Started) take() *child {
	if st == nil {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.used {
		return nil
	}
	st.used = true
	return st.ch
}

// Stop ends a child no Client took (its whole process group).
func (st *Started) Stop() {
	ch := st.take()
	if ch == nil {
		return
	}
	pid := ch.cmd.Process.Pid
	_ = signalGroup(pid, sigKill)
	ch.inW.Close()
	ch.outR.Close()
	if ch.stderrR != nil {
		ch.stderrR.Close()
	}
	<-ch.waited
	if ch.watchdog != nil {
		_ = ch.watchdog.Close()
	}
}

// dialStdio starts the child (or takes the one Start started), wired to a
// lineLink over two OS pipes.
func (c *Client) dialStdio(cn *conn) error {
	// An *os.File is handed to the child as is; any other writer gets a
	// copy goroutine from os/exec, which must never stop draining.
	// The last lines also go to the connection's stderr tail (the reason
	// it failed quotes them); a copy goroutine therefore always runs, and
	// it must never stop draining (drainWriter).
	tail := &stderrTail{}
	var stderr io.Writer
	switch w := c.cfg.Stderr.(type) {
	case nil:
		stderr = io.MultiWriter(tail, newLineLogger(c.log))
	default:
		stderr = &drainWriter{w: io.MultiWriter(tail, w), log: c.log}
	}
	// copied is closed when the child's whole stderr has been read (Wait
	// waits for os/exec's copy; Started's pipe has a copy of our own).
	var copied <-chan struct{}
	ch := c.cfg.Started.take()
	if ch != nil {
		// Started's stderr pipe now drains into the logger or the writer.
		done := make(chan struct{})
		copied = done
		go func() {
			defer close(done)
			_, _ = io.Copy(stderr, ch.stderrR)
			ch.stderrR.Close()
		}()
		c.log.Debug("upstream started ahead of the engine", "pid", ch.cmd.Process.Pid)
	} else {
		var err error
		if ch, err = spawn(c.cfg, c.target, stderr); err != nil {
			return err
		}
		// If genui dies without stopping it (SIGKILL), the watchdog stops the
		// child's whole process group.
		ch.watchdog = startWatchdog(ch.cmd.Process.Pid, c.log)
	}
	cn.cmd, cn.pid = ch.cmd, ch.cmd.Process.Pid
	cn.watchdog = ch.watchdog
	cn.waitDone = make(chan struct{})
	go func() {
		err := <-ch.waited
		close(cn.waitDone)
		if copied != nil {
			// The last lines may still be in the pipe (a grandchild holding
			// it open only delays the reason this long).
			waitClosed(copied, stderrSettle)
		}
		reason := "upstream exited (exit status 0)"
		if err != nil {
			reason = fmt.Sprintf("upstream exited (%v)", err)
		}
		cn.failWith(reason, tail.Lines())
	}()
	c.startLineLink(cn, ch.outR, ch.inW, []io.Closer{ch.inW, ch.outR})
	return nil
}

// dialInProcess runs the in-process server on a pair of io.Pipes, wired to
// a lineLink.
func (c *Client) dialInProcess(cn *conn) error {
	clientR, serverW := io.Pipe() // server -> client
	serverR, clientW := io.Pipe() // client -> server
	// Closing the server's ends on shutdown gives the client's read loop a
	// clean EOF and fails any server read or write still pending.
	cn.pipes = []io.Closer{serverW, serverR}
	c.startLineLink(cn, clientR, clientW, []io.Closer{clientW, clientR})
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
	return nil
}

// startLineLink connects cn to a lineLink on r/w and starts its read loop.
// When the loop ends, an over-long line fails the connection at once; EOF
// or a read error fails it unless the process exit (or in-process server
// stop) reports a better reason within a second.
func (c *Client) startLineLink(cn *conn, r io.Reader, w io.Writer, closers []io.Closer) {
	l := newLineLink(r, w, closers, c.maxLine, c.log)
	l.tracer = c.currentTracer()
	l.onNotify = c.queue.push
	l.onRequest = c.lineRequestHandler(cn)
	l.onEnd = func(err error) {
		var tooLong *lineTooLongError
		if errors.As(err, &tooLong) {
			c.log.Error("upstream connection dropped", "err", err)
			cn.fail(err.Error() + "; dropping the connection")
			return
		}
		go func() {
			if !waitClosed(cn.dead, time.Second) {
				cn.fail(fmt.Sprintf("upstream connection broken (%s)", readEndReason(err)))
			}
		}()
	}
	c.hookAsync(cn, l)
	cn.link = l
	l.start()
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
	opts := []transport.StreamableHTTPCOption{
		transport.WithHTTPHeaders(c.cfg.Headers),
		transport.WithContinuousListening(),
		transport.WithHTTPLogger(c.log),
	}
	if c.auth != nil {
		opts = append(opts, transport.WithHTTPHeaderFunc(c.auth.header),
			transport.WithHTTPBasicClient(&http.Client{Transport: challengeRecorder{c.auth, http.DefaultTransport}}))
	}
	h, err := transport.NewStreamableHTTP(c.cfg.URL, opts...)
	if err != nil {
		return fmt.Errorf("upstream URL: %w", err)
	}
	c.attach(h)
	h.SetRequestHandler(c.mcpRequestHandler(cn))
	cn.tr, cn.link = h, mcpLink{h, c.currentTracer(), c.auth, cn}
	if err := startTransport(cn, h); err != nil {
		return fmt.Errorf("connect %s: %w", c.target, err)
	}
	return nil
}

func (c *Client) dialSSE(cn *conn) error {
	opts := []transport.ClientOption{
		transport.WithHeaders(c.cfg.Headers),
		transport.WithSSELogger(c.log),
		// Requests are bounded by their own contexts (RequestTimeout); the
		// transport's 60 s default would cut long tool calls short.
		transport.WithResponseTimeout(24 * time.Hour),
		transport.WithEndpointTimeout(initTimeout),
	}
	if c.auth != nil {
		opts = append(opts, transport.WithHeaderFunc(c.auth.header),
			transport.WithHTTPClient(&http.Client{Transport: challengeRecorder{c.auth, http.DefaultTransport}}))
	}
	s, err := transport.NewSSE(c.cfg.URL, opts...)
	if err != nil {
		return fmt.Errorf("upstream URL: %w", err)
	}
	c.attach(s)
	s.SetConnectionLostHandler(func(err error) {
		cn.fail(fmt.Sprintf("upstream SSE stream closed (%v)", err))
	})
	cn.tr, cn.link = s, mcpLink{s, c.currentTracer(), c.auth, cn}
	if err := startTransport(cn, s); err != nil {
		return fmt.Errorf("connect %s: %w", c.target, err)
	}
	return nil
}

// attach routes an mcp-go transport's notifications into the ordered queue.
// The callback runs on the transport's read loop, so it only enqueues.
func (c *Client) attach(tr transport.Interface) {
	tr.SetNotificationHandler(func(n mcp.JSONRPCNotification) {
		params := fromNotificationParams(n.Params)
		if t := tracing(c.currentTracer()); t != nil {
			t.Frame(false, jsonrpc.NewNotification(n.Method, params))
		}
		c.queue.push(n.Method, params)
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
			c.log.Error("upstream process did not exit after SIGKILL", "pid", pid)
		}
		if cn.watchdog != nil {
			_ = cn.watchdog.Close() // the group is gone: the watchdog exits
		}
		closeBounded(c, cn.link)
	case cn.waitDone != nil: // in-process
		closeBounded(c, cn.link)
		for _, p := range cn.pipes {
			_ = p.Close()
		}
		if !waitClosed(cn.waitDone, termGrace) {
			c.log.Error("in-process upstream did not stop within the grace period")
		}
	default:
		closeBounded(c, cn.link)
	}
}

// closeBounded closes l, giving up (with a log line) after 6 s; the HTTP
// transport's Close sends a DELETE bounded at 5 s.
func closeBounded(c *Client, l link) {
	if l == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := l.close(); err != nil {
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
