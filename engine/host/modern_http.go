package host

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Streamable HTTP for the 2026-07-28 revision: no sessions (an incoming
// Mcp-Session-Id is ignored, none is minted), the request metadata headers
// (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*) must match the
// body, and errors have their HTTP statuses: 400 for unsupported version,
// header mismatch and missing capability, 404 for an unknown method.
// Closing the response stream cancels the request. A request is answered
// with one JSON object unless something precedes the response (progress,
// log messages, a listen's notifications): then with an SSE stream.

// handleModernPost serves a modern request POSTed to /mcp.
func (s *Server) handleModernPost(w http.ResponseWriter, r *http.Request, msg *jsonrpc.Message, frame []byte) {
	if !msg.IsRequest() {
		// The revision has no client notifications over HTTP (closing a
		// stream is the cancellation); accept and ignore them.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	meta := readRequestMeta(msg.Params)
	if !meta.present {
		writeRPCError(w, http.StatusBadRequest, msg.ID, jsonrpc.Errorf(CodeHeaderMismatch,
			"Header mismatch: MCP-Protocol-Version %q names the stateless revision, but the body's _meta has no %s",
			r.Header.Get("Mcp-Protocol-Version"), metaProtocolVersion))
		return
	}
	if meta.version != modernVersion {
		writeRPCError(w, http.StatusBadRequest, msg.ID, unsupportedVersion(meta.version))
		return
	}
	if err := s.checkRequestHeaders(r, msg, meta); err != nil {
		writeRPCError(w, http.StatusBadRequest, msg.ID, err)
		return
	}
	sse := strings.Contains(r.Header.Get("Accept"), "text/event-stream")
	if msg.Method == "subscriptions/listen" && !sse {
		writeRPCError(w, http.StatusNotAcceptable, msg.ID, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
			"subscriptions/listen answers with an SSE stream: Accept must include text/event-stream"))
		return
	}
	sess := s.NewSession(newSessionID(), nil)
	sess.mu.Lock()
	sess.era, sess.protocol = eraModern, modernVersion
	sess.mu.Unlock()
	defer sess.Close()
	lr := &lazyReply{w: w, id: msg.ID, sse: sse}
	if msg.Method == "subscriptions/listen" {
		lr.timeout = s.opts.ListenStallTimeout // a listener that stops reading is cut
	}
	sess.HandleFrame(r.Context(), frame, lr)
	lr.finish()
}

// writeRPCError writes a JSON-RPC error response with an HTTP status.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, err *jsonrpc.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(jsonrpc.NewErrorResponse(id, err))
}

// httpStatusFor is the HTTP status of a modern error response.
func httpStatusFor(code int) int {
	switch code {
	case CodeHeaderMismatch, CodeMissingClientCapability, CodeUnsupportedVersion:
		return http.StatusBadRequest
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	}
	return http.StatusOK
}

// lazyReply answers with JSON when the response is the first frame, or
// switches to SSE at the first frame that precedes it.
type lazyReply struct {
	mu   sync.Mutex
	w    http.ResponseWriter
	id   json.RawMessage
	sse  bool
	sw   *sseWriter
	done bool
	// timeout bounds each SSE write (0: sseWriteTimeout).
	timeout time.Duration
}

func (l *lazyReply) Send(frame []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return errNoStream
	}
	if l.sw != nil {
		return l.sw.Send(frame)
	}
	m, err := jsonrpc.Parse(frame)
	if err == nil && m.IsResponse() && string(m.ID) == string(l.id) {
		status := http.StatusOK
		if m.Error != nil {
			status = httpStatusFor(m.Error.Code)
		}
		l.w.Header().Set("Content-Type", "application/json")
		l.w.WriteHeader(status)
		_, err := l.w.Write(frame)
		l.done = true
		return err
	}
	if !l.sse {
		return errNoStream // a JSON-only client gets the response alone
	}
	l.sw = newSSE(l.w)
	l.sw.timeout = l.timeout
	l.w.WriteHeader(http.StatusOK)
	return l.sw.Send(frame)
}

// finish ends the response after the request is done.
func (l *lazyReply) finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sw != nil {
		l.sw.close()
	}
	l.done = true
}

// checkRequestHeaders validates the request metadata headers against the
// body (HeaderMismatch, -32020, when they are missing or differ).
func (s *Server) checkRequestHeaders(r *http.Request, msg *jsonrpc.Message, meta requestMeta) *jsonrpc.Error {
	mismatch := func(format string, args ...any) *jsonrpc.Error {
		return jsonrpc.Errorf(CodeHeaderMismatch, "Header mismatch: "+format, args...)
	}
	pv := r.Header.Get("Mcp-Protocol-Version")
	switch {
	case pv == "":
		return mismatch("the MCP-Protocol-Version header is required")
	case pv != meta.version:
		return mismatch("MCP-Protocol-Version header value %q does not match body value %q", pv, meta.version)
	}
	switch m := r.Header.Get("Mcp-Method"); {
	case m == "":
		return mismatch("the Mcp-Method header is required")
	case m != msg.Method:
		return mismatch("Mcp-Method header value %q does not match body value %q", m, msg.Method)
	}
	var p struct {
		Name      string                     `json:"name"`
		URI       string                     `json:"uri"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(msg.Params, &p)
	var want string
	switch msg.Method {
	case "tools/call", "prompts/get":
		want = p.Name
	case "resources/read":
		want = p.URI
	default:
		return nil
	}
	raw, ok := r.Header[http.CanonicalHeaderKey("Mcp-Name")]
	if !ok || len(raw) != 1 {
		return mismatch("the Mcp-Name header is required for %s", msg.Method)
	}
	got, err := decodeHeaderValue(raw[0])
	if err != nil {
		return mismatch("Mcp-Name: %v", err)
	}
	if got != want {
		return mismatch("Mcp-Name header value %q does not match body value %q", got, want)
	}
	if msg.Method == "tools/call" {
		return s.checkParamHeaders(r, p.Name, p.Arguments)
	}
	return nil
}

// decodeHeaderValue decodes the Base64 sentinel form =?base64?...?=.
func decodeHeaderValue(v string) (string, error) {
	for _, c := range v {
		if c != '\t' && (c < 0x20 || c > 0x7e) {
			return "", fmt.Errorf("the value contains characters a header may not carry")
		}
	}
	inner, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v, nil
	}
	inner, ok = strings.CutSuffix(inner, "?=")
	if !ok {
		return v, nil
	}
	b, err := base64.StdEncoding.DecodeString(inner)
	if err != nil {
		return "", fmt.Errorf("bad base64 value: %v", err)
	}
	return string(b), nil
}

// checkParamHeaders validates the Mcp-Param-* headers of a tools/call
// against the arguments at the properties the tool's inputSchema marks with
// x-mcp-header.
func (s *Server) checkParamHeaders(r *http.Request, tool string, args map[string]json.RawMessage) *jsonrpc.Error {
	t, ok := s.tools.Get(tool)
	if !ok {
		return nil // unknown tools fail in dispatch
	}
	var def struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	_ = json.Unmarshal(t.Raw, &def)
	argsRaw, _ := json.Marshal(args)
	for _, h := range headerParams(def.InputSchema, nil) {
		header := "Mcp-Param-" + h.name
		value, present := valueAt(argsRaw, h.path)
		got, sent := r.Header[http.CanonicalHeaderKey(header)]
		switch {
		case !present && !sent:
			continue
		case !present:
			return jsonrpc.Errorf(CodeHeaderMismatch, "Header mismatch: %s is sent but the argument %s is absent", header, strings.Join(h.path, "."))
		case !sent || len(got) != 1:
			return jsonrpc.Errorf(CodeHeaderMismatch, "Header mismatch: the %s header is required (argument %s is set)", header, strings.Join(h.path, "."))
		}
		decoded, err := decodeHeaderValue(got[0])
		if err != nil {
			return jsonrpc.Errorf(CodeHeaderMismatch, "Header mismatch: %s: %v", header, err)
		}
		if !headerMatches(decoded, value) {
			return jsonrpc.Errorf(CodeHeaderMismatch, "Header mismatch: %s header value %q does not match the argument %s", header, decoded, strings.Join(h.path, "."))
		}
	}
	return nil
}

type headerParam struct {
	name string
	path []string
}

// headerParams lists the x-mcp-header annotations under schema's
// properties, with their property paths.
func headerParams(schema json.RawMessage, path []string) []headerParam {
	var sc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &sc) != nil {
		return nil
	}
	var out []headerParam
	for name, prop := range sc.Properties {
		p := append(append([]string(nil), path...), name)
		var ann struct {
			Header string `json:"x-mcp-header"`
		}
		if json.Unmarshal(prop, &ann) == nil && ann.Header != "" {
			out = append(out, headerParam{name: ann.Header, path: p})
		}
		out = append(out, headerParams(prop, p)...)
	}
	return out
}

// valueAt reads the JSON value at path in raw; null counts as absent.
func valueAt(raw json.RawMessage, path []string) (json.RawMessage, bool) {
	for _, k := range path {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil, false
		}
		v, ok := m[k]
		if !ok {
			return nil, false
		}
		raw = v
	}
	if string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

// headerMatches compares a decoded header value with a JSON argument:
// strings as they are, numbers numerically, booleans as true/false.
func headerMatches(header string, value json.RawMessage) bool {
	var v any
	if json.Unmarshal(value, &v) != nil {
		return false
	}
	switch x := v.(type) {
	case string:
		return header == x
	case bool:
		return header == strconv.FormatBool(x)
	case float64:
		f, err := strconv.ParseFloat(header, 64)
		return err == nil && f == x
	}
	return false
}
