package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/contract"
)

// legacyResourceURIKey is the deprecated flat _meta key older hosts read.
const legacyResourceURIKey = "ui/resourceUri"

// Tool is one upstream tool as genui holds it: the raw JSON exactly as the
// upstream sent it, plus what genui derived from it.
type Tool struct {
	Name string
	// Raw is the tool object verbatim from the upstream's tools/list.
	Raw json.RawMessage
	// Hash covers name, description, inputSchema and outputSchema in
	// canonical JSON; it changes exactly when a UI must be regenerated.
	Hash string
	// OwnUI is the upstream's own ui:// resource URI when the tool already
	// ships an MCP App; genui then passes it through untouched.
	OwnUI string
	// UIDisabled is set for a tool generation.enabledTools/disabledTools
	// leave out: it passes through without a generated UI.
	UIDisabled bool
	// Visibility is _meta.ui.visibility (nil = default: model and app).
	Visibility []string
	// TaskSupport is execution.taskSupport ("" when absent: forbidden).
	TaskSupport string
	// The definition's fields genui reads (Raw keeps everything).
	Title        string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	Annotations  json.RawMessage
	Meta         json.RawMessage
}

// ResourceURI is the ui:// URI genui serves this tool's UI at (or the
// upstream's own, when it has one).
func (t *Tool) ResourceURI() string {
	if t.OwnUI != "" {
		return t.OwnUI
	}
	if t.UIDisabled {
		return ""
	}
	return contract.UIURI(t.Name)
}

// VisibleToApps reports whether a UI may call this tool (spec: visibility
// must include "app"; absent visibility means both).
func (t *Tool) VisibleToApps() bool {
	return t.Visibility == nil || slices.Contains(t.Visibility, "app")
}

// HasGeneratedUI reports whether genui serves a generated UI for the tool
// (it ships none of its own and is not left out by enabledTools or
// disabledTools).
func (t *Tool) HasGeneratedUI() bool { return t.OwnUI == "" && !t.UIDisabled }

// Parse decodes one raw upstream tool. Unknown fields stay in Raw.
func Parse(raw json.RawMessage) (*Tool, error) {
	var t struct {
		Name         string          `json:"name"`
		Title        string          `json:"title"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
		Annotations  json.RawMessage `json:"annotations"`
		Meta         json.RawMessage `json:"_meta"`
		Execution    json.RawMessage `json:"execution"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("tool is not a JSON object: %w", err)
	}
	if t.Name == "" {
		return nil, errors.New("tool without a name")
	}
	tool := &Tool{
		Name:  t.Name,
		Raw:   append(json.RawMessage(nil), raw...),
		Title: t.Title, Description: t.Description, InputSchema: t.InputSchema,
		OutputSchema: t.OutputSchema, Annotations: t.Annotations, Meta: t.Meta,
	}
	var exec struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(t.Execution, &exec) == nil {
		tool.TaskSupport = exec.TaskSupport
	}
	tool.Hash = cache.ToolHash(cache.ToolIdentity{Name: t.Name, Description: t.Description,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema})
	if len(t.Meta) > 0 {
		var meta struct {
			UI *struct {
				ResourceURI string   `json:"resourceUri"`
				Visibility  []string `json:"visibility"`
			} `json:"ui"`
			Legacy string `json:"ui/resourceUri"`
		}
		// A _meta that is not an object is kept verbatim and ignored here.
		if json.Unmarshal(t.Meta, &meta) == nil {
			if meta.UI != nil {
				tool.OwnUI = meta.UI.ResourceURI
				tool.Visibility = meta.UI.Visibility
			}
			if tool.OwnUI == "" && strings.HasPrefix(meta.Legacy, "ui://") {
				tool.OwnUI = meta.Legacy
			}
		}
	}
	return tool, nil
}

// JSON is the tool as hosts see it: verbatim, or with genui's UI linkage
// added when withUI (see WithUIMeta; a tool whose JSON cannot take it is
// verbatim).
func (t *Tool) JSON(withUI bool) json.RawMessage {
	if !withUI {
		return t.Raw
	}
	raw, err := t.WithUIMeta()
	if err != nil {
		return t.Raw
	}
	return raw
}

// WithUIMeta returns the tool JSON with genui's UI linkage added: every
// field the upstream sent is kept (only key order may change), existing
// _meta keys are preserved, and a tool that already has a UI (or gets none)
// is returned unchanged.
func (t *Tool) WithUIMeta() (json.RawMessage, error) {
	if t.OwnUI != "" || t.UIDisabled {
		return t.Raw, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(t.Raw, &obj); err != nil {
		return nil, err
	}
	meta := map[string]json.RawMessage{}
	if m, ok := obj["_meta"]; ok {
		if err := json.Unmarshal(m, &meta); err != nil {
			// A non-object _meta cannot carry our keys; leave the tool alone.
			return t.Raw, nil
		}
		if meta == nil { // "_meta": null means no metadata
			meta = map[string]json.RawMessage{}
		}
	}
	ui := map[string]json.RawMessage{}
	if u, ok := meta["ui"]; ok {
		if err := json.Unmarshal(u, &ui); err != nil || ui == nil {
			ui = map[string]json.RawMessage{}
		}
	}
	uri, _ := json.Marshal(contract.UIURI(t.Name))
	ui["resourceUri"] = uri
	meta["ui"], _ = json.Marshal(ui)
	meta[legacyResourceURIKey] = uri
	obj["_meta"], _ = json.Marshal(meta)
	return json.Marshal(obj)
}
