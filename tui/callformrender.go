package tui

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Drawing the Call form.

// render draws the fields: a label column and the input (a text area
// under its label), the description and any error under it, each whole.
func (f *callForm) render(st Styles, w int, active bool) []string {
	var out []string
	if f.problem != "" {
		out = append(out, wrapStyled(st.Warn, "▲ "+f.problem, w)...)
	}
	if f.raw {
		out = append(out, st.Muted.Render("  the arguments as one JSON object · ctrl+o back to the fields · ctrl+e in $EDITOR"))
		f.rawArg.SetWidth(max(w-4, 8))
		for _, l := range strings.Split(f.rawArg.View(), "\n") {
			out = append(out, "  "+l)
		}
		if f.rawErr != "" {
			out = append(out, indent(wrapStyled(st.Err, "✗ "+f.rawErr, w-4), "  ")...)
		}
		return out
	}
	if len(f.fields) == 0 {
		return append(out, st.Muted.Render("  no arguments: enter calls it with {}"))
	}
	labelW := 6
	for _, fd := range f.fields {
		labelW = max(labelW, len(fd.name)+1)
	}
	labelW = min(labelW, max(w/3, 8))
	inputW := max(w-labelW-4, 8)
	pad := "   " + strings.Repeat(" ", labelW)
	for i, fd := range f.fields {
		cur := active && i == f.cur
		marker := "  "
		if cur {
			marker = st.Accent.Render("› ")
		}
		name := fd.name
		if fd.required {
			name += "*"
		}
		label := st.Label.Render(fit(clean(name), labelW))
		if cur {
			label = st.Key.Render(fit(clean(name), labelW))
		}
		var val string
		var below []string
		switch fd.kind {
		case fieldBool:
			switch {
			case !fd.set:
				val = st.Muted.Render("[ ] unset")
			case fd.on:
				val = st.Text.Render("[x] true")
			default:
				val = st.Text.Render("[ ] false")
			}
		case fieldEnum:
			v := st.Muted.Render("unset")
			if fd.pick >= 0 {
				label := enumLabel(fd.enum[fd.pick])
				if fd.pick < len(fd.names) && fd.names[fd.pick] != "" {
					label = clean(fd.names[fd.pick]) + " (" + label + ")"
				}
				v = st.Text.Render(label)
			}
			val = st.Muted.Render("‹ ") + v + st.Muted.Render(fmt.Sprintf(" ›  %d choices", len(fd.enum)))
		case fieldMulti:
			n := 0
			for i, on := range fd.picks {
				if on {
					n++
				}
				box := "[ ] "
				if on {
					box = "[x] "
				}
				label := enumLabel(fd.enum[i])
				if i < len(fd.names) && fd.names[i] != "" {
					label = clean(fd.names[i]) + " (" + label + ")"
				}
				l := box + label
				switch {
				case cur && i == fd.opt:
					l = st.Key.Render("› " + l)
				case on:
					l = "  " + st.Text.Render(l)
				default:
					l = "  " + st.Muted.Render(l)
				}
				below = append(below, pad+l)
			}
			val = st.Muted.Render(fmt.Sprintf("%d of %d chosen · ←/→ move · space checks", n, len(fd.enum)))
		default:
			if fd.multi {
				fd.area.SetWidth(inputW)
				lines := strings.Split(fd.area.View(), "\n")
				val = st.Muted.Render(fmt.Sprintf("%d line(s) · enter: new line", fd.area.LineCount()))
				for _, l := range lines {
					below = append(below, pad+l)
				}
			} else {
				fd.input.SetWidth(inputW)
				val = fd.input.View()
			}
		}
		out = append(out, marker+label+" "+val)
		out = append(out, below...)
		hint := fd.kind.String()
		if fd.multi && fd.kind == fieldString {
			hint = "text"
		}
		if fd.desc != "" {
			hint += " · " + fd.desc
		}
		if fd.err != "" {
			out = append(out, indent(wrapStyled(st.Err, "✗ "+fd.err, inputW), pad)...)
		} else if cur || !active {
			out = append(out, indent(wrapStyled(st.Muted, hint, inputW), pad)...)
		}
	}
	return out
}

func enumLabel(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return clean(s)
	}
	return clean(string(raw))
}
