// Package gen generates the HTML UI (an MCP App) of a tool. For now it holds
// the offline generator, built on viewdefs' minimal UI, and Validate, which
// checks that generated HTML is self-contained.
package gen

import (
	"context"
	"encoding/json"
	"time"
)

// Tool is the upstream tool a UI is generated for, fields as in tools/list.
type Tool struct {
	Name, Title, Description                     string
	InputSchema, OutputSchema, Annotations, Meta json.RawMessage
}

// Request asks for the UI of one tool, with the user's refinements in order.
type Request struct {
	Tool        Tool
	Refinements []string
}

// Result is a generated UI. HTML is self-contained (mcpshim already inlined).
type Result struct {
	HTML            string
	UIType          string // e.g. "minimal"
	Provider, Model string
	Warnings        []string
	Duration        time.Duration
}

// Generator produces a tool's UI.
type Generator interface {
	Name() string
	Generate(ctx context.Context, req Request) (Result, error)
}
