package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

var logPaneSpec = paneSpec{id: paneLog, name: "Log", short: "Log",
	about: "genui's log and the upstream's stderr", new: newLogPane}

// logPane lists genui's log lines and the upstream's stderr as they
// arrive: f filters by level, w wraps long lines, / searches, enter opens a
// line with all its attributes.
type logPane struct {
	s     *shared
	rows  rowList
	level int    // index into logLevels: the lowest level shown
	shown absSet // the rows the level filter keeps
	// upstream is the level the upstream was last asked to log at (L;
	// "" when never asked), asking the one being asked for.
	upstream, asking string
}

// logLevels are the level filter's steps.
var logLevels = []string{"", "INFO", "WARN", "ERROR"}

func levelRank(l string) int {
	switch l {
	case "DEBUG":
		return 0
	case "INFO":
		return 1
	case "WARN":
		return 2
	case "ERROR":
		return 3
	}
	return 1
}

func newLogPane(s *shared) pane {
	return &logPane{s: s, rows: rowList{follow: true, followable: true, canWrap: true, find: newFinder(s.styles)}}
}

func (p *logPane) capturing() bool { return p.rows.capturing() }

func (p *logPane) Keys() []key.Binding {
	return append(p.rows.keys(p.s.keys), p.s.keys.Level, p.s.keys.UpstreamLevel)
}

// src is the Log pane's rows, filtered by level.
func (p *logPane) src() rows {
	s := p.s
	r := rows{dropped: s.logs.Dropped(), total: s.logs.Len(), key: logLevels[p.level], line: s.logLine,
		text: func(ri int) string {
			r := s.logs.At(ri)
			return r.level + " " + r.component + " " + r.msg + " " + r.attrs()
		},
		detail: s.logDetail,
		title:  func(ri int) string { return "Log · " + s.logs.At(ri).time.Format("15:04:05.000") },
	}
	if p.level > 0 {
		lowest := p.level
		p.shown.sync(logLevels[p.level], r.dropped, r.total, func(ri int) bool { return levelRank(s.logs.At(ri).level) >= lowest })
		r.shown = &p.shown
	}
	return r
}

func (p *logPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok && !p.rows.capturing() && key.Matches(k, p.s.keys.Level) {
		p.level = (p.level + 1) % len(logLevels)
		p.rows.follow, p.rows.open = true, false
		return nil, true
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && !p.rows.capturing() && key.Matches(k, p.s.keys.UpstreamLevel) {
		p.asking = nextUpstreamLevel(p.upstream)
		return p.s.doSetUpstreamLevel(p.asking), true
	}
	if m, ok := msg.(upstreamLevelMsg); ok {
		return p.upstreamLevelSet(m), false
	}
	return p.rows.update(p.s.keys, p.src(), msg, nil)
}

func (p *logPane) View(w, h int, focused bool) paneView {
	src := p.src()
	lines, sc, footer := p.rows.render(p.s.styles, w, h, src, focused)
	title := fmt.Sprintf("Log %d · genui and upstream stderr", p.s.logs.Len())
	if p.level > 0 {
		title = fmt.Sprintf("Log %d of %d · %s and above", src.n(), p.s.logs.Len(), logLevels[p.level])
	}
	if p.upstream != "" {
		title += " · upstream logs " + p.upstream + "+"
	}
	if p.rows.wrap {
		title += " · wrapped"
	}
	return paneView{title: title, lines: lines, sc: sc, footer: footer}
}

// logDetail is a log line whole: time, level, component, the message and
// each attribute on its own lines.
func (s *shared) logDetail(ri, w int) []string {
	st, r := s.styles, s.logs.At(ri)
	out := []string{st.Key.Render(r.level+" "+orDash(r.component)) + " " + st.Muted.Render(r.time.Format(time.RFC3339Nano))}
	out = append(out, wrap(r.msg, w)...)
	for _, a := range r.attrList {
		for i, l := range wrap(a[0]+"="+a[1], w) {
			if i == 0 {
				l = st.Label.Render(a[0]+"=") + st.Text.Render(strings.TrimPrefix(l, a[0]+"="))
			}
			out = append(out, l)
		}
	}
	return out
}

func (s *shared) logLine(i, w int) string {
	st, r := s.styles, s.logs.At(i)
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
		st.Accent.Render(fmt.Sprintf("%-8s", comp)) + " " + st.Text.Render(r.msg) + " " + st.Muted.Render(r.attrs())
}
