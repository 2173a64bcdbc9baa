package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// MaxBodyBytes bounds one HTTP request body.
const MaxBodyBytes = 16 << 20

const sessionHeader = "Mcp-Session-Id"

// sseWriter writes server-sent events to one response, one at a time.
type sseWriter struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	rc     *http.ResponseController
	closed bool
	// timeout bounds one write (default sseWriteTimeout).
	timeout time.Duration
}

func newSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	return &sseWriter{w: w, rc: http.NewResponseController(w)}
}

func (s *sseWriter) event(name string, data []byte) error { return s.eventWithID("", name, data) }

// eventWithID writes one event; id, when set, is its SSE id (resumption).
func (s *sseWriter) eventWithID(id, name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("stream closed")
	}
	var buf bytes.Buffer
	if id != "" {
		fmt.Fprintf(&buf, "id: %s\n", id)
	}
	if name != "" {
		fmt.Fprintf(&buf, "event: %s\n", name)
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		buf.WriteString("data: ")
		buf.Write(line)
		buf.WriteByte('\n')
	}
	buf.WriteByte('\n')
	return s.writeLocked(buf.Bytes())
}

// sseWriteTimeout bounds one SSE write: a client that stopped reading must
// not block the goroutine that delivers every session's notifications.
const sseWriteTimeout = 5 * time.Second

// writeLocked writes and flushes b within its timeout; a failed or
// timed-out write closes the stream for good.
func (s *sseWriter) writeLocked(b []byte) error {
	d := s.timeout
	if d <= 0 {
		d = sseWriteTimeout
	}
	_ = s.rc.SetWriteDeadline(time.Now().Add(d))
	_, err := s.w.Write(b)
	if err == nil {
		err = s.rc.Flush()
	}
	if err != nil {
		s.closed = true
	}
	return err
}

// prime writes an event with an id and empty data: the client records the
// id (to resume from) and dispatches nothing.
func (s *sseWriter) prime(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("stream closed")
	}
	return s.writeLocked([]byte("id: " + id + "\ndata: \n\n"))
}

func (s *sseWriter) comment(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("stream closed")
	}
	return s.writeLocked([]byte(": " + text + "\n\n"))
}

func (s *sseWriter) Send(frame []byte) error { return s.event("message", frame) }

func (s *sseWriter) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// RegisterHTTP adds the MCP endpoints to mux: streamable HTTP at /mcp and the
// legacy HTTP+SSE transport at /sse + /message.
// Browser hosts on other loopback origins (a web host page on its own port,
// like the ext-apps basic-host) and on Options.AllowedOrigins may use every
// endpoint: preflights are answered and responses carry CORS headers for
// those origins only.
func (s *Server) RegisterHTTP(mux *http.ServeMux) {
	mux.HandleFunc("POST /mcp", s.withCORS(s.handlePost))
	mux.HandleFunc("GET /mcp", s.withCORS(s.handleGetStream))
	mux.HandleFunc("DELETE /mcp", s.withCORS(s.handleDelete))
	mux.HandleFunc("GET /sse", s.withCORS(s.handleLegacySSE))
	mux.HandleFunc("POST /message", s.withCORS(s.handleLegacyMessage))
	for _, p := range []string{"/mcp", "/sse", "/message"} {
		mux.HandleFunc("OPTIONS "+p, s.preflight)
	}
}

func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func writeJSONError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(jsonrpc.NewErrorResponse(id, &jsonrpc.Error{Code: code, Message: msg}))
}

func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeJSONError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("request body larger than %d bytes", MaxBodyBytes))
			return nil, false
		}
		writeJSONError(w, http.StatusBadRequest, nil, jsonrpc.CodeParseError, "reading body: "+err.Error())
		return nil, false
	}
	return body, true
}

// jsonContent refuses a body that is not Content-Type application/json
// with 415: other types make "simple" cross-site requests (no CORS
// preflight) possible.
func jsonContent(w http.ResponseWriter, r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/json" {
		writeJSONError(w, http.StatusUnsupportedMediaType, nil, jsonrpc.CodeInvalidRequest, "Content-Type must be application/json")
		return false
	}
	return true
}

func (s *Server) handlePost(w http.ResponseWriter, r *http.Request) {
	if !jsonContent(w, r) {
		return
	}
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		writeJSONError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported")
		return
	}
	msg, perr := jsonrpc.Parse(trimmed)
	if perr != nil {
		writeJSONError(w, http.StatusBadRequest, answerID(msg), jsonrpc.AsError(perr).Code, jsonrpc.AsError(perr).Message)
		return
	}
	if isModernRequest(msg) || (msg.Method != "initialize" && r.Header.Get("Mcp-Protocol-Version") >= modernVersion) {
		s.handleModernPost(w, r, msg, trimmed)
		return
	}
	sid := r.Header.Get(sessionHeader)
	var sess *Session
	ephemeral := false
	switch {
	case msg.Method == "initialize":
		var err error
		if sess, err = s.admitSession(nil); err != nil {
			writeSessionsFull(w, msg.ID, err)
			return
		}
		w.Header().Set(sessionHeader, sess.ID)
	case sid != "":
		var found bool
		if sess, found = s.Session(sid); !found {
			writeJSONError(w, http.StatusNotFound, msg.ID, jsonrpc.CodeInvalidRequest, "unknown or expired session; initialize again")
			return
		}
		if msg.IsRequest() {
			sess.markUsed()
		}
	case msg.IsRequest():
		// Stateless use (newest protocol, or a client that keeps no session).
		sess = s.NewSession(newSessionID(), nil)
		ephemeral = true
	default:
		writeJSONError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "missing "+sessionHeader+" header")
		return
	}
	if ephemeral {
		defer sess.Close()
	}
	if !msg.IsRequest() {
		sess.HandleFrame(r.Context(), trimmed, SenderFunc(func([]byte) error { return nil }))
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "text/event-stream") && msg.Method != "initialize" && !ephemeral {
		sess.servePostStream(w, r, trimmed)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "text/event-stream") && msg.Method != "initialize" {
		sw := newSSE(w)
		w.WriteHeader(http.StatusOK)
		sess.HandleFrame(r.Context(), trimmed, sw)
		sw.close()
		return
	}
	// Plain JSON: the response goes in the body; anything else the request
	// produces goes to the session stream.
	var resp []byte
	reply := SenderFunc(func(frame []byte) error {
		if m, err := jsonrpc.Parse(frame); err == nil && m.IsResponse() && string(m.ID) == string(msg.ID) {
			resp = frame
			return nil
		}
		// A plain-JSON response carries nothing but the response: other
		// frames go to the session's GET stream or fail (never back through
		// sendOrActive, whose newest in-flight route is this very reply).
		return sess.sendStream(frame)
	})
	sess.HandleFrame(r.Context(), trimmed, reply)
	if resp == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(resp)
}

// streamUntilDone keeps an SSE response open with keep-alives until the
// client leaves or the session ends.
func streamUntilDone(ctx context.Context, sess *Session, sw *sseWriter) {
	t := time.NewTicker(25 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sess.ctx.Done():
			return
		case <-t.C:
			if err := sw.comment("keep-alive"); err != nil {
				return
			}
		}
	}
}

func (s *Server) handleGetStream(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.Session(r.Header.Get(sessionHeader))
	if !ok {
		writeJSONError(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, "unknown or missing session")
		return
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		writeJSONError(w, http.StatusNotAcceptable, nil, jsonrpc.CodeInvalidRequest, "GET /mcp needs Accept: text/event-stream")
		return
	}
	if lei := r.Header.Get("Last-Event-ID"); lei != "" {
		sess.resumeStream(w, r, lei)
		return
	}
	sess.serveGetStream(w, r, nil, 0)
}

func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.Session(r.Header.Get(sessionHeader))
	if !ok {
		writeJSONError(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, "unknown or missing session")
		return
	}
	sess.Close()
	w.WriteHeader(http.StatusOK)
}

func (s *Server) handleLegacySSE(w http.ResponseWriter, r *http.Request) {
	sw := newSSE(w)
	sess, err := s.admitSession(sw)
	if err != nil {
		writeSessionsFull(w, nil, err)
		return
	}
	defer sess.Close()
	defer sw.close()
	w.WriteHeader(http.StatusOK)
	if err := sw.event("endpoint", []byte("/message?sessionId="+url.QueryEscape(sess.ID))); err != nil {
		return
	}
	streamUntilDone(r.Context(), sess, sw)
}

func (s *Server) handleLegacyMessage(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.Session(r.URL.Query().Get("sessionId"))
	if !ok {
		writeJSONError(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, "unknown sessionId")
		return
	}
	if !jsonContent(w, r) {
		return
	}
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	out := SenderFunc(func(b []byte) error { sess.send(b); return nil })
	if isRequestFrame(body) {
		sess.markUsed()
		go sess.HandleFrame(sess.ctx, body, out)
	} else {
		sess.HandleFrame(r.Context(), body, out)
	}
	w.WriteHeader(http.StatusAccepted)
}

func isLoopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
