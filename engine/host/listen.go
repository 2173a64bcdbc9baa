package host

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// subscriptions/listen (2026-07-28): a long-lived request whose response
// stream carries the change notifications the client opted in to, each
// tagged with the listen request's id. It replaces the GET stream and
// resources/subscribe. The request ends when the client cancels it
// (closing the HTTP stream, or notifications/cancelled on stdio; no
// response then) or when genui ends it (Shutdown, the session closing:
// a graceful result).

// subscriptionFilter is the revision's SubscriptionFilter.
type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// listenSub is one open subscriptions/listen request.
type listenSub struct {
	id     json.RawMessage
	filter subscriptionFilter
	reply  Sender
	// mu is held from registration until the acknowledgement is sent, so
	// a change that happens meanwhile is delivered, and after it.
	mu sync.Mutex
}

// wants reports whether the subscription asked for notification m.
func (l *listenSub) wants(m *jsonrpc.Message) bool {
	switch m.Method {
	case "notifications/tools/list_changed":
		return l.filter.ToolsListChanged
	case "notifications/prompts/list_changed":
		return l.filter.PromptsListChanged
	case "notifications/resources/list_changed":
		return l.filter.ResourcesListChanged
	case "notifications/resources/updated":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(m.Params, &p)
		return slices.Contains(l.filter.ResourceSubscriptions, p.URI)
	}
	return false
}

// send delivers m on the subscription's stream with its subscription id.
func (l *listenSub) send(m *jsonrpc.Message) {
	var p map[string]json.RawMessage
	_ = json.Unmarshal(m.Params, &p)
	if p == nil {
		p = map[string]json.RawMessage{}
	}
	var meta map[string]json.RawMessage
	_ = json.Unmarshal(p["_meta"], &meta)
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[metaSubscriptionID] = l.id
	p["_meta"], _ = marshalRaw(meta)
	params, err := marshalRaw(p)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.reply.Send(jsonrpc.NewNotification(m.Method, params))
}

// listen serves subscriptions/listen until it ends.
func (sess *Session) listen(ctx context.Context, msg *jsonrpc.Message, reply Sender) (json.RawMessage, error) {
	s := sess.srv
	var p struct {
		Notifications *subscriptionFilter `json:"notifications"`
	}
	if err := json.Unmarshal(msg.Params, &p); err != nil || p.Notifications == nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "subscriptions/listen: params need a notifications filter")
	}
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	honored := s.honor(ctx, *p.Notifications)
	sub := &listenSub{id: msg.ID, filter: honored, reply: reply}
	ack, _ := marshalRaw(map[string]any{
		"_meta":         map[string]json.RawMessage{metaSubscriptionID: msg.ID},
		"notifications": honored,
	})
	// Registered before the acknowledgement (a change right after the
	// client sees it must reach it), delivering only after it.
	sub.mu.Lock()
	sess.mu.Lock()
	sess.listens = append(sess.listens, sub)
	sess.mu.Unlock()
	defer func() {
		sess.mu.Lock()
		sess.listens = slices.DeleteFunc(sess.listens, func(x *listenSub) bool { return x == sub })
		sess.mu.Unlock()
	}()
	err := reply.Send(jsonrpc.NewNotification("notifications/subscriptions/acknowledged", ack))
	sub.mu.Unlock()
	if err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		if context.Cause(ctx) == errCancelledByHost {
			return nil, errCancelledByHost
		}
	case <-s.modern.closing:
	case <-sess.ctx.Done():
	}
	return marshalRaw(map[string]any{"_meta": map[string]json.RawMessage{metaSubscriptionID: msg.ID}})
}

// honor is the part of a filter genui will deliver: tools and resources
// list changes always (genui's own lists change), prompt list changes when
// the upstream announces them, and updates of genui's own UI resources and,
// when the upstream supports resource subscriptions, of its resources
// (genui subscribes upstream for them).
func (s *Server) honor(ctx context.Context, f subscriptionFilter) subscriptionFilter {
	out := subscriptionFilter{ToolsListChanged: f.ToolsListChanged, ResourcesListChanged: f.ResourcesListChanged,
		PromptsListChanged: f.PromptsListChanged && s.upstreamPromptsChange()}
	upstreamSubscribe := s.upstreamSupportsSubscribe()
	for _, uri := range f.ResourceSubscriptions {
		if slices.Contains(out.ResourceSubscriptions, uri) {
			continue
		}
		switch {
		case s.ownsURI(uri):
		case upstreamSubscribe && s.subscribeUpstream(ctx, uri):
		default:
			continue
		}
		out.ResourceSubscriptions = append(out.ResourceSubscriptions, uri)
	}
	return out
}

// upstreamPromptsChange reports whether the upstream announces prompt list
// changes.
func (s *Server) upstreamPromptsChange() bool {
	var init struct {
		Capabilities struct {
			Prompts struct {
				ListChanged bool `json:"listChanged"`
			} `json:"prompts"`
		} `json:"capabilities"`
	}
	if raw := s.up.InitializeResult(); len(raw) > 0 {
		_ = json.Unmarshal(raw, &init)
	}
	return init.Capabilities.Prompts.ListChanged
}

func (s *Server) upstreamSupportsSubscribe() bool {
	var init struct {
		Capabilities struct {
			Resources struct {
				Subscribe bool `json:"subscribe"`
			} `json:"resources"`
		} `json:"capabilities"`
	}
	if raw := s.up.InitializeResult(); len(raw) > 0 {
		_ = json.Unmarshal(raw, &init)
	}
	return init.Capabilities.Resources.Subscribe
}

// subscribeUpstream subscribes genui to an upstream resource once; the
// upstream's updates then reach every listener that asked for the URI.
// genui stays subscribed (legacy sessions may share the subscription).
func (s *Server) subscribeUpstream(ctx context.Context, uri string) bool {
	s.modern.mu.Lock()
	done := s.modern.upSubs[uri]
	s.modern.mu.Unlock()
	if done {
		return true
	}
	params, _ := json.Marshal(map[string]string{"uri": uri})
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := s.up.Forward(ctx, "resources/subscribe", params); err != nil {
		s.log.Info("upstream refused a resource subscription for a listener", "uri", uri, "err", err)
		return false
	}
	s.modern.mu.Lock()
	s.modern.upSubs[uri] = true
	s.modern.mu.Unlock()
	return true
}
