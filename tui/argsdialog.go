package tui

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// argsDialog asks for string arguments with the call form's widgets: a
// resource template's variables, a prompt's arguments. ctrl+s (or enter on
// one-line fields) submits, esc closes.
type argsDialog struct {
	s      *shared
	title  string
	about  []string
	form   *callForm
	submit func(args map[string]string) tea.Cmd
	// complete names what the arguments belong to, for tab's completion
	// from the server (nil: tab only moves); offered is its last answer.
	complete *contract.CompleteRequest
	offered  string
}

// argSpec is one argument the dialog asks for.
type argSpec struct {
	name, desc string
	required   bool
	def        string // the field's initial value ("" none)
}

func newArgsDialog(s *shared, title string, about []string, args []argSpec, submit func(map[string]string) tea.Cmd) (*argsDialog, tea.Cmd) {
	props := orderedObject{}
	var req []string
	for _, a := range args {
		prop := map[string]string{"type": "string", "description": a.desc}
		if a.def != "" {
			prop["default"] = a.def
		}
		p, _ := json.Marshal(prop)
		props = append(props, kv{k: a.name, v: json.RawMessage(p)})
		if a.required {
			req = append(req, a.name)
		}
	}
	pb, _ := json.Marshal(props)
	rb, _ := json.Marshal(req)
	schema := `{"type":"object","properties":` + string(pb) + `,"required":` + string(rb) + `}`
	f := newCallForm(title, json.RawMessage(schema))
	f.setStyles(s.styles)
	d := &argsDialog{s: s, title: title, about: about, form: f, submit: submit}
	return d, f.focus()
}

func (d *argsDialog) place() placement { return placeCenter }

var argsSend = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s/enter", "go"))

func (d *argsDialog) Keys() []key.Binding {
	k := d.s.keys
	if d.complete != nil {
		return []key.Binding{argsSend, completeKey, k.NextField, k.PrevField, k.Cancel}
	}
	return []key.Binding{argsSend, k.NextField, k.PrevField, k.Cancel}
}

func (d *argsDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	f, k := d.form, d.s.keys
	switch msg := msg.(type) {
	case completionMsg:
		if fd := f.field(); msg.form != f || fd == nil || fd.name != msg.field || fd.text() != msg.typed {
			return nil, false // another dialog's, or typed on since
		}
		list, offered := applyCompletion(f, msg)
		d.offered = list
		if !offered {
			if msg.err != nil && contract.AsError(msg.err).Code != contract.CodeUnavailable {
				d.s.setStatus("completion: "+errText(msg.err), true)
			}
			return f.move(1), false
		}
		return nil, false
	case tea.PasteMsg:
		return f.update(msg), false
	case tea.KeyPressMsg:
		switch {
		case msg.String() == "ctrl+s", msg.String() == "enter" && !f.multiLine():
			raw, err := f.arguments()
			if err != nil {
				d.s.setStatus(strings.Replace(err.Error(), "before calling", "first", 1), true)
				return nil, false
			}
			var vals map[string]json.RawMessage
			_ = json.Unmarshal(raw, &vals)
			args := map[string]string{}
			for n, v := range vals {
				var s string
				if json.Unmarshal(v, &s) != nil {
					s = string(v)
				}
				args[n] = s
			}
			return d.submit(args), true
		case key.Matches(msg, k.Cancel):
			return nil, true
		case msg.String() == "tab" && d.complete != nil:
			if c := d.s.doComplete(*d.complete, f); c != nil {
				return c, false
			}
			return f.move(1), false
		case msg.String() == "tab", !f.multiLine() && key.Matches(msg, k.NextField):
			return f.move(1), false
		case msg.String() == "shift+tab", !f.multiLine() && key.Matches(msg, k.PrevField):
			return f.move(-1), false
		}
		return f.update(msg), false
	}
	return nil, false
}

func (d *argsDialog) View(w, h int) []string {
	st := d.s.styles
	var lines []string
	for _, a := range d.about {
		lines = append(lines, wrapStyled(st.Muted, a, w-3)...)
	}
	lines = append(lines, d.form.render(st, w-3, true)...)
	if d.offered != "" {
		lines = append(lines, wrapStyled(st.Info, "server suggests: "+d.offered, w-3)...)
	}
	hint := " ctrl+s or enter goes · esc closes"
	if d.complete != nil {
		hint = " tab completes from the server · ctrl+s or enter goes · esc closes"
	}
	lines = append(lines, st.Muted.Render(hint))
	for i, l := range lines {
		lines[i] = " " + l
	}
	return box(st, d.title, true, w, min(len(lines)+2, h), lines)
}
