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
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/events"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// MaxBodyBytes bounds request bodies of the API routes.
const MaxBodyBytes = 1 << 20

// sseWriteTimeout bounds one write to an /events client.
var sseWriteTimeout = 10 * time.Second

// Options configure a Server.
type Options struct {
	Engine *engine.Engine
	Host   *host.Server
	// Dir is genui's folder: port files go there, /api/resource serves
	// Dir/resources.
	Dir    string
	Logger *slog.Logger
	// YieldPortFiles writes DIR's port files without an owner, so a genui
	// started later on DIR takes them over (the in-process TUI; see
	// portfile_yield.go).
	YieldPortFiles bool
}

// Server is the HTTP side server.
type Server struct {
	opts Options
	e    *engine.Engine
	h    *host.Server
	log  *slog.Logger

	api, ui *http.ServeMux
	mu      sync.Mutex // guards the fields below: Serve sets them while handlers run
	// uiBase and apiBase are the origins once listening (http://127.0.0.1:N).
	uiBase, apiBase string
	// portConflict is set by Serve when another genui owns DIR's port files.
	portConflict error
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
	s.api.Handle("GET /wait", events.WaitHandler(s.e.AgentQueue(), s.log))
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

// Handler is the API origin's handler: recover(log(loopback(mux))), where
// the API also refuses requests made by pages of the UI origin and by frames.
func (s *Server) Handler() http.Handler { return s.middleware(s.apiGuard(s.api)) }

// UIHandler is the UI origin's handler.
func (s *Server) UIHandler() http.Handler { return s.middleware(s.ui) }

// SetBases records the two origins (tests with httptest call it; Serve does
// it itself).
func (s *Server) SetBases(uiBase, apiBase string) {
	s.mu.Lock()
	s.uiBase, s.apiBase = uiBase, apiBase
	s.mu.Unlock()
	s.publishURLs()
}

// publishURLs registers where this server listens with the engine (State,
// Preview and _ui_status report it).
func (s *Server) publishURLs() {
	s.mu.Lock()
	api, ui, conflict := s.apiBase, s.uiBase, ""
	if s.portConflict != nil {
		conflict = s.portConflict.Error()
	}
	s.mu.Unlock()
	u := engine.URLs{API: api, UI: ui}
	if api != "" {
		u.MCP, u.SSE, u.Wait, u.State = api+"/mcp", api+"/sse", api+"/wait", api+"/state"
	}
	s.e.SetURLs(u, conflict)
}

// APIBase is the API origin, e.g. http://127.0.0.1:7331.
func (s *Server) APIBase() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.apiBase
}

// UIBase is the UI origin.
func (s *Server) UIBase() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.uiBase
}

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

// apiGuard refuses two kinds of browser requests the loopback check lets
// through. Pages of the UI origin (generated or upstream UIs, which may be
// hostile) must not reach the API: their CSP stops fetch() but not a form
// post, and a text/plain form can carry a JSON body. And nothing on the API
// origin is ever loaded in a frame: a UI that navigates its own iframe to
// /wait or /preview?call=1 would drain the agent's queue or call tools as
// the host.
func (s *Server) apiGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.isUIOrigin(r.Header.Get("Origin")) {
			http.Error(w, "forbidden: the UI origin may not call the API origin (UIs talk to the host through postMessage only)", http.StatusForbidden)
			return
		}
		switch r.Header.Get("Sec-Fetch-Dest") {
		case "iframe", "frame", "embed", "object":
			http.Error(w, "forbidden: the API origin is never loaded in a frame", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isUIOrigin reports whether origin is the UI origin (any loopback host
// name on the UI port).
func (s *Server) isUIOrigin(origin string) bool {
	uiBase := s.UIBase()
	if origin == "" || uiBase == "" {
		return false
	}
	o, err := url.Parse(origin)
	ui, err2 := url.Parse(uiBase)
	if err != nil || err2 != nil {
		return false
	}
	if o.Host == ui.Host {
		return true
	}
	return o.Port() != "" && o.Port() == ui.Port() && isLoopbackName(o.Hostname())
}

// isLoopbackName reports whether host is localhost or a loopback IP.
func isLoopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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
		uiFile, apiFile := filepath.Join(s.opts.Dir, "ui-port"), filepath.Join(s.opts.Dir, "mcp-port")
		if port, pid, alive := portFileOwner(apiFile); alive && pid != os.Getpid() {
			// Another genui serves this folder: keep its files (the helper
			// script and `genui preview` keep talking to it) and say so.
			conflict := fmt.Errorf("another genui (pid %d) already serves %s on http://127.0.0.1:%d; "+
				"this one serves http://127.0.0.1:%d but leaves %s alone, so %s/mcp and `genui preview` reach the other one "+
				"(use a different --dir to run both)", pid, s.opts.Dir, port, apiPort, apiFile, s.opts.Dir)
			s.mu.Lock()
			s.portConflict = conflict
			s.mu.Unlock()
			s.publishURLs()
			s.log.Warn("port files kept", "err", conflict)
		} else if s.opts.YieldPortFiles {
			// The in-process TUI: a genui started later takes the files
			// over (portfile_yield.go).
			if err := writePortOnly(uiFile, uiPort); err != nil {
				return err
			}
			if err := writePortOnly(apiFile, apiPort); err != nil {
				return err
			}
			defer removeIfPort(uiFile, uiPort)
			defer removeIfPort(apiFile, apiPort)
		} else {
			if err := WritePortFile(uiFile, uiPort); err != nil {
				return err
			}
			if err := WritePortFile(apiFile, apiPort); err != nil {
				return err
			}
			// Remove them on exit only while they are still ours.
			defer removeOwnPortFile(uiFile)
			defer removeOwnPortFile(apiFile)
		}
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
	if s.h != nil {
		s.h.Shutdown() // subscriptions/listen streams end with their graceful result
	}
	for _, hs := range servers {
		if err := hs.Shutdown(sctx); err != nil {
			_ = hs.Close() // long-polls and event streams: cut them
		}
	}
	return first
}

// PortConflict is non-nil when another live genui already owned DIR's port
// files when Serve started: this server then did not write them. The error
// says which process and what to do; front ends show it to the user.
func (s *Server) PortConflict() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.portConflict
}

// portFileOwner reads a port file's port and pid and whether that process
// is alive (false when there is no file or no pid).
func portFileOwner(path string) (port, pid int, alive bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, 0, false
	}
	port, _ = strconv.Atoi(f[0])
	pid, err = strconv.Atoi(f[1])
	if err != nil {
		return 0, 0, false
	}
	return port, pid, processAlive(pid)
}

// removeOwnPortFile removes path when this process wrote it.
func removeOwnPortFile(path string) {
	if _, pid, _ := portFileOwner(path); pid == os.Getpid() {
		_ = os.Remove(path)
	}
}

// WritePortFile writes "PORT\nPID\n" atomically, replacing a stale file.
// Two writers never share a temporary file.
func WritePortFile(path string, port int) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	_, err = fmt.Fprintf(tmp, "%d\n%d\n", port, os.Getpid())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
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
