package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
)

// The Call form's fields from a tool's input schema: which kind each
// property becomes, its placeholder and skeleton (callform.go holds the
// form itself).

// schemaProp is the part of a property schema the form uses.
type schemaProp struct {
	Type        json.RawMessage   `json:"type"`
	Enum        []json.RawMessage `json:"enum"`
	Description string            `json:"description"`
	Title       string            `json:"title"`
	OneOf       []struct {
		Const json.RawMessage `json:"const"`
		Title string          `json:"title"`
	} `json:"oneOf"`
	AnyOf []struct {
		Const json.RawMessage `json:"const"`
		Title string          `json:"title"`
	} `json:"anyOf"`
	EnumNames        []string                   `json:"enumNames"`
	Default          json.RawMessage            `json:"default"`
	Const            json.RawMessage            `json:"const"`
	Format           string                     `json:"format"`
	ContentMediaType string                     `json:"contentMediaType"`
	MaxLength        *int                       `json:"maxLength"`
	Properties       map[string]json.RawMessage `json:"properties"`
	Required         []string                   `json:"required"`
	Items            json.RawMessage            `json:"items"`
	raw              json.RawMessage
}

func newCallForm(tool string, schema json.RawMessage) *callForm {
	f := &callForm{tool: tool, schema: string(schema)}
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if len(bytes.TrimSpace(schema)) > 0 {
		if err := json.Unmarshal(schema, &s); err != nil {
			f.problem = "the input schema is not a JSON object: " + err.Error()
		}
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	names, props, err := orderedProps(s.Properties)
	if err != nil {
		f.problem = "reading the input schema's properties: " + err.Error()
	}
	// Required fields first, each group in the schema's order.
	for _, wantReq := range []bool{true, false} {
		for i, name := range names {
			if req[name] == wantReq {
				f.fields = append(f.fields, newField(name, props[i], req[name]))
			}
		}
	}
	f.rawArg = newFormArea()
	return f
}

// orderedProps decodes a properties object keeping the schema's order
// (the order the upstream wrote them in is the order a person expects).
func orderedProps(raw json.RawMessage) ([]string, []schemaProp, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New("properties is not an object")
	}
	var names []string
	var props []schemaProp
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return names, props, err
		}
		name, _ := t.(string)
		var p schemaProp
		var rawProp json.RawMessage
		if err := dec.Decode(&rawProp); err != nil {
			return names, props, err
		}
		_ = json.Unmarshal(rawProp, &p) // a property that is not an object becomes a JSON field
		p.raw = rawProp
		names, props = append(names, name), append(props, p)
	}
	return names, props, nil
}

// What makes a string field a text area, as in the offline UI's form
// (viewdefs/form.js): a content format or media type, a long maxLength, a
// content-like name, or a description that says so.
var (
	contentFormat = regexp.MustCompile(`(?i)^(?:textarea|markdown|html|json|yaml|code|text|multiline|multi-line)$`)
	contentName   = regexp.MustCompile(`(?i)(?:^|_|-|[a-z](?:[A-Z]))(?:content|contents|text|body|code|sql|script|patch|diff|prompt|markdown|html|template|message|description|notes?|comment|snippet|instructions|yaml|csv|query_string|source_code|commit_message)$|^(?:content|contents|text|body|code|sql|script|patch|diff|prompt|markdown|md|html|template|message|description|notes?|comment|snippet|instructions|yaml|csv|data|payload|document|newText|oldText|new_text|old_text|new_string|old_string|replacement)$`)
	contentDesc   = regexp.MustCompile(`(?i)multi-?line|\bcontents?\b|markdown|source code|\bsql\b|\bscript\b|text to (?:write|replace|insert|search)|\bbody\b`)
)

func isContent(name string, p schemaProp) bool {
	switch {
	case contentFormat.MatchString(p.Format), p.ContentMediaType != "":
		return true
	case p.MaxLength != nil && *p.MaxLength > 200:
		return true
	}
	return contentName.MatchString(name) || contentDesc.MatchString(p.Description)
}

func newField(name string, p schemaProp, required bool) *formField {
	desc := p.Description
	if p.Title != "" && p.Title != name {
		desc = strings.TrimSuffix(p.Title+" — "+desc, " — ") // an elicitation's fields have titles
	}
	fd := &formField{name: name, required: required, desc: desc, pick: -1}
	typ := schemaType(p.Type)
	// A choice of titled constants (oneOf [{const, title}], as elicitation
	// schemas write titled enums) is an enum with names.
	if len(p.Enum) == 0 && len(p.OneOf) > 0 {
		var consts []json.RawMessage
		var names []string
		for _, o := range p.OneOf {
			if len(o.Const) == 0 {
				consts = nil
				break
			}
			consts, names = append(consts, o.Const), append(names, o.Title)
		}
		p.Enum, fd.names = consts, names
	} else if len(p.EnumNames) == len(p.Enum) {
		fd.names = p.EnumNames // the legacy enumNames
	}
	if consts, names := arrayChoices(p); typ == "array" && len(consts) > 0 {
		fd.kind, fd.enum, fd.names, fd.picks = fieldMulti, consts, names, make([]bool, len(consts))
		var def []json.RawMessage
		_ = json.Unmarshal(p.Default, &def)
		for i, e := range consts {
			for _, d := range def {
				if bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(d)) {
					fd.picks[i] = true
				}
			}
		}
		return fd
	}
	switch {
	case len(p.Enum) > 0:
		fd.kind, fd.enum = fieldEnum, p.Enum
		if required {
			fd.pick = 0
		}
		for i, e := range p.Enum {
			if len(p.Default) > 0 && bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(p.Default)) {
				fd.pick = i
			}
		}
		return fd
	case typ == "boolean":
		fd.kind = fieldBool
		var d bool
		if json.Unmarshal(p.Default, &d) == nil && len(p.Default) > 0 {
			fd.on, fd.set = d, true
		}
		return fd
	case typ == "string":
		fd.kind = fieldString
		fd.multi = isContent(name, p)
	case typ == "number":
		fd.kind = fieldNumber
	case typ == "integer":
		fd.kind = fieldInteger
	case typ == "array" && stringItems(p):
		// A list of strings: one item a line, rows added with enter and
		// removed by deleting the line (not a one-line JSON box).
		fd.kind, fd.multi = fieldList, true
	default:
		fd.kind, fd.jsonType = fieldJSON, typ
		if sk := skeletonOf(p.raw, 0); sk != nil && (typ == "object" || typ == "array") {
			if b, err := json.MarshalIndent(sk, "", "  "); err == nil && string(b) != "{}" && string(b) != "[]" {
				fd.skeleton, fd.multi = string(b), true
			}
		}
	}
	ti := textinput.New()
	ti.Prompt = ""
	ti.CharLimit = 64 << 10
	ti.KeyMap.LineEnd = key.NewBinding(key.WithKeys("end")) // ctrl+e is $EDITOR
	placeholder := ""
	switch fd.kind {
	case fieldString:
		var d string
		if json.Unmarshal(p.Default, &d) == nil {
			placeholder = d
		}
	case fieldList:
		placeholder = "one item a line · enter adds one"
	case fieldJSON:
		switch typ {
		case "array":
			placeholder = "[ … ] JSON array"
		case "object":
			placeholder = "{ … } JSON object"
		default:
			placeholder = "any JSON value"
		}
		if fd.skeleton != "" && !required {
			placeholder += " · ctrl+t fills in its shape"
		}
	default:
		if len(p.Default) > 0 {
			placeholder = string(p.Default)
		}
	}
	// A schema's default is hostile text: cleaned, and none when it takes
	// no cells (bubbles' textinput cannot draw a placeholder of width 0).
	if placeholder = clean(placeholder); cellWidth(placeholder) == 0 {
		placeholder = ""
	}
	ti.Placeholder = placeholder
	fd.input = ti
	fd.area = newFormArea()
	fd.area.Placeholder = placeholder
	if fd.skeleton != "" && required {
		fd.area.SetValue(fd.skeleton)
	}
	return fd
}

// newFormArea is a text area for a field or the raw arguments: enter is a
// newline, ctrl+e is $EDITOR (not line end), ctrl+t the skeleton.
func newFormArea() textarea.Model {
	ta := textarea.New()
	ta.Prompt = ""
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.SetHeight(3)
	ta.KeyMap.LineEnd = key.NewBinding(key.WithKeys("end"))
	ta.KeyMap.TransposeCharacterBackward = key.NewBinding(key.WithDisabled())
	ta.KeyMap.LineNext = key.NewBinding(key.WithKeys("down"))
	ta.KeyMap.LinePrevious = key.NewBinding(key.WithKeys("up"))
	return ta
}

// skeletonOf is a value of schema's shape: each property of an object with
// a blank of its type (the default, the first enum value), an array of
// objects with one such object; nil when the schema says nothing useful.
func skeletonOf(schema json.RawMessage, depth int) any {
	var p schemaProp
	if depth > 4 || json.Unmarshal(schema, &p) != nil {
		return nil
	}
	if len(p.Default) > 0 {
		var v any
		if json.Unmarshal(p.Default, &v) == nil {
			return v
		}
	}
	if len(p.Enum) > 0 {
		var v any
		if json.Unmarshal(p.Enum[0], &v) == nil {
			return v
		}
	}
	switch schemaType(p.Type) {
	case "string":
		return ""
	case "number", "integer":
		return 0
	case "boolean":
		return false
	case "array":
		if item := skeletonOf(p.Items, depth+1); item != nil {
			if _, isObj := item.(orderedObject); isObj {
				return []any{item}
			}
		}
		return []any{}
	case "object", "":
		if len(p.Properties) == 0 {
			if schemaType(p.Type) == "object" {
				return orderedObject{}
			}
			return nil
		}
		names, props, _ := orderedProps(mustJSON(p.Properties, schema))
		obj := orderedObject{}
		for i, n := range names {
			obj = append(obj, kv{n, skeletonOf(props[i].raw, depth+1)})
		}
		return obj
	}
	return nil
}

// mustJSON is the "properties" member of schema as written (its order);
// fallback is used when it cannot be found.
func mustJSON(m map[string]json.RawMessage, schema json.RawMessage) json.RawMessage {
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) == nil && len(s.Properties) > 0 {
		return s.Properties
	}
	b, _ := json.Marshal(m)
	return b
}

// orderedObject is a JSON object that keeps its keys' order.
type orderedObject []kv

type kv struct {
	k string
	v any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(e.k)
		vb, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// schemaType is the first non-null type a schema names ("" for none).
func schemaType(raw json.RawMessage) string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		for _, t := range many {
			if t != "null" {
				return t
			}
		}
	}
	return ""
}

// stringItems reports whether an array's items are plain strings.
func stringItems(p schemaProp) bool {
	var items schemaProp
	return len(p.Items) > 0 && json.Unmarshal(p.Items, &items) == nil && schemaType(items.Type) == "string" && len(items.Enum) == 0
}

// arrayChoices are the choices of an array of enum items (items.enum, or
// items.anyOf/oneOf of {const, title}): the values and their titles.
func arrayChoices(p schemaProp) ([]json.RawMessage, []string) {
	var items schemaProp
	if len(p.Items) == 0 || json.Unmarshal(p.Items, &items) != nil {
		return nil, nil
	}
	if len(items.Enum) > 0 {
		return items.Enum, items.EnumNames
	}
	alts := items.OneOf
	if len(alts) == 0 {
		alts = items.AnyOf
	}
	var consts []json.RawMessage
	var names []string
	for _, o := range alts {
		if len(o.Const) == 0 {
			return nil, nil
		}
		consts, names = append(consts, o.Const), append(names, o.Title)
	}
	return consts, names
}
