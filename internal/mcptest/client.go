// Package mcptest is a small raw JSON-RPC 2.0 client for MCP servers that
// speak stdio. Tests and the benchmark use it to drive real subprocesses
// (genui, upstream servers) byte for byte: every byte the child writes on
// stdout is recorded so a test can prove that stdout carries JSON-RPC frames
// and nothing else, payloads stay json.RawMessage, and malformed input can be
// written on purpose with WriteLine.
//
// Every wait is bounded by a context. The child runs in its own process
// group; Close kills the whole group.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// RequestHandler answers a server-to-client request (sampling/createMessage,
// elicitation/create, roots/list, ping, ...). It runs on its own goroutine;
// ctx ends when the client closes. Return a result or a JSON-RPC error.
type RequestHandler func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error)

// Option configures Start.
type Option func(*Client)

// WithRequestHandler installs h for server-to-client requests. Without it the
// client answers "ping" with {} and everything else with "method not found".
func WithRequestHandler(h RequestHandler) Option { return func(c *Client) { c.handler = h } }

// WithCloseGrace sets how long Close waits for the child to exit on its own
// after stdin is closed before it kills the process group (default 2 s).
func WithCloseGrace(d time.Duration) Option { return func(c *Client) { c.grace = d } }

// Client is a live stdio session with one child process.
type Client struct {
	cmd     *exec.Cmd
	stdin   *os.File
	handler RequestHandler
	grace   time.Duration

	writeMu sync.Mutex
	nextID  atomic.Int64

	mu        sync.Mutex
	pending   map[string]chan *jsonrpc.Message
	raw       bytes.Buffer       // every byte read from the child's stdout
	received  []*jsonrpc.Message // every frame that parsed, in order
	badLines  [][]byte           // lines that did not parse as JSON-RPC
	changed   chan struct{}      // closed and replaced whenever received grows
	readErr   error              // why the read loop stopped
	stderr    bytes.Buffer
	closeOnce sync.Once

	ctx      context.Context // ends on Close; bounds request handlers
	cancel   context.CancelFunc
	readDone chan struct{} // read loop finished (stdout EOF or error)
	exited   chan struct{} // child process reaped
	waitErr  error         // cmd.Wait result, valid after exited is closed
}

// Start starts cmd with stdin/stdout pipes, its own process group and stderr
// collected into a buffer (see Stderr). cmd must not have Stdin, Stdout or
// Stderr set. When ctx ends, the client is closed (the group is killed).
func Start(ctx context.Context, cmd *exec.Cmd, opts ...Option) (*Client, error) {
	if cmd.Stdin != nil || cmd.Stdout != nil || cmd.Stderr != nil {
		return nil, errors.New("mcptest: cmd must not have Stdin, Stdout or Stderr set")
	}
	c := &Client{
		cmd:      cmd,
		grace:    2 * time.Second,
		pending:  map[string]chan *jsonrpc.Message{},
		changed:  make(chan struct{}),
		readDone: make(chan struct{}),
		exited:   make(chan struct{}),
	}
	for _, o := range opts {
		o(c)
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("mcptest: stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("mcptest: stdout pipe: %w", err)
	}
	cmd.Stdin = inR
	cmd.Stdout = outW
	cmd.Stderr = &lockedWriter{mu: &c.mu, buf: &c.stderr}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	// Bound Wait even if a grandchild keeps the stderr pipe open.
	cmd.WaitDelay = 2 * time.Second

	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("mcptest: start %s: %w", cmd.Path, err)
	}
	// The child holds its own copies now.
	inR.Close()
	outW.Close()
	c.stdin = inW

	go c.readLoop(outR)
	go func() {
		err := cmd.Wait()
		c.mu.Lock()
		c.waitErr = err
		c.mu.Unlock()
		close(c.exited)
	}()
	go func() {
		select {
		case <-ctx.Done():
			c.Close()
		case <-c.ctx.Done():
		}
	}()
	return c, nil
}

// Pid is the child's process id (also its process group id).
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// Exited is closed once the child process has exited and been reaped.
func (c *Client) Exited() <-chan struct{} { return c.exited }

// ExitErr is cmd.Wait's result; valid after Exited is closed.
func (c *Client) ExitErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waitErr
}

// Stderr returns everything the child wrote on stderr so far.
func (c *Client) Stderr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// Stdout returns a copy of every byte the child wrote on stdout so far.
func (c *Client) Stdout() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.raw.Bytes())
}

// Messages returns every frame received so far, in arrival order.
func (c *Client) Messages() []*jsonrpc.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*jsonrpc.Message(nil), c.received...)
}

// Notifications returns every notification received so far, in order.
func (c *Client) Notifications() []*jsonrpc.Message {
	var out []*jsonrpc.Message
	for _, m := range c.Messages() {
		if m.IsNotification() {
			out = append(out, m)
		}
	}
	return out
}

// WaitMessage returns the first received frame (past or future) for which
// pred is true, or ctx's error, or an error once the child's stdout closed
// without a match.
func (c *Client) WaitMessage(ctx context.Context, pred func(*jsonrpc.Message) bool) (*jsonrpc.Message, error) {
	seen := 0
	for {
		c.mu.Lock()
		msgs := c.received[seen:]
		seen = len(c.received)
		changed := c.changed
		c.mu.Unlock()
		for _, m := range msgs {
			if pred(m) {
				return m, nil
			}
		}
		select {
		case <-changed:
		case <-c.readDone:
			// Drain anything that arrived with the final read.
			c.mu.Lock()
			msgs := c.received[seen:]
			c.mu.Unlock()
			for _, m := range msgs {
				if pred(m) {
					return m, nil
				}
			}
			return nil, fmt.Errorf("mcptest: server stdout closed while waiting: %w", c.closedErr())
		case <-ctx.Done():
			return nil, fmt.Errorf("mcptest: waiting for message: %w", ctx.Err())
		}
	}
}

// WaitNotification returns the first notification (past or future) with the
// given method for which pred is true; pred may be nil.
func (c *Client) WaitNotification(ctx context.Context, method string, pred func(params json.RawMessage) bool) (*jsonrpc.Message, error) {
	return c.WaitMessage(ctx, func(m *jsonrpc.Message) bool {
		return m.IsNotification() && m.Method == method && (pred == nil || pred(m.Params))
	})
}

// Initialize performs the MCP handshake: the initialize request with the
// given protocol version and client capabilities (nil means {}), then the
// notifications/initialized notification. It returns the raw result.
func (c *Client) Initialize(ctx context.Context, protocolVersion string, capabilities json.RawMessage) (json.RawMessage, error) {
	if len(capabilities) == 0 {
		capabilities = json.RawMessage("{}")
	}
	params := map[string]any{
		"protocolVersion": protocolVersion,
		"capabilities":    capabilities,
		"clientInfo":      map[string]string{"name": "genui-mcptest", "version": "0.0.0"},
	}
	res, rpcErr, err := c.Request(ctx, "initialize", params)
	if err != nil {
		return nil, err
	}
	if rpcErr != nil {
		return nil, fmt.Errorf("mcptest: initialize: %w", rpcErr)
	}
	if err := c.Notify("notifications/initialized", nil); err != nil {
		return nil, err
	}
	return res, nil
}

// Request sends a request and waits for its response. params is marshalled
// with encoding/json (a json.RawMessage is sent as is; nil sends no params).
// A JSON-RPC error response is returned as the second value with a nil error;
// the error return is for transport failures and ctx.
func (c *Client) Request(ctx context.Context, method string, params any) (json.RawMessage, *jsonrpc.Error, error) {
	resp, err := c.RequestMessage(ctx, method, params)
	if err != nil {
		return nil, nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error, nil
	}
	return resp.Result, nil, nil
}

// RequestMessage is Request returning the whole response frame.
func (c *Client) RequestMessage(ctx context.Context, method string, params any) (*jsonrpc.Message, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, err
	}
	id := json.RawMessage(strconv.FormatInt(c.nextID.Add(1), 10))
	ch := make(chan *jsonrpc.Message, 1)
	c.mu.Lock()
	if c.readErr != nil {
		err := c.readErr
		c.mu.Unlock()
		return nil, fmt.Errorf("mcptest: %s: server stdout closed: %w", method, err)
	}
	c.pending[string(id)] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, string(id))
		c.mu.Unlock()
	}()

	if err := c.WriteLine(jsonrpc.NewRequest(id, method, raw)); err != nil {
		return nil, err
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("mcptest: %s: server stdout closed before the response: %w", method, c.closedErr())
		}
		return resp, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("mcptest: %s: waiting for response: %w", method, ctx.Err())
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return err
	}
	return c.WriteLine(jsonrpc.NewNotification(method, raw))
}

// WriteLine writes b followed by a newline to the child's stdin, unchanged.
// Use it for malformed-input tests; b must not contain a newline.
func (c *Client) WriteLine(b []byte) error {
	if bytes.IndexByte(b, '\n') >= 0 {
		return errors.New("mcptest: WriteLine: frame contains a newline")
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := jsonrpc.NewFrameWriter(c.stdin).WriteFrame(b); err != nil {
		return fmt.Errorf("mcptest: write to server stdin: %w", err)
	}
	return nil
}

// CloseStdin closes the child's stdin (end of session) without killing it.
func (c *Client) CloseStdin() error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.stdin.Close()
}

// Close ends the session: it closes stdin, gives the child the grace period
// to exit, then kills its whole process group (always, so grandchildren die
// too) and waits, bounded, for the process to be reaped and stdout drained.
// It returns an error only if the child could not be reaped.
func (c *Client) Close() error {
	var err error
	c.closeOnce.Do(func() {
		_ = c.CloseStdin()
		select {
		case <-c.exited:
		case <-time.After(c.grace):
		}
		// Negative pid: the whole process group. ESRCH just means it is gone.
		_ = syscall.Kill(-c.Pid(), syscall.SIGKILL)
		select {
		case <-c.exited:
		case <-time.After(5 * time.Second):
			err = fmt.Errorf("mcptest: pid %d not reaped 5 s after SIGKILL", c.Pid())
		}
		select {
		case <-c.readDone:
		case <-time.After(2 * time.Second):
			if err == nil {
				err = errors.New("mcptest: stdout still open 2 s after the process group was killed")
			}
		}
		c.cancel()
	})
	return err
}

// CheckStdout verifies that everything the child wrote on stdout so far is a
// sequence of newline-terminated JSON-RPC 2.0 frames (requests, notifications
// or responses with exactly one of result/error). It reports every violation.
func (c *Client) CheckStdout() error {
	return CheckFrames(c.Stdout())
}

// CheckFrames is CheckStdout for a given byte stream.
func CheckFrames(out []byte) error {
	var errs []error
	lines := bytes.SplitAfter(out, []byte("\n"))
	for i, line := range lines {
		if len(line) == 0 {
			continue
		}
		if line[len(line)-1] != '\n' {
			errs = append(errs, fmt.Errorf("line %d: unterminated trailing output %q", i+1, clip(line)))
			continue
		}
		if err := checkFrame(bytes.TrimRight(line, "\r\n")); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w: %q", i+1, err, clip(line)))
		}
	}
	return errors.Join(errs...)
}

func checkFrame(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	m, err := jsonrpc.Parse(b)
	if err != nil {
		return err
	}
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	switch {
	case m.Method != "":
		if hasResult || hasError {
			return errors.New("request/notification carries result or error")
		}
	case hasResult == hasError:
		return errors.New("response must have exactly one of result and error")
	case hasError && (m.Error == nil || m.Error.Message == ""):
		return errors.New("error response without code/message")
	}
	return nil
}

// BadLines returns the stdout lines that did not parse as JSON-RPC frames.
func (c *Client) BadLines() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.badLines...)
}

func (c *Client) readLoop(r io.ReadCloser) {
	defer r.Close()
	// Every byte read is kept (Raw) for stdout-hygiene checks; frames are
	// split by the same reader genui itself uses.
	fr := jsonrpc.NewFrameReader(io.TeeReader(r, &lockedWriter{mu: &c.mu, buf: &c.raw}), 1<<30)
	var err error
	for {
		var line []byte
		if line, err = fr.ReadFrame(); err != nil {
			break
		}
		c.handleLine(bytes.Clone(line))
	}
	if errors.Is(err, io.EOF) {
		err = io.EOF
	}
	c.mu.Lock()
	c.readErr = err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
	close(c.readDone)
}

func (c *Client) handleLine(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	m, err := jsonrpc.Parse(line)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.badLines = append(c.badLines, bytes.Clone(line))
		return
	}
	c.received = append(c.received, m)
	close(c.changed)
	c.changed = make(chan struct{})
	switch {
	case m.IsResponse():
		if ch, ok := c.pending[string(m.ID)]; ok {
			ch <- m
			delete(c.pending, string(m.ID))
		}
	case m.IsRequest():
		go c.answer(m)
	}
}

// answer replies to a server-to-client request.
func (c *Client) answer(m *jsonrpc.Message) {
	var res json.RawMessage
	var rpcErr *jsonrpc.Error
	switch {
	case c.handler != nil:
		res, rpcErr = c.handler(c.ctx, m.Method, m.Params)
	case m.Method == "ping":
		res = json.RawMessage("{}")
	default:
		rpcErr = jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "mcptest: client does not handle %s", m.Method)
	}
	var frame []byte
	if rpcErr != nil {
		frame = jsonrpc.NewErrorResponse(m.ID, rpcErr)
	} else {
		frame = jsonrpc.NewResult(m.ID, res)
	}
	// The server may be gone already; nothing useful to do with the error.
	_ = c.WriteLine(frame)
}

func (c *Client) closedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.readErr == nil {
		return errors.New("unknown")
	}
	return fmt.Errorf("%w (stderr: %s)", c.readErr, clip(c.stderr.Bytes()))
}

func marshalParams(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("mcptest: marshal params: %w", err)
		}
		return b, nil
	}
}

// clip shortens b for error messages.
func clip(b []byte) string {
	const max = 300
	if len(b) > max {
		return string(b[:max]) + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return string(b)
}

// lockedWriter appends to buf under mu (the child's stderr copier runs on its
// own goroutine).
type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}
