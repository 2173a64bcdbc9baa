package tui

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// writeFileSchema is server-filesystem's write_file and edit_file shape:
// a path, a content string, a list of edits (objects).
const writeFileSchema = `{"type":"object","properties":{
 "path":{"type":"string"},
 "content":{"type":"string"},
 "edits":{"type":"array","items":{"type":"object","properties":{"oldText":{"type":"string","description":"Text to search for"},"newText":{"type":"string"}},"required":["oldText","newText"]}},
 "options":{"type":"object","properties":{"dryRun":{"type":"boolean","default":false},"encoding":{"type":"string","enum":["utf-8","latin1"]}}}},
 "required":["path","content","edits"]}`

// withSchema gives the stub's tool zeta the schema and selects it.
func withSchema(d *driver, schema string) {
	d.stub.mu.Lock()
	for i := range d.stub.tools {
		if d.stub.tools[i].Name == "zeta" {
			d.stub.tools[i].InputSchema = json.RawMessage(schema)
		}
	}
	d.stub.mu.Unlock()
	d.send(toolsMsg{tools: d.stub.tools})
	d.key("end")
}

func TestFormTextAreasAndSkeletons(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		withSchema(d, writeFileSchema)
		d.key("c")
		f := d.m.tool("zeta").form
		kinds := map[string]bool{}
		for _, fd := range f.fields {
			kinds[fd.name] = fd.multi
		}
		if kinds["path"] || !kinds["content"] || !kinds["edits"] || !kinds["options"] {
			t.Fatalf("text areas: %v (want content, edits, options)", kinds)
		}
		// The required list of objects starts from its shape; the optional
		// object shows it and ctrl+t fills it in.
		if v := f.fields[2].area.Value(); !strings.Contains(v, `"oldText": ""`) || !strings.Contains(v, `"newText": ""`) {
			t.Fatalf("edits skeleton: %q", v)
		}
		if f.fields[3].area.Value() != "" {
			t.Fatal("the optional object was filled in")
		}
		s := d.screen()
		mustContain(t, s, "path*", "content*", "edits*", "enter: new line", "oldText")
		d.typeText("/tmp/x")
		d.key("tab")
		d.typeText("one")
		d.key("enter") // a newline in a text area, not a call
		d.typeText("two")
		if len(d.stub.called("CallTool")) != 0 {
			t.Fatal("enter in a text area called the tool")
		}
		d.key("tab")
		d.key("tab") // options
		d.key("ctrl+t")
		if v := f.fields[3].area.Value(); !strings.Contains(v, `"dryRun": false`) || !strings.Contains(v, `"encoding": "utf-8"`) {
			t.Fatalf("ctrl+t: %q", v)
		}
		d.key("ctrl+s")
		c := d.stub.called("CallTool")
		if len(c) != 1 {
			t.Fatalf("ctrl+s did not call: %v", d.stub.calls)
		}
		want := `CallTool zeta {"content":"one\ntwo","edits":[{"oldText":"","newText":""}],"options":{"dryRun":false,"encoding":"utf-8"},"path":"/tmp/x"} tui`
		if c[0] != want {
			t.Fatalf("call\n got %s\nwant %s", c[0], want)
		}
	})
}

// TestPasteKeepsNewlines: two pasted lines stay two lines, in a text area
// and in a one-line field (which becomes a text area).
func TestPasteKeepsNewlines(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("c") // alpha: location is a one-line string
		d.send(tea.PasteMsg{Content: "line one\nline two\n"})
		if fd := d.m.tool("alpha").form.fields[0]; !fd.multi {
			t.Fatal("a multi-line paste did not make the field a text area")
		}
		mustContain(t, d.screen(), "line one", "line two", "3 line(s)")
		d.key("ctrl+s")
		c := d.stub.called("CallTool")
		if len(c) != 1 || !strings.Contains(c[0], `"location":"line one\nline two\n"`) {
			t.Fatalf("the call: %v", c)
		}
	})
}

func TestRawJSONToggle(t *testing.T) {
	inBubble(t, nil, func(t *testing.T, d *driver) {
		d.key("c")
		d.typeText("Paris")
		d.key("ctrl+o")
		f := d.m.tool("alpha").form
		if !f.raw || !strings.Contains(f.rawArg.Value(), `"location": "Paris"`) {
			t.Fatalf("ctrl+o: raw %v %q", f.raw, f.rawArg.Value())
		}
		mustContain(t, d.screen(), "the arguments as one JSON object")
		f.rawArg.SetValue(`{"location": "Oslo", "days": 3, "verbose": true}`)
		d.key("ctrl+o") // back to the fields
		if f.raw || f.fields[0].text() != "Oslo" || f.fields[1].text() != "3" || !f.fields[3].on {
			t.Fatalf("back to the fields: raw %v, location %q days %q verbose %v", f.raw, f.fields[0].text(), f.fields[1].text(), f.fields[3].on)
		}
		d.key("ctrl+o")
		f.rawArg.SetValue(`{"location": "Oslo", "nope": 1}`)
		d.key("ctrl+o")
		if !f.raw {
			t.Fatal("an unknown key went back to the fields (and would be lost)")
		}
		mustContain(t, d.screen(), "the form has no field for nope (stays JSON)")
		d.key("ctrl+s") // raw JSON is sent as it is
		if c := d.stub.called("CallTool"); len(c) != 1 || c[0] != `CallTool alpha {"location":"Oslo","nope":1} tui` {
			t.Fatalf("raw call: %v", c)
		}
	})
}

// editorScript is an $EDITOR that replaces the file with $GENUI_TEST_EDIT
// (a real program the workbench hands the terminal to).
func editorScript(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\nprintf '%s\\n' \"$GENUI_TEST_EDIT\" > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEditorHandOff(t *testing.T) {
	script := editorScript(t)
	t.Setenv("VISUAL", script)
	inBubble(t, nil, func(t *testing.T, d *driver) {
		var ran []string
		d.m.execProcess = func(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
			ran = append(ran, strings.Join(c.Args, " "))
			return func() tea.Msg { return fn(c.Run()) }
		}
		d.key("c")
		// A field: the script's text comes back into it (its final newline
		// dropped), checked like typing.
		t.Setenv("GENUI_TEST_EDIT", "Lisbon\nand more")
		d.key("ctrl+e")
		f := d.m.tool("alpha").form
		if len(ran) != 1 || !strings.HasPrefix(ran[0], script+" ") || !strings.Contains(ran[0], "genui-alpha-location-") {
			t.Fatalf("the editor ran as %v", ran)
		}
		if got := f.fields[0].text(); got != "Lisbon\nand more" || !f.fields[0].multi {
			t.Fatalf("location after $EDITOR: %q (multi %v)", got, f.fields[0].multi)
		}
		d.key("tab") // days: an integer
		t.Setenv("GENUI_TEST_EDIT", "three")
		d.key("ctrl+e")
		mustContain(t, d.screen(), "✗ not an integer", "days from $EDITOR: not an integer")
		// All arguments: a JSON object fills the fields.
		d.key("esc")
		t.Setenv("GENUI_TEST_EDIT", `{"location": "Porto", "units": "imperial"}`)
		d.key("E")
		if f.raw || f.fields[0].text() != "Porto" || enumLabel(f.fields[2].enum[f.fields[2].pick]) != "imperial" {
			t.Fatalf("E: raw %v location %q", f.raw, f.fields[0].text())
		}
		// Not an object: kept as raw JSON with the error; nothing lost.
		t.Setenv("GENUI_TEST_EDIT", `{"location": "Por`)
		d.key("E")
		if !f.raw || !strings.Contains(f.rawArg.Value(), `"Por`) || f.rawErr == "" {
			t.Fatalf("broken JSON from the editor: raw %v %q err %q", f.raw, f.rawArg.Value(), f.rawErr)
		}
		mustContain(t, d.screen(), "the arguments are not a JSON object")
		// Temporary files are gone.
		left, _ := filepath.Glob(filepath.Join(os.TempDir(), "genui-alpha-*"))
		if len(left) != 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	})
}
