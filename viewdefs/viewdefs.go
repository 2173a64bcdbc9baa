// Package viewdefs renders genui's embedded HTML templates: the offline
// minimal UI of one tool and the emergency page used when generation fails.
// Templates are html/template, embedded and parsed once; every tool name and
// description is escaped, and schema data reaches the page only as JSON in a
// <script type="application/json"> element. The pages import App from
// @modelcontextprotocol/ext-apps and work only after mcpshim.Inject.
package viewdefs

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	template "github.com/DataDog/datadog-agent/pkg/template/html"
)

//go:embed *.html.tmpl
var files embed.FS

// templates are parsed on first use (not at every genui start).
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(files, "*.html.tmpl"))
})

// FormJS returns the form compiler as pages inline it, nested editors
// included (for tests and tooling; the preview host's elicitation forms).
// form.js compiles a tool's input schema into the page's form;
// form-nested.js adds the editors of arrays, maps and oneOf/anyOf choices,
// inlined only for schemas that have them.
func FormJS() string {
	a := minAssets()
	return a.get("min/form.js") + "\n" + a.get("min/form-nested.js")
}

// formUnits are the form units a page for inputSchema needs: none of the
// form compiler for a tool without arguments (form-none.js), the nested
// editors only for schemas that have them.
func formUnits(inputSchema json.RawMessage) []string {
	switch {
	case NoArguments(inputSchema):
		return []string{"min/form-none.js"}
	case NeedsNestedForm(inputSchema):
		return []string{"min/form.js", "min/form-nested.js"}
	}
	return []string{"min/form.js"}
}

// NoArguments reports whether a tool with inputSchema takes no arguments:
// no schema, or an object schema without properties and without anything
// that could bring some ($ref, allOf, anyOf, oneOf).
func NoArguments(schema json.RawMessage) bool {
	s := bytes.TrimSpace(schema)
	if len(s) == 0 || string(s) == "null" {
		return true
	}
	var root map[string]json.RawMessage
	if json.Unmarshal(s, &root) != nil {
		return false
	}
	for _, k := range []string{"$ref", "anyOf", "oneOf", "allOf"} {
		if _, ok := root[k]; ok {
			return false
		}
	}
	p := bytes.TrimSpace(root["properties"])
	if len(p) == 0 || string(p) == "null" {
		return true
	}
	var props map[string]json.RawMessage
	return json.Unmarshal(p, &props) == nil && len(props) == 0
}

// NeedsNestedForm reports whether a form for schema needs the nested
// editors: a property (or the root) that is an array, an object, a
// oneOf/anyOf/allOf, a $ref or of several types. A schema that is not JSON
// gets them (the page then decides).
func NeedsNestedForm(schema json.RawMessage) bool {
	var root map[string]json.RawMessage
	if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
		return false
	}
	if json.Unmarshal(schema, &root) != nil {
		return true
	}
	nested := func(s map[string]json.RawMessage) bool {
		for _, k := range []string{"$ref", "anyOf", "oneOf", "allOf", "items", "properties", "additionalProperties"} {
			if _, ok := s[k]; ok {
				return true
			}
		}
		var one string
		if json.Unmarshal(s["type"], &one) == nil {
			return one == "array" || one == "object"
		}
		var many []string
		if json.Unmarshal(s["type"], &many) == nil {
			n := 0
			for _, t := range many {
				if t == "array" || t == "object" {
					return true
				}
				if t != "null" {
					n++
				}
			}
			return n > 1
		}
		return false
	}
	for _, k := range []string{"$ref", "anyOf", "oneOf", "allOf"} {
		if _, ok := root[k]; ok {
			return true
		}
	}
	var props map[string]map[string]json.RawMessage
	if err := json.Unmarshal(root["properties"], &props); err != nil && len(root["properties"]) > 0 {
		return true
	}
	for _, p := range props {
		if nested(p) {
			return true
		}
	}
	return false
}

// ToolData describes the tool a page is rendered for.
type ToolData struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage
	// Visibility is the tool's _meta.ui.visibility (nil: model and app). A
	// tool UIs may not call (no "app") gets no Run button: conforming hosts
	// refuse such calls.
	Visibility []string
	// Annotations are the tool's MCP annotations (readOnlyHint,
	// destructiveHint, ...): an empty result of a tool that changes things
	// reads "Done, nothing returned", not "No rows.".
	Annotations json.RawMessage
}

// ModelOnly reports whether UIs may not call the tool.
func (t ToolData) ModelOnly() bool {
	if t.Visibility == nil {
		return false
	}
	for _, v := range t.Visibility {
		if v == "app" {
			return false
		}
	}
	return true
}

// pageTool is the JSON object the page reads from #tool-data.
type pageTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// ModelOnly: the page must not call the tool (visibility lacks "app").
	ModelOnly bool `json:"modelOnly,omitempty"`
	// Annotations: the tool's readOnlyHint and destructiveHint.
	Annotations *pageAnnotations `json:"annotations,omitempty"`
}

// pageAnnotations are the tool annotations the page reads (the hints only:
// titles and unknown fields stay out of the page).
type pageAnnotations struct {
	ReadOnlyHint    *bool `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
}

// annotationsFor decodes the hints the page uses; nil when there are none
// or the annotations are not an object.
func annotationsFor(raw json.RawMessage) *pageAnnotations {
	var a pageAnnotations
	if len(raw) == 0 || json.Unmarshal(raw, &a) != nil || (a.ReadOnlyHint == nil && a.DestructiveHint == nil) {
		return nil
	}
	return &a
}

type pageData struct {
	Tool pageTool `json:"tool"`
}

// Emergency returns the page shown when generation failed: the tool name,
// reason, and the raw JSON of any input and result the host delivers. It is
// the last fallback, so it ignores the schemas and only needs a name.
func (o Options) Emergency(t ToolData, reason string) (string, error) {
	name := strings.TrimSpace(t.Name)
	if name == "" {
		return "", errors.New("viewdefs: tool name is empty")
	}
	if strings.TrimSpace(reason) == "" {
		reason = "unknown error"
	}
	data := pageData{Tool: pageTool{Name: t.Name, InputSchema: json.RawMessage("null")}}
	a := o.assets()
	return render("emergency.html.tmpl", map[string]any{"Name": t.Name, "Reason": reason, "Data": data,
		"CSS": template.CSS(a.get("min/page.css")), "PageJS": template.JS(a.get("min/emergency.js"))})
}

// schemaJSON checks raw is JSON (empty means null) and returns it compacted.
func schemaJSON(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("null"), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	return buf.Bytes(), nil
}

func render(name string, data any) (string, error) {
	var b strings.Builder
	if err := templates().ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("viewdefs: render %s: %w", name, err)
	}
	return b.String(), nil
}
