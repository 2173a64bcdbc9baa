package tui

import (
	"strings"
	"testing"
)

// Big arguments: ctrl+l empties the focused field or the whole raw JSON
// box at once, and the result's header repeats at most a bounded start of
// the arguments, with their size.
func TestClearFieldAndBoundedArgumentsHeader(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("c")
		big := strings.Repeat("a long location name ", 300) // 6 KB
		f := d.m.tool("alpha").form
		f.fields[0].input.SetValue(big)
		d.key("ctrl+l")
		if v := f.fields[0].text(); v != "" {
			t.Fatalf("ctrl+l left %d bytes in the field", len(v))
		}
		d.typeText("Paris")
		d.key("ctrl+o")
		if !f.raw {
			t.Fatal("ctrl+o: not raw")
		}
		f.rawArg.SetValue("{\n" + strings.Repeat("  \"x\": \"y\",\n", 250) + "  \"location\": \"Oslo\"\n}")
		d.key("ctrl+l")
		if v := f.rawArg.Value(); v != "" {
			t.Fatalf("ctrl+l left %q in the raw JSON box", v[:min(len(v), 40)])
		}
		// A call with 6 KB of arguments: the header shows their start and size.
		f.rawArg.SetValue(`{"location": "` + big + `"}`)
		d.key("ctrl+s")
		if len(d.stub.called("CallTool")) != 1 {
			t.Fatalf("no call: %v", d.stub.calls)
		}
		s := d.screen()
		mustContain(t, s, "arguments {\"location\":\"a long location name", "KB; whole in the History pane)")
		lines := strings.Split(s, "\n")
		first, last := -1, -1
		for i, l := range lines {
			if strings.Contains(l, "arguments {") {
				first = i
			}
			if strings.Contains(l, "whole in the History pane") {
				last = i
			}
		}
		if first < 0 || last-first > 4 {
			t.Fatalf("the header takes lines %d to %d:\n%s", first, last, s)
		}
	})
}

// An array of strings is a list in the form: one item a line, enter adds
// one, deleting a line removes it; it goes to JSON and back.
func TestArrayOfStringsIsAList(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		withSchema(d, `{"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"},"description":"files to read"},`+
			`"ids":{"type":"array","items":{"type":"integer"}}},"required":["paths"]}`)
		d.key("c")
		f := d.m.tool("zeta").form
		if f.fields[0].kind != fieldList || !f.fields[0].multi || f.fields[1].kind != fieldJSON {
			t.Fatalf("kinds: %v %v", f.fields[0].kind, f.fields[1].kind)
		}
		mustContain(t, d.screen(), "one item a line")
		d.typeText("/tmp/a.txt")
		d.key("enter")
		d.typeText("/tmp/b c.txt")
		d.key("enter")
		d.typeText("gone")
		d.key("ctrl+u") // the line's text, then the line itself
		d.key("backspace")
		d.key("ctrl+o")
		if !f.raw || !strings.Contains(f.rawArg.Value(), `"/tmp/a.txt",`) || strings.Contains(f.rawArg.Value(), "gone") {
			t.Fatalf("as JSON: %q", f.rawArg.Value())
		}
		f.rawArg.SetValue(`{"paths": ["x", "y", "z"]}`)
		d.key("ctrl+o")
		if f.raw || f.fields[0].text() != "x\ny\nz" {
			t.Fatalf("back to the list: raw %v, %q", f.raw, f.fields[0].text())
		}
		d.key("ctrl+s")
		if c := d.stub.called("CallTool"); len(c) != 1 || c[0] != `CallTool zeta {"paths":["x","y","z"]} tui` {
			t.Fatalf("call: %v", c)
		}
	})
}
