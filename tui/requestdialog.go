package tui

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/genui-dev/genui/engine/contract"
)

// requestDialog answers the oldest queued request (requests.go) over the
// whole body: an elicitation form built from requestedSchema with the call
// form's widgets (ctrl+s or enter accepts, ctrl+n declines, esc cancels), a
// URL elicitation with the whole URL (o opens it, y copies it, enter says
// it is done), or a sampling request with everything it asks (messages,
// system prompt, model preferences, limits; scrollable with PgUp/PgDn,
// never cut) and an answer to type or to draft with genui's LLM (ctrl+g;
// the draft is shown for editing before ctrl+s sends it). Esc on a sampling
// request leaves it for later (`!` shows it again, until it times out).
type requestDialog struct {
	s    *shared
	cur  *contract.PendingRequest
	text textView // the request's text (scrolls)
	// Elicitation (form mode).
	form *callForm
	// Sampling.
	answer   textarea.Model
	draft    *contract.SamplingDraft
	drafting bool
	sending  bool
	// refused is why genui refused the last answer (an elicitation's
	// value that does not fit the requested schema), shown in the dialog.
	refused string
	// The request's lines for a width, kept: a large sampling request is
	// laid out once, not every frame.
	linesW    int
	linesDark bool // the palette they were styled with
	linesFor  *contract.PendingRequest
	lines     []string
}

func newRequestDialog(s *shared) *requestDialog {
	d := &requestDialog{s: s, text: textView{wrap: true, find: newFinder(s.styles)}}
	d.sync()
	return d
}

func (d *requestDialog) place() placement { return placeBody }

// current is the request on screen.
func (d *requestDialog) current() *contract.PendingRequest { return d.cur }

// sync shows the oldest queued request (a new one when the one on screen
// left the queue), its input focused.
func (d *requestDialog) sync() tea.Cmd {
	if len(d.s.requests) == 0 {
		d.cur = nil
		return nil
	}
	if d.cur == d.s.requests[0] {
		return nil
	}
	r := d.s.requests[0]
	d.cur, d.form, d.draft, d.drafting, d.sending, d.refused = r, nil, nil, false, false, ""
	d.text.offset, d.text.xoff = 0, 0
	switch {
	case r.Elicitation != nil && r.Elicitation.Mode == contract.ElicitForm:
		schema := r.Elicitation.RequestedSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		d.form = newCallForm("elicitation", schema)
		d.form.setStyles(d.s.styles)
	case r.Sampling != nil:
		ta := newFormArea()
		ta.Placeholder = "the answer (the assistant's text) · ctrl+g drafts one with genui's LLM"
		ta.SetHeight(5)
		as := textarea.DefaultStyles(d.s.styles.Dark)
		if d.s.styles.NoColor {
			as = textarea.Styles{}
		}
		as.Cursor.Blink = false
		ta.SetStyles(as)
		d.answer = ta
	}
	return d.focus()
}

// focus focuses the input the request has.
func (d *requestDialog) focus() tea.Cmd {
	switch {
	case d.form != nil:
		return d.form.focus()
	case d.cur != nil && d.cur.Sampling != nil:
		return d.answer.Focus()
	}
	return nil
}

func (d *requestDialog) Keys() []key.Binding {
	k := d.s.keys
	r := d.cur
	switch {
	case r == nil:
		return []key.Binding{k.Back}
	case r.Elicitation != nil && r.Elicitation.Mode == contract.ElicitURL:
		if _, web := webURL(r.Elicitation.URL); !web {
			return []key.Binding{reqKeys.done, reqKeys.copy, reqKeys.decline, reqKeys.cancel, k.PageDown}
		}
		return []key.Binding{reqKeys.done, reqKeys.open, reqKeys.copy, reqKeys.decline, reqKeys.cancel, k.PageDown}
	case r.Elicitation != nil:
		return []key.Binding{reqKeys.accept, k.NextField, k.PrevField, k.Toggle, reqKeys.decline, reqKeys.cancel, k.PageDown}
	case r.Sampling != nil:
		return []key.Binding{reqKeys.send, reqKeys.draft, reqKeys.decline, reqKeys.later, k.PageDown}
	}
	return []key.Binding{reqKeys.later}
}

// reqKeys are the request dialog's own keys.
var reqKeys = struct {
	accept, decline, cancel, done, open, copy, send, draft, later key.Binding
}{
	accept:  key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s/enter", "accept (send the form)")),
	decline: key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "decline")),
	cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel (dismiss)")),
	done:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "accept (done at the URL)")),
	open:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open the URL")),
	copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy the URL")),
	send:    key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send the answer")),
	draft:   key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "draft with genui's LLM")),
	later:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "later (! shows it again)")),
}

type openedURLMsg struct {
	url string
	err error
}

func (d *requestDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	s := d.s
	r := d.cur
	switch msg := msg.(type) {
	case draftMsg:
		if r == nil || msg.id != r.ID {
			return nil, false
		}
		d.drafting = false
		if msg.err != nil {
			s.setStatus("draft with the LLM: "+errText(msg.err), true)
			return nil, false
		}
		dr := msg.draft
		d.draft = &dr
		d.answer.SetValue(dr.Text)
		s.setStatus(fmt.Sprintf("drafted by %s %s in %s: edit it, ctrl+s sends it", orDash(dr.Provider), orDash(dr.Model), fmtDur(dr.Duration)), false)
		return nil, false
	case openedURLMsg:
		if msg.err != nil {
			s.setStatus("no browser opened ("+errText(msg.err)+"); copied the URL: "+msg.url, false)
			return s.opts.Copy(msg.url), false
		}
		s.setStatus("opened "+msg.url, false)
		return nil, false
	case tea.KeyPressMsg:
		if r == nil {
			return nil, true
		}
		if msg.String() == "pgup" || msg.String() == "pgdown" {
			dir := 1
			if msg.String() == "pgup" {
				dir = -1
			}
			d.text.scroll(scrollMsg{lines: dir, page: true})
			return nil, false
		}
		if d.sending {
			return nil, false
		}
		switch {
		case r.Elicitation != nil && r.Elicitation.Mode == contract.ElicitURL:
			return d.urlKey(msg)
		case r.Elicitation != nil:
			return d.formKey(msg)
		case r.Sampling != nil:
			return d.samplingKey(msg)
		}
		if key.Matches(msg, s.keys.Back) {
			return nil, true
		}
	case tea.PasteMsg:
		switch {
		case d.form != nil:
			return d.form.update(msg), false
		case r != nil && r.Sampling != nil:
			var cmd tea.Cmd
			d.answer, cmd = d.answer.Update(msg)
			return cmd, false
		}
	}
	return nil, false
}

func (d *requestDialog) send(what string, a contract.Answer) tea.Cmd {
	d.sending, d.refused = true, ""
	return d.s.answer(d.cur.ID, what, a)
}

func (d *requestDialog) formKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	f, k := d.form, d.s.keys
	switch {
	case msg.String() == "ctrl+s", msg.String() == "enter" && !f.multiLine():
		args, err := f.arguments()
		if err != nil {
			d.s.setStatus(strings.Replace(err.Error(), "before calling", "before accepting", 1), true)
			return nil, false
		}
		var content map[string]any
		_ = json.Unmarshal(args, &content)
		return d.send("accepted", contract.Answer{Result: contract.ElicitResult(contract.ElicitAccept, content)}), false
	case key.Matches(msg, reqKeys.decline):
		return d.send("declined", contract.Answer{Result: contract.ElicitResult(contract.ElicitDecline, nil)}), false
	case key.Matches(msg, reqKeys.cancel):
		return d.send("cancelled", contract.Answer{Result: contract.ElicitResult(contract.ElicitCancel, nil)}), false
	case msg.String() == "tab":
		return f.move(1), false
	case msg.String() == "shift+tab":
		return f.move(-1), false
	case !f.multiLine() && key.Matches(msg, k.NextField):
		return f.move(1), false
	case !f.multiLine() && key.Matches(msg, k.PrevField):
		return f.move(-1), false
	case key.Matches(msg, k.Toggle) && f.choosing():
		f.choose(msg.String())
		return nil, false
	}
	return f.update(msg), false
}

func (d *requestDialog) urlKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	u := d.cur.Elicitation.URL
	switch {
	case key.Matches(msg, reqKeys.done):
		return d.send("accepted (done at the URL)", contract.Answer{Result: contract.ElicitResult(contract.ElicitAccept, nil)}), false
	case key.Matches(msg, reqKeys.open):
		if why, ok := webURL(u); !ok {
			d.s.setStatus("not opened: "+why+"; genui opens only http and https URLs (y copies it)", true)
			return nil, false
		}
		open := d.s.opts.OpenURL
		return func() tea.Msg { return openedURLMsg{url: u, err: open(u)} }, false
	case key.Matches(msg, reqKeys.copy):
		d.s.setStatus("copied "+u, false)
		return d.s.opts.Copy(u), false
	case key.Matches(msg, reqKeys.decline):
		return d.send("declined", contract.Answer{Result: contract.ElicitResult(contract.ElicitDecline, nil)}), false
	case key.Matches(msg, reqKeys.cancel):
		return d.send("cancelled", contract.Answer{Result: contract.ElicitResult(contract.ElicitCancel, nil)}), false
	}
	return nil, false
}

// handModel names the model of an answer typed by hand.
const handModel = "genui-tui (answered by hand)"

func (d *requestDialog) samplingKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	s := d.s
	switch {
	case key.Matches(msg, reqKeys.send):
		text := d.answer.Value()
		if strings.TrimSpace(text) == "" {
			s.setStatus("type an answer first (or ctrl+g drafts one, ctrl+n declines)", true)
			return nil, false
		}
		res := contract.SamplingResult(handModel, text)
		what := "answered by hand"
		if d.draft != nil {
			if text == d.draft.Text && len(d.draft.Result) > 0 {
				res, what = d.draft.Result, "answered with the LLM's draft"
			} else {
				res, what = contract.SamplingResult(d.draft.Model, text), "answered with the edited LLM draft"
			}
		}
		return d.send(what, contract.Answer{Result: res}), false
	case key.Matches(msg, reqKeys.draft):
		if d.drafting {
			return nil, false
		}
		d.drafting = true
		s.setStatus("asking genui's LLM for a draft…", false)
		return tea.Batch(s.draft(d.cur.ID), s.spinTick()), false
	case key.Matches(msg, reqKeys.decline):
		return d.send("declined", contract.Answer{Reject: "the person declined the sampling request in genui tui"}), false
	case key.Matches(msg, reqKeys.later):
		s.setStatus(requestLabel(d.cur)+" waits: ! shows it again ("+s.remaining(d.cur)+")", false)
		return nil, true
	}
	var cmd tea.Cmd
	d.answer, cmd = d.answer.Update(msg)
	return cmd, false
}

// requestLines is the request's text: where it comes from (with the time
// left), then what it asks, whole.
func (d *requestDialog) requestLines(w int) []string {
	if d.linesFor != d.cur || d.linesW != w || d.linesDark != d.s.styles.Dark || d.lines == nil {
		d.linesFor, d.linesW, d.linesDark, d.lines = d.cur, w, d.s.styles.Dark, d.askLines(w)
	}
	s, st, r := d.s, d.s.styles, d.cur
	from := "from the upstream"
	if r.Tool != "" {
		from += ", during a call of " + r.Tool
	}
	if r.Source != "" {
		from += " (" + r.Source + ")"
	}
	if r.TaskID != "" {
		from += ", task " + r.TaskID
	}
	if rem := s.remaining(r); rem != "" {
		from += " · " + rem
	}
	out := wrapStyled(st.Muted, from, w)
	if n := len(s.requests); n > 1 {
		out = append(out, st.Muted.Render(fmt.Sprintf("%d more request(s) wait after this one", n-1)))
	}
	return append(append(out, ""), d.lines...)
}

// askLines is what the request asks, whole, for width w.
func (d *requestDialog) askLines(w int) []string {
	s, st, r := d.s, d.s.styles, d.cur
	var out []string
	switch {
	case r.Elicitation != nil:
		e := r.Elicitation
		out = append(out, s.section("Message"))
		out = append(out, indent(wrapAll(cleanLines(e.Message), w-2), "  ")...)
		if e.Mode == contract.ElicitURL {
			why, web := webURL(e.URL)
			keysHelp := "o opens it · y copies it · enter when you are done there"
			if !web {
				keysHelp = "y copies it · enter when you are done there"
			}
			out = append(out, "", s.section("URL")+"  "+st.Muted.Render(keysHelp))
			out = append(out, indent(wrapHard([]string{clean(e.URL)}, w-2), "  ")...)
			// The host, on its own line: where the link really goes.
			if u, err := url.Parse(e.URL); web && err == nil {
				out = append(out, "  "+st.Muted.Render("host ")+st.Accent.Render(clean(u.Hostname()))+st.Muted.Render(" ("+clean(u.Scheme)+")"))
			} else {
				out = append(out, "  "+st.Warn.Render("▲ "+why+": genui opens only http and https URLs (y copies it)"))
			}
			if e.ElicitationID != "" {
				out = append(out, st.Muted.Render("  elicitation id "+clean(e.ElicitationID)))
			}
		}
	case r.Sampling != nil:
		sm := r.Sampling
		if sm.SystemPrompt != "" {
			out = append(out, s.section("System prompt"))
			out = append(out, indent(wrapAll(cleanLines(sm.SystemPrompt), w-2), "  ")...)
		}
		out = append(out, s.section("Messages"))
		out = append(out, indent(wrapAll(samplingMessages(sm.Messages), w-2), "  ")...)
		var lim []string
		if sm.MaxTokens > 0 {
			lim = append(lim, fmt.Sprintf("max tokens %d", sm.MaxTokens))
		}
		if sm.Temperature != nil {
			lim = append(lim, fmt.Sprintf("temperature %g", *sm.Temperature))
		}
		if sm.IncludeContext != "" {
			lim = append(lim, "include context "+clean(sm.IncludeContext))
		}
		if len(sm.StopSequences) > 0 {
			b, _ := json.Marshal(sm.StopSequences)
			lim = append(lim, "stop sequences "+clean(string(b)))
		}
		if len(lim) > 0 {
			out = append(out, s.section("Limits"))
			out = append(out, indent(wrapAll([]string{strings.Join(lim, " · ")}, w-2), "  ")...)
		}
		if len(sm.ModelPreferences) > 0 && string(sm.ModelPreferences) != "null" {
			out = append(out, s.section("Model preferences"))
			out = append(out, indent(wrapAll(prettyJSON(sm.ModelPreferences), w-2), "  ")...)
		}
	default:
		out = append(out, s.section("Params"))
		out = append(out, indent(wrapAll(prettyJSON(r.Params), w-2), "  ")...)
	}
	return out
}

func (d *requestDialog) View(w, h int) []string {
	s, st, r := d.s, d.s.styles, d.cur
	if r == nil {
		return box(st, "Requests", true, w, h, []string{st.Muted.Render(" no request awaits an answer · esc closes")})
	}
	inner := w - 2
	// The input part (form, URL keys, answer) stays in view; the request's
	// text above it scrolls.
	var input []string
	title := "The upstream asks: " + r.Method
	switch {
	case r.Elicitation != nil && r.Elicitation.Mode == contract.ElicitURL:
		title = "The upstream asks you to open a URL (elicitation)"
		open := "o open · "
		if _, web := webURL(r.Elicitation.URL); !web {
			open = ""
		}
		input = append(input, st.Muted.Render(" enter: done (accept) · "+open+"y copy · ctrl+n decline · esc cancel"))
	case d.form != nil:
		title = "The upstream asks for input (elicitation)"
		input = append(input, s.section("Form")+"  "+st.Muted.Render("ctrl+s or enter accepts · ctrl+n declines · esc cancels"))
		input = append(input, d.form.render(st, inner-1, true)...)
	case r.Sampling != nil:
		title = "The upstream asks for a model's answer (sampling)"
		hint := "ctrl+s sends · ctrl+g drafts with genui's LLM · ctrl+n declines · esc later"
		switch {
		case d.drafting:
			hint = s.spinner() + " drafting with genui's LLM…"
		case d.draft != nil:
			hint = fmt.Sprintf("the draft of %s %s: edit it, ctrl+s sends it", orDash(d.draft.Provider), orDash(d.draft.Model))
		}
		input = append(input, s.section("Answer")+"  "+st.Muted.Render(hint))
		d.answer.SetWidth(max(inner-4, 8))
		input = append(input, indent(strings.Split(d.answer.View(), "\n"), "  ")...)
	}
	if d.sending {
		input = append(input, st.Accent.Render(" "+s.spinner()+" sending…"))
	}
	if d.refused != "" {
		input = append(input, wrapStyled(st.Err, " ✗ not sent: "+d.refused, inner-1)...)
	}
	// The request's text takes what it needs, at least 3 lines; the input
	// the rest.
	req := d.requestLines(inner - 1)
	avail := h - 3
	textH := max(min(len(req), avail-len(input)), 3)
	if room := max(avail-textH, 1); len(input) > room {
		// A long form: the window follows the focused field (the line
		// with the form's cursor mark); the form's title line stays.
		cur := 0
		for i, l := range input {
			if strings.HasPrefix(ansi.Strip(l), "› ") {
				cur = i
			}
		}
		first := 0
		if cur >= room-1 {
			first = min(cur-room/2, len(input)-room+1)
		}
		if first > 0 {
			input = append([]string{input[0]}, input[first+1:]...)
		}
		input = input[:room]
	}
	lines, sc, _ := d.text.render(st, req, inner, textH)
	for len(lines) < textH {
		lines = append(lines, "")
	}
	lines = append(lines, st.Faint.Render(strings.Repeat("─", inner)))
	lines = append(lines, input...)
	if n := len(s.requests); n > 1 {
		title += fmt.Sprintf(" · 1 of %d", n)
	}
	return box(st, title, true, w, h, lines, sc)
}
