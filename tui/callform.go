package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"slices"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// The Call pane's form, built from a tool's input schema: strings and
// numbers are text inputs, strings that hold content (by format, length,
// name or description, as in the offline UI's form) multi-line text areas,
// booleans toggle, enums cycle through their values, an array of strings
// is a list (one item a line), other arrays and objects (and anything
// else) are JSON checked before the call; an object, or an
// array of objects, with known properties starts from a skeleton of them.
// A paste keeps its newlines (a one-line field that receives several
// lines becomes a text area). The whole arguments can be edited as raw
// JSON instead (ctrl+o), and any field, or the whole arguments, in
// $EDITOR (ctrl+e). It is hand-built on bubbles textinput and textarea
// rather than huh: the form lives inside a pane beside the result and
// scrolls with it, and huh's forms want the whole screen and their own
// update loop.

type fieldKind int

const (
	fieldString fieldKind = iota
	fieldNumber
	fieldInteger
	fieldBool
	fieldEnum
	fieldJSON
	fieldMulti // an array of choices: a checkbox per choice
	fieldList  // an array of strings: a text area, one item a line (enter adds one)
)

func (k fieldKind) String() string {
	return [...]string{"string", "number", "integer", "boolean", "choice", "JSON", "choices", "list, one item a line"}[k]
}

type formField struct {
	name     string
	kind     fieldKind
	required bool
	desc     string
	jsonType string // for fieldJSON: "object", "array" or "" (any)
	skeleton string // for fieldJSON: the value's shape from the schema ("" none)

	multi bool            // a text area, not a one-line input
	input textinput.Model // string, number, integer, json (one line)
	area  textarea.Model  // string, json (multi-line)
	enum  []json.RawMessage
	names []string // enum: the choices' titles (oneOf const/title, enumNames), "" for none
	pick  int      // enum: index into enum, -1 unset
	picks []bool   // multi: which choices are checked
	opt   int      // multi: the choice under the cursor
	on    bool     // bool
	set   bool     // bool: given at all
	err   string
}

type callForm struct {
	tool    string
	schema  string
	fields  []*formField
	cur     int
	problem string // the schema could not be read
	styles  Styles

	// raw: the arguments are edited as one JSON object instead of fields.
	raw    bool
	rawArg textarea.Model
	rawErr string
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

func (f *callForm) setStyles(st Styles) {
	f.styles = st
	as := textarea.DefaultStyles(st.Dark)
	if st.NoColor {
		as = textarea.Styles{}
	}
	as.Cursor.Blink = false
	for _, fd := range f.fields {
		if fd.editable() {
			fd.input.SetStyles(inputStyles(st))
			fd.area.SetStyles(as)
		}
	}
	f.rawArg.SetStyles(as)
}

func (f *callForm) field() *formField {
	if f.raw || f.cur < 0 || f.cur >= len(f.fields) {
		return nil
	}
	return f.fields[f.cur]
}

// editable reports whether the field takes text.
func (fd *formField) editable() bool {
	return fd.kind != fieldBool && fd.kind != fieldEnum && fd.kind != fieldMulti
}

// arrayChoices are the choices of an array of enum items (items.enum, or
// items.anyOf/oneOf of {const, title}): the values and their titles.
// stringItems reports whether an array's items are plain strings.
func stringItems(p schemaProp) bool {
	var items schemaProp
	return len(p.Items) > 0 && json.Unmarshal(p.Items, &items) == nil && schemaType(items.Type) == "string" && len(items.Enum) == 0
}

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

func (f *callForm) focus() tea.Cmd {
	if f.raw {
		return f.rawArg.Focus()
	}
	if fd := f.field(); fd != nil && fd.editable() {
		if fd.multi {
			return fd.area.Focus()
		}
		return fd.input.Focus()
	}
	return nil
}

func (f *callForm) blur() {
	f.rawArg.Blur()
	for _, fd := range f.fields {
		if fd.editable() {
			fd.input.Blur()
			fd.area.Blur()
		}
	}
}

// move goes to the next (d=1) or previous field, wrapping around.
func (f *callForm) move(d int) tea.Cmd {
	if len(f.fields) == 0 || f.raw {
		return nil
	}
	f.blur()
	f.cur = (f.cur + d + len(f.fields)) % len(f.fields)
	return f.focus()
}

// choosing reports whether the current field takes space/←/→ as a choice.
func (f *callForm) choosing() bool {
	fd := f.field()
	return fd != nil && (fd.kind == fieldBool || fd.kind == fieldEnum || fd.kind == fieldMulti)
}

// multiLine reports whether the focused input is a text area (enter is a
// newline there, up/down move in its lines).
func (f *callForm) multiLine() bool {
	if f.raw {
		return true
	}
	fd := f.field()
	return fd != nil && fd.editable() && fd.multi
}

// choose is space, left or right on a choosing field: a checkbox list
// moves its cursor with left/right and checks with space; the others
// toggle.
func (f *callForm) choose(k string) {
	fd := f.field()
	if fd == nil {
		return
	}
	if fd.kind != fieldMulti {
		f.toggle(k == "left")
		return
	}
	switch k {
	case "left":
		fd.opt = max(fd.opt-1, 0)
	case "right":
		fd.opt = min(fd.opt+1, len(fd.enum)-1)
	default:
		fd.picks[fd.opt] = !fd.picks[fd.opt]
		fd.err = ""
	}
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

// update gives a key or paste to the focused input. A paste of several
// lines into a one-line string field makes it a text area first, so the
// lines stay lines.
func (f *callForm) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if f.raw {
		f.rawArg, cmd = f.rawArg.Update(msg)
		f.rawErr = ""
		f.fitArea(&f.rawArg)
		return cmd
	}
	fd := f.field()
	if fd == nil || !fd.editable() {
		return nil
	}
	if p, ok := msg.(tea.PasteMsg); ok && !fd.multi && strings.ContainsAny(p.Content, "\r\n") && fd.kind != fieldNumber && fd.kind != fieldInteger {
		f.makeMulti(fd)
		cmd = fd.area.Focus()
	}
	if fd.multi {
		var c tea.Cmd
		fd.area, c = fd.area.Update(msg)
		f.fitArea(&fd.area)
		fd.err = ""
		return tea.Batch(cmd, c)
	}
	fd.input, cmd = fd.input.Update(msg)
	fd.err = ""
	return cmd
}

// makeMulti turns a one-line field into a text area holding its value.
func (f *callForm) makeMulti(fd *formField) {
	v := fd.input.Value()
	fd.multi = true
	fd.input.Blur()
	fd.area.SetValue(v)
	f.fitArea(&fd.area)
}

// fitArea grows a text area with its text (3 to 12 lines; it scrolls
// beyond).
func (f *callForm) fitArea(a *textarea.Model) {
	a.SetHeight(clamp(a.LineCount()+1, 3, 12))
}

// fillSkeleton puts the focused field's skeleton in (ctrl+t), when empty.
func (f *callForm) fillSkeleton() bool {
	fd := f.field()
	if fd == nil || fd.skeleton == "" || strings.TrimSpace(fd.area.Value()) != "" {
		return false
	}
	fd.area.SetValue(fd.skeleton)
	f.fitArea(&fd.area)
	return true
}

// text is a field's text as typed.
func (fd *formField) text() string {
	if fd.multi {
		return fd.area.Value()
	}
	return fd.input.Value()
}

// setText puts text into a field (from $EDITOR or the raw JSON), making it
// a text area when it has several lines.
func (f *callForm) setText(fd *formField, text string) {
	if strings.Contains(text, "\n") && !fd.multi {
		f.makeMulti(fd)
	}
	if fd.multi {
		fd.area.SetValue(text)
		f.fitArea(&fd.area)
	} else {
		fd.input.SetValue(text)
	}
	fd.err = ""
}

// arguments builds the arguments object, or says which fields are wrong
// (each field shows its own error). In raw mode it is the JSON object as
// typed, checked.
func (f *callForm) arguments() (json.RawMessage, error) {
	if f.raw {
		b, err := checkArgsObject(f.rawArg.Value())
		if err != nil {
			f.rawErr = err.Error()
			return nil, err
		}
		return b, nil
	}
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

// checkArgsObject checks raw arguments: one JSON object.
func checkArgsObject(s string) (json.RawMessage, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return json.RawMessage("{}"), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %v", err)
	}
	if obj == nil {
		return nil, errors.New("the arguments must be a JSON object, not null")
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, []byte(s))
	return buf.Bytes(), nil
}

// draft is the arguments as far as they can be read, for the raw JSON and
// $EDITOR: a field whose text is not valid for its type goes in as the
// string typed, so nothing is lost.
func (f *callForm) draft() string {
	obj := orderedObject{}
	for _, fd := range f.fields {
		v, ok, err := fd.value()
		switch {
		case err != nil:
			obj = append(obj, kv{fd.name, fd.text()})
		case ok:
			obj = append(obj, kv{fd.name, json.RawMessage(v)})
		}
	}
	b, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		return "{}"
	}
	return string(b)
}

// fill puts an arguments object into the fields; it fails (changing
// nothing) when the object has a key the form has no field for, or a value
// a field cannot show (a boolean field given a string).
func (f *callForm) fill(raw json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return errors.New("the arguments are not a JSON object")
	}
	byName := map[string]*formField{}
	for _, fd := range f.fields {
		byName[fd.name] = fd
	}
	var unknown []string
	for k := range obj {
		if byName[k] == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("the form has no field for %s", strings.Join(unknown, ", "))
	}
	type set struct {
		fd   *formField
		v    json.RawMessage
		text string
	}
	var sets []set
	for _, fd := range f.fields {
		v, ok := obj[fd.name]
		if !ok {
			sets = append(sets, set{fd: fd})
			continue
		}
		switch fd.kind {
		case fieldBool:
			var b bool
			if json.Unmarshal(v, &b) != nil {
				return fmt.Errorf("%s must be true or false", fd.name)
			}
		case fieldEnum:
			found := false
			for _, e := range fd.enum {
				if bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(v)) {
					found = true
				}
			}
			if !found {
				return fmt.Errorf("%s must be one of its choices", fd.name)
			}
		case fieldMulti:
			var vs []json.RawMessage
			if json.Unmarshal(v, &vs) != nil {
				return fmt.Errorf("%s must be a list of its choices", fd.name)
			}
			for _, x := range vs {
				if !slices.ContainsFunc(fd.enum, func(e json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(x)) }) {
					return fmt.Errorf("%s must be a list of its choices", fd.name)
				}
			}
		case fieldString:
			var s string
			if json.Unmarshal(v, &s) != nil {
				return fmt.Errorf("%s must be a string", fd.name)
			}
			sets = append(sets, set{fd: fd, v: v, text: s})
			continue
		case fieldList:
			var items []string
			if json.Unmarshal(v, &items) != nil {
				return fmt.Errorf("%s must be a list of strings", fd.name)
			}
			for _, it := range items {
				if strings.Contains(it, "\n") {
					return fmt.Errorf("an item of %s has several lines: the form keeps one item a line", fd.name)
				}
			}
			sets = append(sets, set{fd: fd, v: v, text: strings.Join(items, "\n")})
			continue
		case fieldJSON:
			if fd.multi {
				var buf bytes.Buffer
				if json.Indent(&buf, v, "", "  ") == nil {
					sets = append(sets, set{fd: fd, v: v, text: buf.String()})
					continue
				}
			}
		}
		sets = append(sets, set{fd: fd, v: v, text: string(bytes.TrimSpace(v))})
	}
	for _, s := range sets {
		fd := s.fd
		switch fd.kind {
		case fieldBool:
			fd.set = s.v != nil
			if fd.set {
				_ = json.Unmarshal(s.v, &fd.on)
			}
		case fieldEnum:
			fd.pick = -1
			for i, e := range fd.enum {
				if s.v != nil && bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(s.v)) {
					fd.pick = i
				}
			}
		case fieldMulti:
			var vs []json.RawMessage
			_ = json.Unmarshal(s.v, &vs)
			for i, e := range fd.enum {
				fd.picks[i] = slices.ContainsFunc(vs, func(x json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(x)) })
			}
		default:
			f.setText(fd, s.text)
		}
		fd.err = ""
	}
	return nil
}

// toggleRaw switches between the fields and one JSON object; going back
// to the fields fails (staying in JSON, nothing lost) when the JSON is not
// an object the fields can hold.
func (f *callForm) toggleRaw() error {
	if !f.raw {
		f.blur()
		f.rawArg.SetValue(f.draft())
		f.fitArea(&f.rawArg)
		f.raw, f.rawErr = true, ""
		return nil
	}
	b, err := checkArgsObject(f.rawArg.Value())
	if err == nil {
		err = f.fill(b)
	}
	if err != nil {
		f.rawErr = err.Error() + " (stays JSON)"
		return err
	}
	f.blur()
	f.raw, f.rawErr = false, ""
	return nil
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
	case fieldMulti:
		var vs []json.RawMessage
		for i, on := range fd.picks {
			if on {
				vs = append(vs, fd.enum[i])
			}
		}
		if len(vs) == 0 {
			return nil, false, nil
		}
		b, err := json.Marshal(vs)
		return b, true, err
	}
	text := fd.text()
	s := strings.TrimSpace(text)
	if fd.kind == fieldList {
		// Each line is an item; trailing empty lines are not.
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		if s == "" {
			return nil, false, nil
		}
		b, err := json.Marshal(lines)
		return b, true, err
	}
	if fd.kind == fieldString {
		if text == "" {
			return nil, false, nil
		}
		b, _ := json.Marshal(text) // exactly as typed: newlines, spaces
		return b, true, nil
	}
	if s == "" {
		return nil, false, nil
	}
	switch fd.kind {
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
	var buf bytes.Buffer
	_ = json.Compact(&buf, []byte(s))
	return buf.Bytes(), true, nil
}

// render draws the fields: a label column and the input (a text area
// under its label), the description and any error under it, each whole.
func (f *callForm) render(st Styles, w int, active bool) []string {
	var out []string
	if f.problem != "" {
		out = append(out, wrapStyled(st.Warn, "▲ "+f.problem, w)...)
	}
	if f.raw {
		out = append(out, st.Muted.Render("  the arguments as one JSON object · ctrl+o back to the fields · ctrl+e in $EDITOR"))
		f.rawArg.SetWidth(max(w-4, 8))
		for _, l := range strings.Split(f.rawArg.View(), "\n") {
			out = append(out, "  "+l)
		}
		if f.rawErr != "" {
			out = append(out, indent(wrapStyled(st.Err, "✗ "+f.rawErr, w-4), "  ")...)
		}
		return out
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
	pad := "   " + strings.Repeat(" ", labelW)
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
		var below []string
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
				label := enumLabel(fd.enum[fd.pick])
				if fd.pick < len(fd.names) && fd.names[fd.pick] != "" {
					label = clean(fd.names[fd.pick]) + " (" + label + ")"
				}
				v = st.Text.Render(label)
			}
			val = st.Muted.Render("‹ ") + v + st.Muted.Render(fmt.Sprintf(" ›  %d choices", len(fd.enum)))
		case fieldMulti:
			n := 0
			for i, on := range fd.picks {
				if on {
					n++
				}
				box := "[ ] "
				if on {
					box = "[x] "
				}
				label := enumLabel(fd.enum[i])
				if i < len(fd.names) && fd.names[i] != "" {
					label = clean(fd.names[i]) + " (" + label + ")"
				}
				l := box + label
				switch {
				case cur && i == fd.opt:
					l = st.Key.Render("› " + l)
				case on:
					l = "  " + st.Text.Render(l)
				default:
					l = "  " + st.Muted.Render(l)
				}
				below = append(below, pad+l)
			}
			val = st.Muted.Render(fmt.Sprintf("%d of %d chosen · ←/→ move · space checks", n, len(fd.enum)))
		default:
			if fd.multi {
				fd.area.SetWidth(inputW)
				lines := strings.Split(fd.area.View(), "\n")
				val = st.Muted.Render(fmt.Sprintf("%d line(s) · enter: new line", fd.area.LineCount()))
				for _, l := range lines {
					below = append(below, pad+l)
				}
			} else {
				fd.input.SetWidth(inputW)
				val = fd.input.View()
			}
		}
		out = append(out, marker+label+" "+val)
		out = append(out, below...)
		hint := fd.kind.String()
		if fd.multi && fd.kind == fieldString {
			hint = "text"
		}
		if fd.desc != "" {
			hint += " · " + fd.desc
		}
		if fd.err != "" {
			out = append(out, indent(wrapStyled(st.Err, "✗ "+fd.err, inputW), pad)...)
		} else if cur || !active {
			out = append(out, indent(wrapStyled(st.Muted, hint, inputW), pad)...)
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
