package tui

// ring is a bounded FIFO: once full, each Push drops the oldest item, so
// the event, traffic and log panes hold at most their capacity whatever
// arrives. Index 0 is the oldest item kept.
type ring[T any] struct {
	buf     []T
	start   int
	n       int
	dropped int64 // items pushed out since creation
}

func newRing[T any](capacity int) *ring[T] {
	if capacity < 1 {
		capacity = 1
	}
	return &ring[T]{buf: make([]T, capacity)}
}

// Len is the number of items held.
func (r *ring[T]) Len() int { return r.n }

// Cap is the most items it holds.
func (r *ring[T]) Cap() int { return len(r.buf) }

// Push appends v, dropping the oldest item when full.
func (r *ring[T]) Push(v T) {
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = v
		r.n++
		return
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % len(r.buf)
	r.dropped++
}

// At returns the i-th oldest item (0 <= i < Len).
func (r *ring[T]) At(i int) T { return r.buf[(r.start+i)%len(r.buf)] }

// Ptr returns a pointer to the i-th oldest item, to update it in place.
func (r *ring[T]) Ptr(i int) *T { return &r.buf[(r.start+i)%len(r.buf)] }

// Dropped is how many items were pushed out.
func (r *ring[T]) Dropped() int64 { return r.dropped }
