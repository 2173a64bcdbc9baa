package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/genui-dev/genui/engine/contract"
)

var uiPaneSpec = paneSpec{id: paneUI, name: "UI", short: "UI",
	about: "the served HTML, highlighted, or what the last change did", new: newUIPane}

// uiPane is the selected tool's UI: the HTML as served, highlighted, or
// after a refine or regenerate what changed (the refinement as understood
// and a diff); d switches between the two.
type uiPane struct {
	s     *shared
	text  textView
	shown bool
}

func newUIPane(s *shared) pane { return &uiPane{s: s, text: textView{find: newFinder(s.styles)}} }

func (p *uiPane) capturing() bool { return p.text.capturing() }

func (p *uiPane) Keys() []key.Binding {
	return append([]key.Binding{p.s.keys.ToggleDiff}, p.text.keys(p.s.keys)...)
}

func (p *uiPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case toolSelectedMsg:
		p.text.offset, p.text.xoff = 0, 0
		if p.shown {
			return p.s.ensureUI(msg.tool), false
		}
	case paneShownMsg:
		p.shown = true
		return p.s.ensureUI(p.s.selected()), false
	case paneHiddenMsg:
		p.shown = false
	case uiResetMsg:
		p.text.offset, p.text.xoff = 0, 0
	}
	return p.text.update(p.s.keys, msg)
}

// uiResetMsg: the UI pane starts again at the top (a new change to show).
type uiResetMsg struct{}

func (p *uiPane) View(w, h int, focused bool) paneView {
	s := p.s
	tool := s.selected()
	title := "UI"
	if tool != "" {
		title = tool + " · " + title
		if t := s.peek(tool); t != nil && t.change != nil && t.showDiff {
			title += " · what changed"
		}
	}
	lines, sc, footer := p.text.render(s.styles, s.uiLines(tool, w), w, h)
	return paneView{title: title + p.text.sideNote(), lines: lines, sc: sc, footer: footer}
}

// ensureUI fetches a tool's UI for the UI pane when one is cached (it never
// generates one by itself: that is g).
func (s *shared) ensureUI(tool string) tea.Cmd {
	if tool == "" || s.busy(tool) != "" {
		return nil
	}
	if t := s.peek(tool); t != nil && t.doc != nil {
		return nil
	}
	ts, ok := s.list.selectedTool()
	if !ok || ts.Name != tool {
		return nil
	}
	switch ts.UI.State {
	case contract.UIStateCached, contract.UIStateFallback, contract.UIStateOwn:
		s.setBusy(tool, "loading")
		return tea.Batch(s.fetchUI(tool, false), s.spinTick())
	}
	return nil
}

func (s *shared) uiLines(tool string, w int) []string {
	st := s.styles
	if tool == "" {
		return []string{st.Muted.Render(" select a tool on the left")}
	}
	t := s.peek(tool)
	if t == nil {
		t = &toolState{}
	}
	doc, cv := t.doc, t.change
	if cv != nil && t.showDiff {
		return s.changeLines(tool, cv, w)
	}
	if doc == nil {
		if b := t.busy; b != "" {
			return []string{st.Accent.Render(" " + s.spinner() + " " + b + " the UI of " + tool + "…")}
		}
		return []string{st.Muted.Render(" No UI loaded. g generates (or fetches) it; r refines, R regenerates.")}
	}
	v := doc.view
	from := "generated now"
	if v.FromCache {
		from = "from the cache"
	}
	if v.OwnUI {
		from = "the upstream's own UI"
	}
	head := []string{st.Info.Render(clean(v.URI)) + "  " + st.Muted.Render(v.MIMEType)}
	head = append(head, wrapStyled(st.Muted, fmt.Sprintf("%s · %s · %s · key %s", orDash(v.Meta.UIType), size(len(v.HTML)), from, orDash(shortKey(v.CacheKey))), w-1)...)
	if v.Packed {
		head = append(head, wrapStyled(st.Warn, "Shown unpacked, to read. Served packed: its renderers, styles and App shim travel as one deflated block that the page expands (e exports the page as served).", w-1)...)
	}
	if cv != nil {
		head = append(head, st.Muted.Render("d shows what the last "+cv.ch.Reason+" changed"))
	}
	head = append(head, s.specLines(v.Meta, w)...)
	head = append(head, st.Faint.Render(strings.Repeat("─", max(w-1, 1))))
	return append(head, doc.lines...)
}

// specLines show the view specification the page draws and what became
// of each refinement (nothing for a page a model wrote whole).
func (s *shared) specLines(m contract.UIMeta, w int) []string {
	st := s.styles
	var out []string
	for _, o := range m.Outcomes {
		out = append(out, indent(wrapStyled(outcomeStyle(st, o.Status), outcomeMark(o.Status)+" “"+o.Refinement+"” "+o.String(), w-3), "  ")...)
	}
	if len(m.Spec) == 0 {
		return out
	}
	var b bytes.Buffer
	if json.Indent(&b, m.Spec, "  ", "  ") != nil {
		return out
	}
	out = append(out, st.Key.Render("View spec")+st.Muted.Render(" (what the page draws; genui spec schema documents it)"))
	for _, l := range strings.Split("  "+b.String(), "\n") {
		out = append(out, wrapStyled(st.Muted, l, w-1)...)
	}
	return out
}

// outcomeMark is a refinement outcome's sign: applied, partly, not applied.
func outcomeMark(status string) string {
	switch status {
	case contract.RefinementApplied:
		return "✓"
	case contract.RefinementPartlyApplied:
		return "▲"
	}
	return "✗"
}

func outcomeStyle(st Styles, status string) lipgloss.Style {
	switch status {
	case contract.RefinementApplied:
		return st.OK
	case contract.RefinementPartlyApplied:
		return st.Warn
	}
	return st.Err
}

// shortKey is a cache key's start (the Detail pane has it whole).
func shortKey(k string) string {
	if len(k) > 16 {
		return k[:16] + "…"
	}
	return k
}

// changeLines shows a refine or regenerate: the feedback as understood and
// the diff.
func (s *shared) changeLines(tool string, cv *changeView, w int) []string {
	st, ch := s.styles, cv.ch
	var out []string
	switch ch.Reason {
	case "refine":
		out = append(out, wrapStyled(st.Key, fmt.Sprintf("Refinement %d “%s”", ch.Refinements, ch.Feedback), w-1)...)
	case "drop":
		out = append(out, wrapStyled(st.Key, fmt.Sprintf("Dropped “%s”: %d refinement(s) apply", ch.Feedback, ch.Refinements), w-1)...)
	default:
		what := "Regenerated"
		if ch.RefinementsCleared {
			what += ", refinements cleared"
		}
		out = append(out, st.Key.Render(what)+st.Muted.Render(fmt.Sprintf(" (%d refinement(s) apply)", ch.Refinements)))
	}
	if o := ch.Outcome; o != nil {
		out = append(out, indent(wrapStyled(outcomeStyle(st, o.Status), outcomeMark(o.Status)+" "+o.String(), w-3), "  ")...)
	} else if len(ch.Notes) == 0 {
		out = append(out, "  "+st.OK.Render("✓ understood"))
	}
	for _, n := range ch.Notes {
		out = append(out, indent(wrapStyled(st.Warn, "▲ "+n, w-3), "  ")...)
	}
	out = append(out, indent(wrapStyled(st.Muted, fmt.Sprintf("%s · %s → %s · %s", orDash(ch.Meta.UIType), orDash(shortKey(ch.OldCacheKey)),
		shortKey(ch.CacheKey), fmtDur(ch.Duration)), w-3), "  ")...)
	switch {
	case ch.OldHTML == "":
		out = append(out, "  "+st.Muted.Render("no UI was cached before: this is the first one"))
		out = append(out, st.Faint.Render(strings.Repeat("─", max(w-1, 1))))
		if t := s.peek(tool); t != nil && t.doc != nil {
			out = append(out, t.doc.lines...)
		}
		return out
	case len(cv.diff) == 0:
		out = append(out, "  "+st.Muted.Render("the HTML did not change"))
	default:
		out = append(out, "  "+st.Added.Render(fmt.Sprintf("+%d", cv.added))+" "+st.Removed.Render(fmt.Sprintf("−%d", cv.gone))+
			st.Muted.Render(" lines · d shows the HTML"))
	}
	out = append(out, st.Faint.Render(strings.Repeat("─", max(w-1, 1))))
	for i, d := range cv.diff {
		switch d.op {
		case '@':
			out = append(out, st.Hunk.Render(d.text))
		case '+':
			out = append(out, diffText(st.Added, st.AddedWord, '+', d, pairShift(cv.diff, i, w)))
		case '-':
			out = append(out, diffText(st.Removed, st.RemovedWord, '-', d, pairShift(cv.diff, i, w)))
		default:
			out = append(out, st.Muted.Render(" "+d.text))
		}
	}
	return out
}

// diffText draws a changed line with the words that changed marked; shift
// columns are left out (with an ellipsis) so the change is in view.
func diffText(line, word lipgloss.Style, op byte, d diffLine, shift int) string {
	text := line.Render(string(op)+d.text[:d.from]) + word.Render(d.text[d.from:d.to]) + line.Render(d.text[d.to:])
	if d.from == d.to && d.from == 0 {
		text = line.Render(string(op) + d.text)
	}
	if shift > 0 {
		text = line.Render(string(op)) + ansi.TruncateLeft(text, shift+1, "…")
	}
	return text
}

// pairShift is how far a paired line is shifted so its first changed word
// shows in a pane w wide: 0 when it already does. Both lines of a pair
// shift alike.
func pairShift(d []diffLine, i, w int) int {
	first := ansi.StringWidth(d[i].text[:d[i].from])
	if d[i].from == d[i].to && d[i].from == 0 {
		return 0
	}
	if first < w-12 {
		return 0
	}
	return first - w/3
}
