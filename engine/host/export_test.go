package host

// FastForwarded is how many requests took the stdio fast path (for tests
// that check which path a request took).
func FastForwarded(s *Server) int64 { return s.fastForwarded.Load() }
