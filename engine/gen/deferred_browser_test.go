package gen

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/genui-dev/genui/viewspec"
)

// recordsResult is a tool result whose records rich.js draws as its table
// and a plain drawing as a plain one (table.plain-table).
const recordsResult = `{ content: [{ type: "text", text: JSON.stringify([{ name: "alpha", size: 1 }, { name: "beta", size: 2 }, { name: "gamma", size: 3 }]) }] }`

// gatedFixture opens list_items (through its handshake) in hostPage with
// the answer to the page's read of its rich views held until
// window.openGate(); before runs before the bridge starts, after once it
// has.
func gatedFixture(t *testing.T, before, after string) *fixture {
	t.Helper()
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n",
		"  onReadResource: function (p) { return window.gate.then(function () { return readDeferred(p); }); },\n", 1)
	host = strings.Replace(host, "bridge.start();", "window.gate = new Promise(function (r) { window.openGate = r; });\n"+before+"bridge.start();\n"+after, 1)
	if host == hostPage {
		t.Fatal("hostPage changed: no onReadResource or bridge.start to replace")
	}
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_items", Description: "Lists items.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.openHandshake("list_items")
	return f
}

// drawnAs is how the frame drew the result.
type drawnAs struct {
	Table, Plain, Rich bool
	Note, Text         string
}

func (f *fixture) drawnAs() drawnAs {
	f.t.Helper()
	var d drawnAs
	_ = json.Unmarshal(f.frame(`(w, d) => ({Table: !!d.querySelector("#result table.data:not(.plain-table)"), Plain: !!d.querySelector("#result .plain-data"), Rich: !!w.GenuiRich,
		Note: (d.getElementById("plain-note") || {}).textContent || "", Text: d.getElementById("result").innerText})`), &d)
	return d
}

// A host that does not pass a view's resource reads on (no serverResources)
// gets the page drawn plainly: every value of the result readable, and a
// note that says why; the page never asks the host for what it cannot do.
func TestPageDrawsPlainlyWithoutTheHostsResourceReads(t *testing.T) {
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n", "", 1)
	host = strings.Replace(host, "bridge.start();", "bridge.start();\nbridge.sendToolResult("+recordsResult+");", 1)
	if host == hostPage {
		t.Fatal("hostPage changed: no onReadResource to take out")
	}
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_items", Description: "Lists items.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.open("list_items")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	got := f.drawnAs()
	if got.Table || got.Rich || !got.Plain {
		t.Errorf("drawn %+v by a host that cannot have passed the rich views on; want it drawn plainly", got)
	}
	// The records as a plain table: a column each, a row each.
	for _, want := range []string{"name\tsize", "alpha\t1", "gamma\t3"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("the plain drawing lacks %s:\n%s", want, got.Text)
		}
	}
	if !strings.Contains(got.Note, "Drawn plainly") || !strings.Contains(got.Note, "serverResources") {
		t.Errorf("note %q; want it to say the page is drawn plainly because the host has no serverResources", got.Note)
	}
	var reads int
	f.eval(`window.hostLog.filter((e) => e.msg && e.msg.method === "resources/read").length`, &reads)
	if reads != 0 {
		t.Errorf("the page sent %d resources/read to a host without serverResources", reads)
	}
	if v := f.cspViolations(); len(v) > 0 {
		t.Errorf("CSP violations: %v", v)
	}
}

// A result that comes before the rich views is drawn plainly at once, not
// after waiting for them, and drawn again with them when they come; the page
// then has no note.
func TestPageDrawsAgainWhenItsRichViewsComeLate(t *testing.T) {
	f := gatedFixture(t, "", "bridge.sendToolResult("+recordsResult+");\n")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	if got := f.drawnAs(); got.Table || got.Rich || !got.Plain || !strings.Contains(got.Text, "beta\t2") || got.Note != "" {
		t.Fatalf("before the rich views came: %+v; want the records drawn plainly, no note yet", got)
	}
	// Painted without waiting for them (the page used to wait a second).
	f.waitFrame(`(w) => w.performance.getEntriesByName("result-painted").length === 1`)
	var waited float64
	_ = json.Unmarshal(f.frame(`(w) => w.performance.getEntriesByName("result-painted")[0].startTime - w.performance.getEntriesByName("result-received")[0].startTime`), &waited)
	if waited > 900 {
		t.Errorf("the result was painted %.0f ms after it came; want it drawn at once", waited)
	}
	f.eval(`(window.openGate(), true)`, new(bool))
	f.waitFrame(`(w, d) => !!d.querySelector("#result table.data:not(.plain-table)")`)
	if got := f.drawnAs(); !got.Rich || got.Plain || got.Note != "" || !strings.Contains(got.Text, "gamma") {
		t.Errorf("after the rich views came: %+v; want the rich table alone, no note", got)
	}
	// Their styles came with them (rich-views.css, a deferred style): the numbers' column is aligned right.
	var align string
	_ = json.Unmarshal(f.frame(`(w, d) => { const c = d.querySelector("#result td.num"); return c ? getComputedStyle(c).textAlign : "no numbers' column"; }`), &align)
	if align != "right" {
		t.Errorf("the rich table's numbers: text-align %q; want right (the rich views' style)", align)
	}
	if v := f.cspViolations(); len(v) > 0 {
		t.Errorf("CSP violations: %v", v)
	}
}

// Whatever a host hands back for the page's rich views, only genui's own
// scripts run: the page names its deferred block by its SHA-256, and the
// loader runs nothing that hashes otherwise (the page's CSP cannot refuse
// it: it trusts what the loader inserts). A host that returns another
// script gets it refused and the page drawn plainly, saying why.
func TestPageRunsOnlyItsOwnRichViews(t *testing.T) {
	evil := "window.pwned = 1;"
	head := fmt.Sprintf(`{"parts":[["script",%d]]}`+"\n", len(evil))
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	_, _ = w.Write([]byte(head + evil))
	_ = w.Close()
	blob := base64.StdEncoding.EncodeToString(z.Bytes())
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n",
		`  onReadResource: function (p) { return { contents: [{ uri: p.uri, blob: "`+blob+`" }] }; },`+"\n", 1)
	host = strings.Replace(host, "bridge.start();", "bridge.start();\nbridge.sendToolResult("+recordsResult+");", 1)
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_items", Description: "Lists items.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.open("list_items")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && !!d.getElementById("plain-note")`)
	var pwned bool
	_ = json.Unmarshal(f.frame(`(w, d) => w.pwned === 1`), &pwned)
	if pwned {
		t.Fatal("the host's script ran in the page")
	}
	got := f.drawnAs()
	if got.Rich || !got.Plain || !strings.Contains(got.Text, "alpha\t1") || !strings.Contains(got.Note, "other scripts than the page names") {
		t.Errorf("after a foreign script: %+v; want the records drawn plainly and a note that the host returned other scripts", got)
	}
}

// Drawn plainly, a page still honours its view: the theme the spec asks
// for over the host's (genui's own palette, as rich.js would set it) and
// the fields it hides, which never show in the drawn data.
func TestPlainDrawingKeepsTheViewsThemeAndHiddenFields(t *testing.T) {
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n", "", 1)
	host = strings.Replace(host, "bridge.start();", "bridge.start();\n"+
		`bridge.sendToolResult({ content: [{ type: "text", text: "Found one." }], structuredContent: { name: "alpha", secret: "s3cr3t-value", nested: { api_key: "k3y-value", size: 2 } } });`, 1)
	spec := viewspec.New()
	spec.Theme = &viewspec.Theme{Scheme: "light"}
	spec.Hidden = []string{"secret", "/nested/api_key"}
	html, err := PageOptions{}.RenderSpec(Tool{Name: "find_item", Description: "Finds an item.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, ui := newFixtureHost(t, host)
	ui.addHTML("find_item", html)
	f.open("find_item")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	got := f.drawnAs()
	if got.Rich || !got.Plain || !strings.Contains(got.Text, "alpha") || !strings.Contains(got.Text, "size\n2") || !strings.Contains(got.Text, "Found one.") {
		t.Fatalf("plain drawing: %+v; want the summary and the data", got)
	}
	if strings.Contains(got.Text, "s3cr3t-value") || strings.Contains(got.Text, "k3y-value") {
		t.Errorf("the plain drawing shows fields the view hides:\n%s", got.Text)
	}
	var theme struct{ Theme, Forced string }
	_ = json.Unmarshal(f.frame(`(w, d) => ({Theme: d.documentElement.getAttribute("data-theme"), Forced: d.documentElement.getAttribute("data-theme-forced") || ""})`), &theme)
	if theme.Theme != "light" || theme.Forced != "light" {
		t.Errorf("theme %+v on a dark host; want the spec's light theme, forced", theme)
	}
}

// A host's result drawn plainly before the rich views came is not drawn
// again over a call the user started meanwhile: when they come, the page's
// state stays the call's until the call's result comes.
func TestPlainResultGivesWayToACall(t *testing.T) {
	f := gatedFixture(t, "window.replies.push(new Promise(function (r) { window.answer = r; }));\n", "")
	f.eval(`(bridge.sendToolResult({ content: [{ type: "text", text: "from the host" }] }), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").innerText.includes("from the host")`)
	f.waitFrame(`(w, d) => { d.getElementById("tool-form").requestSubmit(); return d.body.dataset.state === "loading"; }`)
	f.eval(`(window.openGate(), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.richViews === "in"`)
	// Two frames on, the host's result has not been drawn again and the call still runs.
	var during struct {
		State string
		Rich  bool
	}
	_ = json.Unmarshal(f.frame(`(w, d) => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r({State: d.body.dataset.state, Rich: w.performance.getEntriesByName("rich-painted").length > 0}))))`), &during)
	if during.State != "loading" || during.Rich {
		t.Errorf("after the rich views came during a call: %+v; want the call still loading and the host's result not drawn again", during)
	}
	f.eval(`(window.answer({ content: [{ type: "text", text: "from the call" }] }), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").innerText.includes("from the call")`)
}

// A call cancelled while the rich views came leaves the host's result it
// ran over on screen, and draws it again with them: it does not stay plain.
func TestPlainResultDrawnRichlyAfterACancelledCall(t *testing.T) {
	f := gatedFixture(t, "window.replies.push(new Promise(function () {}));\n", "")
	f.eval(`(bridge.sendToolResult(`+recordsResult+`), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && !!d.querySelector("#result .plain-data")`)
	f.waitFrame(`(w, d) => { d.getElementById("tool-form").requestSubmit(); return d.body.dataset.state === "loading"; }`)
	f.eval(`(window.openGate(), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.richViews === "in"`)
	f.waitFrame(`(w, d) => { d.querySelector(".cancel-call").click(); return true; }`)
	f.waitFrame(`(w, d) => d.body.dataset.state === "ready" && !!d.querySelector("#result table.data:not(.plain-table)")`)
	if got := f.drawnAs(); got.Plain || !strings.Contains(got.Text, "gamma") {
		t.Errorf("after the cancelled call: %+v; want the host's result drawn richly", got)
	}
}

// A plain drawing stays bounded however the data is shaped: records with
// more keys between them than a table can hold are drawn as a card each,
// and past its budget of values the rest is one click away.
func TestPlainDrawingIsBounded(t *testing.T) {
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n", "", 1)
	host = strings.Replace(host, "bridge.start();", "bridge.start();\n"+
		`bridge.sendToolResult({ content: [], structuredContent: Array.from({ length: 200 }, (_, i) => Object.fromEntries(Array.from({ length: 50 }, (_, j) => ["r" + i + "f" + j, j]))) });`, 1)
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_rows", Description: "Lists rows.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.open("list_rows")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	type seen struct {
		Tables, Cards int
		More          []string
		Text          string
	}
	look := func() seen {
		var s seen
		_ = json.Unmarshal(f.frame(`(w, d) => ({Tables: d.querySelectorAll("#result table.plain-table").length,
			Cards: d.querySelectorAll("#result .plain-data dl.card").length, More: Array.from(d.querySelectorAll("#result .plain-more"), (b) => b.textContent),
			Text: d.getElementById("result").innerText})`), &s)
		return s
	}
	got := look()
	if got.Tables != 0 || got.Cards == 0 || got.Cards >= 200 || len(got.More) != 1 || got.More[0] != fmt.Sprintf("Show the other %d of 200", 200-got.Cards) || strings.Contains(got.Text, "r199f0") {
		t.Fatalf("200 records with 50 keys each: %d tables, %d cards, buttons %q; want no table, a card each until the budget, a button for the rest", got.Tables, got.Cards, got.More)
	}
	for i := 0; i < 20 && len(got.More) > 0; i++ {
		f.waitFrame(`(w, d) => { d.querySelector("#result .plain-more").click(); return true; }`)
		got = look()
	}
	if got.Cards != 200 || len(got.More) != 0 || !strings.Contains(got.Text, "r199f49") {
		t.Errorf("after the buttons: %d cards, buttons %q; want all 200 records, no button", got.Cards, got.More)
	}
}

// A plain drawing shows every value: records and fields past the first 200
// one click away, values inside records and objects drawn as fields, lists
// one value a line, and what lies deeper than four levels as its JSON. A
// scalar is its cell's own text (no element per value: fewer to style and
// lay out before the first paint), a number in the code font.
func TestPlainDrawingShowsEveryValue(t *testing.T) {
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n", "", 1)
	host = strings.Replace(host, "bridge.start();", "bridge.start();\n"+
		`bridge.sendToolResult({ content: [], structuredContent: { rows: Array.from({ length: 250 }, (_, i) => ({ id: "row-" + i, n: i, owner: { name: "owner-" + i }, tags: ["t" + i, "u" + i] })), deep: { a: { b: { c: { d: { e: "deepest" } } } } }, fields: Object.fromEntries(Array.from({ length: 230 }, (_, i) => ["field" + i, "value" + i])) } });`, 1)
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_rows", Description: "Lists rows.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.open("list_rows")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	type seen struct {
		Rows   int
		More   []string
		Text   string
		Nested bool
		// The first row's cells: their elements, and the class and font of the number's.
		Spans, NumClass, NumFont, IDFont string
	}
	look := func() seen {
		var s seen
		_ = json.Unmarshal(f.frame(`(w, d) => { const cells = d.querySelectorAll("#result table.plain-table > tbody > tr:first-child > td");
			return {Rows: d.querySelectorAll("#result table.plain-table > tbody > tr").length,
			More: Array.from(d.querySelectorAll("#result .plain-more"), (b) => b.textContent), Text: d.getElementById("result").innerText,
			Nested: !!d.querySelector("#result table.plain-table td dl.card"),
			Spans: Array.from(cells, (c) => c.querySelectorAll("span").length).join(","), NumClass: cells[1].className,
			NumFont: getComputedStyle(cells[1]).fontFamily, IDFont: getComputedStyle(cells[0]).fontFamily}; }`), &s)
		return s
	}
	got := look()
	if got.Rows != 200 || strings.Join(got.More, "|") != "Show the other 50 of 250|Show the other 30 of 230" || !got.Nested {
		t.Fatalf("plain drawing of 250 records and 230 fields: %d rows, buttons %q, nested card %v; want 200 rows, buttons for the other 50 rows and 30 fields, the owner as a card", got.Rows, got.More, got.Nested)
	}
	// At its narrowest a cell keeps a nested card's key and its value's first word on one line.
	var keyWithValue bool
	_ = json.Unmarshal(f.frame(`(w, d) => { const card = d.querySelector("#result table.plain-table td dl.card"), td = card.closest("td");
		td.style.width = "1px"; const same = card.querySelector("dt").getClientRects()[0].top === card.querySelector("dd").getClientRects()[0].top;
		td.style.width = ""; return same; }`), &keyWithValue)
	if !keyWithValue {
		t.Error("a nested card's key and value are on separate lines in a narrow cell")
	}
	if got.Spans != "0,0,0,0" || got.NumClass != "plain-scalar" || got.NumFont == got.IDFont {
		t.Errorf("first row: spans per cell %s, number's cell class %q font %q (the id's %q); want no element per value, the number in the code font", got.Spans, got.NumClass, got.NumFont, got.IDFont)
	}
	for _, want := range []string{"row-0", "owner-199", "t199", "u199", `"e": "deepest"`, "value199"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("the plain drawing lacks %s", want)
		}
	}
	if strings.Contains(got.Text, "value200") {
		t.Error("the plain drawing shows the 201st field before its button is pressed")
	}
	f.waitFrame(`(w, d) => { d.querySelectorAll("#result .plain-more").forEach((b) => b.click()); return true; }`)
	if got = look(); got.Rows != 250 || len(got.More) != 0 || !strings.Contains(got.Text, "owner-249") || !strings.Contains(got.Text, "value229") {
		t.Errorf("after the buttons: %d rows, buttons %q; want all 250 rows and 230 fields, no button", got.Rows, got.More)
	}
}
