package apiclient

import (
	"context"
	"net/http"

	"github.com/genui-dev/genui/engine"
)

// PendingEvents implements engine.API over GET /api/queue (which, unlike
// /wait, never drains).
func (c *Client) PendingEvents(ctx context.Context) ([]engine.QueuedEvent, error) {
	evs := []engine.QueuedEvent{}
	return evs, c.do(ctx, http.MethodGet, "/api/queue", nil, &evs)
}
