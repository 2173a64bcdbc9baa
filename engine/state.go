package engine

import (
	"sort"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/events"
	"github.com/genui-dev/genui/engine/refine"
	"github.com/genui-dev/genui/engine/upstream"
)

// ToolState is one tool as /state shows it.
type ToolState struct {
	Name        string   `json:"name"`
	ResourceURI string   `json:"resourceUri"`
	OwnUI       bool     `json:"ownUI"`
	Visibility  []string `json:"visibility,omitempty"`
	Hash        string   `json:"hash"`
	Cached      bool     `json:"cached"`
	Generating  bool     `json:"generating"`
	UIType      string   `json:"uiType,omitempty"`
	Refinements int      `json:"refinements"`
}

// State is a snapshot of the engine for /state, ui://state and the TUI.
// It carries no secrets.
type State struct {
	Version     string                         `json:"version"`
	Dir         string                         `json:"dir"`
	Generator   string                         `json:"generator"`
	Upstream    upstream.State                 `json:"upstream"`
	Tools       []ToolState                    `json:"tools"`
	Cache       cache.Stats                    `json:"cache"`
	Generation  GenerationState                `json:"generation"`
	Refinements map[string][]refine.Refinement `json:"refinements"`
	Events      events.QueueStats              `json:"events"`
}

// GenerationState describes the generation queue.
type GenerationState struct {
	Running []string `json:"running"`
	Limit   int      `json:"limit"`
	// LLM is the latest LLM generation per tool (progress, chain, errors).
	LLM map[string]GenerationStatus `json:"llm,omitempty"`
}

// State returns a snapshot of the engine.
func (e *Engine) State() State {
	st := State{
		Version:     Version,
		Dir:         e.opts.Dir,
		Generator:   e.gen.Name(),
		Upstream:    e.up.State(),
		Cache:       e.cache.Stats(),
		Refinements: e.refine.All(),
		Events:      e.queue.Stats(),
		Generation:  GenerationState{Running: e.running(), Limit: e.opts.MaxConcurrentGenerations, LLM: e.Generations()},
	}
	running := map[string]bool{}
	for _, n := range st.Generation.Running {
		running[n] = true
	}
	for _, t := range e.Tools() {
		ts := ToolState{Name: t.Name, ResourceURI: t.ResourceURI(), OwnUI: t.OwnUI != "", Visibility: t.Visibility,
			Hash: t.Hash, Generating: running[t.Name], Refinements: len(e.refine.History(t.Name))}
		if ent, ok := e.cache.Peek(e.UIKey(t)); ok {
			ts.Cached, ts.UIType = true, ent.Meta.UIType
		}
		st.Tools = append(st.Tools, ts)
	}
	return st
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
