package tui

import (
	"encoding/json"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// Resource links in a call result: o in the Call pane opens one (a picker
// when there are several): a resource_link is read (resources/read) into
// the resource viewer; an embedded resource shows as it came (its blob
// saved with s). Enter stays the form's key, as everywhere in the Call
// pane.

// resultLink is one resource a call result points to.
type resultLink struct {
	label    string
	uri      string
	embedded *contract.ResourceContent
}

// resultLinks lists the resource links and embedded resources of a
// CallToolResult, in order.
func resultLinks(raw json.RawMessage) []resultLink {
	var r struct {
		Content []struct {
			Type     string                    `json:"type"`
			URI      string                    `json:"uri"`
			Name     string                    `json:"name"`
			MIMEType string                    `json:"mimeType"`
			Resource *contract.ResourceContent `json:"resource"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return nil
	}
	var out []resultLink
	for i, c := range r.Content {
		switch {
		case c.Type == "resource_link" && c.URI != "":
			label := fmt.Sprintf("content[%d] link %s", i, clean(c.URI))
			if c.Name != "" {
				label += " (" + clean(c.Name) + ")"
			}
			out = append(out, resultLink{label: label, uri: c.URI})
		case c.Type == "resource" && c.Resource != nil:
			out = append(out, resultLink{label: fmt.Sprintf("content[%d] embedded %s", i, clean(c.Resource.URI)), uri: c.Resource.URI, embedded: c.Resource})
		}
	}
	return out
}

// openLink opens a result's link.
func (s *shared) openLink(l resultLink) tea.Cmd {
	if l.embedded != nil {
		res := contract.ResourceContents{URI: l.uri, Contents: []contract.ResourceContent{*l.embedded}}
		style := s.styles.chroma
		return func() tea.Msg { return resourceReadMsg{uri: l.uri, res: res, lines: resourceLines(res, style)} }
	}
	return s.readResource(l.uri)
}

// openResultLink is o in the Call pane.
func (s *shared) openResultLink(tool string) tea.Cmd {
	t := s.peek(tool)
	if t == nil || t.result == nil || t.result.running || len(t.result.res.Result) == 0 {
		s.setStatus("no call result to open a link of", false)
		return nil
	}
	links := resultLinks(t.result.res.Result)
	switch len(links) {
	case 0:
		s.setStatus("the result has no resource link", false)
		return nil
	case 1:
		return s.openLink(links[0])
	}
	d := &pickDialog{s: s, title: "Open a resource of the result", links: links}
	return func() tea.Msg { return pushDialogMsg{d} }
}

// pickDialog picks one of a result's links: up/down, enter opens, esc
// closes.
type pickDialog struct {
	s      *shared
	title  string
	links  []resultLink
	cursor int
}

func (d *pickDialog) place() placement { return placeCenter }

func (d *pickDialog) Keys() []key.Binding {
	k := d.s.keys
	return []key.Binding{k.Up, k.Down, k.Enter, k.Back}
}

func (d *pickDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	k := d.s.keys
	switch {
	case key.Matches(km, k.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(km, k.Down):
		d.cursor = min(d.cursor+1, len(d.links)-1)
	case key.Matches(km, k.Enter):
		return d.s.openLink(d.links[d.cursor]), true
	case key.Matches(km, k.Back):
		return nil, true
	}
	return nil, false
}

func (d *pickDialog) View(w, h int) []string {
	st := d.s.styles
	var lines []string
	for i, l := range d.links {
		if i == d.cursor {
			lines = append(lines, st.Selected.Render(fit("› "+l.label, w-2)))
		} else {
			lines = append(lines, "  "+l.label)
		}
	}
	lines = append(lines, st.Muted.Render(" enter opens · esc closes"))
	sel := lines
	if h-2 < len(lines) { // a window around the cursor
		first := clamp(d.cursor-(h-3)/2, 0, len(lines)-(h-2))
		sel = lines[first : first+h-2]
	}
	return box(st, d.title, true, w, min(len(sel)+2, h), sel)
}
