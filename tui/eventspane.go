package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine"
)

var eventsPaneSpec = paneSpec{id: paneEvents, name: "Events", short: "Evts",
	about: "the /wait queue (⧗ pending for agents, ✓ taken) and engine events", new: newEventsPane}

// eventsPane lists the /wait queue's events and the engine's events as
// they arrive; enter opens the selected one.
type eventsPane struct {
	s    *shared
	rows rowList
}

func newEventsPane(s *shared) pane {
	return &eventsPane{s: s, rows: rowList{follow: true, followable: true}}
}

func (p *eventsPane) Keys() []key.Binding { return nil }

func (p *eventsPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	return rowKeys(p.s.keys, &p.rows, p.s.events.Len(), msg, nil)
}

func (p *eventsPane) View(w, h int, focused bool) paneView {
	lines, sc := p.rows.render(p.s.styles, w, h, p.s.events.Len(), focused, p.s.eventLine, p.s.eventDetail)
	return paneView{title: fmt.Sprintf("Events %d · /wait queue and engine", p.s.events.Len()), lines: lines, sc: sc}
}

// rowKeys is how a pane of rows takes the keys and pane messages: up/down,
// PgUp/PgDn, home/end move the cursor, enter opens the selected row (or
// runs enter when given), esc closes it; the wheel and clicks.
func rowKeys(k KeyMap, r *rowList, n int, msg tea.Msg, enter func(i int) tea.Cmd) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case scrollMsg:
		r.scroll(msg, n)
		return nil, true
	case clickMsg:
		r.click(msg.row, n)
		return nil, true
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			r.move(-1, n)
		case key.Matches(msg, k.Down):
			r.move(1, n)
		case key.Matches(msg, k.PageUp):
			r.scroll(scrollMsg{lines: -1, page: true}, n)
		case key.Matches(msg, k.PageDown):
			r.scroll(scrollMsg{lines: 1, page: true}, n)
		case key.Matches(msg, k.Top):
			r.move(-1<<30, n)
		case key.Matches(msg, k.Bottom):
			r.move(1<<30, n)
		case key.Matches(msg, k.Enter):
			if enter != nil {
				return enter(r.cursor), true
			}
			r.open = !r.open
		case key.Matches(msg, k.Back) && r.open:
			r.open = false
		default:
			return nil, false
		}
		return nil, true
	}
	return nil, false
}

func (s *shared) eventLine(i, w int) string {
	st, r := s.styles, s.events.At(i)
	mark, ks := "  ", st.Muted
	switch {
	case r.kind == "queued" && r.taken:
		mark, ks = st.Muted.Render("✓ "), st.Muted
	case r.kind == "queued":
		mark, ks = st.Accent.Render("⧗ "), st.Accent
	case r.kind == string(engine.EventGenerationFailed) || r.kind == string(engine.EventUpstreamDown) || r.kind == string(engine.EventLagged):
		ks = st.Err
	case r.kind == string(engine.EventUIUpdated) || r.kind == string(engine.EventGenerationFinished) || r.kind == string(engine.EventUpstreamUp):
		ks = st.OK
	case r.kind == string(engine.EventGenerationStarted):
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
	case string(engine.EventGenerationStarted):
		return "gen-started"
	case string(engine.EventGenerationFinished):
		return "gen-finished"
	case string(engine.EventGenerationFailed):
		return "gen-failed"
	case string(engine.EventSessionsChanged):
		return "sessions"
	}
	return k
}

func (s *shared) eventDetail(i, w int) []string {
	r := s.events.At(i)
	out := []string{s.styles.Key.Render(shortEventKind(r.kind)) + " " + s.styles.Muted.Render(r.time.Format(time.RFC3339))}
	if r.kind == "queued" {
		if r.taken {
			out = append(out, s.styles.Muted.Render("✓ taken by an agent through /wait"))
		} else {
			out = append(out, s.styles.Accent.Render("⧗ pending: the agent's next /wait returns it"))
		}
	}
	return append(out, wrapAll(prettyJSON(r.detail), w)...)
}
