package host

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
