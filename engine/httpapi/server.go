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
	"mime"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
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
	// Engine, Upstream and Tools are the engine, its Relay() and its
	// Registry() (engine.go).
	Engine   Engine
	Upstream Upstream
	Tools    Tools
	Host     *host.Server
	// Dir is genui's folder: port files go there, /api/resource serves
	// Dir/resources.
	Dir    string
	Logger *slog.Logger
	// Metrics, when set, is served at GET /metrics on the API origin.
	Metrics http.Handler
	// YieldPortFiles writes DIR's port files without holding DIR's lock,
	// so a genui started later on DIR takes them over (the in-process TUI,
	// which then offers to attach to it).
	YieldPortFiles bool
}

// Server is the HTTP side server.
type Server struct {
	opts  Options
	e     Engine
	up    Upstream
	tools Tools
	h     *host.Server
	log   *slog.Logger

	api, ui *http.ServeMux
	mu      sync.Mutex // guards the fields below: Serve sets them while handlers run
	// uiBase and apiBase are the origins once listening (http://127.0.0.1:N).
	uiBase, apiBase string
	// portConflict is set by Serve when another genui owns DIR's port files;
	// portFilesErr when this one owns them but could not write them.
	portConflict error
	portFilesErr error
}

// New builds the side server; nothing listens until Serve.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{opts: opts, e: opts.Engine, up: opts.Upstream, tools: opts.Tools, h: opts.Host, log: opts.Logger,
		api: http.NewServeMux(), ui: http.NewServeMux()}
	s.routes()
	return s
}

var ridCounter atomic.Int64

func newRequestID() string { return "h" + strconv.FormatInt(ridCounter.Add(1), 36) }

// routes is every route of the two origins in one table. The API origin
// also serves MCP (/mcp, /sse, /message: the host registers those) and, when
// set, /metrics.
func (s *Server) routes() {
	api := []route{
		{"GET /{$}", http.HandlerFunc(s.handleIndex)},
		// The agents' queue, long-polled.
		{"GET /wait", events.WaitHandler(s.e.AgentQueue(), s.log)},
		// DIR/resources (resource.go).
		{"GET /api/resource/{path...}", http.HandlerFunc(s.handleResource)},
		// The browser preview host page and what its view asks of it (preview.go).
		{"GET /preview/{tool}", http.HandlerFunc(s.handlePreview)},
		{"POST /api/preview/{tool}/call", http.HandlerFunc(s.handlePreviewCall)},
		{"POST /api/preview/{tool}/event", http.HandlerFunc(s.handlePreviewEvent)},
		{"POST /api/preview/{tool}/refine", http.HandlerFunc(s.handlePreviewRefine)},
		{"POST /api/preview/{tool}/resource", http.HandlerFunc(s.handlePreviewResource)},
		{"POST /api/preview/{tool}/resources", http.HandlerFunc(s.handlePreviewResources)},
		{"POST /api/preview/{tool}/security", http.HandlerFunc(s.handlePreviewSecurity)},
	}
	// contract.API, one route per method, from contract.Methods.
	methodRoutes, missing := apiRoutes(s.apiHandlers())
	if len(missing) > 0 {
		panic("httpapi: no handler for " + strings.Join(missing, ", ")) // TestAPIRoutesFromTable fails first
	}
	for _, rt := range methodRoutes {
		s.api.Handle(rt.pattern, rt.handler)
	}
	for _, rt := range api {
		s.api.Handle(rt.pattern, rt.handler)
	}
	if s.opts.Metrics != nil {
		s.api.Handle("GET /metrics", s.opts.Metrics)
	}
	if s.h != nil {
		s.h.RegisterHTTP(s.api)
	}
	// The UI origin serves the generated pages only.
	s.ui.HandleFunc("GET /frame/{tool}", s.handleFrame)
}

// apiHandlers is the handler of every method of contract.API, by name;
// the routes come from contract.Methods (apiRoutes). Methods that share a
// route (UI and ReadableUI) share its handler.
func (s *Server) apiHandlers() map[string]http.Handler {
	return map[string]http.Handler{
		"State":          http.HandlerFunc(s.handleState),
		"Variables":      http.HandlerFunc(s.handleVariables), // JSON; browsers get a page (variables.go)
		"Tools":          http.HandlerFunc(s.handleTools),
		"Inspect":        http.HandlerFunc(s.handleInspect),
		"UI":             http.HandlerFunc(s.handleUI),
		"ReadableUI":     http.HandlerFunc(s.handleUI), // ?readable=1
		"Preview":        http.HandlerFunc(s.handlePreviewInfo),
		"Refine":         s.handleUIChange(false),
		"Regenerate":     s.handleUIChange(true),
		"DropRefinement": http.HandlerFunc(s.handleDropRefinement),
		"CallTool":       http.HandlerFunc(s.handleToolCall),
		"RefreshTools":   http.HandlerFunc(s.handleRefresh),
		"PendingEvents":  http.HandlerFunc(s.handlePendingEvents), // queue.go
		"Subscribe":      http.HandlerFunc(s.handleEvents),
		"RecentTraffic":  http.HandlerFunc(s.handleRecentTraffic),
		// The host side (api_host.go): calls cancelled, the upstream's
		// requests answered, roots, resources, prompts.
		"CancelCall":          http.HandlerFunc(s.handleCancelCall),
		"PendingRequests":     http.HandlerFunc(s.handlePendingRequests),
		"AnswerRequest":       http.HandlerFunc(s.handleAnswerRequest),
		"DraftSamplingAnswer": http.HandlerFunc(s.handleDraftSampling),
		"Roots":               http.HandlerFunc(s.handleRoots),
		"SetRoots":            http.HandlerFunc(s.handleSetRoots),
		"Resources":           http.HandlerFunc(s.handleResources),
		"ResourceTemplates":   http.HandlerFunc(s.handleResourceTemplates),
		"ReadResource":        http.HandlerFunc(s.handleReadResource),
		"SubscribeResource":   s.handleResourceSubscription(true),
		"UnsubscribeResource": s.handleResourceSubscription(false),
		"Prompts":             http.HandlerFunc(s.handlePrompts),
		"GetPrompt":           http.HandlerFunc(s.handleGetPrompt),
		"Ping":                http.HandlerFunc(s.handlePing),
		"SetLogLevel":         http.HandlerFunc(s.handleSetLogLevel),
		"Complete":            http.HandlerFunc(s.handleComplete),
		"Lint":                http.HandlerFunc(s.handleLint),
		"SignIn":              http.HandlerFunc(s.handleSignIn),
		"SignOut":             http.HandlerFunc(s.handleSignOut),
		// The call history and the checks (develop.go).
		"History":      http.HandlerFunc(s.handleHistory),
		"HistoryEntry": http.HandlerFunc(s.handleHistoryEntry),
		"RerunCall":    http.HandlerFunc(s.handleRerun),
		"CompareCalls": http.HandlerFunc(s.handleCompare),
		"Checks":       http.HandlerFunc(s.handleChecks),
		"AddCheck":     http.HandlerFunc(s.handleAddCheck),
		"RunChecks":    http.HandlerFunc(s.handleRunChecks),
	}
}

// route is one pattern of the API origin and its handler.
type route struct {
	pattern string
	handler http.Handler
}

// apiRoutes are the routes of contract.Methods with their handlers (a
// route two methods share, once), and the methods handlers lacks.
func apiRoutes(handlers map[string]http.Handler) (routes []route, missing []string) {
	seen := map[string]bool{}
	for _, m := range contract.Methods {
		h, ok := handlers[m.Name]
		if !ok || h == nil {
			missing = append(missing, m.Name)
			continue
		}
		if !seen[m.Route] {
			seen[m.Route] = true
			routes = append(routes, route{m.Route, h})
		}
	}
	return routes, missing
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
	u := contract.URLs{API: api, UI: ui}
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

// bodyReadTimeout bounds reading one request body (a variable so tests
// can shorten it).
var bodyReadTimeout = 30 * time.Second

// bodyDeadline bounds reading a request's body: a client that sends its
// headers and then trickles or stalls the body loses the connection after
// bodyReadTimeout instead of holding it (and a goroutine) forever. The
// deadline is lifted once the body is read, so a long response (an SSE
// answer to POST /mcp) is not cut; requests without a body (the /wait long
// poll, /events, GET /mcp streams) never get one. http.Server.ReadTimeout
// cannot do this: it would cancel every long poll.
func bodyDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(bodyReadTimeout)) == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the connection's read deadline once the body has been
// read to its end (or closed).
type deadlineBody struct {
	io.ReadCloser
	lift func()
	once sync.Once
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.lift)
	}
	return n, err
}

func (s *Server) middleware(next http.Handler) http.Handler {
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: 200}
		// One request id per HTTP request, carried by every log line of
		// its work (MCP requests over /mcp get their own per JSON-RPC
		// request from the host).
		rid := newRequestID()
		next.ServeHTTP(sw, r.WithContext(engine.WithRequestID(r.Context(), rid)))
		s.log.Debug("http", "rid", rid, "method", r.Method, "path", r.URL.Path, "status", sw.status, "ms", time.Since(start).Milliseconds())
	})
	var origins *host.Origins // loopback only
	if s.h != nil {
		origins = s.h.Origins()
	}
	guarded := origins.Guard(logged)
	recovered := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	return bodyDeadline(recovered) // outermost: refused requests' bodies are bounded too
}

// apiGuard refuses three kinds of browser requests the loopback check lets
// through. Pages of other origins (another site, a dev server on another
// localhost port) may not change state or drain the queue: a form or an
// <img> needs no CORS preflight, so only Origin and Sec-Fetch-Site tell
// them from genui's own pages, and bodies must be JSON. Pages of the UI origin (generated or upstream UIs, which may be
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
		if guardedRoute(r) {
			if !s.sameOriginOrProgram(r) {
				http.Error(w, "forbidden: pages of other origins (another site, another localhost port) may not change "+
					"genui's state or drain its queue; programs send no Origin, genui's own pages are same-origin", http.StatusForbidden)
				return
			}
			if !jsonOrEmpty(r) {
				writeJSON(w, http.StatusUnsupportedMediaType, contract.Errorf(contract.CodeInvalidArgument,
					"Content-Type must be application/json (other types let any web page post here without asking)"))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// guardedRoute reports whether r changes state or drains the agent's
// queue, or may set off work (a generation): every method but GET, HEAD
// and OPTIONS, GET /wait, and GET /api/.... The MCP endpoints are left to
// the host's own rules (JSON bodies only, CORS for loopback browser hosts).
func guardedRoute(r *http.Request) bool {
	switch r.URL.Path {
	case "/mcp", "/message", "/sse":
		return false
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return r.URL.Path == "/wait" || strings.HasPrefix(r.URL.Path, "/api/")
	case http.MethodOptions:
		return false
	}
	return true
}

// sameOriginOrProgram accepts requests from genui's own pages (the API
// origin) and from programs (curl, the helper script, the TUI: no Origin,
// no Sec-Fetch-Site), and a user's own navigation (Sec-Fetch-Site none).
// A browser names the requesting page in Origin on every POST and in
// Sec-Fetch-Site on every request, including the <img> loads and
// no-cors fetches that carry no Origin.
func (s *Server) sameOriginOrProgram(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" && !s.isAPIOrigin(o) {
		return false
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return true
	}
	return false
}

// isAPIOrigin reports whether origin is the API origin (any loopback host
// name on the API port).
func (s *Server) isAPIOrigin(origin string) bool {
	api := s.APIBase()
	o, err := url.Parse(origin)
	a, err2 := url.Parse(api)
	if api == "" || err != nil || err2 != nil || o.Scheme != "http" {
		return false
	}
	return o.Host == a.Host || o.Port() != "" && o.Port() == a.Port() && isLoopbackName(o.Hostname())
}

// jsonOrEmpty accepts a JSON body, or no body at all without a
// Content-Type (curl -X POST). A form always names its type, so a form
// post never passes.
func jsonOrEmpty(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return r.ContentLength == 0
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
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
	var lc net.ListenConfig
	ui, err = lc.Listen(context.Background(), "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(uiPort)))
	if err != nil {
		return nil, nil, fmt.Errorf("listen on ui port %d: %w", uiPort, err)
	}
	api, err = lc.Listen(context.Background(), "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(apiPort)))
	if err != nil {
		ui.Close()
		return nil, nil, fmt.Errorf("listen on mcp port %d: %w", apiPort, err)
	}
	return ui, api, nil
}

// Serve serves both origins until ctx ends. When it can take DIR's owner
// lock (DIR/genui.lock, held until it returns) it writes DIR/ui-port and
// DIR/mcp-port (the port number alone) and removes them on exit; another
// live genui holding the lock keeps them (PortConflict says so). Port files
// that cannot be written (a full disk) are a warning (PortFilesError), never
// a reason to stop serving. Shutdown is bounded.
func (s *Server) Serve(ctx context.Context, uiLn, apiLn net.Listener) error {
	uiPort := uiLn.Addr().(*net.TCPAddr).Port
	apiPort := apiLn.Addr().(*net.TCPAddr).Port
	s.SetBases(fmt.Sprintf("http://127.0.0.1:%d", uiPort), fmt.Sprintf("http://127.0.0.1:%d", apiPort))
	if s.opts.Dir != "" {
		release := s.claimPortFiles(uiPort, apiPort)
		defer release()
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

// PortFilesError is non-nil when this server owns DIR but could not write
// its port files (a full disk, a read-only folder): it serves anyway, but
// DIR/mcp and `genui preview` cannot find it.
func (s *Server) PortFilesError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.portFilesErr
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

// errorText is an error's message without the "jsonrpc error N:" prefix.
func errorText(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je.Message
	}
	return err.Error()
}
