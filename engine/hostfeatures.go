package engine

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/lint"
)

// The host features of contract.API a developer reaches for in MCP
// Inspector: ping, the upstream's log level, argument completion, and the
// server linter (engine/lint) over the tools and the recorded results.

// maxCompletionValues is the spec's bound on completion/complete's values.
const maxCompletionValues = 100

// Ping pings the upstream and measures the round trip.
func (e *Engine) Ping(ctx context.Context) (contract.PingResult, error) {
	if err := e.relay.Wait(ctx); err != nil {
		return contract.PingResult{}, err
	}
	start := time.Now()
	if _, err := e.relay.request(ctx, "ping", json.RawMessage(`{}`)); err != nil {
		return contract.PingResult{}, upstreamError("ping", err)
	}
	return contract.PingResult{RoundTrip: time.Since(start), At: start}, nil
}

// SetLogLevel sends logging/setLevel to the upstream.
func (e *Engine) SetLogLevel(ctx context.Context, level string) error {
	if !slices.Contains(contract.LogLevels, level) {
		return contract.Errorf(contract.CodeInvalidArgument, "log level %q: one of %v", clipName(level), contract.LogLevels)
	}
	if err := e.relay.Wait(ctx); err != nil {
		return err
	}
	if !e.capable("logging") {
		return contract.Errorf(contract.CodeUnavailable, "the upstream does not declare the logging capability")
	}
	params, _ := json.Marshal(map[string]string{"level": level})
	if _, err := e.relay.request(ctx, "logging/setLevel", params); err != nil {
		return upstreamError("logging/setLevel", err)
	}
	return nil
}

// Complete sends completion/complete to the upstream.
func (e *Engine) Complete(ctx context.Context, req contract.CompleteRequest) (contract.Completion, error) {
	ref := map[string]string{"type": req.Ref}
	switch req.Ref {
	case contract.CompletePrompt:
		if req.Name == "" {
			return contract.Completion{}, contract.Errorf(contract.CodeInvalidArgument, "a prompt's completion needs its name")
		}
		ref["name"] = req.Name
	case contract.CompleteResource:
		if req.URI == "" {
			return contract.Completion{}, contract.Errorf(contract.CodeInvalidArgument, "a resource template's completion needs its URI template")
		}
		ref["uri"] = req.URI
	default:
		return contract.Completion{}, contract.Errorf(contract.CodeInvalidArgument, "ref must be %q or %q, not %q", contract.CompletePrompt, contract.CompleteResource, clipName(req.Ref))
	}
	if req.Argument == "" {
		return contract.Completion{}, contract.Errorf(contract.CodeInvalidArgument, "the argument to complete is required")
	}
	if err := e.relay.Wait(ctx); err != nil {
		return contract.Completion{}, err
	}
	if !e.capable("completions") {
		return contract.Completion{}, contract.Errorf(contract.CodeUnavailable, "the upstream does not declare the completions capability")
	}
	p := map[string]any{"ref": ref, "argument": map[string]string{"name": req.Argument, "value": req.Value}}
	if len(req.Context) > 0 {
		p["context"] = map[string]any{"arguments": req.Context}
	}
	params, _ := json.Marshal(p)
	res, err := e.relay.request(ctx, "completion/complete", params)
	if err != nil {
		return contract.Completion{}, upstreamError("completion/complete", err)
	}
	var r struct {
		Completion struct {
			Values  []string `json:"values"`
			Total   int      `json:"total"`
			HasMore bool     `json:"hasMore"`
		} `json:"completion"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return contract.Completion{}, contract.Errorf(contract.CodeUpstreamError, "completion/complete: malformed result: %v", err)
	}
	c := contract.Completion{Values: r.Completion.Values, Total: r.Completion.Total, HasMore: r.Completion.HasMore, Raw: res}
	if len(c.Values) > maxCompletionValues {
		c.Values, c.HasMore = c.Values[:maxCompletionValues], true
	}
	if c.Values == nil {
		c.Values = []string{}
	}
	return c, nil
}

// Lint lints the upstream's tools as listed and checks the results in the
// history and the checks against their output schemas.
func (e *Engine) Lint(ctx context.Context) (contract.LintReport, error) {
	wctx, cancel := context.WithTimeout(ctx, e.opts.ToolLookupWait)
	defer cancel()
	if err := e.tools.WaitReady(wctx); err != nil {
		if ctx.Err() != nil {
			return contract.LintReport{}, contract.AsError(ctx.Err())
		}
		return contract.LintReport{}, contract.Errorf(contract.CodeUpstreamUnavailable, "lint: the upstream is not ready (no tools/list within %s): %v", e.opts.ToolLookupWait, err)
	}
	pinned, problems, err := e.checks.List()
	if err != nil {
		return contract.LintReport{}, contract.Errorf(contract.CodeInternal, "reading the checks in %s: %v", e.checks.Dir(), err)
	}
	for name, perr := range problems {
		e.log.Warn("a check file cannot be read", "check", name, "err", perr)
	}
	return lint.Lint(e.tools.Raw(), lint.Recorded(e.history, pinned)), nil
}
