package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/genui-dev/genui/engine/contract"
)

var trafficPaneSpec = paneSpec{id: paneTraffic, name: "Traffic", short: "Trfc",
	about: "every JSON-RPC message between the host, genui and the upstream", new: newTrafficPane}

// trafficPane lists the JSON-RPC messages genui saw; enter opens one.
type trafficPane struct {
	s    *shared
	rows rowList
}

func newTrafficPane(s *shared) pane {
	return &trafficPane{s: s, rows: rowList{follow: true, followable: true, find: newFinder(s.styles)}}
}

func (p *trafficPane) capturing() bool { return p.rows.capturing() }

func (p *trafficPane) Keys() []key.Binding { return p.rows.keys(p.s.keys) }

// src is the Traffic pane's rows.
func (p *trafficPane) src() rows {
	s := p.s
	return rows{dropped: s.traffic.Dropped(), total: s.traffic.Len(), line: s.trafficLine, key: fmt.Sprint(s.trafficSync.reordered),
		text: func(ri int) string {
			r := s.traffic.At(ri)
			if r.kind == trafficGap {
				return gapText(r)
			}
			return r.dir + " " + r.kind + " " + trafficWhat(r) + " " + r.id + " " + string(r.frame)
		},
		detail: s.trafficDetail,
		title: func(ri int) string {
			r := s.traffic.At(ri)
			if r.kind == trafficGap {
				return "Traffic · frames dropped"
			}
			return "Traffic · " + r.dir + " " + r.kind + " " + trafficWhat(r)
		},
	}
}

func (p *trafficPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	return p.rows.update(p.s.keys, p.src(), msg, nil)
}

func (p *trafficPane) View(w, h int, focused bool) paneView {
	lines, sc, footer := p.rows.render(p.s.styles, w, h, p.src(), focused)
	title := fmt.Sprintf("Traffic %d · JSON-RPC", p.s.traffic.Len())
	if d := p.s.traffic.Dropped(); d > 0 {
		title += fmt.Sprintf(" · %d older not kept", d)
	}
	return paneView{title: title, lines: lines, sc: sc, footer: footer}
}

var dirLabels = map[string]string{
	contract.HostToGenui: "host→", contract.GenuiToHost: "→host", contract.GenuiToUpstream: "→up", contract.UpstreamToGenui: "up→",
}

// trafficWhat is a row's method with what it is about: the tool of a
// tools/call (and of its answer and cancellation), the request a
// notifications/cancelled gives up on.
func trafficWhat(r trafficRow) string {
	what := orDash(r.method)
	if r.tool != "" {
		what += " " + r.tool
	}
	if r.requestID != "" {
		what += " (request " + r.requestID + ")"
	}
	return clean(what)
}

func (s *shared) trafficLine(i, w int) string {
	st, r := s.styles, s.traffic.At(i)
	if r.kind == trafficGap {
		return st.Warn.Render(fit(gapText(r), w))
	}
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
		st.Text.Render(fit(trafficWhat(r), max(w-fixed, 8))) + " " +
		st.Muted.Render(fmt.Sprintf("%-8s %7s %7s", fit(clean(id), 8), lat, size(r.size)))
}

// trafficDetail is a message whole: what it is, then the frame exactly as
// it went over the wire, then indented.
func (s *shared) trafficDetail(i, w int) []string {
	st, r := s.styles, s.traffic.At(i)
	if r.kind == trafficGap {
		return wrapStyled(st.Warn, gapText(r)+". genui keeps its newest 2,000 frames (GET /api/traffic); the answers to tool calls are never dropped.", w)
	}
	out := wrap(r.dir+" "+r.kind+" "+trafficWhat(r), w)
	for k, l := range out {
		out[k] = st.Key.Render(l)
	}
	var facts []string
	if r.id != "" {
		facts = append(facts, "id "+clean(r.id))
	}
	if r.session != "" {
		facts = append(facts, "session "+clean(r.session))
	}
	if r.latency > 0 {
		facts = append(facts, "answered in "+fmtDur(r.latency))
	}
	facts = append(facts, size(r.size), r.time.Format(time.RFC3339Nano))
	out = append(out, wrapStyled(st.Muted, strings.Join(facts, " · "), w)...)
	if r.truncated {
		out = append(out, wrapStyled(st.Warn, fmt.Sprintf("the frame is %s: the first %s are shown", size(r.size), size(contract.MaxTrafficFrame)), w)...)
	}
	out = append(out, st.Muted.Render("as sent:"))
	raw := string(r.frame)
	if r.truncated {
		var cut string
		if json.Unmarshal(r.frame, &cut) == nil {
			raw = cut
		}
	}
	out = append(out, wrapAll(cleanLines(raw), w)...)
	if !r.truncated && json.Valid(r.frame) {
		out = append(out, st.Muted.Render("indented:"))
		out = append(out, wrapAll(prettyJSON(r.frame), w)...)
	}
	return out
}

// wrapStyled word-wraps text to w and styles each line.
func wrapStyled(style lipgloss.Style, text string, w int) []string {
	ls := wrap(text, w)
	for i, l := range ls {
		ls[i] = style.Render(l)
	}
	return ls
}
