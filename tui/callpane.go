package tui

import (
	"fmt"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

var callPaneSpec = paneSpec{id: paneCall, name: "Call", short: "Call",
	about: "call the tool through a form built from its input schema; the result below", new: newCallPane}

// callPane is the selected tool's call form (built from its input schema)
// and its last result. While the form is active it takes every key.
type callPane struct {
	s      *shared
	text   textView
	active bool // the form has the keys
	shown  bool
}

// callFormOpenMsg asks the Call pane to activate its form (c).
type callFormOpenMsg struct{}

func newCallPane(s *shared) pane { return &callPane{s: s, text: textView{find: newFinder(s.styles)}} }

func (p *callPane) capturing() bool { return p.active || p.text.capturing() }

func (p *callPane) Keys() []key.Binding {
	k := p.s.keys
	var run []key.Binding // ctrl+x while the tool's call runs
	if t := p.s.peek(p.s.selected()); t != nil && t.result != nil && t.result.running {
		run = []key.Binding{k.CancelCall}
	}
	if p.active {
		return append(append([]key.Binding{k.CallSend}, run...), k.NextField, k.PrevField, k.Toggle, k.Editor, k.RawJSON, k.Skeleton, k.ClearField, k.Cancel)
	}
	return append(append(append([]key.Binding{k.Enter, k.EditAll}, run...), k.OpenLink, saveResultKey), p.text.keys(k)...)
}

func (p *callPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	s := p.s
	switch msg := msg.(type) {
	case toolSelectedMsg:
		if p.shown {
			s.formFor(msg.tool)
			p.active = false
		}
	case paneShownMsg:
		p.shown = true
		s.formFor(s.selected())
	case paneHiddenMsg:
		p.shown, p.active = false, false
	case callFormOpenMsg:
		return p.open(), true
	case editorReadyMsg:
		if msg.err != nil {
			s.setStatus("$EDITOR: "+msg.err.Error(), true)
			return nil, false
		}
		s.setStatus("editing in $EDITOR…", false)
		return s.runEditor(msg), false
	case editorExitedMsg:
		return readEditor(msg), false
	case editorDoneMsg:
		return p.edited(msg), false
	case tea.PasteMsg:
		if f := s.formFor(s.selected()); f != nil && p.active {
			return f.update(msg), true
		}
	case tea.KeyPressMsg:
		if p.active {
			return p.formKey(msg), true
		}
		switch {
		case key.Matches(msg, s.keys.Enter) && !p.text.capturing():
			return p.open(), true
		case key.Matches(msg, s.keys.EditAll) && !p.text.capturing():
			return p.editAll(), true
		case key.Matches(msg, s.keys.OpenLink) && !p.text.capturing():
			return s.openResultLink(s.selected()), true
		case key.Matches(msg, saveResultKey) && !p.text.capturing():
			return s.saveResult(s.selected()), true
		}
	}
	return p.text.update(s.keys, msg)
}

// open activates the form.
func (p *callPane) open() tea.Cmd {
	f := p.s.formFor(p.s.selected())
	if f == nil {
		return nil
	}
	p.active = true
	return f.focus()
}

// editAll hands the whole arguments, as JSON, to $EDITOR.
func (p *callPane) editAll() tea.Cmd {
	tool := p.s.selected()
	f := p.s.formFor(tool)
	if f == nil {
		return nil
	}
	text := f.draft()
	if f.raw {
		text = f.rawArg.Value()
	}
	return p.s.startEditor(tool, "", text, ".json")
}

// edited takes back what $EDITOR left: a field gets the text (checked
// like typing); the whole arguments must be a JSON object the fields can
// hold, else they stay as raw JSON with the error shown: nothing is lost.
func (p *callPane) edited(msg editorDoneMsg) tea.Cmd {
	s := p.s
	f := s.peek(msg.tool)
	if f == nil || f.form == nil {
		return nil
	}
	form := f.form
	if msg.err != nil {
		s.setStatus("$EDITOR: "+msg.err.Error()+" (nothing changed)", true)
		return nil
	}
	text := editedText(msg.before, msg.text)
	if msg.field == "" {
		b, err := checkArgsObject(text)
		if err == nil {
			if form.raw {
				form.rawArg.SetValue(text)
				form.fitArea(&form.rawArg)
				s.setStatus("arguments edited in $EDITOR", false)
				return nil
			}
			err = form.fill(b)
		}
		if err != nil {
			form.blur()
			form.raw = true
			form.rawArg.SetValue(text)
			form.fitArea(&form.rawArg)
			form.rawErr = err.Error()
			s.setStatus("the edited arguments: "+err.Error()+": kept as JSON", true)
			return nil
		}
		s.setStatus("arguments edited in $EDITOR", false)
		return nil
	}
	for _, fd := range form.fields {
		if fd.name == msg.field {
			form.setText(fd, text)
			if _, _, err := fd.value(); err != nil {
				fd.err = err.Error()
				s.setStatus(fd.name+" from $EDITOR: "+err.Error(), true)
				return nil
			}
			s.setStatus(fd.name+" edited in $EDITOR", false)
		}
	}
	return nil
}

func (p *callPane) formKey(msg tea.KeyPressMsg) tea.Cmd {
	s := p.s
	tool := s.selected()
	f := s.formFor(tool)
	if f == nil {
		p.active = false
		return nil
	}
	k := s.keys
	multi := f.multiLine()
	switch {
	case msg.String() == "ctrl+s", msg.String() == "enter" && !multi:
		args, err := f.arguments()
		if err != nil {
			s.setStatus(err.Error(), true)
			return nil
		}
		if r := s.tool(tool).result; r != nil && r.running {
			s.setStatus(tool+" is still running: ctrl+x cancels it", true)
			return nil
		}
		id := newCallID()
		s.setBusy(tool, "calling")
		s.tool(tool).result = &callResult{args: string(args), running: true, callID: id}
		s.calls[id] = tool
		p.text.offset, p.text.xoff = 0, 0
		return tea.Batch(s.doCall(tool, args, id), s.spinTick())
	case key.Matches(msg, k.CancelCall):
		return s.cancelCall(tool)
	case key.Matches(msg, k.Cancel):
		p.active = false
		f.blur()
		return nil
	case msg.String() == "pgup", msg.String() == "pgdown":
		// PgUp/PgDn scroll the pane under the form (the result below it);
		// ctrl+u and ctrl+d stay the inputs' own.
		d := 1
		if msg.String() == "pgup" {
			d = -1
		}
		p.text.scroll(scrollMsg{lines: d, page: true})
		return nil
	case key.Matches(msg, k.ClearField):
		// The whole field at once (the raw JSON box too): ctrl+k and
		// ctrl+u only reach a line's end or start.
		if f.raw {
			f.rawArg.SetValue("")
			f.rawErr = ""
			f.fitArea(&f.rawArg)
			s.setStatus("cleared the arguments", false)
			return nil
		}
		if fd := f.field(); fd != nil && fd.editable() {
			f.setText(fd, "")
			s.setStatus("cleared "+fd.name, false)
		}
		return nil
	case key.Matches(msg, k.RawJSON):
		if err := f.toggleRaw(); err != nil {
			s.setStatus(err.Error(), true)
			return nil
		}
		return f.focus()
	case key.Matches(msg, k.Editor):
		if f.raw {
			return s.startEditor(tool, "", f.rawArg.Value(), ".json")
		}
		fd := f.field()
		if fd == nil || !fd.editable() {
			s.setStatus("ctrl+e edits a text field (E edits all the arguments)", false)
			return nil
		}
		ext := ".txt"
		if fd.kind == fieldJSON {
			ext = ".json"
		}
		return s.startEditor(tool, fd.name, fd.text(), ext)
	case key.Matches(msg, k.Skeleton):
		if !f.fillSkeleton() {
			s.setStatus("ctrl+t fills an empty object or list field with its shape from the schema", false)
		}
		return nil
	case msg.String() == "tab":
		return f.move(1)
	case msg.String() == "shift+tab":
		return f.move(-1)
	case !multi && key.Matches(msg, k.NextField):
		return f.move(1)
	case !multi && key.Matches(msg, k.PrevField):
		return f.move(-1)
	case key.Matches(msg, k.Toggle) && f.choosing():
		f.choose(msg.String())
		return nil
	}
	return f.update(msg)
}

func (p *callPane) View(w, h int, focused bool) paneView {
	tool := p.s.selected()
	title := "Call"
	if tool != "" {
		title = tool + " · " + title
	}
	lines, sc, footer := p.text.render(p.s.styles, p.callLines(tool, w), w, h)
	return paneView{title: title + p.text.sideNote(), lines: lines, sc: sc, footer: footer}
}

// callResult is the last call of a tool through the Call pane.
type callResult struct {
	args    string
	res     contract.CallResult
	err     string
	lines   []string
	running bool
	// callID names the call (its events, CancelCall); progress and task
	// are what its events said while it ran.
	callID     string
	progress   *callProgress
	task       *contract.Task
	cancelling bool
	cancelled  bool // it ended because it was cancelled
}

// callLines is the Call pane: the form, then the last result.
func (p *callPane) callLines(tool string, w int) []string {
	s := p.s
	st := s.styles
	if tool == "" {
		return []string{st.Muted.Render(" select a tool on the left")}
	}
	f := s.formFor(tool)
	var out []string
	if f == nil {
		return []string{st.Muted.Render(" loading the input schema…")}
	}
	hint := "enter or c: fill in the arguments · E: all of them in $EDITOR"
	if p.active {
		hint = "enter calls (ctrl+s in a text area) · esc leaves"
	}
	out = append(out, s.section("Arguments")+"  "+st.Muted.Render(hint))
	out = append(out, f.render(st, w-1, p.active)...)
	r := s.tool(tool).result
	if r == nil {
		return out
	}
	out = append(out, "")
	switch {
	case r.running:
		out = append(out, s.progressLines(r, tool, w-1)...)
	case r.cancelled:
		out = append(out, wrapStyled(st.Warn, "⊘ cancelled: "+r.err, w-1)...)
		if r.progress != nil {
			out = append(out, wrapStyled(st.Muted, fmt.Sprintf("  at %s after %d progress step(s)%s", progressText(r.progress), r.progress.steps,
				prefixed(" — ", r.progress.message)), w-1)...)
		}
	case r.err != "":
		out = append(out, wrapStyled(st.Err, "✗ call failed: "+r.err, w-1)...)
	default:
		head := st.OK.Render("Result")
		if r.res.IsError {
			head = st.Err.Render("Result: isError — the tool reported an error")
		}
		out = append(out, head)
		out = append(out, indent(wrapStyled(st.Muted, fmt.Sprintf("%s · %s · arguments %s", fmtDur(r.res.Duration),
			size(len(r.res.Result)), argsSummary(r.args)), w-3), "  ")...)
		ls := wrapAll(r.lines, w-3)
		if r.res.IsError {
			for i, l := range ls {
				ls[i] = st.Err.Render(l)
			}
		}
		out = append(out, indent(ls, "  ")...)
	}
	return out
}

// maxArgsSummary bounds the arguments the result's header repeats.
const maxArgsSummary = 160

// argsSummary is the call's arguments for the result's header: whole when
// short, else their start and size (the History pane's enter shows the
// call whole).
func argsSummary(args string) string {
	if len(args) <= maxArgsSummary {
		return args
	}
	cut := args[:maxArgsSummary]
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return fmt.Sprintf("%s… (%s; whole in the History pane)", cut, size(len(args)))
}
