package tui

import (
	"encoding/json"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

var promptsPaneSpec = paneSpec{id: panePrompts, name: "Prompts", short: "Prm",
	about: "the upstream's prompts: fill in the arguments, get the messages", new: newPromptsPane}

// promptsPane lists the upstream's prompts. enter fills in a prompt's
// arguments (the call form's widgets) and gets it (prompts/get): its
// messages open in the viewer; i shows a prompt whole; L loads the list
// again (it also reloads when the upstream says it changed).
type promptsPane struct {
	s       *shared
	list    itemList
	loaded  bool
	loading bool
	err     string
	prompts []contract.Prompt
}

type (
	promptsMsg struct {
		prompts []contract.Prompt
		err     error
	}
	promptMsg struct {
		req contract.GetPromptRequest
		res contract.PromptResult
		err error
	}
)

func newPromptsPane(s *shared) pane { return &promptsPane{s: s} }

func (p *promptsPane) Keys() []key.Binding {
	return []key.Binding{p.s.keys.Enter, resKeys.info, resKeys.reload}
}

func (p *promptsPane) load() tea.Cmd {
	if p.loading {
		return nil
	}
	p.loading = true
	api := p.s.api
	ctx, cancel := p.s.callCtx(toolsCall)
	return func() tea.Msg {
		defer cancel()
		ps, err := api.Prompts(ctx)
		return promptsMsg{prompts: ps, err: err}
	}
}

func (p *promptsPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	s := p.s
	switch msg := msg.(type) {
	case paneShownMsg:
		if !p.loaded {
			return p.load(), false
		}
	case engineChangedMsg:
		if p.loaded {
			return p.load(), false
		}
	case promptsMsg:
		p.loading, p.loaded, p.err = false, true, ""
		if msg.err != nil {
			p.err = errText(msg.err)
		}
		// The cursor stays on the prompt it was on when the list reloads.
		sel := ""
		if i := p.list.cursor; i < len(p.prompts) {
			sel = p.prompts[i].Name
		}
		p.prompts = msg.prompts
		for i, pr := range p.prompts {
			if pr.Name == sel {
				p.list.cursor = i
			}
		}
	case promptMsg:
		if msg.err != nil {
			s.setStatus("get prompt "+msg.req.Name+": "+errText(msg.err), true)
			return nil, false
		}
		s.setStatus("got prompt "+msg.req.Name, false)
		lines := promptLines(msg.req, msg.res)
		return func() tea.Msg { return openViewerMsg{title: "Prompt " + clean(msg.req.Name), lines: lines} }, false
	case resourceEventMsg:
		if d, ok := msg.ev.Detail.(*contract.ListChanged); ok && d.List == "prompts" && p.loaded {
			return p.load(), false
		}
	case tea.KeyPressMsg:
		if p.list.key(s.keys, msg, len(p.prompts)) {
			return nil, true
		}
		switch {
		case key.Matches(msg, s.keys.Enter):
			return p.open(), true
		case key.Matches(msg, resKeys.info):
			if i := p.list.cursor; i < len(p.prompts) {
				pr := p.prompts[i]
				lines := prettyJSON(pr.Raw)
				return func() tea.Msg { return openViewerMsg{title: "Prompt " + clean(pr.Name), lines: lines} }, true
			}
			return nil, true
		case key.Matches(msg, resKeys.reload):
			return p.load(), true
		}
	}
	return nil, false
}

// get gets a prompt with its arguments.
func (p *promptsPane) get(req contract.GetPromptRequest) tea.Cmd {
	api := p.s.api
	ctx, cancel := p.s.callCtx(toolsCall)
	p.s.setStatus("getting prompt "+req.Name+"…", false)
	return func() tea.Msg {
		defer cancel()
		res, err := api.GetPrompt(ctx, req)
		return promptMsg{req: req, res: res, err: err}
	}
}

func (p *promptsPane) open() tea.Cmd {
	i := p.list.cursor
	if i >= len(p.prompts) {
		return nil
	}
	pr := p.prompts[i]
	if len(pr.Arguments) == 0 {
		return p.get(contract.GetPromptRequest{Name: pr.Name})
	}
	var args []argSpec
	for _, a := range pr.Arguments {
		desc := a.Description
		if a.Title != "" {
			desc = a.Title + " — " + desc
		}
		args = append(args, argSpec{name: a.Name, desc: desc, required: a.Required})
	}
	var about []string
	if pr.Description != "" {
		about = append(about, clean(pr.Description))
	}
	d, cmd := newArgsDialog(p.s, "Get prompt "+clean(pr.Name), about, args, func(a map[string]string) tea.Cmd {
		return p.get(contract.GetPromptRequest{Name: pr.Name, Arguments: a})
	})
	if p.s.serverDeclares("completions") {
		d.complete = &contract.CompleteRequest{Ref: contract.CompletePrompt, Name: pr.Name}
	}
	return tea.Batch(func() tea.Msg { return pushDialogMsg{d} }, cmd)
}

// promptLines is a prompt's result: the arguments sent, the description,
// then each message (role and content), whole.
func promptLines(req contract.GetPromptRequest, res contract.PromptResult) []string {
	var out []string
	if len(req.Arguments) > 0 {
		b, _ := json.Marshal(req.Arguments)
		out = append(out, "arguments "+clean(string(b)))
	}
	if res.Description != "" {
		out = append(out, "description "+clean(res.Description))
	}
	out = append(out, "", "messages")
	out = append(out, samplingMessages(res.Messages)...)
	return out
}

func (p *promptsPane) View(w, h int, focused bool) paneView {
	st := p.s.styles
	var lines []listLine
	lines = append(lines, listLine{text: p.s.section(fmt.Sprintf("Prompts (%d)", len(p.prompts))), row: -1})
	switch {
	case p.loading && !p.loaded:
		lines = append(lines, listLine{text: st.Muted.Render(" " + p.s.spinner() + " loading…"), row: -1})
	case p.err != "":
		lines = append(lines, listLine{text: st.Err.Render(" " + p.err), row: -1})
	case len(p.prompts) == 0 && p.loaded:
		lines = append(lines, listLine{text: st.Muted.Render(" none"), row: -1})
	}
	for i, pr := range p.prompts {
		t := clean(pr.Name)
		if n := len(pr.Arguments); n > 0 {
			t += "  " + st.Muted.Render(fmt.Sprintf("%d argument(s)", n))
		}
		if pr.Title != "" {
			t += "  " + st.Muted.Render(clean(pr.Title))
		}
		lines = append(lines, listLine{text: t, row: i})
	}
	var det []string
	if i := p.list.cursor; i < len(p.prompts) {
		pr := p.prompts[i]
		if pr.Description != "" {
			det = append(det, wrapStyled(st.Text, "description "+clean(pr.Description), w)...)
		}
		for _, a := range pr.Arguments {
			t := "argument " + clean(a.Name)
			if a.Required {
				t += " (required)"
			}
			if a.Description != "" {
				t += ": " + clean(a.Description)
			}
			det = append(det, wrapStyled(st.Text, t, w)...)
		}
		det = append(det, st.Muted.Render("enter fills in the arguments and gets it · i shows it whole"))
	}
	out, sc := p.list.render(st, lines, det, w, h, focused)
	return paneView{title: fmt.Sprintf("Prompts %d", len(p.prompts)), lines: out, sc: sc}
}
