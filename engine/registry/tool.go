package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// legacyResourceURIKey is the deprecated flat _meta key older hosts read.
const legacyResourceURIKey = "ui/resourceUri"

// Tool is one upstream tool as genui holds it: the raw JSON exactly as the
// upstream sent it, plus what genui derived from it. The fields genui
// reads (title, description, schemas, annotations, _meta) are not copied:
// their accessors return slices of Raw, located once when the tool is
// parsed, so a tool costs its JSON and a small struct (an upstream with
// 100,000 tools is 36 MB of JSON). Raw must not be modified.
type Tool struct {
	Name string
	// Raw is the tool object verbatim from the upstream's tools/list.
	Raw json.RawMessage
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

	title, description, inputSchema, outputSchema, annotations, meta span
	hash                                                             atomic.Pointer[string]
}

// span locates a member's value in Raw (end 0: absent).
type span struct{ start, end uint32 }

func (t *Tool) at(s span) json.RawMessage {
	if s.end == 0 {
		return nil
	}
	return t.Raw[s.start:s.end:s.end]
}

// Title is the tool's title ("" when it has none).
func (t *Tool) Title() string { return jsonString(t.at(t.title)) }

// Description is the tool's description ("" when it has none).
func (t *Tool) Description() string { return jsonString(t.at(t.description)) }

// InputSchema is the raw inputSchema (nil when absent).
func (t *Tool) InputSchema() json.RawMessage { return t.at(t.inputSchema) }

// OutputSchema is the raw outputSchema (nil when absent).
func (t *Tool) OutputSchema() json.RawMessage { return t.at(t.outputSchema) }

// Annotations is the raw annotations object (nil when absent).
func (t *Tool) Annotations() json.RawMessage { return t.at(t.annotations) }

// Meta is the raw _meta (nil when absent).
func (t *Tool) Meta() json.RawMessage { return t.at(t.meta) }

// Hash covers name, description, inputSchema and outputSchema in canonical
// JSON; it changes exactly when a UI must be regenerated. It is computed
// on first use (canonicalising 100,000 schemas at load would delay the
// first tools/list by seconds; most tools are never asked for it).
func (t *Tool) Hash() string {
	if h := t.hash.Load(); h != nil {
		return *h
	}
	h := cache.ToolHash(cache.ToolIdentity{Name: t.Name, Description: t.Description(),
		InputSchema: t.InputSchema(), OutputSchema: t.OutputSchema()})
	t.hash.CompareAndSwap(nil, &h)
	return *t.hash.Load()
}

// jsonString decodes a raw JSON string value ("" for null, absent or
// anything else: parse has checked the type).
func jsonString(raw []byte) string {
	if s, ok := jsonrpc.PlainString(raw); ok {
		return string(s)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
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

// maxToolBytes bounds one tool's JSON (spans are 32-bit).
const maxToolBytes = 1 << 31

// parse decodes one raw tool, which must be valid JSON, into an empty
// Tool without copying it: the Tool keeps raw. Members are found by exact key, in one pass; a
// member given twice counts as its last occurrence (as encoding/json
// decodes it).
func (tool *Tool) parse(raw json.RawMessage) error {
	if len(raw) >= maxToolBytes {
		return fmt.Errorf("tool is %d bytes of JSON, more than genui takes", len(raw))
	}
	tool.Raw = raw
	var name []byte
	typeErr := ""
	isObject := jsonrpc.EachMemberAt(raw, func(key []byte, start, end int) bool {
		v, at := raw[start:end], span{uint32(start), uint32(end)}
		switch string(key) {
		case "name":
			name = v
		case "title", "description":
			switch {
			case string(v) == "null":
				at = span{}
			case v[0] != '"':
				typeErr = fmt.Sprintf("tool %s is not a string", key)
				return false
			}
			if string(key) == "title" {
				tool.title = at
			} else {
				tool.description = at
			}
		case "inputSchema":
			tool.inputSchema = at
		case "outputSchema":
			tool.outputSchema = at
		case "annotations":
			tool.annotations = at
		case "_meta":
			tool.meta = at
		case "execution":
			var exec struct {
				TaskSupport string `json:"taskSupport"`
			}
			tool.TaskSupport = ""
			if json.Unmarshal(v, &exec) == nil {
				tool.TaskSupport = exec.TaskSupport
			}
		}
		return true
	})
	switch {
	case typeErr != "":
		return errors.New(typeErr)
	case !isObject:
		return errors.New("tool is not a JSON object")
	case name == nil:
		return errors.New("tool without a name")
	case name[0] != '"':
		return errors.New("tool name is not a string")
	}
	if tool.Name = jsonString(name); tool.Name == "" {
		return errors.New("tool without a name")
	}
	if meta := tool.Meta(); len(meta) > 0 && meta[0] == '{' {
		var m struct {
			UI *struct {
				ResourceURI string   `json:"resourceUri"`
				Visibility  []string `json:"visibility"`
			} `json:"ui"`
			Legacy string `json:"ui/resourceUri"`
		}
		// A _meta that does not decode is kept verbatim and ignored here.
		if json.Unmarshal(meta, &m) == nil {
			if m.UI != nil {
				tool.OwnUI = m.UI.ResourceURI
				tool.Visibility = m.UI.Visibility
			}
			if tool.OwnUI == "" && strings.HasPrefix(m.Legacy, "ui://") {
				tool.OwnUI = m.Legacy
			}
		}
	}
	return nil
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

// AppendJSON appends JSON(withUI) to dst (the same bytes): a tool without
// _meta, the common case, gets genui's UI linkage written straight after
// its own bytes, with no copy of its own (a host's listing of 100,000
// tools allocated and copied 45 MB for them, two thirds of the listing's
// time).
func (t *Tool) AppendJSON(dst []byte, withUI bool) []byte {
	if withUI && t.OwnUI == "" && !t.UIDisabled && t.meta.end == 0 {
		if out, ok := t.appendUIMeta(dst); ok {
			return out
		}
	}
	return append(dst, t.JSON(withUI)...)
}

// appendUIMeta appends Raw with genui's _meta added to a tool that has
// none (false when Raw does not end as an object does).
func (t *Tool) appendUIMeta(dst []byte) ([]byte, bool) {
	end := bytes.LastIndexByte(t.Raw, '}')
	if end < 0 {
		return dst, false
	}
	body := bytes.TrimRight(t.Raw[:end], " \t\r\n")
	dst = append(dst, body...)
	if body[len(body)-1] != '{' {
		dst = append(dst, ',')
	}
	uri := contract.UIURI(t.Name)
	dst = append(dst, `"_meta":{"ui":{"resourceUri":`...)
	dst = appendURI(dst, uri)
	dst = append(dst, `},"`+legacyResourceURIKey+`":`...)
	dst = appendURI(dst, uri)
	return append(dst, "}}"...), true
}

// appendURI appends a ui:// URI as a JSON string: url.PathEscape leaves
// only printable ASCII other than '"' and '\\', which JSON takes as it is.
func appendURI(dst []byte, uri string) []byte {
	dst = append(dst, '"')
	dst = append(dst, uri...)
	return append(dst, '"')
}

// WithUIMeta returns the tool JSON with genui's UI linkage added: every
// field the upstream sent is kept (only key order may change), existing
// _meta keys are preserved, and a tool that already has a UI (or gets none)
// is returned unchanged. A tool without _meta (the common case) gets it
// appended to its bytes as they are.
func (t *Tool) WithUIMeta() (json.RawMessage, error) {
	if t.OwnUI != "" || t.UIDisabled {
		return t.Raw, nil
	}
	if t.meta.end == 0 {
		out, ok := t.appendUIMeta(make([]byte, 0, len(t.Raw)+2*len(t.Name)+64))
		if !ok {
			return nil, errors.New("tool is not a JSON object")
		}
		return out, nil
	}
	uri, _ := json.Marshal(contract.UIURI(t.Name))
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
	ui["resourceUri"] = uri
	meta["ui"], _ = json.Marshal(ui)
	meta[legacyResourceURIKey] = uri
	obj["_meta"], _ = json.Marshal(meta)
	return json.Marshal(obj)
}
