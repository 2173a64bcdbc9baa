package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"github.com/genui-dev/genui/engine/contract"
)

// textLines is the content of the Detail, UI and Call panes at width w.
func (m *Model) textLines(tab, w int) []string {
	tool := m.selected()
	if tool == "" {
		return []string{m.styles.Muted.Render(" select a tool on the left")}
	}
	switch tab {
	case tabDetail:
		return m.detailLines(tool, w)
	case tabUI:
		return m.uiLines(tool, w)
	case tabCall:
		return m.callLines(tool, w)
	}
	return nil
}

// section is a heading line.
func (m *Model) section(s string) string { return m.styles.Key.Render(s) }

// kv is one "label value" line.
func (m *Model) kv(label, value string) string {
	return "  " + m.styles.Label.Render(fmt.Sprintf("%-13s", label)) + " " + m.styles.Text.Render(clean(value))
}

func (m *Model) detailLines(tool string, w int) []string {
	st := m.styles
	info, haveInfo := m.infos[tool]
	in, haveIn := m.inspect[tool]
	if !haveInfo && haveIn {
		info, haveInfo = in.Tool, true
	}
	ts, _ := m.list.selectedTool()
	var out []string
	title := tool
	if haveInfo && info.Title != "" && info.Title != tool {
		title += " — " + info.Title
	}
	out = append(out, st.Title.Render(clean(title)))
	if haveInfo && info.Description != "" {
		out = append(out, wrap(info.Description, w-1)...)
	} else if !haveInfo {
		out = append(out, st.Muted.Render("loading…"))
	}
	vis := "model and app (default)"
	if len(ts.Visibility) > 0 {
		vis = strings.Join(ts.Visibility, ", ")
		if ts.AppOnly() {
			vis += "  (app-only: hidden from the model)"
		} else if ts.ModelOnly() {
			vis += "  (model-only: UIs may not call it)"
		}
	}
	out = append(out, "", m.section("UI"))
	out = append(out, m.kv("state", uiStateText(ts.UI)), m.kv("resource", ts.ResourceURI), m.kv("visibility", vis))
	if haveIn {
		out = append(out, m.kv("cache key", orDash(in.CacheKey)))
		if in.Meta != nil {
			md := in.Meta
			gen := orDash(md.Provider)
			if md.Model != "" {
				gen += " · " + md.Model
			}
			out = append(out, m.kv("generator", gen), m.kv("kind", orDash(md.UIType)),
				m.kv("generated at", md.GeneratedAt.Local().Format("2006-01-02 15:04:05")),
				m.kv("duration", fmtDur(md.Duration)))
			if md.InputTokens+md.OutputTokens > 0 {
				out = append(out, m.kv("tokens", fmt.Sprintf("%d in, %d out", md.InputTokens, md.OutputTokens)))
			}
			if md.FallbackReason != "" {
				out = append(out, "  "+st.Warn.Render("fallback: "+clean(md.FallbackReason)))
			}
			for _, wn := range md.Warnings {
				out = append(out, "  "+st.Warn.Render("▲ "+clean(wn)))
			}
			for _, c := range md.Chain {
				mark := st.OK.Render("✓")
				if !c.OK {
					mark = st.Err.Render("✗")
				}
				out = append(out, "  "+mark+" "+st.Text.Render(c.Stage)+" "+st.Muted.Render(clean(c.Reason)))
			}
		} else {
			out = append(out, "  "+st.Muted.Render("nothing cached yet: g generates it"))
		}
		if g := in.Generation; g != nil {
			line := fmt.Sprintf("LLM %s · %s · %d bytes · %dms", g.State, g.Provider, g.Bytes, g.ElapsedMS)
			if g.Error != nil {
				line += " · " + g.Error.Error()
			}
			out = append(out, m.kv("generation", line))
		}
		out = append(out, "", m.section(fmt.Sprintf("Refinements (%d)", len(in.History))))
		if len(in.History) == 0 {
			out = append(out, "  "+st.Muted.Render("none: r refines the UI"))
		}
		for i, r := range in.History {
			out = append(out, fmt.Sprintf("  %s %s %s", st.Muted.Render(fmt.Sprintf("%d.", i+1)),
				st.Muted.Render(r.Time.Local().Format("01-02 15:04")+" "+orDash(r.Source)), st.Text.Render("“"+clean(r.Feedback)+"”")))
		}
	}
	if haveInfo {
		out = append(out, "", m.section("Input schema"))
		out = append(out, indent(wrapAll(prettyJSON(info.InputSchema), w-3), "  ")...)
		if len(info.OutputSchema) > 0 {
			out = append(out, "", m.section("Output schema"))
			out = append(out, indent(wrapAll(prettyJSON(info.OutputSchema), w-3), "  ")...)
		}
		if len(info.Annotations) > 0 {
			out = append(out, "", m.section("Annotations"))
			out = append(out, indent(wrapAll(prettyJSON(info.Annotations), w-3), "  ")...)
		}
	}
	return out
}

func uiStateText(u contract.UIStatus) string {
	s := u.State
	if u.Kind != "" {
		s += " · " + u.Kind
	}
	if u.Generator != "" {
		s += " · by " + u.Generator
	}
	if u.FallbackReason != "" {
		s += " · fallback: " + u.FallbackReason
	}
	if u.Generating {
		s += " · generating"
	}
	return s
}

func indent(lines []string, p string) []string {
	for i, l := range lines {
		lines[i] = p + l
	}
	return lines
}

func (m *Model) uiTitle(tool string) string {
	if cv := m.changes[tool]; cv != nil && m.showDiff[tool] {
		return " · what changed"
	}
	return ""
}

func (m *Model) uiLines(tool string, w int) []string {
	st := m.styles
	doc := m.docs[tool]
	cv := m.changes[tool]
	if cv != nil && m.showDiff[tool] {
		return m.changeLines(cv, w)
	}
	if doc == nil {
		if b := m.busy[tool]; b != "" {
			return []string{st.Accent.Render(" " + m.spinner() + " " + b + " the UI of " + tool + "…")}
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
	head := []string{
		st.Info.Render(clean(v.URI)) + "  " + st.Muted.Render(v.MIMEType),
		st.Muted.Render(fmt.Sprintf("%s · %s · %s · key %s", orDash(v.Meta.UIType), size(len(v.HTML)), from, orDash(shortKey(v.CacheKey)))),
	}
	if cv != nil {
		head = append(head, st.Muted.Render("d shows what the last "+cv.ch.Reason+" changed"))
	}
	head = append(head, st.Faint.Render(strings.Repeat("─", max(w-1, 1))))
	out := append(head, doc.lines...)
	return out
}

func shortKey(k string) string {
	if len(k) > 16 {
		return k[:16] + "…"
	}
	return k
}

// changeLines shows a refine or regenerate: the feedback as understood and
// the diff.
func (m *Model) changeLines(cv *changeView, w int) []string {
	st, ch := m.styles, cv.ch
	var out []string
	if ch.Reason == "refine" {
		out = append(out, st.Key.Render(fmt.Sprintf("Refinement %d", ch.Refinements))+" "+st.Text.Render("“"+clean(ch.Feedback)+"”"))
	} else {
		what := "Regenerated"
		if ch.RefinementsCleared {
			what += ", refinements cleared"
		}
		out = append(out, st.Key.Render(what)+st.Muted.Render(fmt.Sprintf(" (%d refinement(s) apply)", ch.Refinements)))
	}
	if len(ch.Notes) == 0 {
		out = append(out, "  "+st.OK.Render("✓ understood"))
	}
	for _, n := range ch.Notes {
		out = append(out, "  "+st.Warn.Render("▲ "+clean(n)))
	}
	out = append(out, st.Muted.Render(fmt.Sprintf("  %s · %s → %s · %s", orDash(ch.Meta.UIType), orDash(shortKey(ch.OldCacheKey)),
		shortKey(ch.CacheKey), fmtDur(ch.Duration))))
	switch {
	case ch.OldHTML == "":
		out = append(out, "  "+st.Muted.Render("no UI was cached before: this is the first one"))
		out = append(out, st.Faint.Render(strings.Repeat("─", max(w-1, 1))))
		if doc := m.docs[ch.Tool]; doc != nil {
			out = append(out, doc.lines...)
		}
		return out
	case len(cv.diff) == 0:
		out = append(out, "  "+st.Muted.Render("the HTML did not change"))
	default:
		out = append(out, "  "+st.Added.Render(fmt.Sprintf("+%d", cv.added))+" "+st.Removed.Render(fmt.Sprintf("−%d", cv.gone))+
			st.Muted.Render(" lines · d shows the HTML"))
	}
	out = append(out, st.Faint.Render(strings.Repeat("─", max(w-1, 1))))
	for _, d := range cv.diff {
		switch d.op {
		case '@':
			out = append(out, st.Hunk.Render(d.text))
		case '+':
			out = append(out, st.Added.Render("+"+d.text))
		case '-':
			out = append(out, st.Removed.Render("-"+d.text))
		default:
			out = append(out, st.Muted.Render(" "+d.text))
		}
	}
	return out
}

// callLines is the Call pane: the form, then the last result.
func (m *Model) callLines(tool string, w int) []string {
	st := m.styles
	f := m.formFor(tool)
	var out []string
	if f == nil {
		return []string{st.Muted.Render(" loading the input schema…")}
	}
	hint := "enter or c: fill in the arguments"
	if m.formActive {
		hint = "enter calls · esc leaves"
	}
	out = append(out, m.section("Arguments")+"  "+st.Muted.Render(hint))
	out = append(out, f.render(st, w-1, m.formActive)...)
	r := m.results[tool]
	if r == nil {
		return out
	}
	out = append(out, "")
	switch {
	case r.running:
		out = append(out, st.Accent.Render(m.spinner()+" calling "+tool+" "+clean(r.args)))
	case r.err != "":
		out = append(out, st.Err.Render("✗ call failed: ")+st.Text.Render(clean(r.err)))
	default:
		head := st.OK.Render("Result")
		if r.res.IsError {
			head = st.Err.Render("Result: isError — the tool reported an error")
		}
		out = append(out, head+st.Muted.Render(fmt.Sprintf("  %s · %s · args %s", fmtDur(r.res.Duration),
			size(len(r.res.Result)), clean(r.args))))
		ls := wrapAll(r.lines, w-3)
		if r.res.IsError {
			for i, l := range ls {
				ls[i] = st.Err.Render(l)
			}
		}
		out = append(out, indent(ls, "  ")...)
	}
	return out
}

// refineLines is the feedback box under the pane.
func (m *Model) refineLines(w int) []string {
	rb := m.refine
	rb.area.SetWidth(max(w-4, 10))
	title := "Refine " + rb.tool + " — enter sends · esc cancels"
	if len(rb.history) > 0 {
		title += fmt.Sprintf(" · ↑ %d earlier", len(rb.history))
	}
	content := strings.Split(rb.area.View(), "\n")
	return box(m.styles, title, true, w, len(content)+2, content)
}

func newRefineArea(st Styles) textarea.Model {
	ta := textarea.New()
	ta.Placeholder = "what should change? e.g. dark theme, call it Forecast, 10 per page"
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.CharLimit = 2000
	ta.SetHeight(3)
	ta.KeyMap.InsertNewline.SetEnabled(false)
	s := textarea.DefaultStyles(st.Dark)
	s.Cursor.Blink = false
	if st.NoColor {
		s = textarea.Styles{}
		s.Cursor.Blink = false
	}
	ta.SetStyles(s)
	return ta
}

func inputStyles(st Styles) textinput.Styles {
	s := textinput.DefaultStyles(st.Dark)
	if st.NoColor {
		s = textinput.Styles{}
	}
	s.Cursor.Blink = false
	return s
}
