package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// This file is a small stdio transport instead of mcp-go's StdioServer,
// which keeps its one session in a package variable: two servers in one
// process (the in-process demo plus a test, say) would share a notification
// channel and read each other's progress. It also writes notifications
// and responses from different goroutines, so a progress notification could
// arrive after the result it belongs to. Here every ServeStdio call has its
// own session, and one goroutine writes all frames in order.

// ServeStdio serves NewServer() as newline-delimited JSON-RPC over r and w
// until ctx ends or r hits EOF. Only JSON-RPC frames, one per line, are
// written to w; nothing is logged.
//
// On EOF it waits for requests in flight, writes their responses and
// returns nil. When ctx ends it cancels requests in flight, stops writing
// and returns ctx.Err(). A failed write to w ends serving with that error.
// A Read on r that is blocked when ServeStdio returns stays blocked until r
// yields data or an error; closing r (an io.Pipe, say) releases it.
func ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	return serve(ctx, NewServer(), r, w)
}

func serve(parent context.Context, srv *server.MCPServer, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()

	sess := newSession("stdio")
	if err := srv.RegisterSession(ctx, sess); err != nil {
		return fmt.Errorf("demo: register stdio session: %w", err)
	}
	defer srv.UnregisterSession(context.Background(), sess.SessionID())

	out := newFrameWriter(ctx, w, sess.notes)
	go out.run()

	c := &conn{
		srv:       srv,
		ctx:       srv.WithContext(ctx, sess),
		out:       out,
		inflight:  make(map[string]bool),
		cancelled: make(map[string]bool),
	}

	lines := make(chan []byte)
	readErr := make(chan error, 1)
	stopRead := make(chan struct{})
	defer close(stopRead)
	go func() {
		fr := jsonrpc.NewFrameReader(r, 0)
		for {
			line, err := fr.ReadFrame()
			if jsonrpc.IsFrameTooLarge(err) {
				continue // the line was skipped; a client that sends 32 MiB gets no answer
			}
			if err != nil {
				readErr <- err
				return
			}
			select {
			case lines <- bytes.Clone(line):
			case <-stopRead:
				return
			}
		}
	}()

	for {
		select {
		case <-parent.Done():
			cancel()
			c.wg.Wait()
			<-out.done
			return parent.Err()
		case <-out.done:
			// Writing failed (or ctx ended); nobody can hear us any more.
			cancel()
			c.wg.Wait()
			if err := parent.Err(); err != nil {
				return err
			}
			return out.err
		case err := <-readErr:
			c.wg.Wait()
			out.finish()
			<-out.done
			if out.err != nil {
				return out.err
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			if parent.Err() != nil {
				return parent.Err()
			}
			return fmt.Errorf("demo: read: %w", err)
		case line := <-lines:
			c.dispatch(line)
		}
	}
}

// conn routes incoming frames to the server.
type conn struct {
	srv *server.MCPServer
	ctx context.Context // carries the session
	out *frameWriter
	wg  sync.WaitGroup // requests in flight

	mu        sync.Mutex
	inflight  map[string]bool // canonical request id -> running
	cancelled map[string]bool // ids cancelled by notifications/cancelled
}

type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Params json.RawMessage `json:"params"`
}

// cancelledID returns the canonical requestId of a notifications/cancelled
// frame, or "" when there is none.
func (e *envelope) cancelledID() string {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(e.Params, &p) != nil || len(p.RequestID) == 0 {
		return ""
	}
	return canonicalID(p.RequestID)
}

func (c *conn) dispatch(line []byte) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		c.out.send(errorFrame(nil, mcp.PARSE_ERROR, "Parse error: not valid JSON"))
		return
	}
	var env envelope
	if line[0] != '{' || json.Unmarshal(line, &env) != nil {
		c.out.send(errorFrame(nil, mcp.INVALID_REQUEST, "Invalid request: expected a JSON-RPC object"))
		return
	}
	if env.Method == nil {
		// A response, but this server sends no requests: ignore it.
		return
	}
	if len(env.ID) == 0 || bytes.Equal(env.ID, []byte("null")) {
		// Notification: handle in order, no response.
		if *env.Method == string(mcp.MethodNotificationCancelled) {
			if id := env.cancelledID(); id != "" {
				c.markCancelled(id)
			}
		}
		c.handle(line, nil)
		return
	}
	id := canonicalID(env.ID)
	c.mu.Lock()
	c.inflight[id] = true
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		frame := c.handle(line, env.ID)
		c.mu.Lock()
		dropped := c.cancelled[id]
		delete(c.inflight, id)
		delete(c.cancelled, id)
		c.mu.Unlock()
		// The spec says not to answer a cancelled request.
		if frame != nil && !dropped {
			c.out.send(frame)
		}
	}()
}

func (c *conn) markCancelled(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inflight[id] {
		c.cancelled[id] = true
	}
}

// handle runs one frame through the server and returns the encoded
// response, or nil when there is none. id is the raw request id (nil for a
// notification); a panic becomes an internal error for that id.
func (c *conn) handle(line []byte, id json.RawMessage) (frame []byte) {
	defer func() {
		if p := recover(); p != nil {
			frame = nil
			if id != nil {
				frame = errorFrame(id, mcp.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", p))
			}
		}
	}()
	resp := c.srv.HandleMessage(c.ctx, json.RawMessage(line))
	if resp == nil || id == nil {
		return nil
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return errorFrame(id, mcp.INTERNAL_ERROR, "internal error: encode response: "+err.Error())
	}
	return b
}

func errorFrame(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return b
}

// canonicalID makes equal JSON ids compare equal as strings.
func canonicalID(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// frameWriter owns w. Responses and notifications reach it on channels; it
// writes each as one line. Before writing a response it first writes every
// notification already queued, so notifications a handler sent (progress,
// say) always precede that handler's response.
type frameWriter struct {
	ctx    context.Context
	w      *jsonrpc.FrameWriter
	notes  <-chan mcp.JSONRPCNotification
	frames chan []byte
	flush  chan struct{} // closed to write what is queued and stop
	once   sync.Once
	done   chan struct{} // closed when run returns
	err    error         // first write error; read after done
}

func newFrameWriter(ctx context.Context, w io.Writer, notes <-chan mcp.JSONRPCNotification) *frameWriter {
	return &frameWriter{
		ctx:    ctx,
		w:      jsonrpc.NewFrameWriter(w),
		notes:  notes,
		frames: make(chan []byte),
		flush:  make(chan struct{}),
		done:   make(chan struct{}),
	}
}

// send queues a frame; it gives up once the writer has stopped.
func (fw *frameWriter) send(frame []byte) {
	select {
	case fw.frames <- frame:
	case <-fw.done:
	}
}

// finish asks the writer to write queued notifications and stop.
func (fw *frameWriter) finish() { fw.once.Do(func() { close(fw.flush) }) }

func (fw *frameWriter) run() {
	defer close(fw.done)
	for {
		select {
		case <-fw.ctx.Done():
			return
		case n := <-fw.notes:
			if !fw.writeNote(n) {
				return
			}
		case f := <-fw.frames:
			if !fw.drainNotes() || !fw.write(f) {
				return
			}
		case <-fw.flush:
			fw.drainNotes()
			return
		}
	}
}

func (fw *frameWriter) drainNotes() bool {
	for {
		select {
		case n := <-fw.notes:
			if !fw.writeNote(n) {
				return false
			}
		default:
			return true
		}
	}
}

func (fw *frameWriter) writeNote(n mcp.JSONRPCNotification) bool {
	b, err := json.Marshal(n)
	if err != nil {
		return true // drop a notification that cannot be encoded
	}
	return fw.write(b)
}

func (fw *frameWriter) write(frame []byte) bool {
	if fw.ctx.Err() != nil {
		return false
	}
	if err := fw.w.WriteFrame(frame); err != nil {
		fw.err = fmt.Errorf("demo: write: %w", err)
		return false
	}
	return true
}

// session is one stdio client's state.
type session struct {
	id          string
	notes       chan mcp.JSONRPCNotification
	initialized atomic.Bool
	clientInfo  atomic.Value // mcp.Implementation
	clientCaps  atomic.Value // mcp.ClientCapabilities
	protocol    atomic.Value // string
}

func newSession(id string) *session {
	return &session{id: id, notes: make(chan mcp.JSONRPCNotification, 256)}
}

func (s *session) SessionID() string                                   { return s.id }
func (s *session) Initialize()                                         { s.initialized.Store(true) }
func (s *session) Initialized() bool                                   { return s.initialized.Load() }
func (s *session) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.notes }

func (s *session) GetClientInfo() mcp.Implementation {
	v, _ := s.clientInfo.Load().(mcp.Implementation)
	return v
}
func (s *session) SetClientInfo(v mcp.Implementation) { s.clientInfo.Store(v) }

func (s *session) GetClientCapabilities() mcp.ClientCapabilities {
	v, _ := s.clientCaps.Load().(mcp.ClientCapabilities)
	return v
}
func (s *session) SetClientCapabilities(v mcp.ClientCapabilities) { s.clientCaps.Store(v) }

func (s *session) ProtocolVersion() string {
	v, _ := s.protocol.Load().(string)
	return v
}
func (s *session) SetProtocolVersion(v string) { s.protocol.Store(v) }

var (
	_ server.ClientSession              = (*session)(nil)
	_ server.SessionWithClientInfo      = (*session)(nil)
	_ server.SessionWithProtocolVersion = (*session)(nil)
)
