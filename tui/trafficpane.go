package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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
	return rows{dropped: s.traffic.Dropped(), total: s.traffic.Len(), line: s.trafficLine,
		text: func(ri int) string {
			r := s.traffic.At(ri)
			return r.dir + " " + r.kind + " " + r.method + " " + r.id + " " + string(r.frame)
		},
		detail: s.trafficDetail,
		title: func(ri int) string {
			r := s.traffic.At(ri)
			return "Traffic · " + r.dir + " " + r.kind + " " + clean(r.method)
		},
	}
}

func (p *trafficPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	return p.rows.update(p.s.keys, p.src(), msg, nil)
}

func (p *trafficPane) View(w, h int, focused bool) paneView {
	lines, sc, footer := p.rows.render(p.s.styles, w, h, p.src(), focused)
	return paneView{title: fmt.Sprintf("Traffic %d · JSON-RPC", p.s.traffic.Len()), lines: lines, sc: sc, footer: footer}
}

var dirLabels = map[string]string{
	contract.HostToGenui: "host→", contract.GenuiToHost: "→host", contract.GenuiToUpstream: "→up", contract.UpstreamToGenui: "up→",
}

func (s *shared) trafficLine(i, w int) string {
	st, r := s.styles, s.traffic.At(i)
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

func (s *shared) trafficDetail(i, w int) []string {
	r := s.traffic.At(i)
	head := s.styles.Key.Render(r.dir+" "+r.kind+" "+clean(r.method)) + s.styles.Muted.Render(fmt.Sprintf("  %s  %s", size(r.size), r.time.Format(time.RFC3339Nano)))
	if r.truncated {
		head += s.styles.Warn.Render(fmt.Sprintf("  (first %s shown)", size(contract.MaxTrafficFrame)))
	}
	return append([]string{head}, wrapAll(prettyJSON(r.frame), w)...)
}
