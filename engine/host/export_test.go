package host

import (
	"net/http"
	"time"
)

// FastForwarded is how many requests took the stdio fast path (for tests
// that check which path a request took).
func FastForwarded(s *Server) int64 { return s.fastForwarded.Load() }

// OpenListens is how many subscriptions/listen requests are open.
func OpenListens(s *Server) int {
	n := 0
	for _, sess := range s.sessionList() {
		sess.mu.Lock()
		n += len(sess.listens)
		sess.mu.Unlock()
	}
	return n
}

// OpenStreams is how many GET streams the session with id has attached (0
// for an unknown session).
func OpenStreams(s *Server, id string) int {
	s.mu.Lock()
	sess, ok := s.sessions[id]
	s.mu.Unlock()
	if !ok {
		return 0
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return len(sess.streams)
}

// LoopbackOnly is the Origin rule without allowed origins: Host and Origin
// must be loopback.
func LoopbackOnly(next http.Handler) http.Handler { return (*Origins)(nil).Guard(next) }

// StreamEnded reports whether the resumable stream of session sid that
// lastEventID names holds its end (a POST stream's response), so a test
// can resume it knowing the answer came while nobody listened.
func StreamEnded(s *Server, sid, lastEventID string) bool {
	s.mu.Lock()
	sess, ok := s.sessions[sid]
	s.mu.Unlock()
	if !ok {
		return false
	}
	st, _, _, ok := sess.replayLog().lookup(lastEventID)
	if !ok {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.ended
}

// SetHostCapsWait sets how long the upstream's handshake waits for the
// host's initialize, until the test ends.
func SetHostCapsWait(t interface{ Cleanup(func()) }, d time.Duration) {
	old := hostCapsWait
	hostCapsWait = d
	t.Cleanup(func() { hostCapsWait = old })
}
