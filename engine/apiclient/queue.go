package apiclient

import (
	"context"
	"net/http"

	"github.com/genui-dev/genui/engine/contract"
)

// PendingEvents implements contract.API over GET /api/queue (which, unlike
// /wait, never drains).
func (c *Client) PendingEvents(ctx context.Context) ([]contract.QueuedEvent, error) {
	evs := []contract.QueuedEvent{}
	return evs, c.do(ctx, http.MethodGet, "/api/queue", nil, &evs)
}
