// Package lint is the server linter (genui lint, genui check --lint, the
// TUI's lint view): what a developer checks before publishing an MCP
// server. It reads the tools as the server lists them and the results
// genui recorded (history, pinned checks), and reports each problem with
// the tool, the rule and the path. Rules (docs/lint.md):
//
//	tool-name-missing, tool-name-length, tool-name-chars, tool-name-duplicate  (errors)
//	tool-title-blank                                                           (warning)
//	description-missing                                                        (warning)
//	input-schema-missing, input-schema-invalid, input-schema-not-object        (errors)
//	output-schema-invalid, output-schema-not-object                            (errors)
//	annotation-not-boolean, annotations-conflict                               (errors)
//	annotations-inconsistent                                                   (warning)
//	structured-content-invalid, structured-content-missing                     (errors)
//
// It imports contract and schemacheck only: the same linting runs in the
// engine (for the TUI and the HTTP API) and in `genui lint`.
package lint

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/schemacheck"
)

// maxNameLength is the MCP spec's bound on a tool name (2025-11-25,
// "Tool names").
const maxNameLength = 128

// nameChars are the characters the spec allows in a tool name.
var nameChars = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// maxFindingsPerResult bounds what one hostile result adds to a report.
const maxFindingsPerResult = 20

// tool is the part of a tools/list entry the linter reads; the hints are
// kept raw to tell a non-boolean from an absent one.
type tool struct {
	Name         *string                    `json:"name"`
	Title        *string                    `json:"title"`
	Description  *string                    `json:"description"`
	InputSchema  json.RawMessage            `json:"inputSchema"`
	OutputSchema json.RawMessage            `json:"outputSchema"`
	Annotations  map[string]json.RawMessage `json:"annotations"`
}

// Lint lints tools (each an entry of the server's tools/list, verbatim)
// and checks results against their tools' output schemas.
func Lint(tools []json.RawMessage, results []contract.LintResult) contract.LintReport {
	var r contract.LintReport
	add := func(f contract.LintFinding) { r.Findings = append(r.Findings, f) }
	seen := map[string]int{}
	outputs := map[string]*schemacheck.Schema{}
	for i, raw := range tools {
		var t tool
		label := fmt.Sprintf("#%d", i)
		if err := json.Unmarshal(raw, &t); err != nil {
			add(contract.LintFinding{Severity: contract.LintError, Tool: label, Rule: "tool-malformed", Message: "the tool is not a JSON object with the spec's members: " + err.Error()})
			continue
		}
		r.Tools++
		name := ""
		if t.Name != nil {
			name = *t.Name
			label = name
		}
		finding := func(sev, rule, path, format string, args ...any) {
			add(contract.LintFinding{Severity: sev, Tool: label, Rule: rule, Path: path, Message: fmt.Sprintf(format, args...)})
		}
		switch {
		case name == "":
			finding(contract.LintError, "tool-name-missing", "/name", "a tool needs a name")
		case len(name) > maxNameLength:
			finding(contract.LintError, "tool-name-length", "/name", "the name is %d characters long; the spec allows 1 to %d", len(name), maxNameLength)
		case !nameChars.MatchString(name):
			finding(contract.LintError, "tool-name-chars", "/name", "the name has %s; the spec allows only A-Z, a-z, 0-9, _, - and .", badChars(name))
		}
		if name != "" {
			if first, dup := seen[name]; dup {
				finding(contract.LintError, "tool-name-duplicate", "/name", "tool #%d has the same name (names must be unique in a server)", first)
			} else {
				seen[name] = i
			}
		}
		if t.Title != nil && strings.TrimSpace(*t.Title) == "" {
			finding(contract.LintWarning, "tool-title-blank", "/title", "the title is blank: leave it out or give people a name to read")
		}
		if t.Description == nil || strings.TrimSpace(*t.Description) == "" {
			finding(contract.LintWarning, "description-missing", "/description", "no description: a model picks tools by their descriptions")
		}
		if len(t.InputSchema) == 0 || string(t.InputSchema) == "null" {
			finding(contract.LintError, "input-schema-missing", "/inputSchema", "inputSchema is required (at least {\"type\":\"object\"})")
		} else {
			schemaOf(t.InputSchema, "/inputSchema", "input", finding)
		}
		if len(t.OutputSchema) > 0 && string(t.OutputSchema) != "null" {
			if s, ok := schemaOf(t.OutputSchema, "/outputSchema", "output", finding); ok && name != "" {
				outputs[name] = s
			}
		}
		lintAnnotations(t.Annotations, finding)
	}
	for _, res := range results {
		s, ok := outputs[res.Tool]
		if !ok {
			continue
		}
		r.Results++
		lintResult(s, res, add)
	}
	sort.SliceStable(r.Findings, func(i, j int) bool {
		return r.Findings[i].Severity == contract.LintError && r.Findings[j].Severity != contract.LintError
	})
	for _, f := range r.Findings {
		if f.Severity == contract.LintError {
			r.Errors++
		} else {
			r.Warnings++
		}
	}
	if r.Findings == nil {
		r.Findings = []contract.LintFinding{}
	}
	return r
}

// schemaOf compiles a tool's input or output schema; the spec requires
// both to describe an object.
func schemaOf(raw json.RawMessage, path, which string, finding func(sev, rule, path, format string, args ...any)) (*schemacheck.Schema, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		finding(contract.LintError, which+"-schema-invalid", path, "the %s schema is not a JSON object", which)
		return nil, false
	}
	s, err := schemacheck.Compile(raw, schemacheck.Options{})
	if err != nil {
		finding(contract.LintError, which+"-schema-invalid", path, "not a valid JSON Schema: %v", clip(err.Error()))
		return nil, false
	}
	var typ string
	if json.Unmarshal(obj["type"], &typ) != nil || typ != "object" {
		finding(contract.LintError, which+"-schema-not-object", path+"/type", "the spec requires %sSchema to have \"type\": \"object\"", which)
	}
	return s, true
}

// lintAnnotations checks the hints are booleans and agree: destructiveHint
// and idempotentHint mean something only when readOnlyHint is false.
func lintAnnotations(a map[string]json.RawMessage, finding func(sev, rule, path, format string, args ...any)) {
	hints := map[string]bool{}
	for _, h := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		raw, ok := a[h]
		if !ok {
			continue
		}
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			finding(contract.LintError, "annotation-not-boolean", "/annotations/"+h, "%s is %s; it must be true or false", h, clip(string(raw)))
			continue
		}
		hints[h] = b
	}
	if hints["readOnlyHint"] {
		if hints["destructiveHint"] {
			finding(contract.LintError, "annotations-conflict", "/annotations/destructiveHint", "readOnlyHint and destructiveHint are both true: a tool that changes nothing destroys nothing")
		}
		if idem, ok := hints["idempotentHint"]; ok && !idem {
			finding(contract.LintWarning, "annotations-inconsistent", "/annotations/idempotentHint", "idempotentHint is false on a read-only tool: calling it again changes nothing, so it is idempotent")
		}
	}
}

// lintResult checks one recorded result against its tool's output schema:
// a successful result of a tool with an outputSchema must carry
// structuredContent that fits it.
func lintResult(s *schemacheck.Schema, res contract.LintResult, add func(contract.LintFinding)) {
	var r struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(res.Result, &r) != nil {
		return // not a CallToolResult (a truncated record): nothing to say
	}
	if len(r.StructuredContent) == 0 || string(r.StructuredContent) == "null" {
		if !r.IsError {
			add(contract.LintFinding{Severity: contract.LintError, Tool: res.Tool, Rule: "structured-content-missing", Path: "/structuredContent", Source: res.Source,
				Message: "the tool declares an outputSchema but this result has no structuredContent"})
		}
		return
	}
	problems := s.Check(r.StructuredContent)
	for i, p := range problems {
		if i == maxFindingsPerResult {
			add(contract.LintFinding{Severity: contract.LintError, Tool: res.Tool, Rule: "structured-content-invalid", Path: "/structuredContent", Source: res.Source,
				Message: fmt.Sprintf("and %d more problems", len(problems)-i)})
			break
		}
		add(contract.LintFinding{Severity: contract.LintError, Tool: res.Tool, Rule: "structured-content-invalid", Path: "/structuredContent" + p.Path, Source: res.Source,
			Message: "does not fit the outputSchema: " + clip(p.Message)})
	}
}

// badChars lists the first characters of name the spec does not allow.
func badChars(name string) string {
	var bad []string
	for _, c := range name {
		if !nameChars.MatchString(string(c)) && len(bad) < 5 {
			q := fmt.Sprintf("%q", string(c))
			if c == ' ' {
				q = "a space"
			}
			if !slices.Contains(bad, q) {
				bad = append(bad, q)
			}
		}
	}
	return strings.Join(bad, ", ")
}

// clip bounds text from the server in a finding.
func clip(s string) string {
	const max = 300
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// Format is the report as genui lint prints it: one line per finding,
// then the totals.
func Format(r contract.LintReport) string {
	var b strings.Builder
	for _, f := range r.Findings {
		where := f.Path
		if f.Source != "" {
			where = f.Source + " " + where
		}
		fmt.Fprintf(&b, "%-7s %s  %s  %s  %s\n", f.Severity, f.Tool, f.Rule, where, f.Message)
	}
	fmt.Fprintf(&b, "%d tools, %d recorded results checked: %d errors, %d warnings\n", r.Tools, r.Results, r.Errors, r.Warnings)
	return b.String()
}

// HistoryReader is the part of the call history (engine/history) the
// linter reads.
type HistoryReader interface {
	List(q contract.HistoryQuery) ([]contract.HistoryEntry, int)
	Get(id int64) (contract.HistoryEntry, bool)
}

// MaxHistoryResults bounds how many recorded calls (the newest) Recorded
// reads from the history.
const MaxHistoryResults = 1000

// Recorded returns the results to check: the newest recorded calls'
// (whole ones only; h may be nil) and the pinned checks' expected ones.
func Recorded(h HistoryReader, pinned []contract.Check) []contract.LintResult {
	var out []contract.LintResult
	if h != nil {
		entries, _ := h.List(contract.HistoryQuery{Limit: MaxHistoryResults})
		for _, e := range entries {
			if e.Error != "" || e.ResultOmitted != "" {
				continue
			}
			if whole, ok := h.Get(e.ID); ok && len(whole.Result) > 0 {
				out = append(out, contract.LintResult{Tool: e.Tool, Source: fmt.Sprintf("history #%d", e.ID), Result: whole.Result})
			}
		}
	}
	for _, c := range pinned {
		if len(c.Result) > 0 {
			out = append(out, contract.LintResult{Tool: c.Tool, Source: "check " + c.Name, Result: c.Result})
		}
	}
	return out
}
