package engine

import "context"

// PendingEvents implements API: the /wait queue's pending events, oldest
// first, left in the queue for agents.
func (e *Engine) PendingEvents(ctx context.Context) ([]QueuedEvent, error) {
	if err := ctx.Err(); err != nil {
		return nil, AsError(err)
	}
	return e.queue.Peek(), nil
}
