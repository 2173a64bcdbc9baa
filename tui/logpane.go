package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

var logPaneSpec = paneSpec{id: paneLog, name: "Log", short: "Log",
	about: "genui's log and the upstream's stderr", new: newLogPane}

// logPane lists genui's log lines and the upstream's stderr as they arrive.
type logPane struct {
	s    *shared
	rows rowList
}

func newLogPane(s *shared) pane { return &logPane{s: s, rows: rowList{follow: true, followable: true}} }

func (p *logPane) Keys() []key.Binding { return nil }

func (p *logPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	return rowKeys(p.s.keys, &p.rows, p.s.logs.Len(), msg, func(int) tea.Cmd { return nil })
}

func (p *logPane) View(w, h int, focused bool) paneView {
	lines, sc := p.rows.render(p.s.styles, w, h, p.s.logs.Len(), focused, p.s.logLine, nil)
	return paneView{title: fmt.Sprintf("Log %d · genui and upstream stderr", p.s.logs.Len()), lines: lines, sc: sc}
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
		st.Accent.Render(fmt.Sprintf("%-8s", comp)) + " " + st.Text.Render(r.msg) + " " + st.Muted.Render(r.attrs)
}
