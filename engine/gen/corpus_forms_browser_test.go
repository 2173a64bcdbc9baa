package gen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/uicorpus"
)

// corpusTool is the tool definition a corpus server recorded.
func corpusTool(t *testing.T, server, name string) Tool {
	t.Helper()
	servers, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range servers {
		if s.Name != server {
			continue
		}
		tools, _ := corpusPages(s)
		if tl, ok := tools[name]; ok {
			return tl
		}
	}
	t.Fatalf("corpus has no %s/%s", server, name)
	return Tool{}
}

// lastCall is the arguments of the last tools/call the UI made.
func (f *fixture) lastCall() map[string]json.RawMessage {
	f.t.Helper()
	var calls []struct {
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	f.eval("window.calls", &calls)
	if len(calls) == 0 {
		f.t.Fatal("the UI made no call")
	}
	return calls[len(calls)-1].Arguments
}

// TestGridEditorForRowsOfCells: the spreadsheet server's `values` (rows of
// string|number|boolean|null cells) is a grid, not a box per cell: typed
// cells, a tab-separated block pasted from a spreadsheet, rows added, and
// the values sent typed (numbers as numbers, formulas as text, empty as null).
func TestGridEditorForRowsOfCells(t *testing.T) {
	tool := corpusTool(t, "excel", "excel_write_to_sheet")
	f, ui := newFixture(t)
	ui.add(t, tool)
	f.open(tool.Name)
	var shape struct {
		Grids, Selects, Inputs int
	}
	f.frameJSON(`(w, d) => ({Grids: d.querySelectorAll("table.grid").length, Selects: d.querySelectorAll("#f-values select").length, Inputs: d.querySelectorAll("table.grid input").length})`, &shape)
	if shape.Grids != 1 || shape.Selects != 0 || shape.Inputs != 4 {
		t.Fatalf("values form: %+v, want one 2x2 grid and no type selects", shape)
	}
	browsertest.FrameType(t, f.ctx, "#ui", "#f-fileAbsolutePath", "/tmp/book.xlsx")
	browsertest.FrameType(t, f.ctx, "#ui", "#f-sheetName", "Orders")
	browsertest.FrameType(t, f.ctx, "#ui", "#f-range", "A1:C3")
	browsertest.FrameType(t, f.ctx, "#ui", "#f-values-r0c0", "Order")
	browsertest.FrameType(t, f.ctx, "#ui", "#f-values-r0c1", "Total")
	// A block copied from a spreadsheet, pasted into A2: the grid grows to hold it.
	f.frame(`(w, d) => { const dt = new DataTransfer(); dt.setData("text/plain", "1001\t39.8\tyes\n1002\t=B2*2\t\n"); d.getElementById("f-values-r1c0").dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true})); return true; }`)
	f.waitFrame(`(w, d) => d.querySelectorAll("table.grid tbody tr").length === 3 && d.querySelectorAll("table.grid thead th").length === 4`)
	f.eval(`window.replies.push({content: [{type: "text", text: "written"}]})`, nil)
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.poll(`window.calls.length === 1`)
	args := f.lastCall()
	if got, want := string(args["values"]), `[["Order","Total",null],[1001,39.8,"yes"],[1002,"=B2*2",null]]`; got != want {
		t.Errorf("values sent %s, want %s", got, want)
	}
}

// TestOptionalObjectStaysUnset: Playwright's browser_start_video has an
// optional `size` object whose width and height are required; left empty it
// is not sent and does not block Run; half filled it says what is missing.
func TestOptionalObjectStaysUnset(t *testing.T) {
	tool := corpusTool(t, "playwright", "browser_start_video")
	f, ui := newFixture(t)
	ui.add(t, tool)
	f.open(tool.Name)
	f.eval(`window.replies.push({content: [{type: "text", text: "started"}]})`, nil)
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.poll(`window.calls.length === 1`)
	if args := f.lastCall(); len(args) != 0 {
		t.Errorf("an empty form sent %v, want {} (size left unset)", args)
	}
	browsertest.FrameType(t, f.ctx, "#ui", "#f-size-width", "640")
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.waitFrame(`(w, d) => [...d.querySelectorAll("#f-size .field-error")].some((e) => e.textContent.trim() !== "")`)
	var n int
	f.eval("window.calls.length", &n)
	if n != 1 {
		t.Errorf("a half-filled size was sent (%d calls)", n)
	}
	browsertest.FrameType(t, f.ctx, "#ui", "#f-size-height", "400")
	f.eval(`window.replies.push({content: [{type: "text", text: "started"}]})`, nil)
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.poll(`window.calls.length === 2`)
	if got := string(f.lastCall()["size"]); got != `{"height":400,"width":640}` && got != `{"width":640,"height":400}` {
		t.Errorf("size sent %s, want width 640 and height 400", got)
	}
}

// TestShortTextFieldsAreInputs: text the tool types, finds or waits for is
// one line; a commit message stays a text area.
func TestShortTextFieldsAreInputs(t *testing.T) {
	f, ui := newFixture(t)
	for _, c := range []struct {
		server, tool, field, tag string
	}{
		{"playwright", "browser_type", "f-text", "INPUT"},
		{"playwright", "browser_wait_for", "f-text", "INPUT"},
		{"playwright", "browser_find", "f-text", "INPUT"},
		{"chrome-devtools", "type_text", "f-text", "INPUT"},
		{"git", "git_commit", "f-message", "TEXTAREA"},
		{"desktop-commander", "write_file", "f-content", "TEXTAREA"},
	} {
		tool := corpusTool(t, c.server, c.tool)
		ui.add(t, tool)
		f.open(tool.Name)
		var tag string
		f.frameJSON(`(w, d) => { const e = d.getElementById("`+c.field+`"); return e ? e.tagName : ""; }`, &tag)
		if tag != c.tag {
			t.Errorf("%s/%s %s is %q, want %s", c.server, c.tool, c.field, tag, c.tag)
		}
	}
}

// TestTextDataReaders runs textdata.js's readers in the browser over the
// corpus texts they exist for: a process list, search output, a sheet as
// HTML, console lines of several levels.
func TestTextDataReaders(t *testing.T) {
	f, ui := newFixture(t)
	ui.add(t, corpusTool(t, "time", "current_time"))
	f.open("current_time")
	var got map[string]string
	f.frameJSON(`(w, d) => {
		const T = w.GenuiText, one = (s) => { const v = T.classify(s, ""); return v.kind + ":" + (v.from || (v.parts || []).map((p) => p.kind + "/" + (p.from || "")).join(",")); };
		return {
			processes: one("PID: 1, Command: node server.js, CPU: 5.6, Memory: 0.4\nPID: 1940, Command: sleep 300, CPU: 0.0, Memory: 0.0\nPID: 2026, Command: /bin/sh -c ps aux, CPU: 0.0, Memory: 0.0"),
			search: one("/srv/app/config.yaml:6:  csv_path: data/orders.csv\n/srv/app/src/orders.js:4:const TAX_RATE = 0.2;\n/srv/app/src/orders.js:12:function compute_order_total(order) {"),
			ansiSearch: one("\u001b[35m/srv/app/a.log\u001b[0m:\u001b[32m4\u001b[0m:WARN slow\n\u001b[35m/srv/app/a.log\u001b[0m:\u001b[32m5\u001b[0m:ERROR failed"),
			sheet: one("<h2>Sheet Data</h2>\n<table>\n<tr><th></th><th>A</th><th>B</th></tr>\n<tr><th>1</th><td>Order</td><td>Total</td></tr>\n<tr><th>2</th><td>1001</td><td>39.8</td></tr>\n</table>\n<h2>Metadata</h2>\n<ul><li>backend: excelize</li><li>sheet name: Orders</li></ul>"),
			page: one("<!doctype html><html><head><title>x</title></head><body><table><tr><th>a</th></tr><tr><td>1</td></tr></table></body></html>"),
			console: one("[LOG] page ready @ http://x/:25\n[WARNING] Deprecated @ http://x/:27\n[ERROR] Failed to load @ http://x/:28"),
			devtools: one("Showing 1-3 of 3 (Page 1 of 1).\nmsgid=1 [log] page ready (1 args)\nmsgid=3 [warn] Deprecated (1 args)\nmsgid=4 [error] Failed (1 args)"),
			prose: one("The export failed, again.\nWe retried: twice, then gave up."),
			sections: one("### Result\n{\"a\": 1}\n### Ran Playwright code\n`+"```js\\nawait page.goto('x');\\n```"+`"),
		};
	}`, &got)
	want := map[string]string{
		"processes":  "data:records",
		"search":     "parts:prose/,data/search",
		"ansiSearch": "parts:prose/,data/search",
		"sheet":      "parts:heading/,data/html,heading/,data/kv",
		"page":       "code:",
		"console":    "log:",
		"devtools":   "log:",
		"prose":      "prose:",
		"sections":   "sections:",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s reads as %q, want %q", k, got[k], w)
		}
	}
	// Markdown: intraword underscores are not emphasis, [brackets] with no
	// target stay text, a relative link shows its target (copied on click)
	// unless the text names a web address to resolve it against and the
	// target is a web page. A relative link to a file with another extension
	// (page-1.yml, a browser-automation snapshot written to disk) is a local
	// file, never a page of the inspected site (issue 33): it stays a path
	// even beside "Page URL:"; guide.html is resolved.
	var md struct {
		Em, Links, Bare int
		Text            string
		Targets         []string
		Resolved        string
	}
	f.frameJSON(`(w, d) => { const m = w.GenuiText.markdown("Builds for x86_64 via compute_order_total and _real emphasis_.\n\n1: about:blank [selected]\n\nSee [Snapshot](page-1.yml).", {});
		const b = w.GenuiText.markdown("Page URL: https://example.com/app/\n\nSee [Snapshot](page-1.yml) and [the guide](guide.html).", {});
		return {Em: m.querySelectorAll("em").length, Links: m.querySelectorAll("a[href]").length, Bare: m.querySelectorAll("a:not([href])").length + b.querySelectorAll("a:not([href])").length, Text: m.textContent,
			Targets: [...m.querySelectorAll(".md-link-target"), ...b.querySelectorAll(".md-link-target")].map((e) => e.textContent), Resolved: [...b.querySelectorAll("a[href]")].map((a) => a.href).join(" ")}; }`, &md)
	if md.Em != 1 || md.Links != 0 || md.Bare != 0 || !strings.Contains(md.Text, "x86_64") || !strings.Contains(md.Text, "compute_order_total") || !strings.Contains(md.Text, "[selected]") || strings.Join(md.Targets, ",") != "page-1.yml,page-1.yml" ||
		md.Resolved != "https://example.com/app/ https://example.com/app/guide.html" {
		t.Errorf("markdown: %+v", md)
	}
}

// TestCorpusRefinementsApplied: the plain-word refinements the outside
// grading found silently ignored on these servers now apply: the result
// shows as a table, with no warning and no "Not in this result" note.
func TestCorpusRefinementsApplied(t *testing.T) {
	servers, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	env := newCorpusEnv(t)
	for _, c := range []struct{ server, tool, refinement string }{
		{"desktop-commander", "list_processes", "show the processes as a table"},
		{"excel", "excel_read_sheet", "render the sheet as a grid"},
	} {
		var srv uicorpus.Server
		for _, s := range servers {
			if s.Name == c.server {
				srv = s
			}
		}
		tools, pages := corpusPages(srv)
		var page *corpusPage
		for _, p := range pages {
			if p.tool == c.tool && p.call != nil && page == nil {
				page = p
			}
		}
		res, err := NewOffline().Generate(t.Context(), Request{Tool: tools[c.tool], Refinements: []string{c.refinement}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Warnings) != 0 {
			t.Errorf("%q: warnings %q", c.refinement, res.Warnings)
		}
		if err := env.open(c.server+"-refined", res.HTML); err != nil {
			t.Fatal(err)
		}
		if err := env.show(page); err != nil {
			t.Fatal(err)
		}
		raw, err := env.frame(`(w, d) => ({Tables: [...d.querySelectorAll("#result table")].filter((x) => x.checkVisibility()).length, Note: (d.querySelector(".config-note") || {}).textContent || ""})`)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Tables int
			Note   string
		}
		_ = json.Unmarshal(raw, &got)
		if got.Tables == 0 || got.Note != "" {
			t.Errorf("%s after %q: %d tables, note %q; want a table and no note", c.tool, c.refinement, got.Tables, got.Note)
		}
	}
}

// TestEpochTimestampsShowAsDates: a time-named value holding Unix
// milliseconds (desktop-commander's usage stats: firstUsed 1795769699205)
// shows as a date with the number in its title; an id of the same size and
// a count stay numbers.
func TestEpochTimestampsShowAsDates(t *testing.T) {
	f, ui := newFixture(t)
	ui.add(t, corpusTool(t, "desktop-commander", "get_usage_stats"))
	f.open("get_usage_stats")
	f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult({content: [{type: "text", text: "stats"}], structuredContent: {firstUsed: 1795769699205, lastUsedAt: 1796035510, id: 1795769699205, calls: 1795769699205}}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	var got map[string][2]string
	f.frameJSON(`(w, d) => { const o = {}; d.querySelectorAll("#result dl.card dt").forEach((dt) => { const dd = dt.nextElementSibling; o[dt.textContent] = [dd.textContent, dd.title || ""]; }); return o; }`, &got)
	want := map[string][2]string{
		"firstUsed":  {"2026-11-27 08:54:59.205 UTC", "1795769699205 (Unix time)"},
		"lastUsedAt": {"2026-11-30 10:45:10 UTC", "1796035510 (Unix time)"},
		"id":         {"1795769699205", ""},
		"calls":      {"1,795,769,699,205", ""},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s shows %q, want %q", k, got[k], w)
		}
	}
}

// TestNestedCellFormStaysShort: the spreadsheet server's format form for
// the recorded five-cell range (styles: rows of cells, each a style object
// with borders, fill, font, number format and protection) is short enough
// to read (every cell's editor one click away), and the prefilled styles
// are sent back as they came.
func TestNestedCellFormStaysShort(t *testing.T) {
	f, ui := newFixture(t)
	tool := corpusTool(t, "excel", "excel_format_range")
	c := recordedCall(t, "excel", "excel_format_range", 1)
	ui.add(t, tool)
	f.open(tool.Name)
	f.eval(`(iframe.style.width = "760px", bridge.sendToolInput(`+string(c.Arguments)+`), true)`, nil)
	f.waitFrame(`(w, d) => w.innerWidth === 760 && d.getElementById("f-range") && d.getElementById("f-range").value !== ""`)
	var height float64
	f.frameJSON(`(w, d) => d.getElementById("tool-form").getBoundingClientRect().height`, &height)
	t.Logf("form height %.0f px", height)
	if height > 1200 {
		t.Errorf("the form of a five-cell range is %.0f px tall, want at most 1200", height)
	}
	pageInvariantsHold(t, f, "five-cell style form", "")
	f.eval(`window.replies.push({content: [{type: "text", text: "formatted"}]})`, nil)
	f.frame(`(w, d) => { d.getElementById("submit").click(); return true; }`)
	f.poll(`window.calls.length === 1`)
	var sent, want any
	_ = json.Unmarshal(f.lastCall()["styles"], &sent)
	var args map[string]any
	_ = json.Unmarshal(c.Arguments, &args)
	want = args["styles"]
	if fmt.Sprint(sent) != fmt.Sprint(want) {
		t.Errorf("styles sent %v, want %v", sent, want)
	}
}
