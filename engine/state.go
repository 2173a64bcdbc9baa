package engine

import (
	"context"
	"sort"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
)

// State returns a snapshot of the engine.
func (e *Engine) State(ctx context.Context) (contract.State, error) {
	if err := ctx.Err(); err != nil {
		return contract.State{}, contract.AsError(err)
	}
	e.feMu.RLock()
	urls, conflict, sessions := e.urls, e.portConflict, e.sessions
	e.feMu.RUnlock()
	st := contract.State{
		Version:      Version,
		Commit:       BuildCommit(),
		Dir:          e.opts.Dir,
		Generator:    e.gen.Name(),
		Upstream:     e.up.State(),
		URLs:         urls,
		PortConflict: conflict,
		Sessions:     []contract.SessionInfo{},
		Tools:        []contract.ToolStatus{},
		Cache:        e.cache.Stats(),
		Refinements:  e.refine.All(),
		Events:       e.queue.Stats(),
		Generation:   contract.GenerationState{Running: e.running(), Limit: e.opts.MaxConcurrentGenerations, LLM: e.Generations()},
	}
	if sessions != nil {
		st.Sessions = append(st.Sessions, sessions()...)
	}
	running := map[string]bool{}
	for _, n := range st.Generation.Running {
		running[n] = true
	}
	for _, t := range e.upstreamTools() {
		st.Tools = append(st.Tools, e.toolStatus(t, running[t.Name]))
	}
	return st, nil
}

// toolStatus is a tool's identity and UI status.
func (e *Engine) toolStatus(t *Tool, generating bool) contract.ToolStatus {
	ts := contract.ToolStatus{Name: t.Name, ResourceURI: t.ResourceURI(), OwnUI: t.OwnUI != "", Visibility: t.Visibility,
		Hash: t.Hash, Refinements: len(e.refine.History(t.Name))}
	ts.UI = contract.UIStatus{State: contract.UIStateNone, Generating: generating}
	switch {
	case t.OwnUI != "":
		ts.UI.State = contract.UIStateOwn
	case t.UIDisabled:
		ts.UI.State = contract.UIStateDisabled
	default:
		key := e.UIKey(t)
		ts.UI.CacheKey = string(key)
		if ent, ok := e.cache.Peek(key); ok {
			ts.UI.State, ts.UI.Kind = contract.UIStateCached, ent.Meta.UIType
			ts.UI.Generator, ts.UI.GeneratedAt = ent.Meta.Provider, ent.Meta.GeneratedAt
			if ent.Meta.FallbackReason != "" {
				ts.UI.State, ts.UI.FallbackReason = contract.UIStateFallback, ent.Meta.FallbackReason
			}
		} else if generating {
			ts.UI.State = contract.UIStateGenerating
		}
		// An LLM generation behind the served UI (background upgrade).
		if gs, ok := e.generationOf(t.Name); ok {
			switch {
			case gs.State == contract.GenRunning:
				ts.UI.Generating = true
				if ts.UI.State == contract.UIStateNone {
					ts.UI.State = contract.UIStateGenerating
				}
			case gs.State == contract.GenFailed && gs.FallbackReason != "" && ts.UI.State == contract.UIStateCached && ts.UI.Kind != gen.UITypeLLM:
				ts.UI.State, ts.UI.FallbackReason = contract.UIStateFallback, gs.FallbackReason
			}
		}
	}
	return ts
}

// generationOf is the latest LLM generation of a tool, if any.
func (e *Engine) generationOf(tool string) (contract.GenerationStatus, bool) {
	e.gs.mu.Lock()
	defer e.gs.mu.Unlock()
	st := e.gs.status[tool]
	if st == nil {
		return contract.GenerationStatus{}, false
	}
	return st.GenerationStatus, true
}

func (e *Engine) running() []string {
	e.genMu.Lock()
	defer e.genMu.Unlock()
	out := make([]string, 0, len(e.generating))
	for n := range e.generating {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (e *Engine) isGenerating(tool string) bool {
	e.genMu.Lock()
	defer e.genMu.Unlock()
	return e.generating[tool] > 0
}
