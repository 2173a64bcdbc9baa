package tui

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/genui-dev/genui/engine/contract"
)

// The screen, top to bottom: header (2 lines, plus a banner line when
// something needs attention), the tool list beside the tab bar and the
// visible pane (dialogs over them), the status line, the help bar.

type screenLayout struct {
	headerH, bodyY, bodyH int
	listW, paneW          int
	tabs                  []tabCell // the tab bar's labels, x relative to the pane column
}

func (m *Model) layout() screenLayout {
	l := screenLayout{headerH: 2}
	if m.banner() != "" {
		l.headerH = 3
	}
	l.headerH += len(m.upstreamProblem()) + len(m.authAttention())
	l.bodyY = l.headerH
	l.bodyH = max(m.height-l.headerH-2, 4)
	l.listW = clamp(m.width*3/8, 26, 44)
	if m.width < 60 {
		l.listW = max(m.width/2, 10)
	}
	l.paneW = m.width - l.listW
	l.tabs = m.tabBar(l.paneW)
	return l
}

func (m *Model) render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	l := m.layout()
	lines := make([]string, 0, m.height)
	lines = append(lines, m.renderHeader(l)...)
	rows, sc := m.list.render(m.styles, l.listW-2, l.bodyH-2, m.focus == focusList, m.busy, m.spinner())
	left := box(m.styles, fmt.Sprintf("Tools %d/%d", len(m.list.visible), len(m.list.tools)), m.focus == focusList,
		l.listW, l.bodyH, rows, sc)
	right := append([]string{m.renderTabs(l)}, m.renderPane(l.paneW, l.bodyH-1)...)
	body := m.overlay.paint(joinColumns(left, right), m.width, l.bodyH)
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

// Header.

func (m *Model) renderHeader(l screenLayout) []string {
	st, s := m.styles, m.state
	sep := st.Faint.Render(" │ ")
	mode := st.TabActive.Render(" " + m.mode.String() + " ")
	gen := st.Label.Render("gen ") + st.Text.Render(orDash(clean(s.Generator)))
	if s.GeneratorSource != "" { // settings genui was not given: say so
		gen += st.Warn.Render(" ⚠ " + clean(strings.Replace(s.GeneratorSource, " from the environment", " from env", 1)))
	}
	line1 := st.Title.Render("genui") + st.Muted.Render(" "+orDash(s.Version)) + " " + mode + sep + gen + sep
	if !m.haveState {
		line1 += st.Muted.Render("upstream …")
	} else {
		name := m.opts.Upstream
		if name == "" {
			name = serverName(s.Upstream)
		}
		name = clean(name)
		state := st.OK.Render("● ")
		if !s.Upstream.Connected {
			// Why it is down is wrapped under the header (upstreamProblem).
			state = st.Err.Render("○ down ")
		}
		auth := ""
		if a := authSummary(s.Upstream.Auth, m.now()); a != "" {
			auth = st.Muted.Render(" · " + a)
		}
		line1 += st.Label.Render("upstream ") + state
		// A long upstream (a URL, a command line) gives up its middle
		// before the sign-in word after it is cut at the edge.
		if room := max(m.width-cellWidth(line1)-cellWidth(auth), minHeaderUpstream); auth != "" && cellWidth(name) > room {
			name = shortenMiddle(name, room)
		}
		line1 += st.Text.Render(name) + auth
	}

	var parts []string
	if s.URLs.MCP != "" {
		parts = append(parts, st.Label.Render("MCP ")+st.Info.Render(s.URLs.MCP))
	}
	parts = append(parts, m.agentLine())
	line2 := strings.Join(parts, sep)
	if s.URLs.API != "" || m.base != "" {
		// The preview's full URL when it fits, else its path.
		p := "/preview/"
		if t := m.selected(); t != "" {
			p += url.PathEscape(t)
		}
		base := s.URLs.API
		if base == "" {
			base = m.base
		}
		full := line2 + sep + st.Label.Render("preview ") + st.Info.Render(base+p)
		line2 += sep + st.Label.Render("preview ") + st.Info.Render(p)
		if ansi.StringWidth(full) <= m.width {
			line2 = full
		}
	}
	out := []string{line1, line2}
	if b := m.banner(); b != "" {
		out = append(out, st.Banner.Render(fit(" "+b, m.width)))
	}
	for _, p := range m.upstreamProblem() {
		out = append(out, st.Err.Render(fit(p, m.width)))
	}
	for _, p := range m.authAttention() {
		out = append(out, st.Warn.Render(fit(p, m.width)))
	}
	return out
}

// minHeaderUpstream is the fewest cells the header's upstream name is
// shortened to (with less room the sign-in word is cut at the edge).
const minHeaderUpstream = 16

// shortenMiddle cuts plain text s to w cells by taking out its middle
// ("http://very…/mcp"): both ends of a URL or command say most.
func shortenMiddle(s string, w int) string {
	if cellWidth(s) <= w || w < 3 {
		return s
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, cellWidth(s)-tail, "")
}

// upstreamProblem is why the upstream is down, wrapped to the screen's
// width: its cause first, then the last lines of its stderr (a server
// that will not start says why on screen, not in a status line cut at
// the edge nor only in the Log pane). At most a quarter of the screen
// (at least 3 lines); the cause and the newest lines are kept. None while
// it is up.
func (m *Model) upstreamProblem() []string {
	u := m.state.Upstream
	if !m.haveState || u.Connected || u.LastError == "" || m.width < 10 {
		return nil
	}
	lines := wrap("⚠ upstream down: "+u.LastError, m.width-2)
	for i := range lines {
		lines[i] = " " + lines[i]
	}
	if limit := max(3, m.height/4); len(lines) > limit {
		lines = append([]string{lines[0], " …"}, lines[len(lines)-(limit-2):]...)
	}
	return lines
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

// The pane (the tab bar: tabs.go).

// renderPane draws the visible pane (w×h, border included), with the
// docked dialogs (the refine box) under it.
func (m *Model) renderPane(w, h int) []string {
	focused := m.focus == focusPane
	extra := m.overlay.docked(w)
	h -= len(extra)
	ih := max(h-2, 1)
	pv := m.current().View(w-2, ih, focused)
	lines := pv.lines
	if pv.footer != "" {
		if len(lines) > ih-1 {
			lines = lines[:ih-1]
		}
		for len(lines) < ih-1 {
			lines = append(lines, "")
		}
		lines = append(lines, pv.footer)
	}
	return append(box(m.styles, pv.title, m.focus == focusPane, w, h, lines, pv.sc), extra...)
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

// wrapAll wraps each line to w cells at word boundaries (ansi.Wrap:
// styles kept, a word is broken only when it is longer than w), so a
// result reads "doesn't", never "doesn'" then "t".
func wrapAll(lines []string, w int) []string {
	w = max(w, 1)
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if cellWidth(l) <= w {
			out = append(out, l)
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(l, w, ""), "\n")...)
	}
	return out
}

// wrapHard cuts each line at w cells whatever it holds (ansi.Hardwrap):
// for a URL, which word wrapping would break at its hyphens and slashes
// into lines that no longer read, or copy, as one address.
func wrapHard(lines []string, w int) []string {
	w = max(w, 1)
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, strings.Split(ansi.Hardwrap(l, w, true), "\n")...)
	}
	return out
}

// Status line and help.

func (m *Model) renderStatus(w int) string {
	st := m.styles
	if m.status == "" {
		return st.Status.Render(fit(" ready", w))
	}
	if m.statusErr {
		return st.StatusErr.Render(fit(" ✗ "+m.status, w))
	}
	return st.Status.Render(fit(" "+m.status, w))
}

// helpKeys is what the help bar shows: the front dialog's keys, the
// filter's, the keys of a pane with an input open, or the global ones.
func (m *Model) helpKeys() helpKeys {
	if d := m.overlay.front(); d != nil {
		if b := d.Keys(); len(b) > 0 {
			return helpKeys{short: b, full: [][]key.Binding{b}}
		}
	}
	if m.list.filtering {
		return m.keys.filterHelp()
	}
	if c, ok := m.current().(capturer); ok && c.capturing() && m.focus == focusPane {
		b := m.current().Keys()
		return helpKeys{short: b, full: [][]key.Binding{b}}
	}
	hk := m.keys.browseHelp()
	if m.focus == focusPane {
		hk.short[0] = m.keys.Search // / searches the focused pane
	}
	if t, _ := m.runningCall(); t != "" {
		hk.short = append([]key.Binding{m.keys.CancelCall}, hk.short...)
	}
	if len(m.requests) > 0 {
		hk.short = append([]key.Binding{m.keys.Requests}, hk.short...)
	}
	return hk
}

// renderHelpBar is the keys of the current mode on one line; in the
// normal mode "? help" and "q quit" always show, at the right end, however
// narrow the terminal (the other keys give way, cut with an ellipsis).
func (m *Model) renderHelpBar(w int) string {
	short := m.helpKeys().ShortHelp()
	var tail []key.Binding
	if n := len(short); n >= 2 && short[n-2].Help().Key == m.keys.Help.Help().Key && short[n-1].Help().Key == m.keys.Quit.Help().Key {
		short, tail = short[:n-2], short[n-2:]
	}
	t := m.helpItems(tail, w)
	sep := m.help.Styles.ShortSeparator.Render(m.help.ShortSeparator)
	room := w - 1
	if t != "" {
		room -= ansi.StringWidth(t) + ansi.StringWidth(sep)
	}
	left := m.helpItems(short, room)
	switch {
	case t == "":
		return " " + left
	case left == "":
		return " " + t
	}
	return " " + left + sep + t
}

// helpItems is "key desc • key desc ..." in at most w cells: the items
// that fit, then an ellipsis when some do not. (bubbles' help overflows
// when not even its ellipsis fits.)
func (m *Model) helpItems(bs []key.Binding, w int) string {
	st := m.help.Styles
	sep := st.ShortSeparator.Render(m.help.ShortSeparator)
	var items []string
	total := 0
	for _, kb := range bs {
		if !kb.Enabled() {
			continue
		}
		item := st.ShortKey.Render(kb.Help().Key) + " " + st.ShortDesc.Render(kb.Help().Desc)
		if len(items) > 0 {
			item = sep + item
		}
		items = append(items, item)
		total += cellWidth(item)
	}
	if total <= w {
		return strings.Join(items, "")
	}
	ell := " " + st.Ellipsis.Render(m.help.Ellipsis)
	var b strings.Builder
	used := 0
	for _, item := range items {
		iw := cellWidth(item)
		if used+iw+ansi.StringWidth(ell) > w {
			break
		}
		b.WriteString(item)
		used += iw
	}
	if used > 0 {
		b.WriteString(ell)
	}
	return b.String()
}
