package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// The Call tab's form, built from a tool's input schema: strings and
// numbers are text inputs, booleans toggle, enums cycle through their
// values, arrays and objects (and anything else) are JSON checked before
// the call. It is hand-built on bubbles textinput rather than huh: the form
// lives inside a pane beside the result and scrolls with it, and huh's
// forms want the whole screen and their own update loop.

type fieldKind int

const (
	fieldString fieldKind = iota
	fieldNumber
	fieldInteger
	fieldBool
	fieldEnum
	fieldJSON
)

func (k fieldKind) String() string {
	return [...]string{"string", "number", "integer", "boolean", "choice", "JSON"}[k]
}

type formField struct {
	name     string
	kind     fieldKind
	required bool
	desc     string
	jsonType string // for fieldJSON: "object", "array" or "" (any)

	input textinput.Model // string, number, integer, json
	enum  []json.RawMessage
	pick  int  // enum: index into enum, -1 unset
	on    bool // bool
	set   bool // bool: given at all
	err   string
}

type callForm struct {
	tool    string
	schema  string
	fields  []*formField
	cur     int
	problem string // the schema could not be read
}

// formFor returns the tool's form, building it from the input schema the
// first time (nil until the schema is known).
func (s *shared) formFor(tool string) *callForm {
	if tool == "" {
		return nil
	}
	t := s.tool(tool)
	if t.form != nil {
		return t.form
	}
	info := t.info
	if !t.hasInfo {
		if !t.hasInspect {
			return nil
		}
		info = t.inspect.Tool
	}
	f := newCallForm(tool, info.InputSchema)
	f.setStyles(s.styles)
	t.form = f
	return f
}

// schemaProp is the part of a property schema the form uses.
type schemaProp struct {
	Type        json.RawMessage   `json:"type"`
	Enum        []json.RawMessage `json:"enum"`
	Description string            `json:"description"`
	Default     json.RawMessage   `json:"default"`
	Const       json.RawMessage   `json:"const"`
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
		names, props = append(names, name), append(props, p)
	}
	return names, props, nil
}

func newField(name string, p schemaProp, required bool) *formField {
	fd := &formField{name: name, required: required, desc: p.Description, pick: -1}
	typ := schemaType(p.Type)
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
	case typ == "number":
		fd.kind = fieldNumber
	case typ == "integer":
		fd.kind = fieldInteger
	default:
		fd.kind, fd.jsonType = fieldJSON, typ
	}
	ti := textinput.New()
	ti.Prompt = ""
	ti.CharLimit = 64 << 10
	switch fd.kind {
	case fieldString:
		var d string
		if json.Unmarshal(p.Default, &d) == nil {
			ti.Placeholder = d
		}
	case fieldJSON:
		switch typ {
		case "array":
			ti.Placeholder = "[ … ] JSON array"
		case "object":
			ti.Placeholder = "{ … } JSON object"
		default:
			ti.Placeholder = "any JSON value"
		}
	default:
		if len(p.Default) > 0 {
			ti.Placeholder = string(p.Default)
		}
	}
	fd.input = ti
	return fd
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

func (f *callForm) setStyles(st Styles) {
	for _, fd := range f.fields {
		if fd.kind != fieldBool && fd.kind != fieldEnum {
			fd.input.SetStyles(inputStyles(st))
		}
	}
}

func (f *callForm) field() *formField {
	if f.cur < 0 || f.cur >= len(f.fields) {
		return nil
	}
	return f.fields[f.cur]
}

func (f *callForm) focus() tea.Cmd {
	if fd := f.field(); fd != nil && fd.kind != fieldBool && fd.kind != fieldEnum {
		return fd.input.Focus()
	}
	return nil
}

func (f *callForm) blur() {
	for _, fd := range f.fields {
		if fd.kind != fieldBool && fd.kind != fieldEnum {
			fd.input.Blur()
		}
	}
}

// move goes to the next (d=1) or previous field, wrapping around.
func (f *callForm) move(d int) tea.Cmd {
	if len(f.fields) == 0 {
		return nil
	}
	f.blur()
	f.cur = (f.cur + d + len(f.fields)) % len(f.fields)
	return f.focus()
}

// choosing reports whether the current field takes space/←/→ as a choice.
func (f *callForm) choosing() bool {
	fd := f.field()
	return fd != nil && (fd.kind == fieldBool || fd.kind == fieldEnum)
}

// toggle flips a boolean (unset -> true -> false -> unset when optional)
// or cycles an enum (back with left).
func (f *callForm) toggle(back bool) {
	fd := f.field()
	if fd == nil {
		return
	}
	switch fd.kind {
	case fieldBool:
		switch {
		case !fd.set:
			fd.set, fd.on = true, true
		case fd.on:
			fd.on = false
		case fd.required:
			fd.on = true
		default:
			fd.set = false
		}
	case fieldEnum:
		lo := -1
		if fd.required {
			lo = 0
		}
		n := len(fd.enum) - lo
		step := 1
		if back {
			step = -1
		}
		fd.pick = lo + ((fd.pick-lo+step)%n+n)%n
	}
	fd.err = ""
}

func (f *callForm) update(msg tea.Msg) tea.Cmd {
	fd := f.field()
	if fd == nil || fd.kind == fieldBool || fd.kind == fieldEnum {
		return nil
	}
	var cmd tea.Cmd
	fd.input, cmd = fd.input.Update(msg)
	fd.err = ""
	return cmd
}

// arguments builds the arguments object, or says which fields are wrong
// (each field shows its own error).
func (f *callForm) arguments() (json.RawMessage, error) {
	if f.problem != "" && len(f.fields) == 0 {
		return json.RawMessage("{}"), nil
	}
	args := map[string]json.RawMessage{}
	var bad []string
	for _, fd := range f.fields {
		fd.err = ""
		v, ok, err := fd.value()
		if err != nil {
			fd.err = err.Error()
			bad = append(bad, fd.name)
			continue
		}
		if !ok {
			if fd.required {
				fd.err = "required"
				bad = append(bad, fd.name)
			}
			continue
		}
		args[fd.name] = v
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("fix %s before calling", strings.Join(bad, ", "))
	}
	b, err := json.Marshal(args)
	return b, err
}

// value is the field's JSON value; ok is false when it is left empty.
func (fd *formField) value() (json.RawMessage, bool, error) {
	switch fd.kind {
	case fieldBool:
		if !fd.set {
			return nil, false, nil
		}
		return json.RawMessage(strconv.FormatBool(fd.on)), true, nil
	case fieldEnum:
		if fd.pick < 0 {
			return nil, false, nil
		}
		return fd.enum[fd.pick], true, nil
	}
	s := strings.TrimSpace(fd.input.Value())
	if s == "" {
		if fd.kind == fieldString && fd.input.Value() != "" {
			b, _ := json.Marshal(fd.input.Value())
			return b, true, nil
		}
		return nil, false, nil
	}
	switch fd.kind {
	case fieldString:
		b, _ := json.Marshal(fd.input.Value())
		return b, true, nil
	case fieldNumber:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return nil, false, errors.New("not a number")
		}
		return json.RawMessage(s), true, nil
	case fieldInteger:
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return nil, false, errors.New("not an integer")
		}
		return json.RawMessage(s), true, nil
	}
	if !json.Valid([]byte(s)) {
		return nil, false, errors.New("not valid JSON")
	}
	switch fd.jsonType {
	case "object":
		if !strings.HasPrefix(s, "{") {
			return nil, false, errors.New("must be a JSON object { … }")
		}
	case "array":
		if !strings.HasPrefix(s, "[") {
			return nil, false, errors.New("must be a JSON array [ … ]")
		}
	}
	return json.RawMessage(s), true, nil
}

// render draws the fields: a label column and the input, the description
// and any error under it.
func (f *callForm) render(st Styles, w int, active bool) []string {
	var out []string
	if f.problem != "" {
		out = append(out, st.Warn.Render("▲ "+clean(f.problem)))
	}
	if len(f.fields) == 0 {
		return append(out, st.Muted.Render("  no arguments: enter calls it with {}"))
	}
	labelW := 6
	for _, fd := range f.fields {
		labelW = max(labelW, len(fd.name)+1)
	}
	labelW = min(labelW, max(w/3, 8))
	inputW := max(w-labelW-4, 8)
	for i, fd := range f.fields {
		cur := active && i == f.cur
		marker := "  "
		if cur {
			marker = st.Accent.Render("› ")
		}
		name := fd.name
		if fd.required {
			name += "*"
		}
		label := st.Label.Render(fit(clean(name), labelW))
		if cur {
			label = st.Key.Render(fit(clean(name), labelW))
		}
		var val string
		switch fd.kind {
		case fieldBool:
			switch {
			case !fd.set:
				val = st.Muted.Render("[ ] unset")
			case fd.on:
				val = st.Text.Render("[x] true")
			default:
				val = st.Text.Render("[ ] false")
			}
		case fieldEnum:
			v := st.Muted.Render("unset")
			if fd.pick >= 0 {
				v = st.Text.Render(enumLabel(fd.enum[fd.pick]))
			}
			val = st.Muted.Render("‹ ") + v + st.Muted.Render(fmt.Sprintf(" ›  %d choices", len(fd.enum)))
		default:
			fd.input.SetWidth(inputW)
			val = fd.input.View()
		}
		out = append(out, marker+label+" "+val)
		hint := fd.kind.String()
		if fd.desc != "" {
			hint += " · " + fd.desc
		}
		if fd.err != "" {
			out = append(out, "   "+strings.Repeat(" ", labelW)+st.Err.Render("✗ "+fd.err))
		} else if cur || !active {
			out = append(out, "   "+strings.Repeat(" ", labelW)+st.Muted.Render(fit(clean(hint), inputW)))
		}
	}
	return out
}

func enumLabel(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return clean(s)
	}
	return clean(string(raw))
}
