package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

var varsPaneSpec = paneSpec{id: paneVars, name: "Variables", short: "Vars",
	about: "the engine's state as a tree (what /variables serves); enter expands", new: newVarsPane}

// varsPane is the engine's state as a tree of variables, refreshed while
// it is shown; enter expands or collapses a node.
type varsPane struct {
	s     *shared
	rows  rowList
	shown bool
}

func newVarsPane(s *shared) pane { return &varsPane{s: s, rows: rowList{find: newFinder(s.styles)}} }

func (p *varsPane) capturing() bool { return p.rows.capturing() }

func (p *varsPane) Keys() []key.Binding { return p.rows.keys(p.s.keys) }

// src is the Variables pane's rows (the tree as shown: a search finds what
// is expanded).
func (p *varsPane) src() rows {
	s := p.s
	return rows{total: s.vars.rows(), key: fmt.Sprint(s.vars.version), line: s.varLine,
		text: func(ri int) string { return ansi.Strip(s.varLine(ri, 1<<20)) }}
}

func (p *varsPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg.(type) {
	case paneShownMsg:
		p.shown = true
		return p.s.fetchVars(), false
	case paneHiddenMsg:
		p.shown = false
	case pollMsg:
		if p.shown {
			return p.s.fetchVars(), false
		}
	}
	return p.rows.update(p.s.keys, p.src(), msg, func(ri int) tea.Cmd {
		p.s.vars.toggle(ri)
		return nil
	})
}

func (p *varsPane) View(w, h int, focused bool) paneView {
	lines, sc, footer := p.rows.render(p.s.styles, w, h, p.src(), focused)
	return paneView{title: fmt.Sprintf("Variables %d", len(p.s.vars.vars.Variables)), lines: lines, sc: sc, footer: footer}
}

func (s *shared) varLine(i, w int) string {
	st, t := s.styles, s.vars
	n := t.vars.Variables[t.visible[i]]
	pad := strings.Repeat("  ", max(t.depth[i], 0))
	name := st.Text.Render(clean(n.Name))
	switch n.Type {
	case "object", "array":
		mark := "▸ "
		if t.expanded[n.Path] {
			mark = "▾ "
		}
		open, close := "{", "}"
		if n.Type == "array" {
			open, close = "[", "]"
		}
		if item := t.itemName(t.visible[i]); item != "" {
			name = st.Text.Render(clean(item)) + " " + st.Muted.Render(clean(n.Name))
		}
		return pad + st.Accent.Render(mark) + name + st.Muted.Render(fmt.Sprintf(" %s%d%s", open, n.Size, close))
	}
	b, _ := json.Marshal(n.Value)
	vs := st.Text
	switch n.Type {
	case "string":
		vs = st.OK
	case "number":
		vs = st.Info
	case "boolean", "null":
		vs = st.Accent
	}
	return pad + "  " + name + st.Muted.Render(": ") + vs.Render(clean(string(b)))
}
