package gen

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 33's classes checked on results recorded from the tuned servers
// added to be looked at (testdata/uicorpus/README.md: dbhub, pdf,
// tasks-shrimp, fetch-http).

// visibleTextJS is the result's visible text (closed folds and the raw view
// left out) and the text of its closed folds.
const visibleTextJS = `(w, d) => {
	const r = d.getElementById("result");
	const raw = [...r.querySelectorAll("details.raw")];
	raw.forEach((x) => x.hidden = true);
	const visible = r.innerText;
	raw.forEach((x) => x.hidden = false);
	const folds = [...r.querySelectorAll("details:not(.raw):not([open])")].map((x) => x.textContent).join("\n");
	return {Visible: visible, Folds: folds};
}`

// TestMessageBesideDataDrawnOnce: a text that is no copy of the structured
// data but repeats its values with words of its own (the PDF server's "PDF
// opened. viewUUID: … call `interact` with this viewUUID" beside {viewUUID,
// url, initialPage, totalBytes}) does not draw the id twice: the data is
// the view, the message one click away after it.
func TestMessageBesideDataDrawnOnce(t *testing.T) {
	f, ui := newFixture(t)
	c := recordedCall(t, "pdf", "display_pdf", 1)
	var res struct {
		StructuredContent struct{ ViewUUID string } `json:"structuredContent"`
	}
	if err := json.Unmarshal(c.Result, &res); err != nil {
		t.Fatal(err)
	}
	id := res.StructuredContent.ViewUUID
	if id == "" {
		t.Fatal("the recorded result has no viewUUID")
	}
	showRecorded(t, f, ui, "pdf", "display_pdf", 1)
	var got struct{ Visible, Folds string }
	f.frameJSON(visibleTextJS, &got)
	if n := strings.Count(got.Visible, id); n != 1 {
		t.Errorf("the viewUUID is in sight %d times, want once: %q", n, got.Visible)
	}
	if !strings.Contains(got.Folds, "interact") {
		t.Errorf("the message's own words are not one click away (folds %q)", got.Folds)
	}
	pageInvariantsHold(t, f, "display_pdf", "")
}

// TestRecordedPrincipalDataBelowTheTop: the database gateway's recorded
// answers, {success, data: {statements: [{sql, rows: [...], count}]}}: one
// statement's 40 employee rows are the main table, its wrappers (success,
// the sql, the count) a header, no bullets; with two statements each one's
// rows are their own sub-table in the cell, drawn open (a table of a few
// rows shows the records in its cells), a click folding it.
func TestRecordedPrincipalDataBelowTheTop(t *testing.T) {
	f, ui := newFixture(t)
	showRecorded(t, f, ui, "dbhub", "execute_sql", 1)
	var one struct {
		Rows    int
		Headers []string
		Header  string
		Bullets int
	}
	f.frameJSON(`(w, d) => ({
		Rows: d.querySelectorAll("#result .collection table.data tbody tr").length,
		Headers: [...d.querySelectorAll("#result .collection table.data thead th")].map((th) => th.dataset.key),
		Header: [...d.querySelectorAll("#result dl.card.meta")].map((c) => c.innerText).join(" | "),
		Bullets: d.querySelectorAll("#result .cell-line").length})`, &one)
	if one.Rows != 40 || len(one.Headers) != 5 {
		t.Errorf("one statement: %d rows under %v, want the 40 employee rows of 5 columns as the main table", one.Rows, one.Headers)
	}
	if !strings.Contains(one.Header, "FROM employee") || !strings.Contains(one.Header, "40") || !strings.Contains(one.Header, "success") {
		t.Errorf("one statement: header %q, want success, the sql and the count", one.Header)
	}
	if one.Bullets != 0 {
		t.Errorf("one statement: %d bullets", one.Bullets)
	}
	pageInvariantsHold(t, f, "one statement", "")

	showRecorded(t, f, ui, "dbhub", "execute_sql", 3)
	var two struct{ Rows, Toggles, Bullets int }
	f.frameJSON(`(w, d) => ({
		Rows: d.querySelectorAll("#result .collection > .body > .table-wrap > table.data > tbody > tr").length,
		Toggles: d.querySelectorAll("#result td .sub-records button.sub-toggle").length,
		Bullets: d.querySelectorAll("#result .cell-line").length})`, &two)
	if two.Rows != 2 || two.Toggles != 2 || two.Bullets != 0 {
		t.Fatalf("two statements: %+v, want two statement rows, each rows cell a sub-table toggle, no bullets", two)
	}
	// Two statement rows: their result rows are the substance, drawn open
	// (1 + 6 rows, each sub-table's count on its toggle); a click folds one.
	openRows := `(w, d) => [...d.querySelectorAll("#result td .sub-records .mini-table:not([hidden]) tbody tr")].length`
	var open int
	f.frameJSON(openRows, &open)
	if open != 7 {
		t.Errorf("two statements: %d result rows in sight, want both sub-tables open (1 + 6)", open)
	}
	pageInvariantsHold(t, f, "two statements, both open", "")
	if got := recordedMetrics(t, f, "dbhub", "execute_sql", 3); got["principal"] != "" || got["coverage"] != "" {
		t.Errorf("two statements: %v", got)
	}
	f.frame(`(w, d) => { d.querySelectorAll("#result td .sub-records button.sub-toggle")[1].click(); return true; }`)
	f.waitFrame("(w, d) => (" + openRows + ")(w, d) === 1")
}

// TestRecordedErrorLeadsWithMessage: recorded error results lead with their
// message, no raw JSON or markdown markers in sight, the text one click
// away: the database gateway's {"success": false, "error": ...}, the task
// manager's "## 錯誤" (a heading titling the message, said before it
// without its markers) and the notes server's {"ok": false, "error":
// {"code", "message"}} (its text, the code before the message, leads).
func TestRecordedErrorLeadsWithMessage(t *testing.T) {
	f, ui := newFixture(t)
	for _, c := range []struct {
		server, tool string
		n            int
		message      string
	}{
		{"dbhub", "execute_sql", 4, "no such table: invoices"},
		{"tasks-shrimp", "get_task_detail", 2, "錯誤: 找不到ID為"},
		{"obsidian-notes", "obsidian_read_note", 3, "NOTE_NOT_FOUND: The requested path does not exist."},
	} {
		showRecorded(t, f, ui, c.server, c.tool, c.n)
		var got struct {
			Message, Visible string
			Raw              int
		}
		f.frameJSON(`(w, d) => {
			const m = d.querySelector("#result .error-banner .error-message");
			const r = d.getElementById("result");
			const raw = [...r.querySelectorAll("details.raw")];
			raw.forEach((x) => x.hidden = true);
			const visible = r.innerText;
			raw.forEach((x) => x.hidden = false);
			return {Message: m ? m.textContent : "", Visible: visible, Raw: raw.length};
		}`, &got)
		label := c.server + "/" + c.tool
		if !strings.HasPrefix(got.Message, c.message) {
			t.Errorf("%s: the banner says %q, want it to start %q", label, got.Message, c.message)
		}
		if strings.Contains(got.Visible, "{") || strings.Contains(got.Visible, "#") {
			t.Errorf("%s: raw JSON or markdown markers in sight: %q", label, got.Visible)
		}
		if got.Raw == 0 {
			t.Errorf("%s: the text is not one click away", label)
		}
		cr := recordedCall(t, c.server, c.tool, c.n)
		var r struct {
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal(cr.Result, &r); err != nil || len(r.Content) == 0 {
			t.Fatalf("%s: recorded result %s", label, cr.Result)
		}
		pageInvariantsHold(t, f, label, cleanErrorMessage(r.Content[0].Text))
	}
}

// TestMarkdownTablePrimaryColumnReadable: a fetched page's markdown table
// (the HTTP fetcher's orders: Order, Customer, Quantity, Total, Status) at
// 400 px keeps its primary text column (the customers) at least 150 px wide,
// the table scrolling in its box, not squeezed to a word a line.
func TestMarkdownTablePrimaryColumnReadable(t *testing.T) {
	f, ui := newFixture(t)
	showRecorded(t, f, ui, "fetch-http", "fetch_url", 1)
	f.eval(`(iframe.style.width = "400px", true)`, nil)
	f.waitFrame(`(w, d) => w.innerWidth === 400`)
	var got struct {
		Header string
		Width  float64
	}
	f.frameJSON(`(w, d) => {
		const t = d.querySelector("#result .md .md-table table");
		if (!t) return {Header: "", Width: 0};
		const th = [...t.querySelectorAll("th")].find((x) => x.textContent.trim() === "Customer");
		return {Header: th ? th.textContent.trim() : "", Width: th ? th.getBoundingClientRect().width : 0};
	}`, &got)
	if got.Header != "Customer" {
		t.Fatalf("no markdown table with a Customer column in the page")
	}
	if got.Width < 150 {
		t.Errorf("the Customer column is %.0f px wide at 400 px, want at least 150", got.Width)
	}
	pageInvariantsHold(t, f, "fetched page at 400 px", "")
}

// TestRecordedMarkdownStaysMarkdown: the task manager's markdown, split at
// its headings, stays markdown where a section is prose (a bold line over a
// list is no list of values with its ** shown), and a tool description
// written in markdown with headings is drawn as markdown, not as its
// source.
func TestRecordedMarkdownStaysMarkdown(t *testing.T) {
	f, ui := newFixture(t)
	showRecorded(t, f, ui, "tasks-shrimp", "init_project_rules", 1)
	var got struct {
		Visible, Folds string
		Values         int
	}
	f.frameJSON(`(w, d) => {
		const r = d.getElementById("result");
		const raw = [...r.querySelectorAll("details.raw")];
		raw.forEach((x) => x.hidden = true);
		const visible = r.innerText;
		raw.forEach((x) => x.hidden = false);
		return {Visible: visible, Values: r.querySelectorAll("ul.values").length};
	}`, &got)
	if strings.Contains(got.Visible, "**") || got.Values != 0 {
		t.Errorf("init_project_rules: %d value lists, bold markers in sight: %v", got.Values, strings.Contains(got.Visible, "**"))
	}
	pageInvariantsHold(t, f, "init_project_rules", "")

	ui.add(t, corpusTool(t, "tasks-shrimp", "split_tasks"))
	f.open("split_tasks")
	var desc struct {
		Text string
		MD   bool
	}
	f.frameJSON(`(w, d) => { const e = d.getElementById("tool-description"); return {Text: e ? e.textContent : "", MD: !!(e && e.classList.contains("md"))}; }`, &desc)
	if !desc.MD || strings.Contains(desc.Text, "## ") || strings.Contains(desc.Text, "**") {
		t.Errorf("split_tasks's description: markdown %v, markers in its text %q", desc.MD, desc.Text[:min(len(desc.Text), 200)])
	}
}
