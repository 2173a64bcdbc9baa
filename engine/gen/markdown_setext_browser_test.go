package gen

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// setextJS reads a result's markdown: its headings, rules, table rows, the
// text of its code, and whether underline markers are in sight outside code.
const setextJS = `(w, d) => {
	const r = d.getElementById("result");
	const raw = [...r.querySelectorAll("details.raw, .md pre")];
	raw.forEach((x) => x.hidden = true);
	const visible = r.innerText;
	raw.forEach((x) => x.hidden = false);
	return {Headings: [...r.querySelectorAll(".md h1, .md h2, .md h3, .md h4, .md h5, .md h6")].map((h) => h.tagName + " " + h.textContent.trim()),
		Rules: r.querySelectorAll(".md hr").length,
		TableRows: r.querySelectorAll(".md .md-table tbody tr").length,
		Code: [...r.querySelectorAll(".md pre")].map((p) => p.textContent).join("\n"),
		Underlines: /^\s*(?:={3,}|-{3,})\s*$/m.test(visible)};
}`

type setextShape struct {
	Headings   []string
	Rules      int
	TableRows  int
	Code       string
	Underlines bool
}

// TestSetextHeadingsAreHeadings: markdown headings underlined (`Title` over
// `=====`, `Sub` over `-----`), which the streaming parser does not read,
// are drawn as headings (the first level above the second), their
// underlines gone; a `---` after a blank line stays a rule, a table's
// delimiter row its table, a `---` under a list item a rule, front matter
// and fenced code what they were. Recorded: the fetchers' markdown of the
// local site's about page and home page (a table under a setext heading);
// written here, the cases around them no recorded page has.
func TestSetextHeadingsAreHeadings(t *testing.T) {
	f, ui := newFixture(t)
	check := func(label string, got, want setextShape) {
		t.Helper()
		if !slices.Equal(got.Headings, want.Headings) {
			t.Errorf("%s: headings %q, want %q", label, got.Headings, want.Headings)
		}
		if got.Rules != want.Rules || got.TableRows != want.TableRows {
			t.Errorf("%s: %d rules and %d table rows, want %d and %d", label, got.Rules, got.TableRows, want.Rules, want.TableRows)
		}
		if got.Underlines {
			t.Errorf("%s: an underline of = or - is in sight", label)
		}
		if want.Code != "" && !strings.Contains(got.Code, want.Code) {
			t.Errorf("%s: code %q, want it to hold %q as written", label, got.Code, want.Code)
		}
	}
	for _, c := range []struct {
		server, tool string
		want         setextShape
	}{
		{"fetch", "fetch_markdown", setextShape{Headings: []string{"H3 About Acme Orders", "H4 How it works", "H4 Contact"}}},
		{"fetch-http", "fetch_url", setextShape{Headings: []string{"H3 Acme Orders"}, TableRows: 4}},
	} {
		showRecorded(t, f, ui, c.server, c.tool, 1)
		var got setextShape
		f.frameJSON(setextJS, &got)
		check(c.server+"/"+c.tool, got, c.want)
		pageInvariantsHold(t, f, c.server+"/"+c.tool, "")
	}

	tool := Tool{Name: "read_doc", Description: "Reads a document.", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}
	doc := "---\ntitle: Release notes\ndraft: false\n---\n" +
		"Release notes\n=============\n\nThe export is ready for the finance team.\n\n" +
		"Changes\n-------\n\n- CSV writer\n- Paging for the export\n---\n\n" +
		"| Area | Status |\n| --- | --- |\n| Export | done |\n| Import | open |\n\n---\n\n" +
		"```\nNot a heading\n=============\n```\n"
	res, _ := json.Marshal(map[string]any{"content": []map[string]any{{"type": "text", "text": doc}}})
	showResult(t, f, ui, tool, `{"path":"NOTES.md"}`, string(res))
	var got setextShape
	f.frameJSON(setextJS, &got)
	// Rules: the front matter's two, the one under the list, the one after the table.
	check("document", got, setextShape{Headings: []string{"H3 Release notes", "H4 Changes"}, Rules: 4, TableRows: 2, Code: "Not a heading\n============="})
	pageInvariantsHold(t, f, "document", "")
}
