package upstream

import (
	"encoding/json"
	"sync"
)

// listedTools is the newest tools/list answer whose tools the read loop
// found while the answer streamed in (a stdio or in-process upstream),
// until the caller of that tools/list takes them (ListedTools).
type listedTools struct {
	mu     sync.Mutex
	result json.RawMessage
	tools  []json.RawMessage
	rest   json.RawMessage
}

// keepListed is the line link's onListed: it runs on the read loop before
// the answer reaches its caller, and replaces what an earlier answer left.
func (c *Client) keepListed(result json.RawMessage, tools []json.RawMessage, rest json.RawMessage) {
	c.listed.mu.Lock()
	c.listed.result, c.listed.tools, c.listed.rest = result, tools, rest
	c.listed.mu.Unlock()
}

// ListedTools returns the tools of result, a tools/list result Request
// returned, when the read loop found them while the answer streamed in:
// each a valid JSON value, a slice of result, in order, and rest, the
// result with its tools array left empty (for its other members, such as
// nextCursor). ok is false when it did not (another transport, an answer
// of another shape): the caller splits result itself. The tools are
// handed out once.
func (c *Client) ListedTools(result json.RawMessage) (tools []json.RawMessage, rest json.RawMessage, ok bool) {
	c.listed.mu.Lock()
	defer c.listed.mu.Unlock()
	l := &c.listed
	if len(result) == 0 || len(l.result) != len(result) || &l.result[0] != &result[0] {
		return nil, nil, false
	}
	tools, rest = l.tools, l.rest
	l.result, l.tools, l.rest = nil, nil, nil
	return tools, rest, true
}
