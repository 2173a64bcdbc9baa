package tui

import (
	"encoding/json"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
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

// text is a field's text as typed.
func (fd *formField) text() string {
	if fd.multi {
		return fd.area.Value()
	}
	return fd.input.Value()
}
