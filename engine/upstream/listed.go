package upstream

import (
	"context"
	"encoding/json"
)

// toolsPage is where a stdio or in-process link puts the tools of a
// tools/list answer it split while the answer streamed in (ListTools).
type toolsPage struct {
	tools []json.RawMessage
	split bool
	// each, when set, gets the tools of a streaming answer as they are
	// found (ListTools).
	each func(batch []json.RawMessage)
}

type toolsPageKey struct{}

// toolsPageFrom is the page a ListTools call waits on (nil for any other
// request).
func toolsPageFrom(ctx context.Context) *toolsPage {
	p, _ := ctx.Value(toolsPageKey{}).(*toolsPage)
	return p
}

// ListTools is Request of tools/list, for a caller that wants the tools
// one by one. On a stdio or in-process upstream a long answer is validated
// and split while it is read: split is true, tools are the result's tools
// (each a valid JSON value, in order, as the upstream sent them) and
// result is the result with its tools array left empty (for nextCursor
// and the other members); 100,000 tools (36 MB) are neither walked nor
// copied again after their last byte. Otherwise split is false and result
// is the whole result, for the caller to split.
//
// each (may be nil) gets the tools of a long answer while it streams in,
// in batches, on the link's read loop (it must return soon; it may keep
// the batch), so the caller can work on them before the last byte: a nil
// batch means an answer starts (forget what came before). They are the
// tools returned only when split is true and their count matches: a
// stream that turns out to be another call's answer, or invalid, is
// followed by the ordinary read.
func (c *Client) ListTools(ctx context.Context, params json.RawMessage, each func(batch []json.RawMessage)) (result json.RawMessage, tools []json.RawMessage, split bool, err error) {
	page := &toolsPage{each: each}
	res, err := c.Request(context.WithValue(ctx, toolsPageKey{}, page), "tools/list", params)
	if err != nil || !page.split {
		return res, nil, false, err
	}
	return res, page.tools, true, nil
}
