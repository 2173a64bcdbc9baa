package contract

import "encoding/json"

// Severities of a LintFinding.
const (
	LintError   = "error"
	LintWarning = "warning"
)

// LintFinding is one thing the server linter found wrong with a tool.
type LintFinding struct {
	// Severity is LintError (genui lint exits 1) or LintWarning.
	Severity string `json:"severity"`
	// Tool is the tool's name as the server sent it (its index in
	// tools/list when it has none, "#3").
	Tool string `json:"tool"`
	// Rule names the rule (tool-name-chars, output-schema-invalid,
	// structured-content-invalid, ...; docs/lint.md lists them).
	Rule string `json:"rule"`
	// Path is where: a JSON Pointer into the tool's definition
	// ("/outputSchema/properties/n") or into a result
	// ("/structuredContent/items/0").
	Path string `json:"path,omitempty"`
	// Source is the result the finding is about: "history #12" or
	// "check pins-ok" (empty for the tool's definition).
	Source  string `json:"source,omitempty"`
	Message string `json:"message"`
}

// LintReport is what the linter found, errors first.
type LintReport struct {
	Findings []LintFinding `json:"findings"`
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
	// Tools is how many tools were linted; Results how many recorded
	// results (history, checks) were checked against output schemas.
	Tools   int `json:"tools"`
	Results int `json:"results"`
}

// OK says whether the report has no errors.
func (r LintReport) OK() bool { return r.Errors == 0 }

// LintResult is a recorded CallToolResult the linter checks against its
// tool's outputSchema.
type LintResult struct {
	Tool   string          `json:"tool"`
	Source string          `json:"source"`
	Result json.RawMessage `json:"result"`
}
