package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	rec.Arguments = bytes.Clone(args[:min(len(args), pol.Arguments)])
	if err != nil {
		rec.Error = callError(ctx, err)
	} else {
		rec.Result = bytes.Clone(res[:min(len(res), pol.Result)])
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

// beginRecord prepares a fast call's history record: the tool name and
// the bounded arguments in one allocation (the frame they come from is
// reused once forwardFast returns).
func (fc *fastCall) beginRecord(pol contract.HistoryPolicy, tool, args []byte) {
	n := min(len(args), pol.Arguments)
	buf := make([]byte, len(tool)+n)
	copy(buf, tool)
	copy(buf[len(tool):], args[:n])
	fc.hist = contract.CallRecord{Tool: unsafe.String(unsafe.SliceData(buf), len(tool)), Source: contract.SourceMCP,
		Session: fc.sess.ID, Start: fc.start, Generation: pol.Generation, ArgumentsSize: len(args)}
	if n > 0 {
		fc.hist.Arguments = buf[len(tool):]
	}
	fc.histResult = pol.Result
	fc.recording = true
}

// endRecord hands a fast call's record to the history with its answer:
// the result (bounded copy: the answer lives in the read buffer) or why
// it failed.
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
			h.Result = bytes.Clone(res[:n])
		}
		if len(h.Result) < len(res) {
			h.IsError = isErrorResult(res)
		}
	}
	fc.sess.srv.e.RecordCall(h)
}
