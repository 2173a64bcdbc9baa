// Package httpapi is genui's HTTP side server. It listens on two loopback
// ports, like a real MCP Apps web host: the UI origin (ui-port) serves the
// generated HTML under /frame/{tool} with the CSP as an HTTP header, and the
// API origin (mcp-port) serves the preview host page, the agent side channel
// (/wait, /state, /variables, /api/...), server-sent engine events
// (/events) and MCP itself (/mcp, /sse + /message).
package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/events"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// MaxBodyBytes bounds request bodies of the API routes.
const MaxBodyBytes = 1 << 20

// Options configure a Server.
type Options struct {
	Engine *engine.Engine
	Host   *host.Server
	// Dir is genui's folder: port files go there, /api/resource serves
	// Dir/resources.
	Dir    string
	Logger *slog.Logger
}

// Server is the HTTP side server.
type Server struct {
	opts Options
	e    *engine.Engine
	h    *host.Server
	log  *slog.Logger

	api, ui *http.ServeMux
	// uiBase and apiBase are the origins once listening (http://127.0.0.1:N).
	uiBase, apiBase string
}

// New builds the side server; nothing listens until Serve.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{opts: opts, e: opts.Engine, h: opts.Host, log: opts.Logger,
		api: http.NewServeMux(), ui: http.NewServeMux()}
	s.routes()
	return s
}

func (s *Server) routes() {
	s.api.Handle("GET /wait", events.WaitHandler(s.e.Queue()))
	s.api.HandleFunc("GET /state", s.handleState)
	s.api.HandleFunc("POST /api/tool/{name}", s.handleToolCall)
	s.api.HandleFunc("GET /events", s.handleEvents)
	s.api.HandleFunc("GET /{$}", s.handleIndex)
	if s.h != nil {
		s.h.RegisterHTTP(s.api)
	}
	s.registerExtra()
}

// extraRoutes lets other files of this package add routes (preview,
// variables, resources) without touching routes().
var extraRoutes []func(s *Server)

func (s *Server) registerExtra() {
	for _, f := range extraRoutes {
		f(s)
	}
}

// Handler is the API origin's handler: recover(log(loopback(mux))).
func (s *Server) Handler() http.Handler { return s.middleware(s.api) }

// UIHandler is the UI origin's handler.
func (s *Server) UIHandler() http.Handler { return s.middleware(s.ui) }

// SetBases records the two origins (tests with httptest call it; Serve does
// it itself).
func (s *Server) SetBases(uiBase, apiBase string) { s.uiBase, s.apiBase = uiBase, apiBase }

// APIBase is the API origin, e.g. http://127.0.0.1:7331.
func (s *Server) APIBase() string { return s.apiBase }

// UIBase is the UI origin.
func (s *Server) UIBase() string { return s.uiBase }

func (s *Server) middleware(next http.Handler) http.Handler {
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: 200}
		next.ServeHTTP(sw, r)
		s.log.Debug("http", "method", r.Method, "path", r.URL.Path, "status", sw.status, "ms", time.Since(start).Milliseconds())
	})
	guarded := host.LoopbackOnly(logged)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("http handler panic", "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				http.Error(w, "internal error", http.StatusInternalServerError)
			}
		}()
		guarded.ServeHTTP(w, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

// Unwrap lets http.ResponseController reach Flush on the real writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Ports are where Serve listens.
type Ports struct{ UI, API int }

// Listen opens both loopback listeners (0 = a random free port).
func Listen(uiPort, apiPort int) (ui, api net.Listener, err error) {
	ui, err = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(uiPort)))
	if err != nil {
		return nil, nil, fmt.Errorf("listen on ui port %d: %w", uiPort, err)
	}
	api, err = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(apiPort)))
	if err != nil {
		ui.Close()
		return nil, nil, fmt.Errorf("listen on mcp port %d: %w", apiPort, err)
	}
	return ui, api, nil
}

// Serve serves both origins until ctx ends, writing DIR/ui-port and
// DIR/mcp-port (port on the first line, pid on the second) and removing
// them on a clean exit. Shutdown is bounded.
func (s *Server) Serve(ctx context.Context, uiLn, apiLn net.Listener) error {
	uiPort := uiLn.Addr().(*net.TCPAddr).Port
	apiPort := apiLn.Addr().(*net.TCPAddr).Port
	s.SetBases(fmt.Sprintf("http://127.0.0.1:%d", uiPort), fmt.Sprintf("http://127.0.0.1:%d", apiPort))
	if s.opts.Dir != "" {
		if err := WritePortFile(filepath.Join(s.opts.Dir, "ui-port"), uiPort); err != nil {
			return err
		}
		if err := WritePortFile(filepath.Join(s.opts.Dir, "mcp-port"), apiPort); err != nil {
			return err
		}
		defer os.Remove(filepath.Join(s.opts.Dir, "ui-port"))
		defer os.Remove(filepath.Join(s.opts.Dir, "mcp-port"))
	}
	servers := []*http.Server{
		{Handler: s.UIHandler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute},
		{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute},
	}
	errc := make(chan error, 2)
	for i, ln := range []net.Listener{uiLn, apiLn} {
		go func(hs *http.Server, ln net.Listener) {
			if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				errc <- err
				return
			}
			errc <- nil
		}(servers[i], ln)
	}
	var first error
	select {
	case <-ctx.Done():
	case first = <-errc:
	}
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for _, hs := range servers {
		if err := hs.Shutdown(sctx); err != nil {
			_ = hs.Close() // long-polls and event streams: cut them
		}
	}
	return first
}

// WritePortFile writes "PORT\nPID\n" atomically, replacing a stale file.
func WritePortFile(path string, port int) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(fmt.Sprintf("%d\n%d\n", port, os.Getpid())), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}

// ReadPortFile reads a port file and reports whether the process that wrote
// it is still alive.
func ReadPortFile(path string) (port int, alive bool, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false, err
	}
	lines := strings.Fields(string(b))
	if len(lines) == 0 {
		return 0, false, fmt.Errorf("%s is empty", path)
	}
	if port, err = strconv.Atoi(lines[0]); err != nil {
		return 0, false, fmt.Errorf("%s: bad port %q", path, lines[0])
	}
	alive = true
	if len(lines) > 1 {
		if pid, err := strconv.Atoi(lines[1]); err == nil {
			alive = processAlive(pid)
		}
	}
	return port, alive, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"genui": engine.Version, "endpoints": []string{
		"GET /wait?timeout=N", "GET /state", "GET /variables", "GET /api/resource/", "POST /api/tool/{name}",
		"GET /preview/{tool}", "GET /events", "POST /mcp", "GET /sse"}})
}

// StateJSON is /state's body: the engine state plus the host sessions.
type StateJSON struct {
	engine.State
	Sessions []host.SessionInfo `json:"sessions"`
	URLs     map[string]string  `json:"urls"`
}

// Snapshot returns what /state serves.
func (s *Server) Snapshot() StateJSON {
	st := StateJSON{State: s.e.State(), URLs: map[string]string{"api": s.apiBase, "ui": s.uiBase}}
	if s.h != nil {
		st.Sessions = s.h.Sessions()
	}
	return st
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.Snapshot())
}

func (s *Server) handleToolCall(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": fmt.Sprintf("body larger than %d bytes", MaxBodyBytes)})
			return
		}
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "reading body: " + err.Error()})
		return
	}
	args := json.RawMessage(strings.TrimSpace(string(body)))
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "body must be a JSON object of tool arguments"})
		return
	}
	if s.h == nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "no MCP host in this genui"})
		return
	}
	if !strings.HasPrefix(name, "_ui_") {
		if _, ok := s.e.Tool(name); !ok {
			if err := s.e.WaitReady(r.Context()); err == nil {
				if _, ok := s.e.Tool(name); !ok {
					writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("unknown tool %q", name)})
					return
				}
			}
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Minute)
	defer cancel()
	s.e.Queue().Push("api", "tools/call", name, map[string]any{"arguments": obj})
	res, err := s.h.CallTool(ctx, name, args)
	if err != nil {
		writeJSON(w, callErrorStatus(err), map[string]string{"error": errorText(err)})
		return
	}
	writeJSON(w, http.StatusOK, map[string]json.RawMessage{"result": res})
}

// handleEvents streams engine events as server-sent events until the client
// leaves.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, ": genui events\n\n")
	if err := rc.Flush(); err != nil {
		return
	}
	ch := s.e.Broker().Subscribe(r.Context())
	tick := time.NewTicker(25 * time.Second)
	defer tick.Stop()
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return
			}
			b, _ := json.Marshal(ev.Payload)
			if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Type, b); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		case <-tick.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return
			}
			_ = rc.Flush()
		case <-r.Context().Done():
			return
		}
	}
}

// callErrorStatus maps a failed tool call to an HTTP status: the upstream
// being down is 503, a timeout 504, bad arguments 400, anything else 502.
func callErrorStatus(err error) int {
	var je *jsonrpc.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout
	case errors.As(err, &je) && je.Code == jsonrpc.CodeUpstreamUnavailable:
		return http.StatusServiceUnavailable
	case errors.As(err, &je) && (je.Code == jsonrpc.CodeInvalidParams || je.Code == jsonrpc.CodeInvalidRequest):
		return http.StatusBadRequest
	}
	return http.StatusBadGateway
}

// errorText is an error's message without the "jsonrpc error N:" prefix.
func errorText(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je.Message
	}
	return err.Error()
}
