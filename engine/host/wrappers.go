package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/genui-dev/genui/engine/contract"
)

// genui's own tools (names fixed by the architecture). They are built here,
// in MCP shapes, from the engine's typed front door (contract.API).
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

// IsWrapper reports whether name is one of genui's own tools.
func IsWrapper(name string) bool {
	for _, d := range wrapperDefs {
		if d.name == name {
			return true
		}
	}
	return false
}

// wrapperTools returns the wrapper tools' definitions.
func wrapperTools() []json.RawMessage {
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

// ListRow is one tool in _ui_list's result.
type ListRow struct {
	Tool        string `json:"tool"`
	ResourceURI string `json:"resourceUri"`
	OwnUI       bool   `json:"ownUI"`
	Cached      bool   `json:"cached"`
	UIType      string `json:"uiType,omitempty"`
	UIState     string `json:"uiState"`
	// UI is the state in words, as the TUI's Detail pane shows it
	// (contract.UIStatus.Summary).
	UI          string `json:"ui"`
	Refinements int    `json:"refinements"`
}

// Status is _ui_status's result: a projection of contract.State.
type Status struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	Dir     string `json:"dir"`
	LLM     string `json:"llm"`
	// LLMFrom says the generator's settings came from variables other
	// tools set too (contract.State.GeneratorSource).
	LLMFrom      string                   `json:"llmFrom,omitempty"`
	Upstream     contract.UpstreamState   `json:"upstream"`
	Tools        int                      `json:"tools"`
	URLs         contract.URLs            `json:"urls"`
	Sessions     []contract.SessionInfo   `json:"sessions"`
	PortConflict string                   `json:"portConflict,omitempty"`
	Cache        any                      `json:"cache"`
	EventQueue   contract.QueueStats      `json:"eventQueue"`
	Generation   contract.GenerationState `json:"generation"`
}

// callWrapper runs one of genui's own tools and returns a CallToolResult.
// Failures the caller can act on come back as isError results.
func (s *Server) callWrapper(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
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
	if name != ToolStatus {
		if err := s.waitReady(ctx); err != nil {
			return nil, err
		}
	}
	var api contract.API = s.e
	var v any
	var err error
	switch name {
	case ToolList:
		var st contract.State
		if st, err = api.State(ctx); err == nil {
			rows := []ListRow{}
			for _, t := range st.Tools {
				rows = append(rows, ListRow{Tool: t.Name, ResourceURI: t.ResourceURI, OwnUI: t.OwnUI,
					Cached: t.UI.State == contract.UIStateCached || t.UI.State == contract.UIStateFallback,
					UIType: t.UI.Kind, UIState: t.UI.State, UI: t.UI.Summary(), Refinements: t.Refinements})
			}
			v = map[string]any{"tools": rows}
		}
	case ToolStatus:
		var st contract.State
		if st, err = api.State(ctx); err == nil {
			v = Status{Version: st.Version, Commit: st.Commit, Dir: st.Dir, LLM: st.Generator, LLMFrom: st.GeneratorSource, Upstream: st.Upstream,
				Tools: len(st.Tools), URLs: st.URLs, Sessions: st.Sessions, PortConflict: st.PortConflict,
				Cache: st.Cache, EventQueue: st.Events, Generation: st.Generation}
		}
	case ToolRefreshTools:
		v, err = api.RefreshTools(ctx)
	case ToolInspect:
		v, err = api.Inspect(ctx, a.ToolName)
	case ToolRefine:
		if strings.TrimSpace(a.Feedback) == "" {
			err = errors.New("_ui_refine: feedback is empty")
			break
		}
		var ch contract.UIChange
		if ch, err = api.Refine(ctx, contract.RefineRequest{Tool: a.ToolName, Feedback: a.Feedback, Source: contract.SourceMCP}); err == nil {
			v = changeSummary(ch)
		}
	case ToolRegenerate:
		var ch contract.UIChange
		if ch, err = api.Regenerate(ctx, contract.RegenerateRequest{Tool: a.ToolName, ClearRefinements: a.ClearRefinements,
			Source: contract.SourceMCP}); err == nil {
			v = changeSummary(ch)
		}
	case ToolPreview:
		var p contract.PreviewInfo
		if p, err = api.Preview(ctx, a.ToolName); err != nil {
			break
		}
		open := a.Open == nil || *a.Open
		if open {
			if oerr := s.opts.OpenBrowser(p.URL); oerr != nil {
				err = fmt.Errorf("opening the browser failed (%v); open %s yourself", oerr, p.URL)
				break
			}
		}
		v = map[string]any{"url": p.URL, "opened": open}
	default:
		return nil, fmt.Errorf("unknown wrapper tool %q", name)
	}
	if err != nil {
		return toolError(err.Error()), nil
	}
	return toolResult(v), nil
}

// ChangeSummary is _ui_refine's and _ui_regenerate's result: the UIChange
// without the two HTML pages.
type ChangeSummary struct {
	Tool               string   `json:"tool"`
	Reason             string   `json:"reason"`
	UIType             string   `json:"uiType"`
	MS                 int64    `json:"ms"`
	Refinements        int      `json:"refinements"`
	RefinementsCleared bool     `json:"refinementsCleared,omitempty"`
	Warnings           []string `json:"warnings,omitempty"`
	CacheKey           string   `json:"cacheKey"`
	FallbackReason     string   `json:"fallbackReason,omitempty"`
	// Outcome is what became of the refinement: applied, partly applied or
	// not applied, with the changes to the view spec and the reason.
	Outcome *contract.RefinementOutcome `json:"outcome,omitempty"`
	// Spec is the view specification the new page draws.
	Spec json.RawMessage `json:"spec,omitempty"`
}

func changeSummary(ch contract.UIChange) ChangeSummary {
	return ChangeSummary{Tool: ch.Tool, Reason: ch.Reason, UIType: ch.Meta.UIType, MS: ch.Duration.Milliseconds(),
		Refinements: ch.Refinements, RefinementsCleared: ch.RefinementsCleared, Warnings: ch.Notes,
		CacheKey: ch.CacheKey, FallbackReason: ch.Meta.FallbackReason, Outcome: ch.Outcome, Spec: ch.Meta.Spec}
}

// toolResult is a CallToolResult carrying v as indented JSON text and as
// structuredContent.
func toolResult(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	data := bytes.TrimSpace(buf.Bytes())
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
