package upstream

import (
	"context"
	"encoding/json"
	"sync"
)

// What a host asked of the upstream's session that a new connection would
// forget: the log level (logging/setLevel) and the resources it subscribed
// to. When genui replaces the connection (a restart for a change, a crash
// and reconnect), the host does not know the server it talks to is a new
// one, so the new connection is told the same before it serves anyone:
// the server keeps behaving as the host set it up.

// maxRememberedSubscriptions bounds the subscriptions replayed (a host
// subscribing to ever more URIs must not grow genui without bound).
const maxRememberedSubscriptions = 1024

// sessionState is the part of the session replayed on a new connection.
type sessionState struct {
	mu       sync.Mutex
	logLevel json.RawMessage // the last logging/setLevel params
	subs     []string        // subscribed URIs, in order
}

// remember records a request that sets session state (others are ignored).
func (s *sessionState) remember(method string, params json.RawMessage) {
	switch method {
	case "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
	default:
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if method == "logging/setLevel" {
		s.logLevel = append(json.RawMessage(nil), params...)
		return
	}
	var p struct {
		URI string `json:"uri"`
	}
	if json.Unmarshal(params, &p) != nil || p.URI == "" {
		return
	}
	for i, u := range s.subs {
		if u == p.URI {
			s.subs = append(s.subs[:i], s.subs[i+1:]...)
			break
		}
	}
	if method == "resources/subscribe" && len(s.subs) < maxRememberedSubscriptions {
		s.subs = append(s.subs, p.URI)
	}
}

// replay is the requests that bring a new connection's session to the
// state remembered: the log level first, then each subscription.
func (s *sessionState) replay() (reqs []replayed) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.logLevel != nil {
		reqs = append(reqs, replayed{"logging/setLevel", s.logLevel})
	}
	for _, u := range s.subs {
		p, _ := json.Marshal(map[string]string{"uri": u})
		reqs = append(reqs, replayed{"resources/subscribe", p})
	}
	return reqs
}

type replayed struct {
	method string
	params json.RawMessage
}

// restoreSession replays the remembered session state on cn, a fresh
// connection that has answered initialize. A request the new server
// refuses is logged and skipped: the connection serves anyway.
func (c *Client) restoreSession(ctx context.Context, cn *conn) {
	for _, r := range c.session.replay() {
		if _, err := c.roundTrip(ctx, cn, r.method, r.params); err != nil {
			c.log.Warn("the new upstream connection refused what the host had set on the old one", "method", r.method, "params", string(r.params), "err", err)
			continue
		}
		c.log.Debug("told the new upstream connection what the host had set on the old one", "method", r.method, "params", string(r.params))
	}
}
