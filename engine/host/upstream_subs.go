package host

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Upstream resource subscriptions, shared. Hosts subscribe to an upstream
// resource through a legacy session's resources/subscribe or a modern
// subscriptions/listen naming it; genui holds one upstream subscription per
// URI however many hosts asked (the upstream's resources/updated reaches
// every one of them), sends resources/subscribe when the first one asks and
// resources/unsubscribe when the last one lets go (an unsubscribe, a listen
// ending, a session closing), and subscribes again after the upstream
// restarts (a new upstream process knows nothing of the old one's).

// upstreamSubTimeout bounds one resources/subscribe or unsubscribe upstream.
const upstreamSubTimeout = 10 * time.Second

// upstreamSubs counts holders per upstream resource URI.
type upstreamSubs struct {
	mu sync.Mutex
	m  map[string]*upstreamSub
}

// upstreamSub is one URI: refs holders; mu serializes its subscribe and
// unsubscribe calls (users counts goroutines about to take mu, so the
// entry is not dropped under them).
type upstreamSub struct {
	mu    sync.Mutex
	refs  int
	users int
}

// entry returns the URI's entry, counted as in use.
func (u *upstreamSubs) entry(uri string) *upstreamSub {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.m == nil {
		u.m = map[string]*upstreamSub{}
	}
	e := u.m[uri]
	if e == nil {
		e = &upstreamSub{}
		u.m[uri] = e
	}
	e.users++
	return e
}

// done ends a use of the URI's entry, dropping it when nothing holds it.
func (u *upstreamSubs) done(uri string, e *upstreamSub) {
	u.mu.Lock()
	defer u.mu.Unlock()
	e.users--
	if e.users == 0 && e.refs == 0 && u.m[uri] == e {
		delete(u.m, uri)
	}
}

// held lists the URIs at least one host holds.
func (u *upstreamSubs) held() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for uri, e := range u.m {
		if e.refs > 0 || e.users > 0 {
			out = append(out, uri)
		}
	}
	return out
}

// acquireUpstream takes a hold on the upstream subscription to uri,
// subscribing upstream when it is the first; the upstream's error (a
// resource it does not know) is returned and nothing is held then.
func (s *Server) acquireUpstream(ctx context.Context, uri string) error {
	e := s.upSubs.entry(uri)
	defer s.upSubs.done(uri, e)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.refs == 0 {
		if err := s.upstreamSubscription(ctx, "resources/subscribe", uri); err != nil {
			return err
		}
	}
	e.refs++
	return nil
}

// releaseUpstream lets go of a hold taken by acquireUpstream; the last one
// unsubscribes upstream.
func (s *Server) releaseUpstream(uri string) {
	e := s.upSubs.entry(uri)
	defer s.upSubs.done(uri, e)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.refs == 0 {
		return
	}
	e.refs--
	if e.refs == 0 {
		if err := s.upstreamSubscription(context.Background(), "resources/unsubscribe", uri); err != nil {
			s.log.Info("upstream resources/unsubscribe failed", "uri", uri, "err", err)
		}
	}
}

// releaseUpstreamAll releases holds in the background (a listen ending or
// a session closing must not wait for the upstream).
func (s *Server) releaseUpstreamAll(uris []string) {
	if len(uris) == 0 {
		return
	}
	go func() {
		for _, uri := range uris {
			s.releaseUpstream(uri)
		}
	}()
}

// resubscribeUpstream subscribes again to every held URI: the upstream
// restarted and lost its subscriptions.
func (s *Server) resubscribeUpstream() {
	for _, uri := range s.upSubs.held() {
		e := s.upSubs.entry(uri)
		e.mu.Lock()
		if e.refs > 0 {
			if err := s.upstreamSubscription(context.Background(), "resources/subscribe", uri); err != nil {
				s.log.Info("subscribing again after the upstream restarted failed", "uri", uri, "err", err)
			}
		}
		e.mu.Unlock()
		s.upSubs.done(uri, e)
	}
}

// upstreamSubscription sends resources/subscribe or unsubscribe upstream,
// bounded.
func (s *Server) upstreamSubscription(ctx context.Context, method, uri string) error {
	params, _ := json.Marshal(map[string]string{"uri": uri})
	ctx, cancel := context.WithTimeout(ctx, upstreamSubTimeout)
	defer cancel()
	_, err := s.up.Forward(ctx, method, params)
	return err
}
