package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

var eventsPaneSpec = paneSpec{id: paneEvents, name: "Events", short: "Evts",
	about: "the /wait queue (⧗ pending for agents, ✓ taken) and engine events", new: newEventsPane}

// eventsPane lists the /wait queue's events and the engine's events as
// they arrive, in time order; enter opens the selected one.
type eventsPane struct {
	s    *shared
	rows rowList
}

func newEventsPane(s *shared) pane {
	return &eventsPane{s: s, rows: rowList{follow: true, followable: true, find: newFinder(s.styles)}}
}

func (p *eventsPane) capturing() bool { return p.rows.capturing() }

func (p *eventsPane) Keys() []key.Binding { return p.rows.keys(p.s.keys) }

// src is the Events pane's rows.
func (p *eventsPane) src(kindW int) rows {
	s := p.s
	return rows{dropped: s.events.Dropped(), total: s.events.Len(), key: fmt.Sprint(s.eventsReordered),
		line: func(ri, w int) string { return s.eventLine(ri, w, kindW) },
		text: func(ri int) string {
			r := s.events.At(ri)
			return r.kind + " " + r.tool + " " + r.text + " " + string(r.detail)
		},
		detail: s.eventDetail,
		title:  func(ri int) string { r := s.events.At(ri); return "Event · " + clean(r.kind) + " " + clean(r.tool) },
	}
}

func (p *eventsPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	return p.rows.update(p.s.keys, p.src(12), msg, nil)
}

func (p *eventsPane) View(w, h int, focused bool) paneView {
	kindW := p.s.eventKindWidth(p.rows.offset, p.rows.offset+h)
	lines, sc, footer := p.rows.render(p.s.styles, w, h, p.src(kindW), focused)
	return paneView{title: fmt.Sprintf("Events %d · /wait queue and engine", p.s.events.Len()), lines: lines, sc: sc, footer: footer}
}

// eventKindWidth is the kind column's width: the longest kind among the
// rows shown (enter opens a row in full).
func (s *shared) eventKindWidth(from, to int) int {
	w := 6
	for i := from; i < to && i < s.events.Len(); i++ {
		w = max(w, len([]rune(shortEventKind(s.events.At(i).kind))))
	}
	return min(w, 24)
}

func (s *shared) eventLine(i, w, kindW int) string {
	st, r := s.styles, s.events.At(i)
	mark, ks := "  ", st.Muted
	switch {
	case r.queueOnly:
		ks = st.Accent
	case r.kind == string(contract.EventGenerationFailed) || r.kind == string(contract.EventUpstreamDown) || r.kind == string(contract.EventLagged) ||
		r.kind == string(contract.EventSecurity):
		ks = st.Err
	case r.kind == string(contract.EventUIUpdated) || r.kind == string(contract.EventGenerationFinished) || r.kind == string(contract.EventUpstreamUp):
		ks = st.OK
	case r.kind == string(contract.EventGenerationStarted):
		ks = st.Info
	}
	switch {
	case r.qseq != 0 && r.taken:
		mark = st.Muted.Render("✓ ")
		if r.queueOnly {
			ks = st.Muted
		}
	case r.qseq != 0:
		mark = st.Accent.Render("⧗ ")
	}
	ts := ""
	if w >= 60 { // narrow panes drop the time (enter shows it)
		ts = st.Muted.Render(r.time.Format("15:04:05")) + " "
	}
	return ts + mark + ks.Render(fit(shortEventKind(r.kind), kindW)) + " " +
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
	case string(contract.EventGenerationProgress):
		return "gen-progress"
	case string(contract.EventSessionsChanged):
		return "sessions"
	}
	return k
}

func (s *shared) eventDetail(i, w int) []string {
	r := s.events.At(i)
	st := s.styles
	out := []string{st.Key.Render(clean(r.kind)) + " " + st.Muted.Render(r.time.Format(time.RFC3339Nano))}
	if r.qseq != 0 {
		note, ns := fmt.Sprintf("⧗ queued for agents (/wait seq %d): the agent's next /wait returns it", r.qseq), st.Accent
		if r.taken {
			note, ns = fmt.Sprintf("✓ queued for agents (/wait seq %d) and taken by an agent", r.qseq), st.Muted
		}
		for _, l := range wrap(note, w) {
			out = append(out, ns.Render(l))
		}
	}
	for _, l := range r.readable {
		out = append(out, wrapAll([]string{clean(l)}, w)...)
	}
	out = append(out, wrapAll(prettyJSON(r.detail), w)...)
	if len(r.queued) > 0 {
		out = append(out, st.Muted.Render("as queued:"))
		out = append(out, wrapAll(prettyJSON(r.queued), w)...)
	}
	return out
}
