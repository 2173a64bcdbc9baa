package events

// WithMaxPending bounds each subscriber's undelivered events (default
// DefaultMaxPending).
func WithMaxPending[T any](n int) BrokerOption[T] {
	return func(b *Broker[T]) {
		if n > 0 {
			b.maxPending = n
		}
	}
}
