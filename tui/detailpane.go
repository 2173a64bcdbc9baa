package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

var detailPaneSpec = paneSpec{id: paneDetail, name: "Detail", short: "Det",
	about: "description, schemas, UI metadata, refinement history", new: newDetailPane}

// detailPane is the selected tool: description, UI state and metadata,
// refinement history, schemas and annotations.
type detailPane struct {
	s    *shared
	text textView
}

func newDetailPane(s *shared) pane {
	return &detailPane{s: s, text: textView{find: newFinder(s.styles)}}
}

func (p *detailPane) capturing() bool { return p.text.capturing() }

func (p *detailPane) Keys() []key.Binding { return p.text.keys(p.s.keys) }

func (p *detailPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg.(type) {
	case toolSelectedMsg:
		p.text.offset, p.text.xoff = 0, 0
	case paneShownMsg:
		tool := p.s.selected()
		if t := p.s.peek(tool); t == nil || !t.hasInspect {
			return p.s.fetchInspect(tool), false
		}
	}
	return p.text.update(p.s.keys, msg)
}

func (p *detailPane) View(w, h int, focused bool) paneView {
	tool := p.s.selected()
	title := "Detail"
	if tool != "" {
		title = tool + " · " + title
	}
	lines, sc, footer := p.text.render(p.s.styles, p.s.detailLines(tool, w), w, h)
	return paneView{title: title + p.text.sideNote(), lines: lines, sc: sc, footer: footer}
}

// section is a heading line.
func (s *shared) section(text string) string { return s.styles.Key.Render(text) }

// kv is a "label value" line, the value wrapped under itself when long.
func (s *shared) kv(label, value string, w int) []string {
	pad := "  " + fmt.Sprintf("%-13s", "") + " "
	var out []string
	for i, l := range wrap(value, max(w-len(pad)-1, 8)) {
		head := pad
		if i == 0 {
			head = "  " + s.styles.Label.Render(fmt.Sprintf("%-13s", label)) + " "
		}
		out = append(out, head+s.styles.Text.Render(l))
	}
	return out
}

func (s *shared) detailLines(tool string, w int) []string {
	st := s.styles
	if tool == "" {
		return []string{st.Muted.Render(" select a tool on the left")}
	}
	var info contract.ToolInfo
	var in contract.Inspection
	haveInfo, haveIn := false, false
	if t := s.peek(tool); t != nil {
		info, haveInfo = t.info, t.hasInfo
		in, haveIn = t.inspect, t.hasInspect
	}
	if !haveInfo && haveIn {
		info, haveInfo = in.Tool, true
	}
	ts, _ := s.list.selectedTool()
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
	out = append(out, "", s.section("UI"))
	out = append(out, s.kv("state", ts.UI.Summary(), w)...)
	out = append(out, s.kv("resource", ts.ResourceURI, w)...)
	out = append(out, s.kv("visibility", vis, w)...)
	if haveIn {
		out = append(out, s.kv("cache key", orDash(in.CacheKey), w)...)
		if in.Meta != nil {
			md := in.Meta
			gen := orDash(md.Provider)
			if md.Model != "" {
				gen += " · " + md.Model
			}
			out = append(out, s.kv("generator", gen, w)...)
			out = append(out, s.kv("kind", orDash(md.UIType), w)...)
			out = append(out, s.kv("generated at", md.GeneratedAt.Local().Format("2006-01-02 15:04:05"), w)...)
			out = append(out, s.kv("duration", fmtDur(md.Duration), w)...)
			if md.InputTokens+md.OutputTokens > 0 {
				out = append(out, s.kv("tokens", fmt.Sprintf("%d in, %d out", md.InputTokens, md.OutputTokens), w)...)
			}
			if md.FallbackReason != "" {
				out = append(out, indent(wrapStyled(st.Warn, "fallback: "+md.FallbackReason, w-3), "  ")...)
			}
			for _, wn := range md.Warnings {
				out = append(out, indent(wrapStyled(st.Warn, "▲ "+wn, w-3), "  ")...)
			}
			for _, c := range md.Chain {
				mark := "✓ "
				ms := st.OK
				if !c.OK {
					mark, ms = "✗ ", st.Err
				}
				for i, l := range wrap(c.Stage+" "+c.Reason, w-5) {
					if i == 0 {
						out = append(out, "  "+ms.Render(mark)+st.Text.Render(l))
					} else {
						out = append(out, "    "+st.Muted.Render(l))
					}
				}
			}
		} else {
			out = append(out, "  "+st.Muted.Render("nothing cached yet: g generates it"))
		}
		if g := in.Generation; g != nil {
			line := fmt.Sprintf("LLM %s · %s · %d bytes · %dms", g.State, g.Provider, g.Bytes, g.ElapsedMS)
			if g.Error != nil {
				line += " · " + g.Error.Error()
			}
			out = append(out, s.kv("generation", line, w)...)
		}
		out = append(out, "", s.section(fmt.Sprintf("Refinements (%d)", len(in.History))))
		if len(in.History) == 0 {
			out = append(out, "  "+st.Muted.Render("none: r refines the UI"))
		}
		for i, r := range in.History {
			num := fmt.Sprintf("%d. ", i+1)
			for j, l := range wrap(r.Time.Local().Format("01-02 15:04")+" "+orDash(r.Source)+" “"+r.Feedback+"”", w-3-len(num)) {
				if j == 0 {
					out = append(out, "  "+st.Muted.Render(num)+st.Text.Render(l))
				} else {
					out = append(out, "  "+strings.Repeat(" ", len(num))+st.Text.Render(l))
				}
			}
		}
		if len(in.History) > 0 {
			out = append(out, "  "+st.Muted.Render("x drops the last · D drops any one (the UI is regenerated from the rest)"))
		}
	}
	if haveInfo {
		out = append(out, "", s.section("Input schema"))
		out = append(out, indent(wrapAll(prettyJSON(info.InputSchema), w-3), "  ")...)
		if len(info.OutputSchema) > 0 {
			out = append(out, "", s.section("Output schema"))
			out = append(out, indent(wrapAll(prettyJSON(info.OutputSchema), w-3), "  ")...)
		}
		if len(info.Annotations) > 0 {
			out = append(out, "", s.section("Annotations"))
			out = append(out, indent(wrapAll(prettyJSON(info.Annotations), w-3), "  ")...)
		}
	}
	return out
}

func indent(lines []string, p string) []string {
	for i, l := range lines {
		lines[i] = p + l
	}
	return lines
}
