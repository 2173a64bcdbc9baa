package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

const paneHistory = "history"

var historyPaneSpec = paneSpec{id: paneHistory, name: "History", short: "Hist",
	about: "every tool call through genui (hosts, this workbench, previews, the HTTP API, checks), newest first: " +
		"open one, re-run it, edit its arguments and run it, diff two runs, pin it as a check", new: newHistoryPane}

// historyPane lists the recorded calls (contract.API History), newest
// first, filtered by tool, source or errors; enter opens one (its
// arguments, result and error); r re-runs it and shows how the result
// changed; e puts its arguments in the Call form; d diffs it against the
// marked call (m) or its previous run; p pins it as a check; A re-runs the
// last call of each tool you worked with after every restart of a watched
// upstream and shows what changed.
type historyPane struct {
	s       *shared
	rows    rowList
	entries []contract.HistoryEntry // listed, newest first
	// full holds entries read whole (HistoryEntry), by ID.
	full     map[int64]contract.HistoryEntry
	matching int
	// lastID is State.History.LastID when the page was asked for.
	lastID      int64
	fetching    bool
	again       bool
	loaded      bool
	err         string
	shown       bool
	filterTool  string
	filterSrc   int // index into historySources
	mark        int64
	busy        string // what runs ("re-running #12", ...)
	auto        bool   // re-run after a watched restart
	restarts    int
	haveRestart bool
	worked      map[string]bool // tools re-run or edited from here
	lastDiff    *openViewerMsg
	selectNext  int64 // select this entry once a page holds it (a re-run's)
	// pin is the check name being typed (p); nil when not pinning.
	pin   *textinput.Model
	pinID int64
}

// historySources are the filter's steps (f): all, errors only, each source.
var historySources = []string{"", "errors", contract.SourceMCP, contract.SourceTUI, contract.SourcePreview, contract.SourceAPI, contract.SourceCheck}

// The History pane's own keys.
var (
	historyRerun  = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "re-run"))
	historyEdit   = key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit arguments and run"))
	historyDiff   = key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "diff with marked/previous run"))
	historyMark   = key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark for diff"))
	historyPin    = key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pin as check"))
	historyFilter = key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "filter: errors, source"))
	historyTool   = key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "only the selected tool"))
	historyAuto   = key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "re-run after restarts"))
	historyLast   = key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "last diff again"))
)

// Messages of the History pane's engine calls.
type (
	historyPageMsg struct {
		page   contract.HistoryPage
		lastID int64
		err    error
	}
	historyEntryMsg struct {
		entry contract.HistoryEntry
		then  func(contract.HistoryEntry) tea.Cmd
		err   error
	}
	historyRerunMsg struct {
		rerun contract.Rerun
		err   error
	}
	historyDiffMsg struct {
		a, b contract.HistoryEntry
		diff contract.ResultDiff
		err  error
	}
	historyPinMsg struct {
		check contract.Check
		err   error
	}
	historyAutoMsg struct {
		generation int
		reruns     []contract.Rerun
		errs       []string
	}
	// showPaneMsg asks the root to select a tool, show a pane (with the
	// focus) and hand it a message.
	showPaneMsg struct {
		tool, id string
		then     tea.Msg
	}
)

func newHistoryPane(s *shared) pane {
	return &historyPane{s: s, rows: rowList{canWrap: true, find: newFinder(s.styles)},
		full: map[int64]contract.HistoryEntry{}, worked: map[string]bool{}}
}

func (p *historyPane) capturing() bool { return p.pin != nil || p.rows.capturing() }

func (p *historyPane) Keys() []key.Binding {
	if p.pin != nil {
		return []key.Binding{p.s.keys.Enter, p.s.keys.Cancel}
	}
	return append([]key.Binding{historyRerun, historyEdit, historyDiff, historyMark, historyPin, historyFilter, historyTool, historyAuto, historyLast},
		p.rows.keys(p.s.keys)...)
}

// src is the pane's rows: the listed entries, newest first.
func (p *historyPane) src() rows {
	return rows{total: len(p.entries), key: fmt.Sprint(p.lastID, p.filterTool, p.filterSrc), line: p.line,
		text: func(i int) string {
			e := p.entries[i]
			return fmt.Sprintf("#%d %s %s %s %s", e.ID, e.Tool, e.Source, e.Summary, e.Error)
		},
		detail: p.detail,
		title:  func(i int) string { return fmt.Sprintf("History · #%d %s", p.entries[i].ID, p.entries[i].Tool) },
	}
}

// selectedEntry is the entry under the cursor.
func (p *historyPane) selectedEntry() (contract.HistoryEntry, bool) {
	if len(p.entries) == 0 {
		return contract.HistoryEntry{}, false
	}
	return p.entries[p.rows.selected(len(p.entries))], true
}

func (p *historyPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	s := p.s
	switch msg := msg.(type) {
	case paneShownMsg:
		p.shown = true
		return p.fetch(), false
	case paneHiddenMsg:
		p.shown = false
	case pollMsg:
		return p.poll(), false
	case historyPageMsg:
		p.fetching = false
		if msg.err != nil {
			p.err = contract.AsError(msg.err).Message
		} else {
			p.err, p.loaded = "", true
			p.keepCursor(msg.page.Entries)
			p.entries, p.matching, p.lastID = msg.page.Entries, msg.page.Matching, msg.lastID
		}
		if p.again {
			p.again = false
			return p.fetch(), false
		}
		return p.loadOpen(), false
	case historyEntryMsg:
		if msg.err != nil {
			p.busy = ""
			s.setStatus(contract.AsError(msg.err).Message, true)
			return nil, false
		}
		p.full[msg.entry.ID] = msg.entry
		if msg.then != nil {
			return msg.then(msg.entry), false
		}
		return nil, false
	case historyRerunMsg:
		return p.rerunDone(msg), false
	case historyDiffMsg:
		p.busy = ""
		s.busyAll = max(s.busyAll-1, 0)
		if msg.err != nil {
			s.setStatus("diff: "+contract.AsError(msg.err).Message, true)
			return nil, false
		}
		return p.showDiff(fmt.Sprintf("#%d → #%d %s", msg.a.ID, msg.b.ID, msg.b.Tool), msg.a, msg.b, msg.diff), false
	case historyPinMsg:
		p.busy = ""
		s.busyAll = max(s.busyAll-1, 0)
		if msg.err != nil {
			s.setStatus("pin: "+contract.AsError(msg.err).Message, true)
			return nil, false
		}
		s.setStatus(fmt.Sprintf("pinned %s (%s) as a check: %s; genui check replays it", msg.check.Name, msg.check.Tool, msg.check.File), false)
		return nil, false
	case historyAutoMsg:
		return p.autoDone(msg), false
	case tea.PasteMsg:
		if p.pin != nil {
			var cmd tea.Cmd
			*p.pin, cmd = p.pin.Update(msg)
			return cmd, true
		}
	case tea.KeyPressMsg:
		if p.pin != nil {
			return p.pinKey(msg), true
		}
		if !p.rows.capturing() {
			if cmd, ok := p.key(msg); ok {
				return cmd, true
			}
		}
	}
	cmd, handled := p.rows.update(s.keys, p.src(), msg, nil)
	return tea.Batch(cmd, p.loadOpen()), handled
}

// key handles the pane's own keys.
func (p *historyPane) key(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	s := p.s
	switch {
	case key.Matches(msg, historyFilter):
		p.filterSrc = (p.filterSrc + 1) % len(historySources)
		p.rows.cursor, p.rows.open = 0, false
		return p.fetch(), true
	case key.Matches(msg, historyTool):
		if p.filterTool != "" {
			p.filterTool = ""
		} else if e, ok := p.selectedEntry(); ok {
			p.filterTool = e.Tool
		} else {
			p.filterTool = s.selected()
		}
		p.rows.cursor, p.rows.open = 0, false
		return p.fetch(), true
	case key.Matches(msg, historyAuto):
		p.auto = !p.auto
		if p.auto {
			s.setStatus("after each restart of the watched upstream, the last call of each tool you worked with is run again and compared", false)
		} else {
			s.setStatus("no re-runs after restarts", false)
		}
		return nil, true
	case key.Matches(msg, historyLast):
		if p.lastDiff == nil {
			s.setStatus("no diff yet: r re-runs a call, d compares two", false)
			return nil, true
		}
		last := *p.lastDiff
		last.unasked = false // asked for now
		return func() tea.Msg { return last }, true
	}
	e, ok := p.selectedEntry()
	if !ok {
		switch {
		case key.Matches(msg, historyRerun), key.Matches(msg, historyEdit), key.Matches(msg, historyDiff),
			key.Matches(msg, historyMark), key.Matches(msg, historyPin):
			s.setStatus("no recorded call selected", false)
			return nil, true
		}
		return nil, false
	}
	switch {
	case key.Matches(msg, historyRerun):
		if why := e.Replayable(); why != "" {
			s.setStatus(fmt.Sprintf("#%d cannot be re-run as it was: %s (e edits its arguments)", e.ID, why), true)
			return nil, true
		}
		p.busy = fmt.Sprintf("re-running #%d %s", e.ID, e.Tool)
		p.worked[e.Tool] = true
		s.busyAll++
		s.setStatus(p.busy+"…", false)
		return tea.Batch(p.doRerun(e.ID, nil), s.spinTick()), true
	case key.Matches(msg, historyEdit):
		p.worked[e.Tool] = true
		return p.withFull(e.ID, p.editInForm), true
	case key.Matches(msg, historyMark):
		if p.mark == e.ID {
			p.mark = 0
			s.setStatus("mark cleared", false)
		} else {
			p.mark = e.ID
			s.setStatus(fmt.Sprintf("#%d marked: d on another call compares them", e.ID), false)
		}
		return nil, true
	case key.Matches(msg, historyDiff):
		return p.diffSelected(e), true
	case key.Matches(msg, historyPin):
		if why := e.Replayable(); why != "" {
			s.setStatus(fmt.Sprintf("#%d cannot be pinned: %s", e.ID, why), true)
			return nil, true
		}
		ti := textinput.New()
		ti.SetStyles(inputStyles(s.styles))
		ti.CharLimit = 100
		ti.SetValue(checkName(e))
		ti.CursorEnd()
		p.pin, p.pinID = &ti, e.ID
		return ti.Focus(), true
	}
	return nil, false
}

// checkName proposes a check name for a call: its tool and ID.
func checkName(e contract.HistoryEntry) string {
	var b strings.Builder
	for _, r := range e.Tool {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-._")
	if name == "" {
		name = "call"
	}
	if len(name) > 80 {
		name = name[:80]
	}
	return fmt.Sprintf("%s-%d", name, e.ID)
}

// pinKey edits the check's name: enter pins, esc cancels.
func (p *historyPane) pinKey(msg tea.KeyPressMsg) tea.Cmd {
	s := p.s
	switch {
	case key.Matches(msg, s.keys.Cancel), key.Matches(msg, s.keys.Interrupt):
		p.pin = nil
		return nil
	case msg.String() == "enter":
		name := strings.TrimSpace(p.pin.Value())
		id := p.pinID
		p.pin = nil
		if name == "" {
			s.setStatus("a check needs a name", true)
			return nil
		}
		p.busy = "pinning " + name
		s.busyAll++
		api, ctx := s.api, s.ctx
		return tea.Batch(func() tea.Msg {
			c, err := api.AddCheck(ctx, contract.AddCheckRequest{Name: name, HistoryID: id, Source: contract.SourceTUI})
			return historyPinMsg{check: c, err: err}
		}, s.spinTick())
	}
	var cmd tea.Cmd
	*p.pin, cmd = p.pin.Update(msg)
	return cmd
}

// keepCursor keeps the selected entry selected when a new page arrives
// (newer calls push it down).
func (p *historyPane) keepCursor(next []contract.HistoryEntry) {
	e, ok := p.selectedEntry()
	want := e.ID
	if p.selectNext != 0 {
		// A re-run: its new entry is selected, so p pins what it shows.
		want, ok = p.selectNext, true
		for _, n := range next {
			if n.ID == want {
				p.selectNext = 0
			}
		}
	}
	if !ok {
		return
	}
	for i, n := range next {
		if n.ID == want {
			d := i - p.rows.cursor
			p.rows.cursor, p.rows.offset = i, max(p.rows.offset+d, 0)
			return
		}
	}
}

// poll fetches again when new calls were recorded (State.History.LastID)
// and runs the re-runs after a watched restart.
func (p *historyPane) poll() tea.Cmd {
	s := p.s
	if !s.haveState {
		return nil
	}
	var cmds []tea.Cmd
	if r := s.state.Watch.Restarts; !p.haveRestart {
		p.restarts, p.haveRestart = r, true
	} else if r > p.restarts {
		p.restarts = r
		if p.auto {
			cmds = append(cmds, p.autoRerun())
		}
	}
	if p.shown && s.state.History.LastID != p.lastID {
		cmds = append(cmds, p.fetch())
	}
	return tea.Batch(cmds...)
}

// fetch asks for the page the filters select (again when one is under way).
func (p *historyPane) fetch() tea.Cmd {
	if p.fetching {
		p.again = true
		return nil
	}
	p.fetching = true
	s := p.s
	q := contract.HistoryQuery{Tool: p.filterTool, Limit: 1000}
	switch src := historySources[p.filterSrc]; src {
	case "":
	case "errors":
		q.Errors = true
	default:
		q.Source = src
	}
	api, ctx, last := s.api, s.ctx, s.state.History.LastID
	return func() tea.Msg {
		page, err := api.History(ctx, q)
		return historyPageMsg{page: page, lastID: last, err: err}
	}
}

// loadOpen reads the opened entry whole when it is not yet.
func (p *historyPane) loadOpen() tea.Cmd {
	if !p.rows.open {
		return nil
	}
	e, ok := p.selectedEntry()
	if !ok {
		return nil
	}
	if _, have := p.full[e.ID]; have {
		return nil
	}
	return p.withFull(e.ID, nil)
}

// withFull reads entry id whole (once) and then runs then with it.
func (p *historyPane) withFull(id int64, then func(contract.HistoryEntry) tea.Cmd) tea.Cmd {
	if e, ok := p.full[id]; ok {
		if then == nil {
			return nil
		}
		return then(e)
	}
	api, ctx := p.s.api, p.s.ctx
	return func() tea.Msg {
		e, err := api.HistoryEntry(ctx, id)
		return historyEntryMsg{entry: e, then: then, err: err}
	}
}

func (p *historyPane) doRerun(id int64, args json.RawMessage) tea.Cmd {
	api, ctx := p.s.api, p.s.ctx
	return func() tea.Msg {
		r, err := api.RerunCall(ctx, contract.RerunRequest{ID: id, Arguments: args, Source: contract.SourceTUI})
		return historyRerunMsg{rerun: r, err: err}
	}
}

func (p *historyPane) rerunDone(msg historyRerunMsg) tea.Cmd {
	s := p.s
	p.busy = ""
	s.busyAll = max(s.busyAll-1, 0)
	if msg.err != nil {
		s.setStatus("re-run: "+contract.AsError(msg.err).Message, true)
		return nil
	}
	r := msg.rerun
	p.full[r.Previous.ID], p.full[r.Entry.ID] = r.Previous, r.Entry
	p.selectNext = r.Entry.ID
	s.setStatus(fmt.Sprintf("re-ran #%d as #%d: %s", r.Previous.ID, r.Entry.ID, diffSummary(r.Diff)), r.Entry.Error != "")
	return tea.Batch(p.fetch(), p.showDiff(fmt.Sprintf("Re-run of #%d as #%d · %s", r.Previous.ID, r.Entry.ID, r.Entry.Tool),
		r.Previous, r.Entry, r.Diff))
}

// diffSummary is a diff in a few words.
func diffSummary(d contract.ResultDiff) string {
	switch {
	case d.Equal && d.Ignored > 0:
		return fmt.Sprintf("same result (%d ignored differences)", d.Ignored)
	case d.Equal:
		return "same result"
	case len(d.Changes) == 1:
		return "1 change"
	}
	return fmt.Sprintf("%d changes", len(d.Changes))
}

// diffSelected compares the selected call with the marked one, or with
// the previous run of the same call (same tool and arguments; else the
// tool's previous call).
func (p *historyPane) diffSelected(e contract.HistoryEntry) tea.Cmd {
	s := p.s
	a, b := p.mark, e.ID
	if a == 0 || a == b {
		a = p.previousRun(e)
		if a == 0 {
			s.setStatus(fmt.Sprintf("no earlier call of %s listed to compare #%d with (m marks one)", e.Tool, e.ID), false)
			return nil
		}
	}
	if a > b {
		a, b = b, a
	}
	p.busy = fmt.Sprintf("comparing #%d and #%d", a, b)
	s.busyAll++
	api, ctx := s.api, s.ctx
	return tea.Batch(func() tea.Msg {
		d, err := api.CompareCalls(ctx, contract.CompareRequest{A: a, B: b})
		if err != nil {
			return historyDiffMsg{err: err}
		}
		ea, err := api.HistoryEntry(ctx, a)
		if err != nil {
			return historyDiffMsg{err: err}
		}
		eb, err := api.HistoryEntry(ctx, b)
		return historyDiffMsg{a: ea, b: eb, diff: d, err: err}
	}, s.spinTick())
}

// previousRun is the ID of the newest listed call older than e of the same
// tool with the same arguments, else of the same tool (0: none).
func (p *historyPane) previousRun(e contract.HistoryEntry) int64 {
	var sameTool int64
	for _, x := range p.entries {
		if x.ID >= e.ID || x.Tool != e.Tool {
			continue
		}
		if sameJSON(x.Arguments, e.Arguments) {
			return x.ID
		}
		if sameTool == 0 {
			sameTool = x.ID
		}
	}
	return sameTool
}

func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// showDiff opens the viewer with how b's result differs from a's.
func (p *historyPane) showDiff(title string, a, b contract.HistoryEntry, d contract.ResultDiff) tea.Cmd {
	st := p.s.styles
	lines := []string{
		st.Muted.Render(fmt.Sprintf("#%d  %s  %s  generation %d  %s", a.ID, a.Time.Local().Format("15:04:05"), a.Source, a.Generation, fmtDur(a.Duration))),
		st.Muted.Render(fmt.Sprintf("#%d  %s  %s  generation %d  %s", b.ID, b.Time.Local().Format("15:04:05"), b.Source, b.Generation, fmtDur(b.Duration))),
	}
	if !sameJSON(a.Arguments, b.Arguments) {
		lines = append(lines, st.Warn.Render("arguments differ: "+compactJSON(a.Arguments)+" → "+compactJSON(b.Arguments)))
	}
	lines = append(lines, "", st.Key.Render(diffSummary(d)))
	lines = append(lines, diffLines(st, d)...)
	v := openViewerMsg{title: title + " · " + diffSummary(d), lines: lines}
	p.lastDiff = &v
	return func() tea.Msg { return v }
}

// diffLines colors a diff's text: + added, - removed, ~ changed; a
// changed text's line diff under it.
func diffLines(st Styles, d contract.ResultDiff) []string {
	if d.Equal {
		return nil
	}
	var out []string
	for _, l := range d.Text() {
		t := strings.TrimLeft(l, " ")
		inner := len(t) < len(l)
		switch {
		case strings.HasPrefix(t, "@@"):
			out = append(out, st.Hunk.Render(clean(l)))
		case strings.HasPrefix(t, "+"):
			out = append(out, st.Added.Render(clean(l)))
		case strings.HasPrefix(t, "-"):
			out = append(out, st.Removed.Render(clean(l)))
		case strings.HasPrefix(t, "~") && !inner:
			out = append(out, st.Warn.Render(clean(l)))
		default:
			out = append(out, st.Text.Render(clean(l)))
		}
	}
	return out
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return clean(string(raw))
	}
	return clean(b.String())
}

// editInForm puts a call's arguments in its tool's Call form and shows
// it, ready to edit and run.
func (p *historyPane) editInForm(e contract.HistoryEntry) tea.Cmd {
	s := p.s
	if e.ArgumentsOmitted != "" {
		s.setStatus(fmt.Sprintf("#%d: %s; the form keeps its own values", e.ID, e.Replayable()), true)
	}
	f := s.formFor(e.Tool)
	if f == nil {
		s.setStatus(fmt.Sprintf("%s is not listed by the upstream now (or its schema is still loading)", e.Tool), true)
		return nil
	}
	if e.ArgumentsOmitted == "" {
		if err := f.fill(e.Arguments); err != nil {
			f.blur()
			f.raw = true
			f.rawArg.SetValue(indentJSON(e.Arguments))
			f.fitArea(&f.rawArg)
			f.rawErr = err.Error()
		}
		s.setStatus(fmt.Sprintf("the arguments of #%d are in the form: edit them, enter runs", e.ID), false)
	}
	return func() tea.Msg { return showPaneMsg{tool: e.Tool, id: paneCall, then: callFormOpenMsg{}} }
}

func indentJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// autoRerun runs the last call of each tool worked with again, after a
// restart of the watched upstream, and reports the differences.
func (p *historyPane) autoRerun() tea.Cmd {
	s := p.s
	var tools []string
	for name, t := range s.tools {
		if t.result != nil || p.worked[name] {
			tools = append(tools, name)
		}
	}
	slices.Sort(tools)
	if len(tools) == 0 {
		s.setStatus("the upstream restarted; no tool called from here yet to re-run", false)
		return nil
	}
	gen := s.state.Upstream.Generation
	p.busy = fmt.Sprintf("re-running %d call(s) after the restart", len(tools))
	s.busyAll++
	api, ctx := s.api, s.ctx
	return tea.Batch(func() tea.Msg {
		out := historyAutoMsg{generation: gen}
		for _, tool := range tools {
			page, err := api.History(ctx, contract.HistoryQuery{Tool: tool, Limit: 50})
			if err != nil {
				out.errs = append(out.errs, tool+": "+contract.AsError(err).Message)
				continue
			}
			var last *contract.HistoryEntry
			for i := range page.Entries {
				if e := page.Entries[i]; e.Generation < gen && e.Replayable() == "" {
					last = &page.Entries[i]
					break
				}
			}
			if last == nil {
				continue
			}
			r, err := api.RerunCall(ctx, contract.RerunRequest{ID: last.ID, Source: contract.SourceTUI})
			if err != nil {
				out.errs = append(out.errs, fmt.Sprintf("%s #%d: %s", tool, last.ID, contract.AsError(err).Message))
				continue
			}
			out.reruns = append(out.reruns, r)
		}
		return out
	}, s.spinTick())
}

func (p *historyPane) autoDone(msg historyAutoMsg) tea.Cmd {
	s := p.s
	st := s.styles
	p.busy = ""
	s.busyAll = max(s.busyAll-1, 0)
	changed := 0
	lines := []string{st.Muted.Render(fmt.Sprintf("The upstream restarted (generation %d); the last call of each tool you worked with, run again:", msg.generation)), ""}
	for _, r := range msg.reruns {
		p.full[r.Previous.ID], p.full[r.Entry.ID] = r.Previous, r.Entry
		head := fmt.Sprintf("%s  #%d → #%d  %s", r.Entry.Tool, r.Previous.ID, r.Entry.ID, diffSummary(r.Diff))
		if r.Diff.Equal {
			lines = append(lines, st.OK.Render("✓ "+head))
			continue
		}
		changed++
		lines = append(lines, st.Warn.Render("≠ "+head))
		lines = append(lines, indent(diffLines(st, r.Diff), "  ")...)
	}
	for _, e := range msg.errs {
		lines = append(lines, st.Err.Render("✗ "+clean(e)))
	}
	if len(msg.reruns)+len(msg.errs) == 0 {
		s.setStatus("after the restart: nothing to run again", false)
		return nil
	}
	v := openViewerMsg{title: fmt.Sprintf("After the restart · %d changed of %d", changed, len(msg.reruns)), lines: lines, unasked: true}
	p.lastDiff = &v
	if changed == 0 && len(msg.errs) == 0 {
		// Nothing to show: the status line says so, D shows the list.
		s.setStatus(fmt.Sprintf("after the restart: %d call(s) run again, none changed (D shows them)", len(msg.reruns)), false)
		return p.fetch()
	}
	s.setStatus(fmt.Sprintf("after the restart: %d call(s) run again, %d changed", len(msg.reruns), changed), len(msg.errs) > 0)
	return tea.Batch(p.fetch(), func() tea.Msg { return v })
}

func (p *historyPane) View(w, h int, focused bool) paneView {
	st := p.s.styles
	title := "History"
	var notes []string
	if p.filterTool != "" {
		notes = append(notes, p.filterTool)
	}
	if f := historySources[p.filterSrc]; f != "" {
		notes = append(notes, f)
	}
	if len(notes) > 0 {
		title += " · " + strings.Join(notes, ", ")
	}
	title += fmt.Sprintf(" · %d", len(p.entries))
	if p.matching > len(p.entries) {
		title += fmt.Sprintf(" of %d", p.matching)
	}
	if p.auto {
		title += " · re-run after restarts"
	}
	if p.mark != 0 {
		title += fmt.Sprintf(" · marked #%d", p.mark)
	}
	if p.rows.wrap {
		title += " · wrapped"
	}
	var lines []string
	var sc scroll
	footer := ""
	switch {
	case p.err != "" && len(p.entries) == 0:
		lines = wrapStyled(st.Err, "the history: "+p.err, w)
	case !p.loaded:
		lines = []string{st.Muted.Render(" loading the call history…")}
	case len(p.entries) == 0:
		lines = []string{st.Muted.Render(" no calls recorded yet" + p.emptyHint())}
	default:
		lines, sc, footer = p.rows.render(st, w, h, p.src(), focused)
	}
	switch {
	case p.pin != nil:
		p.pin.SetWidth(max(w-24, 10))
		footer = st.Key.Render(" pin as check: ") + p.pin.View()
	case p.busy != "":
		footer = st.Accent.Render(" " + p.s.spinner() + " " + p.busy + "…")
	}
	return paneView{title: title, lines: lines, sc: sc, footer: footer}
}

func (p *historyPane) emptyHint() string {
	if historySources[p.filterSrc] != "" || p.filterTool != "" {
		return " that the filter keeps (f, t change it)"
	}
	if !p.s.state.History.Enabled && p.s.haveState {
		return " (history.enabled is false)"
	}
	return ": calls from hosts, the Call pane, previews and the HTTP API appear here"
}

// line is one call: number, time, source, tool, duration, outcome.
func (p *historyPane) line(i, w int) string {
	st := p.s.styles
	e := p.entries[i]
	mark := st.OK.Render("✓")
	switch {
	case e.Error != "":
		mark = st.Err.Render("✗")
	case e.IsError:
		mark = st.Warn.Render("!")
	}
	num := fmt.Sprintf("#%-4d", e.ID)
	if e.ID == p.mark {
		num = st.Accent.Render(fmt.Sprintf("*%-4d", e.ID))
	} else {
		num = st.Muted.Render(num)
	}
	summary := e.Summary
	if e.Error != "" {
		summary = e.Error
	}
	return num + " " + st.Muted.Render(e.Time.Local().Format("15:04:05")) + " " + st.Label.Render(fmt.Sprintf("%-7s", e.Source)) + " " +
		mark + " " + st.Key.Render(e.Tool) + " " + st.Muted.Render(fmtDur(e.Duration)) + " " + st.Text.Render(clean(summary))
}

// detail is one call whole: where it came from, its arguments, its result
// or error.
func (p *historyPane) detail(i, w int) []string {
	st := p.s.styles
	e := p.entries[i]
	full, ok := p.full[e.ID]
	head := fmt.Sprintf("#%d %s · %s", e.ID, e.Tool, e.Source)
	if e.Session != "" {
		head += " (session " + e.Session + ")"
	}
	head += fmt.Sprintf(" · generation %d · %s · %s", e.Generation, e.Time.Local().Format("2006-01-02 15:04:05.000"), fmtDur(e.Duration))
	out := wrapStyled(st.Key, head, w)
	out = append(out, p.s.section(fmt.Sprintf("Arguments (%s)", size(e.ArgumentsSize))))
	switch e.ArgumentsOmitted {
	case contract.OmittedExcluded:
		out = append(out, st.Muted.Render("  not recorded (history.excludeArguments)"))
	case contract.OmittedTruncated:
		out = append(out, wrapStyled(st.Muted, "  cut: "+e.ArgumentsPrefix+"…", w)...)
	default:
		out = append(out, indent(cleanLines(indentJSON(e.Arguments)), "  ")...)
	}
	if !ok {
		return append(out, st.Muted.Render(" loading the result…"))
	}
	switch {
	case full.Error != "":
		out = append(out, st.Err.Render("Error"))
		out = append(out, indent(wrapStyled(st.Err, full.Error, w-2), "  ")...)
	case full.ResultOmitted == contract.OmittedExcluded:
		out = append(out, p.s.section(fmt.Sprintf("Result (%s)", size(full.ResultSize))), st.Muted.Render("  not recorded (history.excludeResults)"))
	case full.ResultOmitted == contract.OmittedTruncated:
		out = append(out, p.s.section(fmt.Sprintf("Result (%s; the first %s)", size(full.ResultSize), size(len(full.ResultPrefix)))))
		out = append(out, indent(wrapStyled(st.Muted, full.ResultPrefix+"…", w-2), "  ")...)
	default:
		head := "Result"
		if full.IsError {
			head = "Result: isError — the tool reported an error"
		}
		out = append(out, p.s.section(fmt.Sprintf("%s (%s)", head, size(full.ResultSize))))
		out = append(out, indent(cleanLines(indentJSON(full.Result)), "  ")...)
	}
	return out
}
