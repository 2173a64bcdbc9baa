package tui

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
)

// Editing the Call form: moving between fields, choosing, toggling, the
// keys and pastes given to the focused input, the raw JSON switch.

func (f *callForm) focus() tea.Cmd {
	if f.raw {
		return f.rawArg.Focus()
	}
	if fd := f.field(); fd != nil && fd.editable() {
		if fd.multi {
			return fd.area.Focus()
		}
		return fd.input.Focus()
	}
	return nil
}

func (f *callForm) blur() {
	f.rawArg.Blur()
	for _, fd := range f.fields {
		if fd.editable() {
			fd.input.Blur()
			fd.area.Blur()
		}
	}
}

// move goes to the next (d=1) or previous field, wrapping around.
func (f *callForm) move(d int) tea.Cmd {
	if len(f.fields) == 0 || f.raw {
		return nil
	}
	f.blur()
	f.cur = (f.cur + d + len(f.fields)) % len(f.fields)
	return f.focus()
}

// choosing reports whether the current field takes space/←/→ as a choice.
func (f *callForm) choosing() bool {
	fd := f.field()
	return fd != nil && (fd.kind == fieldBool || fd.kind == fieldEnum || fd.kind == fieldMulti)
}

// multiLine reports whether the focused input is a text area (enter is a
// newline there, up/down move in its lines).
func (f *callForm) multiLine() bool {
	if f.raw {
		return true
	}
	fd := f.field()
	return fd != nil && fd.editable() && fd.multi
}

// choose is space, left or right on a choosing field: a checkbox list
// moves its cursor with left/right and checks with space; the others
// toggle.
func (f *callForm) choose(k string) {
	fd := f.field()
	if fd == nil {
		return
	}
	if fd.kind != fieldMulti {
		f.toggle(k == "left")
		return
	}
	switch k {
	case "left":
		fd.opt = max(fd.opt-1, 0)
	case "right":
		fd.opt = min(fd.opt+1, len(fd.enum)-1)
	default:
		fd.picks[fd.opt] = !fd.picks[fd.opt]
		fd.err = ""
	}
}

// toggle flips a boolean (unset -> true -> false -> unset when optional)
// or cycles an enum (back with left).
func (f *callForm) toggle(back bool) {
	fd := f.field()
	if fd == nil {
		return
	}
	switch fd.kind {
	case fieldBool:
		switch {
		case !fd.set:
			fd.set, fd.on = true, true
		case fd.on:
			fd.on = false
		case fd.required:
			fd.on = true
		default:
			fd.set = false
		}
	case fieldEnum:
		lo := -1
		if fd.required {
			lo = 0
		}
		n := len(fd.enum) - lo
		step := 1
		if back {
			step = -1
		}
		fd.pick = lo + ((fd.pick-lo+step)%n+n)%n
	}
	fd.err = ""
}

// update gives a key or paste to the focused input. A paste of several
// lines into a one-line string field makes it a text area first, so the
// lines stay lines.
func (f *callForm) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if f.raw {
		f.rawArg, cmd = f.rawArg.Update(msg)
		f.rawErr = ""
		f.fitArea(&f.rawArg)
		return cmd
	}
	fd := f.field()
	if fd == nil || !fd.editable() {
		return nil
	}
	if p, ok := msg.(tea.PasteMsg); ok && !fd.multi && strings.ContainsAny(p.Content, "\r\n") && fd.kind != fieldNumber && fd.kind != fieldInteger {
		f.makeMulti(fd)
		cmd = fd.area.Focus()
	}
	if fd.multi {
		var c tea.Cmd
		fd.area, c = fd.area.Update(msg)
		f.fitArea(&fd.area)
		fd.err = ""
		return tea.Batch(cmd, c)
	}
	fd.input, cmd = fd.input.Update(msg)
	fd.err = ""
	return cmd
}

// makeMulti turns a one-line field into a text area holding its value.
func (f *callForm) makeMulti(fd *formField) {
	v := fd.input.Value()
	fd.multi = true
	fd.input.Blur()
	fd.area.SetValue(v)
	f.fitArea(&fd.area)
}

// fitArea grows a text area with its text (3 to 12 lines; it scrolls
// beyond).
func (f *callForm) fitArea(a *textarea.Model) {
	a.SetHeight(clamp(a.LineCount()+1, 3, 12))
}

// fillSkeleton puts the focused field's skeleton in (ctrl+t), when empty.
func (f *callForm) fillSkeleton() bool {
	fd := f.field()
	if fd == nil || fd.skeleton == "" || strings.TrimSpace(fd.area.Value()) != "" {
		return false
	}
	fd.area.SetValue(fd.skeleton)
	f.fitArea(&fd.area)
	return true
}

// setText puts text into a field (from $EDITOR or the raw JSON), making it
// a text area when it has several lines.
func (f *callForm) setText(fd *formField, text string) {
	if strings.Contains(text, "\n") && !fd.multi {
		f.makeMulti(fd)
	}
	if fd.multi {
		fd.area.SetValue(text)
		f.fitArea(&fd.area)
	} else {
		fd.input.SetValue(text)
	}
	fd.err = ""
}

// toggleRaw switches between the fields and one JSON object; going back
// to the fields fails (staying in JSON, nothing lost) when the JSON is not
// an object the fields can hold.
func (f *callForm) toggleRaw() error {
	if !f.raw {
		f.blur()
		f.rawArg.SetValue(f.draft())
		f.fitArea(&f.rawArg)
		f.raw, f.rawErr = true, ""
		return nil
	}
	b, err := checkArgsObject(f.rawArg.Value())
	if err == nil {
		err = f.fill(b)
	}
	if err != nil {
		f.rawErr = err.Error() + " (stays JSON)"
		return err
	}
	f.blur()
	f.raw, f.rawErr = false, ""
	return nil
}
