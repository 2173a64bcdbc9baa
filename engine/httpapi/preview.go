package httpapi

// The browser preview: the host page on the API origin (/preview/{tool}),
// the UI itself on the UI origin (/frame/{tool}, with its CSP as a header),
// and the page's JSON API (/api/preview/{tool}/...). The page loads the UI in
// an iframe sandboxed the way real MCP Apps web hosts do, so a UI that works
// here works in Claude or VS Code.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/registry"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
)

// Bounds of the preview's work.
const (
	// frameTimeout bounds producing a UI (generation included).
	frameTimeout = 3 * time.Minute
	// previewCallTimeout bounds one tools/call from the preview.
	previewCallTimeout = 5 * time.Minute
)

// PreviewEventTypes are the queue event types the preview page may push
// through POST /api/preview/{tool}/event.
var PreviewEventTypes = []string{"ui/message", "ui/update-model-context", "ui/open-link", "ui/error"}

// lookupTool finds a tool, waiting a bounded time for the first tools/list.
func (s *Server) lookupTool(ctx context.Context, name string) (*registry.Tool, error) {
	return s.e.LookupTool(ctx, name)
}

// httpStatus is the status for an engine error.
func httpStatus(err error) int { return contract.HTTPStatus(contract.AsError(err).Code) }

// ---- UI origin: /frame/{tool} ----

func (s *Server) handleFrame(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("tool")
	t, err := s.lookupTool(r.Context(), name)
	if err != nil {
		http.Error(w, err.Error(), httpStatus(err))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	html, csp, own, err := s.frameHTML(ctx, t)
	if err != nil {
		s.log.Error("preview frame", "tool", name, "err", err)
		http.Error(w, fmt.Sprintf("UI of %s: %v", name, err), http.StatusBadGateway)
		return
	}
	policy, dropped := BuildCSP(csp)
	if len(dropped) > 0 {
		s.log.Warn("ignoring invalid CSP sources in the UI resource's _meta.ui.csp", "tool", name, "sources", dropped)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", policy)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	page := InjectCSPReporter(html)
	if !own {
		// genui's page: its CSP meta tag now covers the reporter too.
		page = pagecsp.Apply(page)
	}
	_, _ = io.WriteString(w, page)
}

// frameHTML returns a tool's UI HTML and its declared CSP (nil: none): the
// upstream's own UI resource when the tool ships one (own), else genui's.
func (s *Server) frameHTML(ctx context.Context, t *registry.Tool) (html string, csp *UICSP, own bool, err error) {
	v, err := s.e.UI(ctx, t.Name)
	if err != nil {
		return "", nil, false, err
	}
	if !v.OwnUI || len(v.ResourceMeta) == 0 {
		return v.HTML, nil, v.OwnUI, nil
	}
	var meta struct {
		UI struct {
			CSP *UICSP `json:"csp"`
		} `json:"ui"`
	}
	_ = json.Unmarshal(v.ResourceMeta, &meta) // a malformed _meta declares no CSP
	return v.HTML, meta.UI.CSP, true, nil
}

// UICSP is a UI resource's declared _meta.ui.csp.
type UICSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// DefaultCSP is the MCP Apps default policy for a UI that declares none,
// with base-uri and form-action closed (a page that sets <base> or submits
// a form could send its data away; no UI needs either). genui's own pages
// also carry a stricter meta policy (pagecsp).
const DefaultCSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"

// cspSource accepts origins like https://api.example.com, wss://x.example:8443,
// https://*.example.com/path or a bare host; nothing that could end a
// directive or add a keyword (quotes, ';', ',', spaces, a lone '*').
var cspSource = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:https?|wss?)://)?(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::(?:[0-9]{1,5}|\*))?(?:/[A-Za-z0-9._~%!$&()*+=:@/-]*)?$`)
})

// BuildCSP turns a declared CSP into the header value: DefaultCSP with
// the declared domains added (connectDomains -> connect-src,
// resourceDomains -> script/style/img/font/media-src, frameDomains ->
// frame-src, baseUriDomains -> base-uri, else 'none'); form-action is
// always 'none'. It never loosens anything else.
// Sources that are not plain origins are dropped and returned.
func BuildCSP(c *UICSP) (policy string, dropped []string) {
	if c == nil {
		return DefaultCSP, nil
	}
	clean := func(in []string) []string {
		var out []string
		for _, d := range in {
			d = strings.TrimSpace(d)
			if d == "" {
				continue
			}
			if !cspSource().MatchString(d) {
				dropped = append(dropped, d)
				continue
			}
			out = append(out, d)
		}
		return out
	}
	res, conn, frame, base := clean(c.ResourceDomains), clean(c.ConnectDomains), clean(c.FrameDomains), clean(c.BaseURIDomains)
	join := func(base string, extra []string) string {
		if len(extra) == 0 {
			return base
		}
		return base + " " + strings.Join(extra, " ")
	}
	orNone := func(extra []string) string {
		if len(extra) == 0 {
			return "'none'"
		}
		return strings.Join(extra, " ")
	}
	d := []string{
		"default-src 'none'",
		join("script-src 'self' 'unsafe-inline'", res),
		join("style-src 'self' 'unsafe-inline'", res),
		join("img-src 'self' data:", res),
	}
	if len(res) > 0 {
		d = append(d, join("font-src 'self' data:", res))
	}
	d = append(d,
		join("media-src 'self' data:", res),
		"connect-src "+orNone(conn),
		"frame-src "+orNone(frame),
		"object-src 'none'",
		"base-uri "+orNone(base),
		"form-action 'none'",
	)
	return strings.Join(d, "; "), dropped
}

// CSPReporterAttr marks the script InjectCSPReporter inserts.
const CSPReporterAttr = "data-genui-csp-reporter"

// cspReporter forwards CSP violations inside the frame to the host page as
// an MCP logging notification (the event never reaches the parent itself),
// and tells it when the app document goes away (pagehide: the frame
// navigated), logger "genui/frame".
const cspReporter = `<script ` + CSPReporterAttr + `>document.addEventListener("securitypolicyviolation",function(e){try{window.parent.postMessage({jsonrpc:"2.0",method:"notifications/message",params:{level:"error",logger:"csp",data:{blockedURI:String(e.blockedURI||""),violatedDirective:String(e.violatedDirective||""),effectiveDirective:String(e.effectiveDirective||""),sourceFile:String(e.sourceFile||""),lineNumber:e.lineNumber||0}}},"*")}catch(_){}});` +
	`window.addEventListener("pagehide",function(){try{window.parent.postMessage({jsonrpc:"2.0",method:"notifications/message",params:{level:"error",logger:"genui/frame",data:{event:"pagehide"}}},"*")}catch(_){}});</script>`

// headAnchors find where a preview's head starts (compiled on first use).
var headAnchors = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{regexp.MustCompile(`(?i)<head(?:\s[^>]*)?>`), regexp.MustCompile(`(?i)<html(?:\s[^>]*)?>`),
		regexp.MustCompile(`(?i)^\s*<!doctype[^>]*>`)}
})

// InjectCSPReporter inserts the CSP violation reporter as the first element
// of <head>, so it runs before the page's own scripts.
func InjectCSPReporter(html string) string {
	for _, re := range headAnchors() {
		if loc := re.FindStringIndex(html); loc != nil {
			return html[:loc[1]] + cspReporter + html[loc[1]:]
		}
	}
	return cspReporter + html
}

// ---- API origin: /preview/{tool} ----

func (s *Server) handlePreview(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("tool")
	q := r.URL.Query()
	if !q.Has("conserve") {
		q.Set("conserve", "1")
		http.Redirect(w, r, "/preview/"+url.PathEscape(name)+"?"+q.Encode(), http.StatusFound)
		return
	}
	t, err := s.lookupTool(r.Context(), name)
	if err != nil {
		http.Error(w, err.Error(), httpStatus(err))
		return
	}
	d := viewdefs.PreviewData{
		Tool: viewdefs.ToolData{Name: t.Name, Title: t.Title(), Description: t.Description(),
			InputSchema: t.InputSchema(), OutputSchema: t.OutputSchema()},
		ToolJSON:    s.toolJSON(t),
		Visibility:  t.Visibility,
		OwnUI:       t.OwnUI,
		TaskSupport: t.TaskSupport,
		FrameURL:    s.UIBase() + "/frame/" + url.PathEscape(t.Name),
		Call:        (q.Get("call") == "1" || q.Get("call") == "true") && trustedNavigation(r),
		Conserve:    q.Get("conserve") != "0",
		HostJS:      mcpshim.HostJS(),
		Version:     engine.Version,
	}
	if d.Call != (q.Get("call") == "1" || q.Get("call") == "true") {
		d.ArgsError = "This link came from another site, so the tool was not called automatically: check the arguments and press Call."
	}
	if a := q.Get("args"); a != "" {
		d.Args = a
		if obj, err := ParseArgs(a); err != nil {
			d.ArgsError = strings.TrimSpace(d.ArgsError + " The args parameter was not used: " + err.Error())
		} else {
			d.Args = obj
		}
	} else {
		d.Args = SchemaDefaults(t.InputSchema())
	}
	for _, tt := range s.tools.List() {
		d.Tools = append(d.Tools, tt.Name)
	}
	page, err := viewdefs.Preview(d)
	if err != nil {
		s.log.Error("preview page", "tool", name, "err", err)
		http.Error(w, "rendering the preview page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// The host page is never framed: a UI that navigated its own iframe here
	// would act as the host.
	w.Header().Set("Content-Security-Policy", "frame-ancestors 'none'")
	w.Header().Set("X-Frame-Options", "DENY")
	_, _ = io.WriteString(w, page)
}

// trustedNavigation reports whether a page request came from the user (a
// typed or opened URL: no Sec-Fetch-Site, or "none") or from genui's own
// pages ("same-origin"), not from a link or script on another site. Only
// such requests may make the preview call a tool on load (?call=1): a
// hostile page must not be able to run a tool with its own arguments.
func trustedNavigation(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "none", "same-origin":
		return true
	}
	return false
}

// toolJSON is the tool definition as hosts see it (with genui's UI link).
func (s *Server) toolJSON(t *registry.Tool) json.RawMessage {
	raw, err := t.WithUIMeta()
	if err != nil {
		return t.Raw
	}
	return raw
}

// ParseArgs checks that text is a JSON object and returns it indented.
func ParseArgs(text string) (string, error) {
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		return "", fmt.Errorf("not valid JSON: %v", err)
	}
	if obj == nil {
		return "", errors.New("must be a JSON object of arguments")
	}
	b, _ := json.MarshalIndent(obj, "", "  ")
	return string(b), nil
}

// SchemaDefaults returns an indented JSON object for the input box: every
// property's default, and a placeholder for required properties without one
// (the first enum value, or the zero value of its type).
func SchemaDefaults(schema json.RawMessage) string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return "{}"
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	out := map[string]json.RawMessage{}
	for name, raw := range s.Properties {
		var p struct {
			Default json.RawMessage `json:"default"`
			Enum    []any           `json:"enum"`
			Type    any             `json:"type"`
		}
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		switch {
		case len(p.Default) > 0:
			out[name] = p.Default
		case !required[name]:
		case len(p.Enum) > 0:
			out[name], _ = json.Marshal(p.Enum[0])
		default:
			out[name] = zeroFor(p.Type)
		}
	}
	if len(out) == 0 {
		return "{}"
	}
	b, _ := json.MarshalIndent(out, "", "  ") // encoding/json sorts map keys
	return string(b)
}

func zeroFor(typ any) json.RawMessage {
	t, _ := typ.(string)
	if list, ok := typ.([]any); ok {
		for _, v := range list {
			if sv, _ := v.(string); sv != "" && sv != "null" {
				t = sv
				break
			}
		}
	}
	switch t {
	case "integer", "number":
		return json.RawMessage("0")
	case "boolean":
		return json.RawMessage("false")
	case "array":
		return json.RawMessage("[]")
	case "object":
		return json.RawMessage("{}")
	default:
		return json.RawMessage(`""`)
	}
}

// ---- the page's JSON API ----

// previewError is the error body of the preview API; the page turns it into
// a JSON-RPC error for the view.
type previewError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func writePreviewError(w http.ResponseWriter, status, code int, msg string) {
	writeJSON(w, status, map[string]previewError{"error": {Code: code, Message: msg}})
}

// readPreviewBody decodes a JSON object body into v.
func readPreviewBody(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writePreviewError(w, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, fmt.Sprintf("body larger than %d bytes", MaxBodyBytes))
			return false
		}
		writePreviewError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, "reading body: "+err.Error())
		return false
	}
	if err := json.Unmarshal(body, v); err != nil {
		writePreviewError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams, "body must be a JSON object: "+err.Error())
		return false
	}
	return true
}

// previewCall is the body of POST /api/preview/{tool}/call.
type previewCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// From is "ui" (a tools/call made by the view; visibility is enforced)
	// or "host" (the page's Call button, acting as the host). Default "ui".
	From string `json:"from"`
	// CallID names the call in genui's events (its progress, task status,
	// the upstream's requests) and in POST /api/calls/{id}/cancel.
	CallID string `json:"callId"`
	// Task runs a tool whose execution.taskSupport is "optional" as a task.
	Task bool `json:"task"`
}

// codeCancelled is the preview API's JSON-RPC code for a cancelled call
// (the one LSP uses for a cancelled request; MCP itself answers none).
const codeCancelled = -32800

func (s *Server) handlePreviewCall(w http.ResponseWriter, r *http.Request) {
	tool := r.PathValue("tool")
	var c previewCall
	if !readPreviewBody(w, r, &c) {
		return
	}
	if c.Name == "" {
		writePreviewError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams, "tools/call needs a tool name")
		return
	}
	args := c.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil || obj == nil {
		writePreviewError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams, "tools/call arguments must be a JSON object")
		return
	}
	fromUI := c.From != "host"
	fail := func(status, code int, msg string) {
		if fromUI {
			s.e.Push("preview", "ui/error", tool, map[string]any{"kind": "tools/call", "name": c.Name, "error": msg})
		}
		writePreviewError(w, status, code, msg)
	}
	if fromUI {
		s.e.Push("preview", "tools/call", tool, map[string]any{"name": c.Name, "arguments": obj})
	}
	if s.h == nil {
		fail(http.StatusServiceUnavailable, jsonrpc.CodeInternalError, "this genui runs no MCP host, so the preview cannot call tools")
		return
	}
	// Visibility is the upstream's: an upstream tool is checked even when
	// its name starts with _ui_; only genui's own wrapper tools skip it.
	if _, known := s.tools.Get(c.Name); known || !strings.HasPrefix(c.Name, "_ui_") {
		t, err := s.lookupTool(r.Context(), c.Name)
		if err != nil {
			fail(httpStatus(err), jsonrpc.CodeInvalidParams, err.Error())
			return
		}
		if fromUI && !t.VisibleToApps() {
			vis, _ := json.Marshal(t.Visibility)
			fail(http.StatusForbidden, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
				"tool %q is not callable from an app: its _meta.ui.visibility is %s (no \"app\"), so hosts refuse calls to it from a UI", c.Name, vis))
			return
		}
	} else if fromUI {
		// genui's own _ui_* tools are model-only (_meta.ui.visibility ["model"]).
		fail(http.StatusForbidden, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"tool %q is not callable from an app: genui's own tools have _meta.ui.visibility [\"model\"]", c.Name))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), previewCallTimeout)
	defer cancel()
	var res json.RawMessage
	var err error
	if _, upstreamHasIt := s.tools.Get(c.Name); !upstreamHasIt && host.IsWrapper(c.Name) {
		res, err = s.h.CallWrapper(ctx, c.Name, args)
	} else {
		var cr contract.CallResult
		// The preview queues the view's calls itself (above), with the
		// name; the engine queues nothing for this source.
		cr, err = s.e.CallTool(ctx, contract.CallRequest{Name: c.Name, Arguments: args, Source: contract.SourcePreview,
			CallID: c.CallID, Task: c.Task})
		res = cr.Result
	}
	if err != nil {
		code, msg := jsonrpc.CodeInternalError, errorText(err)
		var je *jsonrpc.Error
		if errors.As(err, &je) { // a wrapper tool's JSON-RPC error
			code, msg = je.Code, je.Message
		} else if ee := contract.AsError(err); ee.Code == contract.CodeCancelled {
			writePreviewError(w, contract.HTTPStatus(contract.CodeCancelled), codeCancelled, fmt.Sprintf("tools/call %s: %s", c.Name, msg))
			return
		} else if ee.Code == contract.CodeUpstreamUnavailable {
			code = jsonrpc.CodeUpstreamUnavailable
		} else if ee.Code == contract.CodeInvalidArgument || ee.Code == contract.CodeUnknownTool {
			code = jsonrpc.CodeInvalidParams
		}
		fail(http.StatusBadGateway, code, fmt.Sprintf("tools/call %s failed: %s", c.Name, msg))
		return
	}
	writeJSON(w, http.StatusOK, map[string]json.RawMessage{"result": res})
}

// handlePreviewSecurity records what the preview saw the tool's UI do that
// a page must never do (navigate its frame away): engine.ReportSecurity.
func (s *Server) handlePreviewSecurity(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Kind   string `json:"kind"`
		URL    string `json:"url"`
		Detail string `json:"detail"`
	}
	if !readPreviewBody(w, r, &body) {
		return
	}
	ev, err := s.e.ReportSecurity(r.Context(), r.PathValue("tool"), contract.Security{Kind: body.Kind, URL: body.URL,
		Detail: body.Detail, Source: contract.SourcePreview})
	if err != nil {
		ce := contract.AsError(err)
		writePreviewError(w, contract.HTTPStatus(ce.Code), jsonrpc.CodeInvalidParams, ce.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": ev})
}

// previewEvent is the body of POST /api/preview/{tool}/event.
type previewEvent struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

func (s *Server) handlePreviewEvent(w http.ResponseWriter, r *http.Request) {
	tool := r.PathValue("tool")
	var ev previewEvent
	if !readPreviewBody(w, r, &ev) {
		return
	}
	known := false
	for _, t := range PreviewEventTypes {
		known = known || t == ev.Type
	}
	if !known {
		writePreviewError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams,
			fmt.Sprintf("unknown event type %q; known: %s", ev.Type, strings.Join(PreviewEventTypes, ", ")))
		return
	}
	if !s.previewToolKnown(w, r, tool) {
		return
	}
	var payload any
	if len(ev.Payload) > 0 {
		payload = ev.Payload
	}
	s.log.Info("preview event", "tool", tool, "type", ev.Type)
	q := s.e.Push("preview", ev.Type, tool, payload)
	writeJSON(w, http.StatusOK, map[string]any{"result": map[string]any{"seq": q.Seq}})
}

// previewToolKnown answers 404 (unknown tool) or 503 (upstream not up)
// unless the path's tool exists.
func (s *Server) previewToolKnown(w http.ResponseWriter, r *http.Request, tool string) bool {
	_, err := s.lookupTool(r.Context(), tool)
	switch {
	case err == nil:
		return true
	case errors.Is(err, contract.ErrUnknownTool) || contract.AsError(err).Code == contract.CodeInvalidArgument:
		writePreviewError(w, httpStatus(err), jsonrpc.CodeInvalidParams, err.Error())
	default:
		writePreviewError(w, http.StatusServiceUnavailable, jsonrpc.CodeInternalError, "the upstream is not ready: "+err.Error())
	}
	return false
}

func (s *Server) handlePreviewRefine(w http.ResponseWriter, r *http.Request) {
	tool := r.PathValue("tool")
	var body struct {
		Feedback string `json:"feedback"`
	}
	if !readPreviewBody(w, r, &body) {
		return
	}
	fb := strings.TrimSpace(body.Feedback)
	if fb == "" {
		writePreviewError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams, "feedback is empty: say what should change")
		return
	}
	if !s.previewToolKnown(w, r, tool) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	res, err := s.e.Refine(ctx, contract.RefineRequest{Tool: tool, Feedback: fb, Source: contract.SourcePreview})
	if err != nil {
		// The agent hears about it and may retry with _ui_refine.
		s.e.Push("preview", "refine-request", tool, map[string]any{"feedback": fb, "applied": false, "error": err.Error()})
		writePreviewError(w, http.StatusBadGateway, jsonrpc.CodeInternalError, "refine failed: "+err.Error())
		return
	}
	// Already applied: the agent must not call _ui_refine again for it.
	s.e.Push("preview", "refine-request", tool, map[string]any{"feedback": fb, "applied": true})
	writeJSON(w, http.StatusOK, map[string]any{"result": map[string]any{"tool": res.Tool, "uiType": res.Meta.UIType,
		"ms": res.Duration.Milliseconds(), "refinements": res.Refinements, "warnings": res.Notes, "cacheKey": res.CacheKey}})
}

// handlePreviewResource answers the view's resources/read: genui's own
// ui:// resources from the engine, anything else from the upstream.
func (s *Server) handlePreviewResource(w http.ResponseWriter, r *http.Request) {
	var p struct {
		URI string `json:"uri"`
	}
	if !readPreviewBody(w, r, &p) {
		return
	}
	if p.URI == "" {
		writePreviewError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams, "resources/read needs a uri")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	if strings.HasPrefix(p.URI, pagepack.DeferredPrefix) { // an offline page's rich views
		c, err := s.e.ReadResource(ctx, p.URI)
		if err != nil {
			writePreviewError(w, http.StatusNotFound, jsonrpc.CodeResourceNotFound, errorText(err))
			return
		}
		writeJSON(w, http.StatusOK, map[string]json.RawMessage{"result": c.Raw})
		return
	}
	if name, ok := contract.ToolFromURI(p.URI); ok {
		if t, ok := s.tools.Get(name); ok && t.OwnUI == "" {
			ui, err := s.e.UI(ctx, name)
			if err != nil {
				writePreviewError(w, http.StatusBadGateway, jsonrpc.CodeInternalError, fmt.Sprintf("UI of %s: %v", name, err))
				return
			}
			writeJSON(w, http.StatusOK, map[string]any{"result": map[string]any{"contents": []any{map[string]any{
				"uri": p.URI, "mimeType": contract.MIMEApp, "text": ui.HTML}}}})
			return
		}
	}
	params, _ := json.Marshal(map[string]string{"uri": p.URI})
	s.upstreamPassthrough(w, ctx, "resources/read", params)
}

// handlePreviewResources answers the view's resources/list from the upstream.
func (s *Server) handlePreviewResources(w http.ResponseWriter, r *http.Request) {
	var p map[string]json.RawMessage
	if !readPreviewBody(w, r, &p) {
		return
	}
	if p == nil {
		writePreviewError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams, "resources/list params must be a JSON object (e.g. {} or {\"cursor\": \"...\"})")
		return
	}
	params, _ := json.Marshal(p)
	ctx, cancel := context.WithTimeout(r.Context(), previewCallTimeout)
	defer cancel()
	s.upstreamPassthrough(w, ctx, "resources/list", params)
}

func (s *Server) upstreamPassthrough(w http.ResponseWriter, ctx context.Context, method string, params json.RawMessage) {
	if err := s.up.Wait(ctx); err != nil {
		writePreviewError(w, http.StatusServiceUnavailable, jsonrpc.CodeUpstreamUnavailable, method+": "+errorText(err))
		return
	}
	res, err := s.up.Forward(ctx, method, params)
	if err != nil {
		code, msg := jsonrpc.CodeInternalError, err.Error()
		if je := jsonrpc.AsError(err); je != nil {
			code, msg = je.Code, je.Message
		}
		writePreviewError(w, http.StatusBadGateway, code, method+": "+msg)
		return
	}
	writeJSON(w, http.StatusOK, map[string]json.RawMessage{"result": res})
}
