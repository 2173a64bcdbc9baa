package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Wrapper tool names (fixed by the architecture).
const (
	ToolRefine       = "_ui_refine"
	ToolList         = "_ui_list"
	ToolInspect      = "_ui_inspect"
	ToolRegenerate   = "_ui_regenerate"
	ToolRefreshTools = "_ui_refresh_tools"
	ToolStatus       = "_ui_status"
	ToolPreview      = "_ui_preview"
)

var wrapperDefs = []struct {
	name, title, desc, schema string
}{
	{ToolRefine, "Refine a tool's UI", "Add feedback for a tool's generated UI (\"make it a chart\", \"dark theme\") and regenerate it now. The feedback is kept in the tool's history.",
		`{"type":"object","properties":{"toolName":{"type":"string","description":"The tool whose UI to refine"},"feedback":{"type":"string","description":"What to change"}},"required":["toolName","feedback"]}`},
	{ToolList, "List UIs", "List every tool with its UI status (cached, UI type, refinements).",
		`{"type":"object","properties":{}}`},
	{ToolInspect, "Inspect a tool's UI", "Show a tool's UI metadata, cache key, refinement history, warnings and schema.",
		`{"type":"object","properties":{"toolName":{"type":"string"}},"required":["toolName"]}`},
	{ToolRegenerate, "Regenerate a tool's UI", "Regenerate a tool's UI, bypassing the cache; optionally clear its refinements first.",
		`{"type":"object","properties":{"toolName":{"type":"string"},"clearRefinements":{"type":"boolean","default":false}},"required":["toolName"]}`},
	{ToolRefreshTools, "Refresh tools", "Fetch the upstream's tools again and report what was added, removed or changed.",
		`{"type":"object","properties":{}}`},
	{ToolStatus, "genui status", "genui's version, folder, URLs, ports, upstream state, generator and sessions.",
		`{"type":"object","properties":{}}`},
	{ToolPreview, "Preview a tool's UI", "Open a tool's UI in the browser preview and return its URL.",
		`{"type":"object","properties":{"toolName":{"type":"string"},"open":{"type":"boolean","default":true,"description":"Open the browser"}},"required":["toolName"]}`},
}

// WrapperHooks are supplied by the front end that runs the engine.
type WrapperHooks struct {
	// Status adds front-end facts (URLs, ports, sessions) to _ui_status.
	Status func() map[string]any
	// Preview returns the preview URL of a tool and opens it when open is set.
	Preview func(tool string, open bool) (string, error)
}

// Wrappers implements genui's _ui_* tools on an engine.
type Wrappers struct {
	e     *Engine
	hooks WrapperHooks
}

// NewWrappers binds the wrapper tools to e.
func NewWrappers(e *Engine, hooks WrapperHooks) *Wrappers { return &Wrappers{e: e, hooks: hooks} }

// Tools returns the wrapper tools' definitions.
func (w *Wrappers) Tools() []json.RawMessage {
	out := make([]json.RawMessage, 0, len(wrapperDefs))
	for _, d := range wrapperDefs {
		b, _ := json.Marshal(map[string]any{"name": d.name, "title": d.title, "description": d.desc,
			"inputSchema": json.RawMessage(d.schema),
			"annotations": map[string]any{"title": d.title, "openWorldHint": false},
			// For agents, not for UIs: a UI must not regenerate or refine UIs
			// or open browser tabs (hosts enforce this; so does the preview).
			"_meta": map[string]any{"ui": map[string]any{"visibility": []string{"model"}}}})
		out = append(out, b)
	}
	return out
}

// Has reports whether name is a wrapper tool.
func (w *Wrappers) Has(name string) bool {
	for _, d := range wrapperDefs {
		if d.name == name {
			return true
		}
	}
	return false
}

// Call runs a wrapper tool and returns a CallToolResult. Failures the caller
// can act on come back as isError results with a clear message.
func (w *Wrappers) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	var a struct {
		ToolName         string `json:"toolName"`
		Feedback         string `json:"feedback"`
		ClearRefinements bool   `json:"clearRefinements"`
		Open             *bool  `json:"open"`
	}
	if len(args) > 0 && string(args) != "null" {
		if err := json.Unmarshal(args, &a); err != nil {
			return toolError(fmt.Sprintf("%s: arguments must be an object: %v", name, err)), nil
		}
	}
	var v any
	var err error
	switch name {
	case ToolList:
		v = w.list()
	case ToolStatus:
		v = w.status()
	case ToolRefreshTools:
		v, err = w.e.RefreshTools(ctx)
	case ToolRefine, ToolInspect, ToolRegenerate, ToolPreview:
		if err = w.checkTool(a.ToolName); err != nil {
			break
		}
		switch name {
		case ToolRefine:
			if strings.TrimSpace(a.Feedback) == "" {
				err = errors.New("_ui_refine: feedback is empty")
				break
			}
			v, err = w.e.Refine(ctx, a.ToolName, a.Feedback, "tool")
		case ToolInspect:
			v, err = w.e.Inspect(a.ToolName)
		case ToolRegenerate:
			v, err = w.e.Regenerate(ctx, a.ToolName, a.ClearRefinements)
		case ToolPreview:
			if w.hooks.Preview == nil {
				err = errors.New("_ui_preview: this genui runs no HTTP side server, so there is no preview")
				break
			}
			open := a.Open == nil || *a.Open
			var u string
			if u, err = w.hooks.Preview(a.ToolName, open); err == nil {
				v = map[string]any{"url": u, "opened": open}
			}
		}
	default:
		return nil, fmt.Errorf("unknown wrapper tool %q", name)
	}
	if err != nil {
		return toolError(err.Error()), nil
	}
	return toolResult(v), nil
}

func (w *Wrappers) checkTool(name string) error {
	if name == "" {
		return errors.New("toolName is required")
	}
	if _, ok := w.e.Tool(name); ok {
		return nil
	}
	var names []string
	for _, t := range w.e.Tools() {
		names = append(names, t.Name)
	}
	if close := closeMatches(name, names); len(close) > 0 {
		return fmt.Errorf("unknown tool %q; did you mean %s?", name, strings.Join(close, ", "))
	}
	return fmt.Errorf("unknown tool %q; known tools: %s", name, strings.Join(names, ", "))
}

func (w *Wrappers) list() any {
	type row struct {
		Tool        string `json:"tool"`
		ResourceURI string `json:"resourceUri"`
		OwnUI       bool   `json:"ownUI"`
		Cached      bool   `json:"cached"`
		UIType      string `json:"uiType,omitempty"`
		Refinements int    `json:"refinements"`
	}
	var rows []row
	for _, t := range w.e.Tools() {
		r := row{Tool: t.Name, ResourceURI: t.ResourceURI(), OwnUI: t.OwnUI != "",
			Refinements: len(w.e.refine.History(t.Name))}
		if ent, ok := w.e.cache.Peek(w.e.UIKey(t)); ok {
			r.Cached, r.UIType = true, ent.Meta.UIType
		}
		rows = append(rows, r)
	}
	return map[string]any{"tools": rows}
}

func (w *Wrappers) status() any {
	st := map[string]any{
		"version":     Version,
		"dir":         w.e.opts.Dir,
		"upstream":    w.e.up.State(),
		"llm":         w.e.gen.Name(),
		"tools":       len(w.e.Tools()),
		"cache":       w.e.cache.Stats(),
		"eventQueue":  w.e.queue.Stats(),
		"generations": w.e.Generations(),
	}
	if w.hooks.Status != nil {
		for k, v := range w.hooks.Status() {
			st[k] = v
		}
	}
	return st
}

// Refine appends feedback to a tool's history and regenerates its UI now.
func (e *Engine) Refine(ctx context.Context, tool, feedback, source string) (map[string]any, error) {
	hist, err := e.refine.Add(tool, feedback, source)
	if err != nil {
		return nil, fmt.Errorf("saving refinement: %w", err)
	}
	start := time.Now()
	ui, err := e.ReadUI(ctx, tool)
	if err != nil {
		return nil, err
	}
	e.publish(Event{Kind: EventUIUpdated, Tool: tool, Detail: map[string]any{"reason": "refine"}})
	return withPending(map[string]any{"tool": tool, "uiType": ui.Meta.UIType, "ms": time.Since(start).Milliseconds(),
		"refinements": len(hist), "warnings": ui.Meta.Warnings, "cacheKey": ui.Key}, ui), nil
}

// Regenerate drops a tool's cached UI (and optionally its refinements) and
// generates it again.
func (e *Engine) Regenerate(ctx context.Context, tool string, clearRefinements bool) (map[string]any, error) {
	if clearRefinements {
		if err := e.refine.Clear(tool); err != nil {
			return nil, fmt.Errorf("clearing refinements: %w", err)
		}
	}
	e.forgetGeneration(tool)
	e.cache.DeleteTool(tool)
	start := time.Now()
	ui, err := e.ReadUI(ctx, tool)
	if err != nil {
		return nil, err
	}
	e.publish(Event{Kind: EventUIUpdated, Tool: tool, Detail: map[string]any{"reason": "regenerate"}})
	return withPending(map[string]any{"tool": tool, "uiType": ui.Meta.UIType, "ms": time.Since(start).Milliseconds(),
		"refinementsCleared": clearRefinements, "cacheKey": ui.Key}, ui), nil
}

// Inspect describes a tool's UI state.
func (e *Engine) Inspect(tool string) (map[string]any, error) {
	t, ok := e.Tool(tool)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownTool, tool)
	}
	key := e.UIKey(t)
	out := map[string]any{"tool": t.Name, "resourceUri": t.ResourceURI(), "ownUI": t.OwnUI != "",
		"toolHash": t.Hash, "cacheKey": key, "history": e.refine.History(tool),
		"inputSchema": t.Info.InputSchema, "visibility": t.Visibility}
	if len(t.Info.OutputSchema) > 0 {
		out["outputSchema"] = t.Info.OutputSchema
	}
	if ent, ok := e.cache.Peek(key); ok {
		out["cached"], out["meta"] = true, ent.Meta
		out["warnings"] = ent.Meta.Warnings
	} else {
		out["cached"] = false
	}
	if g, ok := e.Generations()[tool]; ok {
		out["generation"] = g
	}
	return out, nil
}

// withPending adds why the served UI is not (yet) the LLM's page.
func withPending(m map[string]any, ui UI) map[string]any {
	if ui.Meta.FallbackReason != "" {
		m["note"] = ui.Meta.FallbackReason
	}
	return m
}

func toolResult(v any) json.RawMessage {
	data, _ := json.MarshalIndent(v, "", "  ")
	res := map[string]any{"content": []any{map[string]any{"type": "text", "text": string(data)}}}
	var obj map[string]any
	if json.Unmarshal(data, &obj) == nil {
		res["structuredContent"] = obj
	}
	b, _ := json.Marshal(res)
	return b
}

func toolError(msg string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"isError": true,
		"content": []any{map[string]any{"type": "text", "text": msg}}})
	return b
}

// closeMatches returns up to three names within a small edit distance of
// name, or containing it.
func closeMatches(name string, names []string) []string {
	type cand struct {
		n string
		d int
	}
	var cs []cand
	ln := strings.ToLower(name)
	for _, n := range names {
		l := strings.ToLower(n)
		d := editDistance(ln, l)
		if strings.Contains(l, ln) || strings.Contains(ln, l) {
			d = min(d, 1)
		}
		if d <= max(2, len(name)/3) {
			cs = append(cs, cand{n, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].n < cs[j].n })
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].n)
	}
	return out
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
