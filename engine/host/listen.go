package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// Bounds of listens (Options: MaxListens, MaxListenSubscriptions,
// ListenStallTimeout; mcp.listen.* in genui.json). A notification for a
// listen is queued and written by the listen's own goroutine, so a client
// that stops reading never holds up the upstream's read loop or the other
// listeners; its queue is bounded (listenQueueBytes), and a listen whose
// queue overflows or whose write has not completed within the stall
// timeout is closed.
const (
	defaultMaxListens             = 256
	defaultMaxListenSubscriptions = 1000
	defaultListenStallTimeout     = 10 * time.Second
	listenQueueBytes              = 1 << 20
)

// errListenerStalled ends a listen whose client stopped reading.
var errListenerStalled = errors.New("the listener stopped reading its stream")

// listenSub is one open subscriptions/listen request.
type listenSub struct {
	id     json.RawMessage
	filter subscriptionFilter
	reply  Sender

	mu     sync.Mutex
	queue  [][]byte // frames waiting for the writer
	queued int      // their bytes
	closed bool     // no more frames are taken
	wake   chan struct{}
	// dead is closed (with err set) when the listen must end: its client
	// stopped reading, or a write failed.
	dead chan struct{}
	err  error
}

func newListenSub(id json.RawMessage, filter subscriptionFilter, reply Sender) *listenSub {
	return &listenSub{id: id, filter: filter, reply: reply, wake: make(chan struct{}, 1), dead: make(chan struct{})}
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

// send queues m for the subscription's stream, tagged with its
// subscription id. It never blocks: a listener whose queue is full is
// failed (its client stopped reading).
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
	frame := jsonrpc.NewNotification(m.Method, params)
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	if l.queued+len(frame) > listenQueueBytes {
		l.mu.Unlock()
		l.fail(fmt.Errorf("%w: more than %d bytes of notifications wait for it", errListenerStalled, listenQueueBytes))
		return
	}
	l.queue = append(l.queue, frame)
	l.queued += len(frame)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// fail ends the listen with err (the first error wins).
func (l *listenSub) fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	l.err, l.closed, l.queue, l.queued = err, true, nil, 0
	close(l.dead)
}

// write writes queued frames until stop is closed (then what is queued is
// still written) or the listen fails. A write that does not complete within
// stall fails it.
func (l *listenSub) write(stop <-chan struct{}, stall time.Duration) {
	for {
		l.mu.Lock()
		batch := l.queue
		l.queue, l.queued = nil, 0
		failed := l.err != nil
		l.mu.Unlock()
		if failed {
			return
		}
		for _, frame := range batch {
			if err := sendWithin(l.reply, frame, stall); err != nil {
				l.fail(fmt.Errorf("%w: %v", errListenerStalled, err))
				return
			}
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-l.wake:
		case <-l.dead:
			return
		case <-stop:
			l.mu.Lock()
			l.closed = true
			rest := l.queue
			l.queue = nil
			l.mu.Unlock()
			for _, frame := range rest {
				if sendWithin(l.reply, frame, stall) != nil {
					return
				}
			}
			return
		}
	}
}

// sendWithin sends frame, failing when it takes longer than d. Writers
// that block (an SSE stream) bound themselves with a write deadline of d;
// this is the guard for any that do not.
func sendWithin(reply Sender, frame []byte, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- reply.Send(frame) }()
	t := time.NewTimer(d + time.Second)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return fmt.Errorf("a write took longer than %s", d)
	}
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
	uris := slices.Compact(slices.Sorted(slices.Values(p.Notifications.ResourceSubscriptions)))
	if n, limit := len(uris), s.opts.MaxListenSubscriptions; n > limit {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			"subscriptions/listen names %d resources; one listen may name at most %d (mcp.listen.maxSubscriptions)", n, limit)
	}
	if err := s.modern.openListen(s.opts.MaxListens); err != nil {
		return nil, err
	}
	defer s.modern.closeListen()
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	honored, held := s.honor(ctx, *p.Notifications)
	defer s.releaseUpstreamAll(held)
	sub := newListenSub(msg.ID, honored, reply)
	ack, _ := marshalRaw(map[string]any{
		"_meta":         map[string]json.RawMessage{metaSubscriptionID: msg.ID},
		"notifications": honored,
	})
	// Registered before the acknowledgement (a change right after the
	// client sees it must reach it), queued and written after it.
	sess.mu.Lock()
	sess.listens = append(sess.listens, sub)
	sess.mu.Unlock()
	defer func() {
		sess.mu.Lock()
		sess.listens = slices.DeleteFunc(sess.listens, func(x *listenSub) bool { return x == sub })
		sess.mu.Unlock()
	}()
	if err := sendWithin(reply, jsonrpc.NewNotification("notifications/subscriptions/acknowledged", ack), s.opts.ListenStallTimeout); err != nil {
		sub.fail(err)
		return nil, err
	}
	stop := make(chan struct{})
	written := make(chan struct{})
	go func() {
		defer close(written)
		sub.write(stop, s.opts.ListenStallTimeout)
	}()
	finish := func(drain bool) {
		if !drain {
			sub.fail(context.Canceled)
		}
		close(stop)
		<-written
	}
	select {
	case <-ctx.Done():
		finish(false)
		if context.Cause(ctx) == errCancelledByHost {
			return nil, errCancelledByHost
		}
		return nil, ctx.Err()
	case <-sub.dead:
		finish(false)
		s.log.Warn("closing a subscriptions/listen stream whose client stopped reading", "session", sess.ID,
			"listen", string(msg.ID), "err", sub.err)
		return nil, sub.err
	case <-s.modern.closing:
	case <-sess.ctx.Done():
	}
	finish(true)
	return marshalRaw(map[string]any{"_meta": map[string]json.RawMessage{metaSubscriptionID: msg.ID}})
}

// honor is the part of a filter genui will deliver: tools and resources
// list changes always (genui's own lists change), prompt list changes when
// the upstream announces them, and updates of genui's own UI resources and,
// when the upstream supports resource subscriptions, of its resources
// (genui holds an upstream subscription for them: held lists the URIs to
// release when the listen ends).
func (s *Server) honor(ctx context.Context, f subscriptionFilter) (out subscriptionFilter, held []string) {
	out = subscriptionFilter{ToolsListChanged: f.ToolsListChanged, ResourcesListChanged: f.ResourcesListChanged,
		PromptsListChanged: f.PromptsListChanged && s.upstreamPromptsChange()}
	upstreamSubscribe := s.upstreamSupportsSubscribe()
	for _, uri := range f.ResourceSubscriptions {
		if slices.Contains(out.ResourceSubscriptions, uri) {
			continue
		}
		switch {
		case s.ownsURI(uri):
		case upstreamSubscribe:
			if err := s.acquireUpstream(ctx, uri); err != nil {
				s.log.Info("upstream refused a resource subscription for a listener", "uri", uri, "err", err)
				continue
			}
			held = append(held, uri)
		default:
			continue
		}
		out.ResourceSubscriptions = append(out.ResourceSubscriptions, uri)
	}
	return out, held
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
