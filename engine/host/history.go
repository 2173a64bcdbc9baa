package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"
	"unsafe"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Hosts' tools/call requests go to the engine's call history: the general
// path records them in dispatch, the fast path in fastCall (no file I/O
// and no copy beyond the history's bounds on either: the engine's writer
// takes the record from a bounded queue, or drops it and counts).

// recordCall records a host's tools/call from the general path.
func (sess *Session) recordCall(ctx context.Context, tool string, args, res json.RawMessage, err error, pol contract.HistoryPolicy, start time.Time) {
	rec := &contract.CallRecord{Tool: tool, Source: contract.SourceMCP, Session: sess.ID, Start: start,
		Duration: time.Since(start), Generation: pol.Generation, ArgumentsSize: len(args), ResultSize: len(res)}
	na, nr := min(len(args), pol.Arguments), min(len(res), pol.Result)
	if err != nil {
		nr = 0
	}
	buf := make([]byte, 0, na+nr) // one allocation for both copies
	buf = append(buf, args[:na]...)
	rec.Arguments = buf[:na:na]
	if err != nil {
		rec.Error = callError(ctx, err)
	} else {
		rec.Result = append(buf[na:], res[:nr]...)
		if len(rec.Result) < len(res) {
			rec.IsError = isErrorResult(res)
		}
	}
	sess.srv.e.RecordCall(rec)
}

// callError is how a failed call reads in the history.
func callError(ctx context.Context, err error) string {
	var je *jsonrpc.Error
	switch {
	case errors.As(err, &je):
		return je.Message
	case ctx.Err() != nil:
		return "cancelled by the host"
	}
	return err.Error()
}

// isErrorResult reads a CallToolResult's isError without decoding it.
func isErrorResult(res []byte) bool {
	return string(bytes.TrimSpace(jsonrpc.Member(res, "isError"))) == "true"
}

// recordBufs holds the fast path's record buffers: a call's tool name,
// bounded arguments and bounded result go into one, and the history hands
// it back once its writer has encoded the record (fastCall.Recorded), so a
// recorded call allocates nothing for the history once the pool is warm.
var recordBufs = sync.Pool{New: func() any { return new(recordBuf) }}

type recordBuf struct{ b []byte }

// maxPooledRecord: a larger buffer (a call with a big result) is left to
// the garbage collector rather than kept in the pool.
const maxPooledRecord = 16 << 10

// beginRecord prepares a fast call's history record: the tool name and
// the bounded arguments, copied into a pooled buffer (the frame they come
// from is reused once forwardFast returns).
func (fc *fastCall) beginRecord(pol contract.HistoryPolicy, tool, args []byte) {
	n := min(len(args), pol.Arguments)
	rb := recordBufs.Get().(*recordBuf)
	b := append(append(rb.b[:0], tool...), args[:n]...)
	rb.b = b
	fc.histBuf = rb
	fc.hist = contract.CallRecord{Tool: unsafe.String(unsafe.SliceData(b), len(tool)), Source: contract.SourceMCP,
		Session: fc.sess.ID, Start: fc.start, Generation: pol.Generation, ArgumentsSize: len(args), Owner: fc}
	if n > 0 {
		fc.hist.Arguments = b[len(tool):len(b):len(b)]
	}
	fc.histResult = pol.Result
	fc.recording = true
}

// endRecord hands a fast call's record to the history with its answer:
// the result (bounded copy into the call's buffer: the answer lives in
// the read buffer) or why it failed.
func (fc *fastCall) endRecord(res []byte, errMsg string) {
	if !fc.recording {
		return
	}
	fc.recording = false
	h := &fc.hist
	h.Duration = time.Since(fc.start)
	if errMsg != "" {
		h.Error = errMsg
	} else {
		h.ResultSize = len(res)
		if n := min(len(res), fc.histResult); n > 0 {
			rb := fc.histBuf
			at := len(rb.b)
			rb.b = append(rb.b, res[:n]...) // a new array when it grows: Tool and Arguments keep the old one
			h.Result = rb.b[at:len(rb.b):len(rb.b)]
		}
		if len(h.Result) < len(res) {
			h.IsError = isErrorResult(res)
		}
	}
	fc.sess.srv.e.RecordCall(h)
}

// Recorded takes the call's buffer back from the history (which has
// encoded or dropped the record) into the pool.
func (fc *fastCall) Recorded() {
	rb := fc.histBuf
	fc.histBuf = nil
	fc.hist = contract.CallRecord{}
	if rb != nil && cap(rb.b) <= maxPooledRecord {
		recordBufs.Put(rb)
	}
}
