package engine

import (
	"context"
	"sort"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/gen"
)

// State is a snapshot of the engine: what /state serves, what
// ui://genui/state embeds, what _ui_status and _ui_list report and what the
// TUI's header and tool list show. It carries no secrets.
type State struct {
	Version   string        `json:"version"`
	Commit    string        `json:"commit,omitempty"`
	Dir       string        `json:"dir"`
	Generator string        `json:"generator"`
	Upstream  UpstreamState `json:"upstream"`
	// URLs are where this genui listens (set by the HTTP side server).
	URLs URLs `json:"urls"`
	// PortConflict says another live genui owns DIR's port files.
	PortConflict string                  `json:"portConflict,omitempty"`
	Sessions     []SessionInfo           `json:"sessions"`
	Tools        []ToolStatus            `json:"tools"`
	Cache        cache.Stats             `json:"cache"`
	Generation   GenerationState         `json:"generation"`
	Refinements  map[string][]Refinement `json:"refinements"`
	// Events is the /wait queue: pending events and whether an agent polls.
	Events QueueStats `json:"events"`
}

// GenerationState describes the generation queue.
type GenerationState struct {
	Running []string `json:"running"`
	Limit   int      `json:"limit"`
	// LLM is the latest LLM generation per tool (progress, chain, errors).
	LLM map[string]GenerationStatus `json:"llm,omitempty"`
}

// State returns a snapshot of the engine.
func (e *Engine) State(ctx context.Context) (State, error) {
	if err := ctx.Err(); err != nil {
		return State{}, AsError(err)
	}
	e.feMu.RLock()
	urls, conflict, sessions := e.urls, e.portConflict, e.sessions
	e.feMu.RUnlock()
	st := State{
		Version:      Version,
		Commit:       BuildCommit(),
		Dir:          e.opts.Dir,
		Generator:    e.gen.Name(),
		Upstream:     e.up.State(),
		URLs:         urls,
		PortConflict: conflict,
		Sessions:     []SessionInfo{},
		Tools:        []ToolStatus{},
		Cache:        e.cache.Stats(),
		Refinements:  e.refine.All(),
		Events:       e.queue.Stats(),
		Generation:   GenerationState{Running: e.running(), Limit: e.opts.MaxConcurrentGenerations, LLM: e.Generations()},
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
func (e *Engine) toolStatus(t *Tool, generating bool) ToolStatus {
	ts := ToolStatus{Name: t.Name, ResourceURI: t.ResourceURI(), OwnUI: t.OwnUI != "", Visibility: t.Visibility,
		Hash: t.Hash, Refinements: len(e.refine.History(t.Name))}
	ts.UI = UIStatus{State: UIStateNone, Generating: generating}
	switch {
	case t.OwnUI != "":
		ts.UI.State = UIStateOwn
	case t.UIDisabled:
		ts.UI.State = UIStateDisabled
	default:
		key := e.UIKey(t)
		ts.UI.CacheKey = string(key)
		if ent, ok := e.cache.Peek(key); ok {
			ts.UI.State, ts.UI.Kind = UIStateCached, ent.Meta.UIType
			ts.UI.Generator, ts.UI.GeneratedAt = ent.Meta.Provider, ent.Meta.GeneratedAt
			if ent.Meta.FallbackReason != "" {
				ts.UI.State, ts.UI.FallbackReason = UIStateFallback, ent.Meta.FallbackReason
			}
		} else if generating {
			ts.UI.State = UIStateGenerating
		}
		// An LLM generation behind the served UI (background upgrade).
		if gs, ok := e.generationOf(t.Name); ok {
			switch {
			case gs.State == GenRunning:
				ts.UI.Generating = true
				if ts.UI.State == UIStateNone {
					ts.UI.State = UIStateGenerating
				}
			case gs.State == GenFailed && gs.FallbackReason != "" && ts.UI.State == UIStateCached && ts.UI.Kind != gen.UITypeLLM:
				ts.UI.State, ts.UI.FallbackReason = UIStateFallback, gs.FallbackReason
			}
		}
	}
	return ts
}

// generationOf is the latest LLM generation of a tool, if any.
func (e *Engine) generationOf(tool string) (GenerationStatus, bool) {
	e.gs.mu.Lock()
	defer e.gs.mu.Unlock()
	st := e.gs.status[tool]
	if st == nil {
		return GenerationStatus{}, false
	}
	return *st, true
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
