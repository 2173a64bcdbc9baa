// Package gen generates the HTML UI (an MCP App) of a tool: the offline
// generator (no LLM), the LLM generator (providers through charm.land/fantasy,
// or the host's own model through MCP sampling), prompts, validation, repair
// and the generated -> repaired -> offline fallback chain with its budget,
// retries and concurrency limits.
package gen

import (
	"context"
	"encoding/json"
	"time"

	"github.com/genui-dev/genui/viewspec"
)

// Tool is the upstream tool a UI is generated for, fields as in tools/list
// (a tools/list entry decodes into it).
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Meta         json.RawMessage `json:"_meta,omitempty"`
}

// Visibility is the tool's _meta.ui.visibility (nil: unset, model and app).
func (t Tool) Visibility() []string {
	var meta struct {
		UI *struct {
			Visibility []string `json:"visibility"`
		} `json:"ui"`
	}
	if len(t.Meta) == 0 || json.Unmarshal(t.Meta, &meta) != nil || meta.UI == nil {
		return nil
	}
	return meta.UI.Visibility
}

// Request asks for the UI of one tool, with the user's refinements in order.
type Request struct {
	Tool        Tool
	Refinements []string

	// The fields below are used by the LLM generator; the offline generator
	// ignores them.

	// Key identifies the UI being generated (the engine's cache key):
	// concurrent requests with the same Key share one generation.
	Key string
	// CurrentHTML is the tool's current LLM page, when there is one: a
	// refinement edits it instead of writing a fresh page.
	CurrentHTML string
	// NotApplied says, for refinements the current page does not have (a
	// refinement whose generation failed, was superseded or never
	// answered), why: keyed by the refinement's text. A refine prompt
	// marks them so, never as applied.
	NotApplied map[string]string
	// PreviousHTML is the tool's last good LLM page (a refinement's or
	// regeneration's starting point): when the new answer is not usable, it
	// stays instead of the offline UI (chain step "previous").
	PreviousHTML string
	// Example is one real tools/call result seen for the tool (raw JSON), so
	// the model knows the data's shape, with the arguments of that call and
	// how long it took. Each part is bounded in the prompt. The offline
	// generator reads it too: its spec proposal and the field names of
	// refinements are resolved against it.
	Example         json.RawMessage
	ExampleArgs     json.RawMessage
	ExampleDuration time.Duration
	// Wait marks a generation a reader blocks on (generation.firstRead
	// "wait"): it gets the shorter wait budget.
	Wait bool
	// OnProgress, when set, receives streaming progress (throttled). It must
	// not block.
	OnProgress func(Progress)
	// Sample is the host's MCP sampling/createMessage, for the sampling
	// provider; nil when no host session is connected that could answer.
	Sample SampleFunc
	// RequestID is the id of the MCP/HTTP request that caused the
	// generation (for log lines and debug files).
	RequestID string
}

// Progress is a streaming generation advancing.
type Progress struct {
	Tool    string        `json:"tool"`
	Bytes   int           `json:"bytes"`
	Elapsed time.Duration `json:"elapsed"`
	Attempt int           `json:"attempt"`
}

// Result is a generated UI. HTML is self-contained (mcpshim already inlined).
type Result struct {
	HTML            string
	UIType          string // e.g. "offline-rich", "llm"
	Provider, Model string
	Warnings        []string
	Duration        time.Duration
	// Token usage of the LLM calls (all attempts); 0 for offline.
	InputTokens, OutputTokens int
	// Attempts is the number of provider requests made.
	Attempts int
	// Chain records each step of generated -> repaired -> offline with its
	// outcome and reason; empty for the offline generator.
	Chain []Step
	// FallbackReason is set when the UI is not the model's page (the offline
	// UI stands in): why.
	FallbackReason string
	// Error is the classified provider error when the LLM failed (the UI is
	// then the offline fallback).
	Error *Error
	// ValidationErrors are the problems that got the LLM's page rejected
	// (after repair), when that is why the offline UI stands in.
	ValidationErrors []string
	// Spec is the view specification the page draws (nil for a page
	// written whole by a model).
	Spec *viewspec.Spec
	// Outcomes say what became of each refinement, in order.
	Outcomes []viewspec.Outcome
}

// Step is one link of the fallback chain.
type Step struct {
	Stage  string `json:"stage"` // StageGenerated, StageRepaired, StageReasked, StagePrevious or StageOffline
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"`
}

// Stages of the fallback chain: the answer (generated), genui's repair
// of it (repaired), the one re-ask with the problems (re-asked, and its
// repair), then what stands in: the previous LLM page (previous) or the
// offline UI (offline).
const (
	StageGenerated = "generated"
	StageRepaired  = "repaired"
	StageReasked   = "re-asked"
	StagePrevious  = "previous"
	StageOffline   = "offline"
)

// Generator produces a tool's UI.
type Generator interface {
	Name() string
	Generate(ctx context.Context, req Request) (Result, error)
}
