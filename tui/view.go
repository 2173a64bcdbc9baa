package tui

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/genui-dev/genui/engine/contract"
)

// The screen, top to bottom: header (2 lines, plus a banner line when
// something needs attention), the tool list beside the tab bar and the
// selected pane, the status line, the help bar.

type screenLayout struct {
	headerH, bodyY, bodyH int
	listW, paneW          int
	tabX                  [numTabs][2]int // tab bar cells per tab, relative to the pane column
}

func (m *Model) layout() screenLayout {
	l := screenLayout{headerH: 2}
	if m.banner() != "" {
		l.headerH = 3
	}
	l.bodyY = l.headerH
	l.bodyH = max(m.height-l.headerH-2, 4)
	l.listW = clamp(m.width*3/8, 26, 44)
	if m.width < 60 {
		l.listW = max(m.width/2, 10)
	}
	l.paneW = m.width - l.listW
	x := 1
	labels, pad := m.tabLabels(l.paneW)
	for i, name := range labels {
		w := ansi.StringWidth(name) + 2*pad
		l.tabX[i] = [2]int{x, x + w}
		x += w + 1 - pad
	}
	return l
}

// bodyHeight is the height of the tool list and pane area.
func (m *Model) bodyHeight() int { return m.layout().bodyH }

// tabLabels are the tab names that fit in w cells, and the padding around
// each (narrow terminals get short names and no padding).
func (m *Model) tabLabels(w int) ([]string, int) {
	full := make([]string, numTabs)
	n := 1
	for i, t := range tabNames {
		full[i] = fmt.Sprintf("%d %s", i+1, t)
		n += len(full[i]) + 2
	}
	if n <= w {
		return full, 1
	}
	short := []string{"Det", "UI", "Call", "Evts", "Vars", "Trfc", "Log"}
	for i := range short {
		short[i] = fmt.Sprintf("%d %s", i+1, short[i])
	}
	return short, 0
}

func (m *Model) render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	l := m.layout()
	lines := make([]string, 0, m.height)
	lines = append(lines, m.renderHeader(l)...)
	var body []string
	if m.showHelp {
		body = box(m.styles, "Keys — any key closes", true, m.width, l.bodyH, m.fullHelpLines(m.width-4))
	} else {
		rows, sc := m.list.render(m.styles, l.listW-2, l.bodyH-2, m.focus == focusList, m.busy, m.spinner())
		left := box(m.styles, fmt.Sprintf("Tools %d/%d", len(m.list.visible), len(m.list.tools)), m.focus == focusList,
			l.listW, l.bodyH, rows, sc)
		right := append([]string{m.renderTabs(l)}, m.renderPane(l.paneW, l.bodyH-1)...)
		body = joinColumns(left, right)
	}
	lines = append(lines, body...)
	lines = append(lines, m.renderStatus(m.width), m.renderHelpBar(m.width))
	for i := range lines {
		lines[i] = fit(lines[i], m.width)
	}
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	return strings.Join(lines, "\n")
}

func (m *Model) spinner() string {
	if m.opts.Static {
		return spinFrames[0]
	}
	return spinFrames[m.spin%len(spinFrames)]
}

// Header.

func (m *Model) renderHeader(l screenLayout) []string {
	st, s := m.styles, m.state
	sep := st.Faint.Render(" │ ")
	mode := st.TabActive.Render(" " + m.mode.String() + " ")
	up := st.Muted.Render("upstream …")
	if m.haveState {
		name := m.opts.Upstream
		if name == "" {
			name = serverName(s.Upstream)
		}
		state := st.OK.Render("● ")
		if !s.Upstream.Connected {
			state = st.Err.Render("○ down ")
			if s.Upstream.LastError != "" {
				state += st.Muted.Render(clean(s.Upstream.LastError) + " ")
			}
		}
		up = st.Label.Render("upstream ") + state + st.Text.Render(clean(name))
	}
	gen := st.Label.Render("gen ") + st.Text.Render(orDash(clean(s.Generator)))
	line1 := st.Title.Render("genui") + st.Muted.Render(" "+orDash(s.Version)) + " " + mode + sep + gen + sep + up

	var parts []string
	if s.URLs.MCP != "" {
		parts = append(parts, st.Label.Render("MCP ")+st.Info.Render(s.URLs.MCP))
	}
	parts = append(parts, m.agentLine())
	if s.URLs.API != "" || m.base != "" {
		p := "/preview/"
		if t := m.selected(); t != "" {
			p += url.PathEscape(t)
		}
		parts = append(parts, st.Label.Render("preview ")+st.Info.Render(p))
	}
	out := []string{line1, strings.Join(parts, sep)}
	if b := m.banner(); b != "" {
		out = append(out, st.Banner.Render(fit(" "+b, m.width)))
	}
	return out
}

// agentLine says whether an agent polls /wait and for how long.
func (m *Model) agentLine() string {
	st, q := m.styles, m.state.Events
	if !m.haveState {
		return st.Muted.Render("/wait: …")
	}
	var s string
	switch {
	case q.Pollers > 0 && !q.LastPollReturned.IsZero():
		s = st.OK.Render(fmt.Sprintf("/wait: agent waiting %s", since(m.now(), q.LastPollReturned)))
	case q.Pollers > 0:
		s = st.OK.Render("/wait: agent waiting")
	case !q.LastPollReturned.IsZero():
		s = st.Warn.Render(fmt.Sprintf("/wait: agent polled %s ago", since(m.now(), q.LastPollReturned)))
	default:
		s = st.Muted.Render("/wait: no agent")
	}
	s += st.Muted.Render(fmt.Sprintf(" · %d queued", q.Pending))
	if n := len(m.state.Sessions); n > 0 {
		s += st.Muted.Render(fmt.Sprintf(" · %d MCP session(s)", n))
	}
	return s
}

// banner is the line that needs attention, if any.
func (m *Model) banner() string {
	switch {
	case m.lost:
		wait := m.retryAt.Sub(m.now()).Round(100 * time.Millisecond)
		return fmt.Sprintf("⚠ lost the genui at %s (%s) — reconnecting, attempt %d, next in %s; it keeps trying",
			m.base, m.lostErr, m.retry+1, max(wait, 0))
	case m.attaching:
		return m.spinner() + " attaching to " + m.other
	case m.other != "":
		return "▶ press a to attach to the genui now serving " + m.opts.Dir + " at " + m.other
	case m.state.PortConflict != "":
		return "⚠ " + clean(m.state.PortConflict)
	}
	return ""
}

func serverName(u contract.UpstreamState) string {
	var info struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	_ = json.Unmarshal(u.ServerInfo, &info)
	name := info.Name
	if info.Version != "" {
		name += " " + info.Version
	}
	if u.Target != "" && u.Target != name {
		if name != "" {
			return name + " (" + u.Target + ")"
		}
		return u.Target
	}
	return orDash(name)
}

func since(now, t time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		d = 0
	}
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return d.Round(time.Second).String()
}

// Tabs and panes.

func (m *Model) renderTabs(l screenLayout) string {
	st := m.styles
	var b strings.Builder
	b.WriteString(" ")
	labels, pad := m.tabLabels(l.paneW)
	sp := strings.Repeat(" ", pad)
	for i, name := range labels {
		if i > 0 && pad == 0 {
			b.WriteString(" ")
		}
		if i == m.tab {
			b.WriteString(st.TabActive.Render(sp + name + sp))
		} else {
			b.WriteString(st.Tab.Render(sp + name + sp))
		}
	}
	return fit(b.String(), l.paneW)
}

// renderPane draws the selected pane (w×h, border included), with the
// refine box under it when open.
func (m *Model) renderPane(w, h int) []string {
	focused := m.focus == focusPane
	tool := m.selected()
	title := tabNames[m.tab]
	if tool != "" && m.tab <= tabCall {
		title = tool + " · " + title
	}
	inner := w - 2
	var extra []string
	if m.refine != nil {
		extra = m.refineLines(w)
		h -= len(extra)
	}
	ih := max(h-2, 1)
	var lines []string
	var sc scroll
	switch m.tab {
	case tabDetail, tabUI, tabCall:
		all := m.textLines(m.tab, inner)
		p := &m.panes[m.tab]
		p.offset = clamp(p.offset, 0, max(0, len(all)-ih))
		end := min(len(all), p.offset+ih)
		lines = append([]string{}, all[p.offset:end]...)
		for len(lines) < ih {
			lines = append(lines, "")
		}
		sc = scroll{total: len(all), first: p.offset, visible: ih, rows: ih}
		if m.tab == tabUI {
			title += m.uiTitle(tool)
		}
	case tabEvents:
		title = fmt.Sprintf("Events %d · /wait queue and engine", m.events.Len())
		lines, sc = m.rowPane(tabEvents, inner, ih, m.events.Len(), m.evOpen, m.eventLine, m.eventDetail)
	case tabTraffic:
		title = fmt.Sprintf("Traffic %d · JSON-RPC", m.traffic.Len())
		lines, sc = m.rowPane(tabTraffic, inner, ih, m.traffic.Len(), m.trOpen, m.trafficLine, m.trafficDetail)
	case tabLog:
		title = fmt.Sprintf("Log %d · genui and upstream stderr", m.logs.Len())
		lines, sc = m.rowPane(tabLog, inner, ih, m.logs.Len(), false, m.logLine, nil)
	case tabVars:
		title = fmt.Sprintf("Variables %d", len(m.vars.vars.Variables))
		lines, sc = m.rowPane(tabVars, inner, ih, m.vars.rows(), false, m.varLine, nil)
	}
	return append(box(m.styles, title, focused, w, h, lines, sc), extra...)
}

// rowPane draws a pane of rows with a cursor; open splits it to show the
// selected row's detail below.
func (m *Model) rowPane(tab, w, h, n int, open bool, line func(i, w int, sel bool) string, detail func(i, w int) []string) ([]string, scroll) {
	p := &m.panes[tab]
	if n == 0 {
		return []string{m.styles.Muted.Render(" nothing yet")}, scroll{}
	}
	if p.follow {
		p.cursor = n - 1
	}
	p.cursor = clamp(p.cursor, 0, n-1)
	listH := h
	var det []string
	if open && detail != nil {
		listH = max(h/3, 3)
		det = detail(p.cursor, w)
		if room := h - listH - 1; len(det) > room {
			more := len(det) - room + 1
			det = append(det[:max(room-1, 0)], m.styles.Muted.Render(fmt.Sprintf("… %d more lines", more)))
		}
	}
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+listH {
		p.offset = p.cursor - listH + 1
	}
	p.offset = clamp(p.offset, 0, max(0, n-listH))
	out := make([]string, 0, h)
	end := min(n, p.offset+listH)
	for i := p.offset; i < end; i++ {
		sel := i == p.cursor && (m.focus == focusPane || !p.follow)
		l := line(i, w, sel)
		if sel {
			st := m.styles.Selected
			if m.focus != focusPane {
				st = m.styles.SelectedBlur
			}
			l = st.Render(fit(ansi.Strip(l), w))
		}
		out = append(out, l)
	}
	for len(out) < listH {
		out = append(out, "")
	}
	if det != nil {
		out = append(out, m.styles.Faint.Render(strings.Repeat("─", w)))
		out = append(out, det...)
	}
	return out, scroll{total: n, first: p.offset, visible: listH, rows: listH}
}

func (m *Model) eventLine(i, w int, _ bool) string {
	st, r := m.styles, m.events.At(i)
	mark, ks := "  ", st.Muted
	switch {
	case r.kind == "queued" && r.taken:
		mark, ks = st.Muted.Render("✓ "), st.Muted
	case r.kind == "queued":
		mark, ks = st.Accent.Render("⧗ "), st.Accent
	case r.kind == string(contract.EventGenerationFailed) || r.kind == string(contract.EventUpstreamDown) || r.kind == string(contract.EventLagged) ||
		r.kind == string(contract.EventSecurity):
		ks = st.Err
	case r.kind == string(contract.EventUIUpdated) || r.kind == string(contract.EventGenerationFinished) || r.kind == string(contract.EventUpstreamUp):
		ks = st.OK
	case r.kind == string(contract.EventGenerationStarted):
		ks = st.Info
	}
	kind := shortEventKind(r.kind)
	if r.label != "" {
		kind = shortEventKind(r.label)
	}
	ts := ""
	if w >= 60 { // narrow panes drop the time (enter shows it)
		ts = st.Muted.Render(r.time.Format("15:04:05")) + " "
	}
	return ts + mark + ks.Render(fit(kind, 12)) + " " +
		st.Text.Render(fit(clean(r.tool), min(18, max(w/5, 8)))) + " " + st.Muted.Render(r.text)
}

func shortEventKind(k string) string {
	switch k {
	case string(contract.EventGenerationStarted):
		return "gen-started"
	case string(contract.EventGenerationFinished):
		return "gen-finished"
	case string(contract.EventGenerationFailed):
		return "gen-failed"
	case string(contract.EventSessionsChanged):
		return "sessions"
	}
	return k
}

func (m *Model) eventDetail(i, w int) []string {
	r := m.events.At(i)
	out := []string{m.styles.Key.Render(shortEventKind(r.kind)) + " " + m.styles.Muted.Render(r.time.Format(time.RFC3339))}
	if r.kind == "queued" {
		if r.taken {
			out = append(out, m.styles.Muted.Render("✓ taken by an agent through /wait"))
		} else {
			out = append(out, m.styles.Accent.Render("⧗ pending: the agent's next /wait returns it"))
		}
	}
	return append(out, wrapAll(prettyJSON(r.detail), w)...)
}

var dirLabels = map[string]string{
	contract.HostToGenui: "host→", contract.GenuiToHost: "→host", contract.GenuiToUpstream: "→up", contract.UpstreamToGenui: "up→",
}

func (m *Model) trafficLine(i, w int, _ bool) string {
	st, r := m.styles, m.traffic.At(i)
	dir := dirLabels[r.dir]
	if dir == "" {
		dir = r.dir
	}
	kind, ks := r.kind, st.Muted
	switch r.kind {
	case "request":
		kind, ks = "req", st.Info
	case "response":
		kind, ks = "resp", st.OK
	case "notification":
		kind = "note"
	case "error":
		kind, ks = "err", st.Err
	}
	lat := ""
	if r.latency > 0 {
		lat = fmtDur(r.latency)
	}
	id := r.id
	if id == "null" {
		id = ""
	}
	ts := ""
	fixed := 5 + 1 + 4 + 1 + 1 + 8 + 1 + 7 + 1 + 7
	if w >= 70 {
		ts = st.Muted.Render(r.time.Format("15:04:05")) + " "
		fixed += 9
	}
	return ts + fmt.Sprintf("%-5s", dir) + " " + ks.Render(fmt.Sprintf("%-4s", kind)) + " " +
		st.Text.Render(fit(clean(orDash(r.method)), max(w-fixed, 8))) + " " +
		st.Muted.Render(fmt.Sprintf("%-8s %7s %7s", fit(clean(id), 8), lat, size(r.size)))
}

func (m *Model) trafficDetail(i, w int) []string {
	r := m.traffic.At(i)
	head := m.styles.Key.Render(r.dir+" "+r.kind+" "+clean(r.method)) + m.styles.Muted.Render(fmt.Sprintf("  %s  %s", size(r.size), r.time.Format(time.RFC3339Nano)))
	if r.truncated {
		head += m.styles.Warn.Render(fmt.Sprintf("  (first %s shown)", size(contract.MaxTrafficFrame)))
	}
	return append([]string{head}, wrapAll(prettyJSON(r.frame), w)...)
}

func (m *Model) logLine(i, w int, _ bool) string {
	st, r := m.styles, m.logs.At(i)
	ls := st.Muted
	switch r.level {
	case "ERROR":
		ls = st.Err
	case "WARN":
		ls = st.Warn
	case "INFO":
		ls = st.Info
	}
	comp := r.component
	if comp == "" {
		comp = "genui"
	}
	return st.Muted.Render(r.time.Format("15:04:05")) + " " + ls.Render(fmt.Sprintf("%-5s", r.level)) + " " +
		st.Accent.Render(fmt.Sprintf("%-8s", comp)) + " " + st.Text.Render(r.msg) + " " + st.Muted.Render(r.attrs)
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}

func wrapAll(lines []string, w int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if ansi.StringWidth(l) <= w {
			out = append(out, l)
			continue
		}
		out = append(out, strings.Split(ansi.Hardwrap(l, w, true), "\n")...)
	}
	return out
}

// paneRows is the number of rows (or lines) pane tab holds at the current
// size.
func (m *Model) paneRows(tab int) int {
	switch tab {
	case tabEvents:
		return m.events.Len()
	case tabTraffic:
		return m.traffic.Len()
	case tabLog:
		return m.logs.Len()
	case tabVars:
		return m.vars.rows()
	}
	return len(m.textLines(tab, m.layout().paneW-2))
}

// Status line and help.

func (m *Model) renderStatus(w int) string {
	st := m.styles
	if m.confirm != nil {
		return st.Banner.Render(fit(" "+m.confirm.prompt, w))
	}
	if m.status == "" {
		return st.Status.Render(fit(" ready", w))
	}
	if m.statusErr {
		return st.StatusErr.Render(fit(" ✗ "+m.status, w))
	}
	return st.Status.Render(fit(" "+m.status, w))
}

func (m *Model) helpKeys() helpKeys {
	switch {
	case m.confirm != nil:
		return m.keys.confirmHelp()
	case m.refine != nil:
		return m.keys.refineHelp()
	case m.list.filtering:
		return m.keys.filterHelp()
	case m.formActive && m.tab == tabCall:
		return m.keys.formHelp()
	}
	return m.keys.browseHelp()
}

func (m *Model) renderHelpBar(w int) string {
	m.help.SetWidth(w - 1)
	return " " + m.help.ShortHelpView(m.helpKeys().ShortHelp())
}

func (m *Model) fullHelpLines(w int) []string {
	m.help.SetWidth(w)
	lines := strings.Split(m.help.FullHelpView(m.keys.browseHelp().FullHelp()), "\n")
	lines = append(lines, "")
	for _, t := range []string{
		"Refine box: enter sends, esc cancels, ↑/↓ earlier feedback.",
		"Call form: tab/↓ next field, shift+tab/↑ previous, space/←/→ booleans and choices, enter calls, esc leaves.",
		"Mouse: the wheel scrolls what is under it; a click selects a tool, a tab or a row.",
		"Logs go to DIR/log/genui.log (the Log pane shows them), never to this terminal.",
	} {
		for _, l := range wrap(t, w) {
			lines = append(lines, m.styles.Muted.Render(l))
		}
	}
	return lines
}
