package jsonrpc

import "encoding/json"

// Waiter receives the answer to a request sent without waiting for it (the
// upstream connection's fast path): the connection's read loop hands it
// over.
type Waiter interface {
	// Answered is called exactly once, on the connection's read loop or
	// its sweeper: it must not block. The Answer's slices are valid only
	// during the call.
	Answered(a Answer)
}

// Answer is what came of such a request: the result or error object
// exactly as the other side sent it, or Err when no answer came (the call
// timed out: context.DeadlineExceeded; the connection was lost or the
// reply was unreadable: an *Error).
type Answer struct {
	Result json.RawMessage
	Error  json.RawMessage
	Err    error
}
