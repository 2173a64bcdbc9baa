package host

import (
	"context"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Start-up ordering. A host's first initialize usually arrives while the
// upstream is still starting (genui mcp is spawned and asked at once), but
// its answer is the only place a host learns the upstream's capabilities
// (prompts, logging, completions, ...) and instructions: capability-
// respecting clients never ask for what was not advertised. So initialize
// and server/discover wait for the upstream's handshake, bounded by
// the engine's UpstreamWait; if it cannot come up in time they answer with what
// is known, and the session hears list_changed once it arrives.

// waitHandshake waits until the upstream has completed its first
// initialize (bounded by the engine's UpstreamWait; early when the first
// attempt fails) and reports whether it has. An upstream that has never
// come up and whose attempt failed (the command does not start, the
// server exits during initialize) is an error naming the cause: the host
// must not show a connected server whose every request will fail.
func (s *Server) waitHandshake(ctx context.Context) (bool, error) {
	ok, reason, failed := s.up.WaitHandshake(ctx)
	if failed != nil {
		s.log.Warn("the upstream did not start; the host's initialize gets the reason", "err", failed)
		return false, jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "the upstream server did not start: %v", failed)
	}
	if !ok && reason != "" {
		s.log.Info("answering before the upstream's handshake", "reason", reason)
	}
	return ok, nil
}

// announceLateUpstream tells sessions that were initialized before the
// upstream's handshake that its lists may have changed: tools and
// resources always (genui advertises both with listChanged), prompts when
// the upstream has them.
func (s *Server) announceLateUpstream() {
	var late []*Session
	for _, sess := range s.sessionList() {
		sess.mu.Lock()
		if sess.initEarly {
			sess.initEarly = false
			late = append(late, sess)
		}
		sess.mu.Unlock()
	}
	if len(late) == 0 {
		return
	}
	methods := []string{"notifications/tools/list_changed", "notifications/resources/list_changed"}
	if s.upstreamHas("prompts") {
		methods = append(methods, "notifications/prompts/list_changed")
	}
	for _, sess := range late {
		s.log.Info("upstream arrived after initialize; sending list_changed", "session", sess.ID)
		for _, m := range methods {
			sess.sendOrActive(jsonrpc.NewNotification(m, nil))
		}
	}
}

// onUpstreamUp is the engine event hook for start-up ordering. Listeners
// run on the upstream's goroutine and must not block: sending may.
func (s *Server) onUpstreamUp(ev contract.Event) {
	if ev.Kind == contract.EventUpstreamUp {
		go s.announceLateUpstream()
		go s.resubscribeUpstream() // a restarted upstream lost them
	}
}
