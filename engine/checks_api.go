package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/genui-dev/genui/engine/checks"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/resultdiff"
)

// Checks: pinned calls kept as files in the project (engine/checks),
// served through contract.API and replayed through the engine's upstream
// (each replay is a call like any other, recorded with source "check").

// Checks lists the pinned calls.
func (e *Engine) Checks(ctx context.Context) ([]contract.Check, error) {
	if err := ctx.Err(); err != nil {
		return nil, contract.AsError(err)
	}
	list, problems, err := e.checks.List()
	if err != nil {
		return nil, contract.Errorf(contract.CodeInternal, "reading the checks in %s: %v", e.checks.Dir(), err)
	}
	for name, perr := range problems {
		e.log.Warn("a check file cannot be read", "check", name, "err", perr)
	}
	if list == nil {
		list = []contract.Check{}
	}
	return list, nil
}

// AddCheck pins a call as a check: a recorded one (its result as it was,
// or, when that was not recorded whole, as the tool answers now) or a
// tool and arguments (called now).
func (e *Engine) AddCheck(ctx context.Context, req contract.AddCheckRequest) (contract.Check, error) {
	if err := checks.ValidName(req.Name); err != nil {
		return contract.Check{}, contract.Errorf(contract.CodeInvalidArgument, "%v", err)
	}
	for _, p := range req.Ignore {
		if _, err := resultdiff.ParsePath(p); err != nil {
			return contract.Check{}, contract.Errorf(contract.CodeInvalidArgument, "ignore: %v", err)
		}
	}
	source := req.Source
	if source == "" {
		source = contract.SourceAPI
	}
	c := contract.Check{Name: req.Name, Tool: req.Tool, Arguments: req.Arguments, Ignore: req.Ignore}
	if req.HistoryID != 0 {
		h, err := e.HistoryEntry(ctx, req.HistoryID)
		if err != nil {
			return contract.Check{}, err
		}
		if why := h.Replayable(); why != "" && len(req.Arguments) == 0 {
			return contract.Check{}, contract.Errorf(contract.CodeInvalidArgument, "call %d cannot be pinned: %s", h.ID, why)
		}
		c.Tool = h.Tool
		if len(c.Arguments) == 0 {
			c.Arguments = h.Arguments
		}
		if h.Error == "" && h.ResultOmitted == "" && len(req.Arguments) == 0 {
			c.Result = h.Result
		}
	}
	if c.Tool == "" {
		return contract.Check{}, contract.Errorf(contract.CodeInvalidArgument, "a check needs a recorded call (historyId) or a tool")
	}
	if len(strings.TrimSpace(string(c.Arguments))) == 0 {
		c.Arguments = json.RawMessage(`{}`)
	}
	if c.Result == nil {
		res, err := e.CallTool(ctx, contract.CallRequest{Name: c.Tool, Arguments: c.Arguments, Source: source})
		if err != nil {
			return contract.Check{}, contract.Errorf(contract.AsError(err).Code, "calling %s for the check's expected result: %v", c.Tool, contract.AsError(err).Message)
		}
		c.Result = res.Result
	}
	if _, err := e.checks.Write(c, req.Replace); err != nil {
		return contract.Check{}, contract.AsError(err)
	}
	return e.checks.Get(c.Name)
}

// RunChecks replays checks against the upstream.
func (e *Engine) RunChecks(ctx context.Context, req contract.RunChecksRequest) (contract.CheckReport, error) {
	for _, n := range req.Names {
		if err := checks.ValidName(n); err != nil {
			return contract.CheckReport{}, contract.Errorf(contract.CodeInvalidArgument, "%v", err)
		}
	}
	source := req.Source
	if source == "" {
		source = contract.SourceCheck
	}
	call := func(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
		res, err := e.CallTool(ctx, contract.CallRequest{Name: tool, Arguments: args, Source: source})
		if err != nil {
			return nil, errors.New(contract.AsError(err).Message)
		}
		return res.Result, nil
	}
	rep, err := e.checks.Run(ctx, call, checks.RunOptions{Names: req.Names, Update: req.Update, Timeout: e.opts.CheckTimeout})
	if err != nil {
		return rep, contract.AsError(err)
	}
	return rep, nil
}
