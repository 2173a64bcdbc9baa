package lint

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

func raws(tools ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(tools))
	for i, t := range tools {
		out[i] = json.RawMessage(t)
	}
	return out
}

// has reports whether rep holds a finding of tool, rule and path.
func has(rep contract.LintReport, tool, rule, path string) bool {
	for _, f := range rep.Findings {
		if f.Tool == tool && f.Rule == rule && f.Path == path {
			return true
		}
	}
	return false
}

func TestToolRules(t *testing.T) {
	long := strings.Repeat("a", 129)
	rep := Lint(raws(
		`{"name":"good_tool.v1-x","title":"Good","description":"Fine.","inputSchema":{"type":"object"}}`,
		`{"name":"has space","description":"d","inputSchema":{"type":"object"}}`,
		`{"name":"`+long+`","description":"d","inputSchema":{"type":"object"}}`,
		`{"description":"d","inputSchema":{"type":"object"}}`,
		`{"name":"good_tool.v1-x","description":"dup","inputSchema":{"type":"object"}}`,
		`{"name":"nodesc","title":"  ","inputSchema":{"type":"object"}}`,
		`{"name":"noinput","description":"d"}`,
		`{"name":"badinput","description":"d","inputSchema":{"type":"object","required":"x"}}`,
		`{"name":"arrayinput","description":"d","inputSchema":{"type":"array"}}`,
		`{"name":"badoutput","description":"d","inputSchema":{"type":"object"},"outputSchema":{"type":"objekt"}}`,
		`{"name":"hints","description":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":true,"idempotentHint":false,"openWorldHint":"yes"}}`,
		`{"name":"readonly","description":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"idempotentHint":true}}`,
		`not an object`,
	), nil)
	for _, c := range []struct{ tool, rule, path string }{
		{"has space", "tool-name-chars", "/name"},
		{long, "tool-name-length", "/name"},
		{"#3", "tool-name-missing", "/name"},
		{"good_tool.v1-x", "tool-name-duplicate", "/name"},
		{"nodesc", "description-missing", "/description"},
		{"nodesc", "tool-title-blank", "/title"},
		{"noinput", "input-schema-missing", "/inputSchema"},
		{"badinput", "input-schema-invalid", "/inputSchema"},
		{"arrayinput", "input-schema-not-object", "/inputSchema/type"},
		{"badoutput", "output-schema-invalid", "/outputSchema"},
		{"hints", "annotations-conflict", "/annotations/destructiveHint"},
		{"hints", "annotations-inconsistent", "/annotations/idempotentHint"},
		{"hints", "annotation-not-boolean", "/annotations/openWorldHint"},
		{"#12", "tool-malformed", ""},
	} {
		if !has(rep, c.tool, c.rule, c.path) {
			t.Errorf("no %s at %s for %.20s", c.rule, c.path, c.tool)
		}
	}
	for _, f := range rep.Findings {
		if f.Tool == "good_tool.v1-x" && f.Rule != "tool-name-duplicate" || f.Tool == "readonly" {
			t.Errorf("a good tool got %+v", f)
		}
	}
	if rep.Errors == 0 || rep.Warnings == 0 || rep.OK() || rep.Findings[0].Severity != contract.LintError {
		t.Errorf("totals or order: %d errors %d warnings, first %+v", rep.Errors, rep.Warnings, rep.Findings[0])
	}
}

func TestResultsAgainstOutputSchema(t *testing.T) {
	tools := raws(`{"name":"count","description":"d","inputSchema":{"type":"object"},
		"outputSchema":{"type":"object","properties":{"n":{"type":"integer"},"items":{"type":"array","items":{"type":"string"}}},"required":["n"]}}`,
		`{"name":"plain","description":"d","inputSchema":{"type":"object"}}`)
	results := []contract.LintResult{
		{Tool: "count", Source: "history #1", Result: json.RawMessage(`{"content":[],"structuredContent":{"n":3,"items":["a"]}}`)},
		{Tool: "count", Source: "history #2", Result: json.RawMessage(`{"content":[],"structuredContent":{"n":"three"}}`)},
		{Tool: "count", Source: "history #3", Result: json.RawMessage(`{"content":[],"structuredContent":{"n":1,"items":["a",2]}}`)},
		{Tool: "count", Source: "check c", Result: json.RawMessage(`{"content":[{"type":"text","text":"3"}]}`)},
		{Tool: "count", Source: "history #4", Result: json.RawMessage(`{"content":[],"isError":true}`)},
		{Tool: "plain", Source: "history #5", Result: json.RawMessage(`{"content":[],"structuredContent":{"anything":1}}`)},
		{Tool: "gone", Source: "history #6", Result: json.RawMessage(`{"structuredContent":1}`)},
	}
	rep := Lint(tools, results)
	want := map[string]string{
		"history #2": "/structuredContent/n",
		"history #3": "/structuredContent/items/1",
		"check c":    "/structuredContent",
	}
	got := map[string]string{}
	for _, f := range rep.Findings {
		got[f.Source] = f.Path
		if f.Tool != "count" {
			t.Errorf("finding for %s: %+v", f.Tool, f)
		}
	}
	for src, path := range want {
		if got[src] != path {
			t.Errorf("%s: finding at %q, want %q (all: %+v)", src, got[src], path, rep.Findings)
		}
	}
	if len(got) != len(want) || rep.Results != 5 || rep.Errors != 3 {
		t.Errorf("findings %v, results %d, errors %d", got, rep.Results, rep.Errors)
	}
	if !strings.Contains(Format(rep), "error   count  structured-content-invalid  history #2 /structuredContent/n") {
		t.Errorf("Format:\n%s", Format(rep))
	}
}
