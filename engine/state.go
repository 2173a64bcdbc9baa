package engine

import (
	"context"
	"sort"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/registry"
)

// State returns a snapshot of the engine.
func (e *Engine) State(ctx context.Context) (contract.State, error) {
	if err := ctx.Err(); err != nil {
		return contract.State{}, contract.AsError(err)
	}
	urls, conflict, sessions := e.fronts.get()
	st := contract.State{
		Instance:        InstanceID(),
		Version:         Version,
		Commit:          BuildCommit(),
		Dir:             e.opts.Dir,
		Generator:       e.ui.gen.Name(),
		GeneratorSource: e.opts.GeneratorSource,
		Upstream:        e.relay.up.State(),
		URLs:            urls,
		PortConflict:    conflict,
		Sessions:        []contract.SessionInfo{},
		Tools:           []contract.ToolStatus{},
		Cache:           e.ui.cache.Stats(),
		Refinements:     e.ui.refine.All(),
		Events:          e.hub.queue.Stats(),
		History:         e.history.Stats(),
		Watch:           e.watch.state(),
		Roots:           append([]contract.Root(nil), e.currentRoots()...),
		Generation: contract.GenerationState{Running: e.ui.running(), Limit: e.opts.MaxConcurrentGenerations,
			LLM: e.ui.generations()},
	}
	if sessions != nil {
		st.Sessions = append(st.Sessions, sessions()...)
	}
	running := map[string]bool{}
	for _, n := range st.Generation.Running {
		running[n] = true
	}
	for _, t := range e.tools.Snapshot() {
		st.Tools = append(st.Tools, e.ui.status(t, running[t.Name]))
	}
	return st, nil
}

// status is a tool's identity and UI status.
func (u *uiService) status(t *registry.Tool, generating bool) contract.ToolStatus {
	ts := contract.ToolStatus{Name: t.Name, ResourceURI: t.ResourceURI(), OwnUI: t.OwnUI != "", Visibility: t.Visibility,
		Hash: t.Hash(), Refinements: len(u.refine.History(t.Name))}
	ts.UI = contract.UIStatus{State: contract.UIStateNone, Generating: generating}
	switch {
	case t.OwnUI != "":
		ts.UI.State = contract.UIStateOwn
	case t.UIDisabled:
		ts.UI.State = contract.UIStateDisabled
	default:
		key := u.key(t)
		ts.UI.CacheKey = string(key)
		if ent, ok := u.cache.Peek(key); ok {
			ts.UI.State, ts.UI.Kind = contract.UIStateCached, ent.Meta.UIType
			ts.UI.Generator, ts.UI.GeneratedAt = ent.Meta.Provider, ent.Meta.GeneratedAt
			// A kept LLM page (the newer answer was unusable) is a working
			// LLM page: cached, its note in the warnings; only a UI that
			// stands in for another kind is a fallback.
			if ent.Meta.FallbackReason != "" && ent.Meta.UIType != gen.UITypeLLM {
				ts.UI.State, ts.UI.FallbackReason = contract.UIStateFallback, ent.Meta.FallbackReason
			}
		} else if generating {
			ts.UI.State = contract.UIStateGenerating
		}
		// An LLM generation behind the served UI (background upgrade).
		if gs, ok := u.generationOf(t.Name); ok {
			switch {
			case gs.State == contract.GenRunning:
				ts.UI.Generating = true
				if ts.UI.State == contract.UIStateNone {
					ts.UI.State = contract.UIStateGenerating
				}
			case gs.State == contract.GenFailed && gs.FallbackReason != "" && ts.UI.State == contract.UIStateCached && !gen.IsLLMPage(ts.UI.Kind):
				ts.UI.State, ts.UI.FallbackReason = contract.UIStateFallback, gs.FallbackReason
			}
		}
	}
	return ts
}

// generationOf is the latest LLM generation of a tool, if any.
func (u *uiService) generationOf(tool string) (contract.GenerationStatus, bool) {
	u.gs.mu.Lock()
	defer u.gs.mu.Unlock()
	st := u.gs.status[tool]
	if st == nil {
		return contract.GenerationStatus{}, false
	}
	return st.GenerationStatus, true
}

// running lists the tools with a generation running, sorted.
func (u *uiService) running() []string {
	u.genMu.Lock()
	defer u.genMu.Unlock()
	out := make([]string, 0, len(u.generating))
	for n := range u.generating {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (u *uiService) isGenerating(tool string) bool {
	u.genMu.Lock()
	defer u.genMu.Unlock()
	return u.generating[tool] > 0
}
