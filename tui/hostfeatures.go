package tui

// The host features a developer reaches for in MCP Inspector, through the
// engine's one interface (so an attached TUI has them too): ping with its
// round trip (P, shown on the status line), the upstream's log level (L
// in the Log pane: logging/setLevel), argument completion (tab in a
// prompt's or a resource template's argument dialog, when the server
// declares completions), the server linter (V: its findings in a viewer),
// and a call result saved to a file (s in the Call pane).

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

type (
	// pingMsg is Ping's answer.
	pingMsg struct {
		res contract.PingResult
		err error
	}
	// upstreamLevelMsg is SetLogLevel's answer (for the Log pane).
	upstreamLevelMsg struct {
		level string
		err   error
	}
	// lintMsg is Lint's answer.
	lintMsg struct {
		rep contract.LintReport
		err error
	}
	// completionMsg is Complete's answer, for the argument dialog that
	// asked (by its form).
	completionMsg struct {
		form  *callForm
		field string
		typed string
		res   contract.Completion
		err   error
	}
)

// hostCall bounds a ping, a log level change and a completion.
const hostCall = 15 * time.Second

func (s *shared) doPing() tea.Cmd {
	api := s.api
	ctx, cancel := s.callCtx(hostCall)
	s.setStatus("pinging the upstream…", false)
	return func() tea.Msg {
		defer cancel()
		res, err := api.Ping(ctx)
		return pingMsg{res: res, err: err}
	}
}

func (m *Model) handlePing(msg pingMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus("ping: "+errText(msg.err), true)
		return nil
	}
	m.setStatus(fmt.Sprintf("ping: the upstream answered in %s (at %s)", fmtRoundTrip(msg.res.RoundTrip), msg.res.At.Format("15:04:05")), false)
	return nil
}

// fmtRoundTrip shows a round trip to a tenth of a millisecond.
func fmtRoundTrip(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

func (s *shared) doSetUpstreamLevel(level string) tea.Cmd {
	api := s.api
	ctx, cancel := s.callCtx(hostCall)
	s.setStatus("asking the upstream for "+level+" log messages and above…", false)
	return func() tea.Msg {
		defer cancel()
		return upstreamLevelMsg{level: level, err: api.SetLogLevel(ctx, level)}
	}
}

func (s *shared) doLint() tea.Cmd {
	api := s.api
	ctx, cancel := s.callCtx(toolsCall * 4)
	s.setStatus("linting the server…", false)
	return func() tea.Msg {
		defer cancel()
		rep, err := api.Lint(ctx)
		return lintMsg{rep: rep, err: err}
	}
}

func (m *Model) handleLint(msg lintMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus("lint: "+errText(msg.err), true)
		return nil
	}
	r := msg.rep
	summary := fmt.Sprintf("lint: %d tools, %d recorded results: %d errors, %d warnings", r.Tools, r.Results, r.Errors, r.Warnings)
	m.setStatus(summary, r.Errors > 0)
	st := m.styles
	lines := []string{st.Muted.Render(summary)}
	if len(r.Findings) == 0 {
		lines = append(lines, st.OK.Render("nothing to report"))
	}
	for _, f := range r.Findings {
		sev := st.Warn.Render("warning")
		if f.Severity == contract.LintError {
			sev = st.Err.Render("error  ")
		}
		where := strings.TrimSpace(f.Source + " " + f.Path)
		lines = append(lines, sev+" "+st.Key.Render(clean(f.Tool))+"  "+st.Label.Render(f.Rule)+"  "+st.Muted.Render(clean(where)))
		lines = append(lines, "        "+st.Text.Render(clean(f.Message)))
	}
	m.overlay.push(newViewerDialog(m.shared, "Lint", lines))
	return nil
}

// completeKey is tab in an argument dialog: complete the field from the
// server (it moves to the next field when the server has nothing).
var completeKey = key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete from the server / next field"))

// doComplete asks the server to complete the focused field of f.
func (s *shared) doComplete(ref contract.CompleteRequest, f *callForm) tea.Cmd {
	fd := f.field()
	if fd == nil || !fd.editable() {
		return nil
	}
	ref.Argument, ref.Value = fd.name, fd.text()
	ref.Context = map[string]string{}
	for _, o := range f.fields {
		if o != fd && o.editable() && o.text() != "" {
			ref.Context[o.name] = o.text()
		}
	}
	api := s.api
	ctx, cancel := s.callCtx(hostCall)
	return func() tea.Msg {
		defer cancel()
		res, err := api.Complete(ctx, ref)
		return completionMsg{form: f, field: ref.Argument, typed: ref.Value, res: res, err: err}
	}
}

// applyCompletion fills the field the completion was for: the one value,
// or what all values share; the values are listed under the form. It
// reports whether the server offered anything (tab moves on when not).
func applyCompletion(f *callForm, msg completionMsg) (list string, offered bool) {
	fd := f.field()
	if fd == nil || fd.name != msg.field || fd.text() != msg.typed || len(msg.res.Values) == 0 {
		return "", false
	}
	vals := msg.res.Values
	fill := vals[0]
	for _, v := range vals[1:] {
		fill = commonPrefix(fill, v)
	}
	if len(fill) > len(msg.typed) && strings.HasPrefix(fill, msg.typed) || len(vals) == 1 {
		f.setText(fd, fill)
	}
	if len(vals) == 1 && fill == msg.typed {
		return "", false // already complete
	}
	shown := make([]string, 0, min(len(vals), 10))
	for _, v := range vals[:min(len(vals), 10)] {
		shown = append(shown, clean(v))
	}
	list = strings.Join(shown, ", ")
	if n := max(msg.res.Total, len(vals)); n > len(shown) || msg.res.HasMore {
		list += fmt.Sprintf(" … (%d in all)", n)
	}
	return list, true
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// saveResultKey is s in the Call pane.
var saveResultKey = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save the result to a file"))

// saveResult opens the save dialog for the selected tool's last result
// (its CallToolResult, indented), prefilled with DIR/export/<tool>-<time>.json.
func (s *shared) saveResult(tool string) tea.Cmd {
	t := s.peek(tool)
	if t == nil || t.result == nil || t.result.running || len(t.result.res.Result) == 0 {
		s.setStatus("no result of "+tool+" to save yet: call it first (c)", false)
		return nil
	}
	data := []byte(indentJSON(t.result.res.Result) + "\n")
	name := fmt.Sprintf("%s-%s.json", tool, time.Now().Format("20060102-150405"))
	return func() tea.Msg {
		return openSaveMsg{data: data, name: name, what: "result of " + tool}
	}
}

// nextUpstreamLevel is the level L asks for after cur: debug, info,
// warning, error, then debug again (the spec's other levels are rarely
// what a developer wants to step through).
func nextUpstreamLevel(cur string) string {
	steps := []string{"debug", "info", "warning", "error"}
	for i, l := range steps {
		if l == cur {
			return steps[(i+1)%len(steps)]
		}
	}
	return steps[0]
}

// upstreamLevelSet records the level the upstream accepted.
func (p *logPane) upstreamLevelSet(msg upstreamLevelMsg) tea.Cmd {
	if msg.level != p.asking {
		return nil
	}
	p.asking = ""
	if msg.err != nil {
		p.s.setStatus("logging/setLevel "+msg.level+": "+errText(msg.err), true)
		return nil
	}
	p.upstream = msg.level
	p.s.setStatus("the upstream now logs "+msg.level+" and above (L steps the level)", false)
	return nil
}

// refuse shows in the dialog why genui did not send the answer to request
// id; a value that does not fit the requested schema is marked on its
// field too (the engine names each: "email: not a valid email; ...").
func (d *requestDialog) refuse(id string, e *contract.Error) {
	if d.cur == nil || d.cur.ID != id {
		return
	}
	if e == nil {
		d.refused = "the answer was refused"
		return
	}
	d.refused = e.Message
	if d.form == nil {
		return
	}
	_, fields, ok := strings.Cut(e.Message, "the requested schema: ")
	if !ok {
		return
	}
	for _, part := range strings.Split(fields, "; ") {
		name, why, ok := strings.Cut(part, ": ")
		if !ok {
			continue
		}
		for _, fd := range d.form.fields {
			if fd.name == name {
				fd.err = why
			}
		}
	}
}
