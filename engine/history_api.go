package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/resultdiff"
)

// The call history as the engine serves it: the MCP host's hooks
// (HistoryPolicy, RecordCall), the surfaces' calls recorded by CallTool,
// and contract.API's History, HistoryEntry, RerunCall and CompareCalls.
// The store is engine/history.

// HistoryPolicy says what the history keeps of a tool's calls (the MCP
// host asks before it copies anything) and the upstream generation now.
func (e *Engine) HistoryPolicy(tool string) contract.HistoryPolicy {
	p := e.history.Policy(tool)
	p.Generation = e.relay.up.Generation()
	return p
}

// RecordCall hands a host's finished call to the history; it never
// blocks (a call the writer cannot take is dropped and counted).
func (e *Engine) RecordCall(rec *contract.CallRecord) {
	if rec.Source == "" {
		rec.Source = contract.SourceMCP
	}
	e.history.Record(rec)
}

// recordSurfaceCall records a call of the TUI, the preview, the HTTP API
// or a check, and returns its ID once written (0: not recorded).
func (e *Engine) recordSurfaceCall(ctx context.Context, req contract.CallRequest, args, res json.RawMessage, errMsg string,
	gen int, start time.Time, took time.Duration) int64 {
	if !e.history.Policy(req.Name).Record {
		return 0
	}
	source := req.Source
	if source == "" {
		source = contract.SourceAPI
	}
	rec := &contract.CallRecord{Tool: req.Name, Source: source, Start: start, Duration: took, Generation: gen,
		Arguments: args, ArgumentsSize: len(args), Result: res, ResultSize: len(res), Error: errMsg}
	return e.history.RecordWait(context.WithoutCancel(ctx), rec)
}

// History lists recorded calls, newest first.
func (e *Engine) History(ctx context.Context, q contract.HistoryQuery) (contract.HistoryPage, error) {
	if err := ctx.Err(); err != nil {
		return contract.HistoryPage{}, contract.AsError(err)
	}
	if q.Limit < 0 || q.Before < 0 {
		return contract.HistoryPage{}, contract.Errorf(contract.CodeInvalidArgument, "limit and before must not be negative")
	}
	entries, n := e.history.List(q)
	return contract.HistoryPage{Entries: entries, Matching: n}, nil
}

// HistoryEntry returns one recorded call whole.
func (e *Engine) HistoryEntry(ctx context.Context, id int64) (contract.HistoryEntry, error) {
	if err := ctx.Err(); err != nil {
		return contract.HistoryEntry{}, contract.AsError(err)
	}
	h, ok := e.history.Get(id)
	if !ok {
		return contract.HistoryEntry{}, e.noEntry(id)
	}
	return h, nil
}

func (e *Engine) noEntry(id int64) *contract.Error {
	st := e.history.Stats()
	if !st.Enabled {
		return contract.Errorf(contract.CodeNotFound, "no recorded call %d: the call history is off (history.enabled)", id)
	}
	return contract.Errorf(contract.CodeNotFound, "no recorded call %d (the history holds %d calls, up to #%d; older ones are dropped at its limits)",
		id, st.Entries, st.LastID)
}

// RerunCall calls a recorded call again, through the upstream as it is
// now, and compares the results.
func (e *Engine) RerunCall(ctx context.Context, req contract.RerunRequest) (contract.Rerun, error) {
	prev, err := e.HistoryEntry(ctx, req.ID)
	if err != nil {
		return contract.Rerun{}, err
	}
	args := req.Arguments
	if len(args) == 0 {
		if why := prev.Replayable(); why != "" {
			return contract.Rerun{}, contract.Errorf(contract.CodeInvalidArgument, "call %d cannot be repeated as it was: %s; give the arguments", req.ID, why)
		}
		args = prev.Arguments
	}
	source := req.Source
	if source == "" {
		source = contract.SourceAPI
	}
	_, id, err := e.callTool(ctx, contract.CallRequest{Name: prev.Tool, Arguments: args, Source: source})
	if id == 0 {
		if err != nil {
			return contract.Rerun{}, err
		}
		return contract.Rerun{}, contract.Errorf(contract.CodeUnavailable, "the call ran but was not recorded (the call history is off or fell behind)")
	}
	next, ok := e.history.Get(id)
	if !ok {
		return contract.Rerun{}, e.noEntry(id)
	}
	d, derr := compareEntries(prev, next, nil)
	if derr != nil {
		return contract.Rerun{}, derr
	}
	return contract.Rerun{Previous: prev, Entry: next, Diff: d}, nil
}

// CompareCalls reports how call B's result differs from call A's.
func (e *Engine) CompareCalls(ctx context.Context, req contract.CompareRequest) (contract.ResultDiff, error) {
	a, err := e.HistoryEntry(ctx, req.A)
	if err != nil {
		return contract.ResultDiff{}, err
	}
	b, err := e.HistoryEntry(ctx, req.B)
	if err != nil {
		return contract.ResultDiff{}, err
	}
	return compareEntries(a, b, req.Ignore)
}

// compareEntries compares two calls' outcomes: their results, or what
// stands for a missing one (the error, the start of a truncated result, an
// excluded one), so a call that now fails differs from one that did not.
func compareEntries(a, b contract.HistoryEntry, ignore []string) (contract.ResultDiff, error) {
	d, err := resultdiff.Compare(outcome(a), outcome(b), ignore)
	if err != nil {
		return contract.ResultDiff{}, contract.Errorf(contract.CodeInvalidArgument, "%v", err)
	}
	return d, nil
}

func outcome(h contract.HistoryEntry) json.RawMessage {
	var v any
	switch {
	case h.Error != "":
		v = map[string]any{"error": h.Error}
	case h.ResultOmitted == contract.OmittedExcluded:
		v = map[string]any{"resultExcluded": true}
	case h.ResultOmitted == contract.OmittedTruncated:
		v = map[string]any{"resultTruncated": h.ResultPrefix, "resultSize": h.ResultSize}
	default:
		return h.Result
	}
	b, _ := json.Marshal(v)
	return b
}
