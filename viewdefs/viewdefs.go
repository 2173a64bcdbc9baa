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
	"html/template"
	"strings"
)

//go:embed *.html.tmpl
var files embed.FS

var templates = template.Must(template.ParseFS(files, "*.html.tmpl"))

// formJS compiles a tool's input schema into the page's form (form.js).
//
//go:embed form.js
var formJS string

// FormJS returns the form compiler's source (for tests and tooling).
func FormJS() string { return formJS }

// ToolData describes the tool a page is rendered for.
type ToolData struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage
}

// pageTool is the JSON object the page reads from #tool-data.
type pageTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

type pageData struct {
	Tool pageTool `json:"tool"`
}

// Minimal returns the offline minimal UI for t as a full HTML document (not
// yet shim-injected). It fails on an empty name or a schema that is not JSON.
func Minimal(t ToolData) (string, error) {
	if strings.TrimSpace(t.Name) == "" {
		return "", errors.New("viewdefs: tool name is empty")
	}
	in, err := schemaJSON(t.InputSchema)
	if err != nil {
		return "", fmt.Errorf("viewdefs: tool %q: inputSchema: %w", t.Name, err)
	}
	out, err := schemaJSON(t.OutputSchema)
	if err != nil {
		return "", fmt.Errorf("viewdefs: tool %q: outputSchema: %w", t.Name, err)
	}
	if len(out) > 0 && bytes.Equal(out, []byte("null")) {
		out = nil
	}
	data := pageData{Tool: pageTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: in, OutputSchema: out}}
	return render("minimal.html.tmpl", map[string]any{
		"Name": t.Name, "Title": t.Title, "Description": t.Description, "Data": data,
		"FormJS": template.JS(formJS),
	})
}

// Emergency returns the page shown when generation failed: the tool name,
// reason, and the raw JSON of any input and result the host delivers. It is
// the last fallback, so it ignores the schemas and only needs a name.
func Emergency(t ToolData, reason string) (string, error) {
	name := strings.TrimSpace(t.Name)
	if name == "" {
		return "", errors.New("viewdefs: tool name is empty")
	}
	if strings.TrimSpace(reason) == "" {
		reason = "unknown error"
	}
	data := pageData{Tool: pageTool{Name: t.Name, InputSchema: json.RawMessage("null")}}
	return render("emergency.html.tmpl", map[string]any{"Name": t.Name, "Reason": reason, "Data": data})
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
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("viewdefs: render %s: %w", name, err)
	}
	return b.String(), nil
}
