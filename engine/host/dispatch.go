package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// defaultReadyTimeout is the default of Options.ReadyTimeout.
const defaultReadyTimeout = 30 * time.Second

// defaultToolsPageSize is the default of Options.ToolsPageSize: ordinary
// servers' tools fit one page.
const defaultToolsPageSize = 1000

func (sess *Session) dispatch(ctx context.Context, msg *jsonrpc.Message, reply Sender, log *reqLog) (json.RawMessage, error) {
	s := sess.srv
	if strings.HasPrefix(msg.Method, "resources/") {
		// Which resources are genui's and whether the upstream has any
		// depends on the upstream's first handshake and tools/list.
		if err := s.waitReady(ctx); err != nil {
			return nil, err
		}
	}
	switch msg.Method {
	case "tools/list":
		return sess.listTools(ctx, msg.Params)
	case "tools/call":
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(msg.Params, &p); err != nil || p.Name == "" {
			return nil, errorf(jsonrpc.CodeInvalidParams, "tools/call: params need a tool name")
		}
		if !s.opts.NoWrappers && IsWrapper(p.Name) {
			log.Info("wrapper tool call", "tool", p.Name)
			return s.callWrapper(ctx, p.Name, p.Arguments)
		}
		pol, start := s.e.HistoryPolicy(p.Name), time.Now()
		res, err := sess.forward(ctx, msg, reply)
		if err == nil {
			s.e.ObserveResult(p.Name, p.Arguments, res, time.Since(start)) // one real result shows the LLM the data's shape
		}
		if pol.Record {
			sess.recordCall(ctx, p.Name, p.Arguments, res, err, pol, start)
		}
		return res, err
	case "resources/list":
		return sess.listResources(ctx, msg, reply)
	case "resources/read":
		return sess.readResource(ctx, msg, reply)
	case "resources/subscribe", "resources/unsubscribe":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		if s.ownsURI(p.URI) {
			sess.mu.Lock()
			if msg.Method == "resources/subscribe" {
				sess.subs[p.URI] = true
			} else {
				delete(sess.subs, p.URI)
			}
			sess.mu.Unlock()
			return json.RawMessage("{}"), nil
		}
		return sess.holdUpstream(ctx, msg.Method == "resources/subscribe", p.URI)
	case "resources/templates/list":
		return sess.listResourceTemplates(ctx, msg, reply)
	default:
		// prompts/*, completion/complete,
		// logging/setLevel, tasks/* and anything newer: verbatim.
		return sess.forward(ctx, msg, reply)
	}
}

// holdUpstream serves a legacy session's resources/subscribe (or
// unsubscribe) of an upstream resource: the session takes (or lets go of)
// a hold on genui's one upstream subscription to it.
func (sess *Session) holdUpstream(ctx context.Context, subscribe bool, uri string) (json.RawMessage, error) {
	s := sess.srv
	if uri == "" {
		return nil, errorf(jsonrpc.CodeInvalidParams, "resources/subscribe: params need a uri")
	}
	sess.mu.Lock()
	held := sess.upHeld[uri]
	sess.mu.Unlock()
	switch {
	case subscribe && !held:
		if err := s.waitUpstream(ctx); err != nil {
			return nil, err
		}
		markProxied(ctx)
		if err := s.acquireUpstream(ctx, uri); err != nil {
			return nil, rpcError(err)
		}
		sess.mu.Lock()
		if sess.closed || sess.upHeld[uri] {
			sess.mu.Unlock()
			s.releaseUpstreamAll([]string{uri}) // closed meanwhile, or held twice
			return json.RawMessage("{}"), nil
		}
		if sess.upHeld == nil {
			sess.upHeld = map[string]bool{}
		}
		sess.upHeld[uri] = true
		sess.mu.Unlock()
	case !subscribe && held:
		sess.mu.Lock()
		delete(sess.upHeld, uri)
		sess.mu.Unlock()
		s.releaseUpstream(uri)
	}
	return json.RawMessage("{}"), nil
}

func (s *Server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.ReadyTimeout)
	defer cancel()
	if err := s.tools.WaitReady(ctx); err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeUpstreamUnavailable, Message: err.Error()}
	}
	return nil
}

// forward sends a host request upstream verbatim and returns the upstream's
// result (or error) verbatim. Progress for its token, and server-to-client
// requests made while it runs, are routed back to this host.
func (sess *Session) forward(ctx context.Context, msg *jsonrpc.Message, reply Sender) (json.RawMessage, error) {
	s := sess.srv
	markProxied(ctx)
	r := &route{sess: sess, reply: reply, ask: askFrom(ctx), seq: s.up.NextCallSeq()}
	if m, ok := metaFrom(ctx); ok {
		r.logLevel = m.logLevel
	}
	token := progressToken(msg.Params)
	params := msg.Params
	if token != "" {
		// The upstream sees a token of genui's own: hosts' tokens collide
		// across sessions, and the upstream client re-encodes what it
		// echoes (float64 numbers, escaped strings).
		r.token = json.RawMessage(token)
		upTok := fmt.Sprintf("genui-p-%d", s.nextID.Add(1))
		p, err := setProgressToken(msg.Params, json.RawMessage(strconv.Quote(upTok)))
		if err != nil {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s: %v", msg.Method, err)
		}
		params, token = p, upTok
	}
	s.mu.Lock()
	if token != "" {
		s.progress[token] = r
	}
	s.active = append(s.active, r)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if token != "" && s.progress[token] == r {
			delete(s.progress, token)
		}
		for i, a := range s.active {
			if a == r {
				s.active = append(s.active[:i], s.active[i+1:]...)
				break
			}
		}
		s.mu.Unlock()
	}()
	if err := s.waitUpstream(ctx); err != nil {
		return nil, err
	}
	return s.up.Forward(ctx, msg.Method, params)
}

// setProgressToken returns params with _meta.progressToken set to tok,
// everything else kept.
func setProgressToken(params, tok json.RawMessage) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	var meta map[string]json.RawMessage
	if err := json.Unmarshal(p["_meta"], &meta); err != nil {
		return nil, err
	}
	if meta == nil {
		// progressToken found a token, so _meta was given more than once
		// (the last one null): which one counts is anyone's guess.
		return nil, errors.New("_meta must be one JSON object (given more than once?)")
	}
	meta["progressToken"] = tok
	var err error
	if p["_meta"], err = marshalRaw(meta); err != nil {
		return nil, err
	}
	return marshalRaw(p)
}

// marshalRaw encodes without HTML-escaping, so raw values stay byte-exact.
func marshalRaw(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(buf.Bytes()), nil
}

// waitUpstream lets a request that arrives while the upstream is starting or
// restarting wait for it, bounded (engine.WaitUpstream); requests already in
// flight when it dies fail at once (the upstream client does that).
func (s *Server) waitUpstream(ctx context.Context) error {
	if err := s.up.Wait(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return rpcError(err)
	}
	return nil
}

// rpcError turns an engine error into the JSON-RPC error hosts get.
func rpcError(err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	e := contract.AsError(err)
	switch e.Code {
	case contract.CodeUpstreamUnavailable:
		return &jsonrpc.Error{Code: jsonrpc.CodeUpstreamUnavailable, Message: e.Message}
	case contract.CodeInvalidArgument:
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: e.Message}
	case contract.CodeUnknownTool:
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: e.Message}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: e.Message}
}

// progressToken returns the request's _meta.progressToken as raw JSON text.
func progressToken(params json.RawMessage) string {
	var p struct {
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.Meta.ProgressToken) == 0 {
		return ""
	}
	return string(p.Meta.ProgressToken)
}

func (s *Server) upstreamHas(capability string) bool {
	var init struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if raw := s.up.InitializeResult(); len(raw) > 0 {
		_ = json.Unmarshal(raw, &init)
	}
	_, ok := init.Capabilities[capability]
	return ok
}

// ownsURI reports whether uri is one of genui's own UI resources (a current
// tool without a UI of its own).
func (s *Server) ownsURI(uri string) bool {
	name, ok := contract.ToolFromURI(uri)
	if !ok {
		return false
	}
	t, ok := s.tools.Get(name)
	return ok && t.HasGeneratedUI()
}

func (sess *Session) listResources(ctx context.Context, msg *jsonrpc.Message, reply Sender) (json.RawMessage, error) {
	s := sess.srv
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(msg.Params, &p)
	result := map[string]json.RawMessage{}
	var upstream []json.RawMessage
	if s.upstreamHas("resources") {
		res, err := sess.forward(ctx, msg, reply)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(res, &result); err != nil {
			return nil, errorf(jsonrpc.CodeInternalError, "upstream resources/list result is not an object: %v", err)
		}
		if r, ok := result["resources"]; ok {
			if err := json.Unmarshal(r, &upstream); err != nil {
				return nil, errorf(jsonrpc.CodeInternalError, "upstream resources/list: resources is not an array: %v", err)
			}
		}
	}
	var ours []json.RawMessage
	if p.Cursor == "" && s.opts.UIMetadata != UIMetaNever {
		if err := s.waitReady(ctx); err == nil {
			for _, t := range s.tools.List() {
				if !t.HasGeneratedUI() {
					continue
				}
				b, _ := json.Marshal(map[string]any{
					"uri":         contract.UIURI(t.Name),
					"name":        t.Name + " UI",
					"title":       "UI for " + t.Name,
					"description": "Interactive MCP App generated by genui for the tool " + t.Name,
					"mimeType":    contract.MIMEApp,
				})
				ours = append(ours, b)
			}
		}
	}
	if p.Cursor == "" {
		ours = append(ours, s.extraList()...)
	}
	all := append(upstream, ours...)
	if all == nil {
		all = []json.RawMessage{}
	}
	result["resources"], _ = json.Marshal(all)
	return json.Marshal(result)
}

func (sess *Session) readResource(ctx context.Context, msg *jsonrpc.Message, reply Sender) (json.RawMessage, error) {
	s := sess.srv
	var p struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(msg.Params, &p); err != nil || p.URI == "" {
		return nil, errorf(jsonrpc.CodeInvalidParams, "resources/read: params need a uri")
	}
	if strings.HasPrefix(p.URI, contract.PageBlockURIPrefix) { // an offline page's rich views
		c, err := s.e.ReadResource(ctx, p.URI)
		if err != nil { // the engine's reason (another genui build's page) goes to the page's note
			return nil, resourceNotFoundWhy(p.URI, err.Error())
		}
		return c.Raw, nil
	}
	if strings.HasPrefix(p.URI, "ui://") {
		if err := s.waitReady(ctx); err != nil {
			return nil, err
		}
	}
	if r, ok := s.extraResource(p.URI); ok {
		return s.readExtra(ctx, r)
	}
	if s.ownsURI(p.URI) {
		name, _ := contract.ToolFromURI(p.URI)
		ui, err := s.e.UI(ctx, name)
		if err != nil {
			if errors.Is(err, contract.ErrUnknownTool) {
				return nil, resourceNotFound(p.URI)
			}
			return nil, errorf(jsonrpc.CodeInternalError, "UI for %s: %v", name, err)
		}
		res, err := s.uiReadResult(p.URI, ui)
		if err == nil {
			markReady(ctx)
		}
		return res, err
	}
	if !s.upstreamHas("resources") {
		return nil, resourceNotFound(p.URI)
	}
	res, err := sess.forward(ctx, msg, reply)
	if err != nil && strings.HasPrefix(p.URI, "ui://") {
		var je *jsonrpc.Error
		if errors.As(err, &je) && je.Code != jsonrpc.CodeUpstreamUnavailable {
			return nil, resourceNotFound(p.URI)
		}
	}
	return res, err
}

func resourceNotFound(uri string) error { return resourceNotFoundWhy(uri, "") }

// resourceNotFoundWhy is resourceNotFound with the reason in its message.
func resourceNotFoundWhy(uri, why string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	msg := "Resource not found"
	if why != "" {
		msg += ": " + why
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeResourceNotFound, Message: msg, Data: data}
}

// uiReadResult encodes a resources/read result for a UI, memoized per URI
// and cache key: cached UIs are read far more often than they change. The
// result is compact, ASCII only (non-ASCII characters escaped as \uXXXX,
// so a Node client's decoder stays on its fast path) and never modified,
// so it is written to a host without a copy.
func (s *Server) uiReadResult(uri string, ui contract.UIView) (json.RawMessage, error) {
	type memo struct {
		key  string
		html string
		res  json.RawMessage
	}
	if v, ok := s.readMemo.Load(uri); ok {
		if m := v.(memo); m.key == ui.CacheKey && m.html == ui.HTML {
			return m.res, nil
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"contents": []any{map[string]any{
		"uri":      uri,
		"mimeType": contract.MIMEApp,
		"text":     ui.HTML,
		"_meta":    map[string]any{"ui": map[string]any{"prefersBorder": true}},
	}}}); err != nil {
		return nil, err
	}
	res := json.RawMessage(jsonrpc.ASCII(bytes.TrimSpace(buf.Bytes())))
	if ui.FromCache || ui.CacheKey != "" {
		s.readMemo.Store(uri, memo{key: ui.CacheKey, html: ui.HTML, res: res})
	}
	return res, nil
}

// listResourceTemplates answers resources/templates/list. genui always
// advertises resources, so a client may ask even when the upstream has none
// (or has resources but no templates and answers -32601): that is an empty
// list, not an error.
func (sess *Session) listResourceTemplates(ctx context.Context, msg *jsonrpc.Message, reply Sender) (json.RawMessage, error) {
	empty := json.RawMessage(`{"resourceTemplates":[]}`)
	if !sess.srv.upstreamHas("resources") {
		return empty, nil
	}
	res, err := sess.forward(ctx, msg, reply)
	var je *jsonrpc.Error
	if err != nil && errors.As(err, &je) && je.Code == jsonrpc.CodeMethodNotFound {
		return empty, nil
	}
	return res, err
}
