package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// The stateless 2026-07-28 revision ("modern"), served beside the
// handshake-based revisions ("legacy") on every transport. A request whose
// _meta carries io.modelcontextprotocol/protocolVersion is modern: it is
// served on its own, with the client capabilities it declares, and its
// result carries resultType (plus ttlMs/cacheScope for cacheable results
// and genui's serverInfo). What the revision changed for a proxy:
//   - no initialize, ping, logging/setLevel, resources/(un)subscribe;
//   - change notifications only on subscriptions/listen streams, tagged
//     with the listen request's id; log messages only for requests that set
//     io.modelcontextprotocol/logLevel;
//   - no server-to-client requests: when the upstream (a legacy server)
//     asks for sampling, elicitation or roots during a call, the client gets
//     an input_required result and retries with inputResponses and the
//     opaque requestState, which genui maps back to the waiting upstream
//     call (multi round-trip requests);
//   - resource not found is -32602.

// _meta keys and error codes of the 2026-07-28 revision.
const (
	metaClientInfo     = "io.modelcontextprotocol/clientInfo"
	metaClientCaps     = "io.modelcontextprotocol/clientCapabilities"
	metaLogLevel       = "io.modelcontextprotocol/logLevel"
	metaServerInfo     = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

	CodeHeaderMismatch          = -32020
	CodeMissingClientCapability = -32021
	CodeUnsupportedVersion      = -32022
)

// mrtrKeep bounds how long an upstream call waits for the client to retry
// with the input it asked for.
const mrtrKeep = 5 * time.Minute

// modernState is the Server's state for the modern revision.
type modernState struct {
	mu      sync.Mutex
	calls   map[string]*mrtrCall // requestState -> the upstream call waiting for input
	listens int                  // open subscriptions/listen requests
	closing chan struct{}        // closed by Shutdown: listen streams end gracefully
	once    sync.Once
}

func (m *modernState) init() {
	m.once.Do(func() {
		m.calls = map[string]*mrtrCall{}
		m.closing = make(chan struct{})
	})
}

// openListen counts a new listen, or refuses it at limit.
func (m *modernState) openListen(limit int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.listens >= limit {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidRequest,
			"too many open subscriptions/listen streams (%d, mcp.listen.maxStreams): end one or retry later", m.listens)
	}
	m.listens++
	return nil
}

// closeListen uncounts a listen openListen counted.
func (m *modernState) closeListen() {
	m.mu.Lock()
	m.listens--
	m.mu.Unlock()
}

// Shutdown ends every subscriptions/listen stream with its graceful result
// (call it before closing the transports).
func (s *Server) Shutdown() {
	s.modern.init()
	s.modern.mu.Lock()
	defer s.modern.mu.Unlock()
	select {
	case <-s.modern.closing:
	default:
		close(s.modern.closing)
	}
}

// requestMeta is what a request's _meta says about the modern revision.
type requestMeta struct {
	version  string
	present  bool
	caps     json.RawMessage
	info     json.RawMessage // clientInfo
	logLevel string
}

func readRequestMeta(params json.RawMessage) requestMeta {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	var m requestMeta
	if json.Unmarshal(params, &p) != nil {
		return m
	}
	v, ok := p.Meta[metaProtocolVersion]
	if !ok {
		return m
	}
	m.present = true
	_ = json.Unmarshal(v, &m.version)
	m.caps = p.Meta[metaClientCaps]
	m.info = p.Meta[metaClientInfo]
	_ = json.Unmarshal(p.Meta[metaLogLevel], &m.logLevel)
	return m
}

// isModernRequest reports whether a request uses the modern revision.
func isModernRequest(msg *jsonrpc.Message) bool {
	return msg.Method != "initialize" && readRequestMeta(msg.Params).present
}

// supportedVersions lists every revision genui serves, newest first.
func supportedVersions() []string { return append([]string{modernVersion}, legacyVersions...) }

func unsupportedVersion(requested string) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]any{"supported": supportedVersions(), "requested": requested})
	return &jsonrpc.Error{Code: CodeUnsupportedVersion, Message: "Unsupported protocol version", Data: data}
}

type ctxKey int

const (
	ctxRequestMeta ctxKey = iota
	ctxAsk
)

func metaFrom(ctx context.Context) (requestMeta, bool) {
	m, ok := ctx.Value(ctxRequestMeta).(requestMeta)
	return m, ok
}

// askFunc relays a server-to-client request of the upstream to a modern
// client (through an input_required result) and returns its answer.
type askFunc func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

func askFrom(ctx context.Context) askFunc {
	f, _ := ctx.Value(ctxAsk).(askFunc)
	return f
}

// isModern reports whether the session speaks the modern revision (it sent
// modern requests and no initialize).
func (sess *Session) isModern() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.era == eraModern
}

// Session eras.
const (
	eraLegacy = "legacy"
	eraModern = "modern"
)

// uiCapableCaps reports whether client capabilities declare MCP Apps.
func uiCapableCaps(caps json.RawMessage) bool {
	var c struct {
		Extensions   map[string]json.RawMessage `json:"extensions"`
		Experimental map[string]json.RawMessage `json:"experimental"`
	}
	_ = json.Unmarshal(caps, &c)
	_, a := c.Extensions[ExtensionID]
	_, b := c.Experimental[ExtensionID]
	return a || b
}

// showUIFor is showUI for one request: a modern request declares its own
// capabilities and nothing is inferred from earlier ones.
func (sess *Session) showUIFor(ctx context.Context) bool {
	if m, ok := metaFrom(ctx); ok && sess.srv.opts.UIMetadata == UIMetaAuto {
		return uiCapableCaps(m.caps)
	}
	return sess.showUI()
}

// handleModern serves one modern request.
func (sess *Session) handleModern(ctx context.Context, msg *jsonrpc.Message, reply Sender, log *reqLog) (json.RawMessage, error) {
	s := sess.srv
	s.modern.init()
	meta := readRequestMeta(msg.Params)
	if meta.version != modernVersion {
		return nil, unsupportedVersion(meta.version)
	}
	if len(meta.caps) > 0 {
		// A modern host never initializes: its first request's
		// capabilities are the ones the upstream may wait for.
		s.setFirstHostInit(sess.isStdio(), meta.caps, meta.info)
	}
	sess.mu.Lock()
	if sess.era == "" {
		sess.era, sess.protocol = eraModern, modernVersion
	}
	sess.mu.Unlock()
	ctx = context.WithValue(ctx, ctxRequestMeta, meta)
	var res json.RawMessage
	var err error
	switch msg.Method {
	case "server/discover":
		if _, err := s.waitHandshake(ctx); err != nil {
			return nil, err
		}
		return s.discover(), nil
	case "subscriptions/listen":
		res, err = sess.listen(ctx, msg, reply)
	case "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "Method not found: %s is not part of protocol revision %s", msg.Method, modernVersion)
	case "tools/call", "prompts/get", "resources/read":
		res, err = sess.roundTrips(ctx, msg, reply)
	default:
		res, err = sess.dispatch(ctx, stripModernMeta(msg), reply, log)
	}
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) && je.Code == jsonrpc.CodeResourceNotFound {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: je.Message, Data: je.Data}
		}
		return nil, err
	}
	return sess.srv.modernResult(msg.Method, res)
}

// stripModernMeta returns msg with the revision's reserved _meta keys
// removed from its params: the upstream speaks a legacy revision, and a
// dual-era upstream would take the envelope for a modern request.
func stripModernMeta(msg *jsonrpc.Message) *jsonrpc.Message {
	var p map[string]json.RawMessage
	if json.Unmarshal(msg.Params, &p) != nil || p == nil {
		return msg
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(p["_meta"], &meta) != nil {
		return msg
	}
	for _, k := range []string{metaProtocolVersion, metaClientInfo, metaClientCaps, metaLogLevel} {
		delete(meta, k)
	}
	if len(meta) == 0 {
		delete(p, "_meta")
	} else if b, err := marshalRaw(meta); err == nil {
		p["_meta"] = b
	}
	delete(p, "inputResponses")
	delete(p, "requestState")
	b, err := marshalRaw(p)
	if err != nil {
		return msg
	}
	out := *msg
	out.Params = b
	return &out
}

// cacheable lists the methods whose results are CacheableResults.
var cacheable = map[string]bool{"tools/list": true, "prompts/list": true, "resources/list": true,
	"resources/read": true, "resources/templates/list": true, "server/discover": true}

// modernResult adds the fields the revision requires to a result: resultType
// ("complete" unless set), ttlMs and cacheScope on cacheable results (0:
// genui's lists and UIs can change at any time; private: they may depend on
// the client's capabilities), and genui's serverInfo in _meta.
func (s *Server) modernResult(method string, res json.RawMessage) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res, &m); err != nil || m == nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "%s: the result is not an object", method)
	}
	if _, ok := m["resultType"]; !ok {
		m["resultType"] = json.RawMessage(`"complete"`)
	}
	if cacheable[method] && string(m["resultType"]) == `"complete"` {
		if _, ok := m["ttlMs"]; !ok {
			m["ttlMs"] = json.RawMessage(`0`)
		}
		if _, ok := m["cacheScope"]; !ok {
			m["cacheScope"] = json.RawMessage(`"private"`)
		}
	}
	var meta map[string]json.RawMessage
	_ = json.Unmarshal(m["_meta"], &meta)
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	if _, ok := meta[metaServerInfo]; !ok {
		meta[metaServerInfo], _ = json.Marshal(s.serverInfo())
	}
	var err error
	if m["_meta"], err = marshalRaw(meta); err != nil {
		return nil, err
	}
	return marshalRaw(m)
}

func (s *Server) serverInfo() map[string]any {
	return map[string]any{"name": "genui", "title": "genui (MCP Apps proxy)", "version": s.opts.Version}
}

// modernCapabilities are the capabilities for modern clients: the legacy
// revision's "tasks" (replaced by an extension with another protocol) is
// left out.
func (s *Server) modernCapabilities() map[string]json.RawMessage {
	caps := s.capabilities()
	delete(caps, "tasks")
	return caps
}

// Log levels in increasing severity.
var logLevels = map[string]int{"debug": 0, "info": 1, "notice": 2, "warning": 3, "error": 4, "critical": 5, "alert": 6, "emergency": 7}

// sendModern delivers a session-level notification to a modern session:
// change notifications to the listen streams that asked for them, log
// messages to the newest in-flight request that set a log level admitting
// them, nothing else.
func (sess *Session) sendModern(frame []byte) {
	m, err := jsonrpc.Parse(frame)
	if err != nil || m.Method == "" {
		return
	}
	if m.Method == "notifications/message" {
		var p struct {
			Level string `json:"level"`
		}
		_ = json.Unmarshal(m.Params, &p)
		s := sess.srv
		s.mu.Lock()
		var r *route
		for i := len(s.active) - 1; i >= 0; i-- {
			a := s.active[i]
			if a.sess == sess && a.logLevel != "" && logLevels[p.Level] >= logLevels[a.logLevel] {
				r = a
				break
			}
		}
		s.mu.Unlock()
		if r != nil {
			_ = r.reply.Send(frame)
		}
		return
	}
	sess.mu.Lock()
	subs := append([]*listenSub(nil), sess.listens...)
	sess.mu.Unlock()
	for _, sub := range subs {
		if sub.wants(m) {
			sub.send(m)
		}
	}
}

// newToken returns an unguessable opaque string.
func newToken() string {
	var b [18]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
