package gen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestRichCellsInBrowser checks how table cells show hard values, in the
// sandboxed test host: nested objects as compact JSON, null and missing
// values as an em dash, booleans as marks, numbers with one number of
// decimals per column and digit grouping (not for years), ISO date-times
// shortened, data: images as thumbnails, long text clamped with the full
// text in the title; and that a wide table scrolls inside its own box while
// the page never scrolls sideways, also in a 400 px host.
func TestRichCellsInBrowser(t *testing.T) {
	f, ui := newFixture(t)
	ui.add(t, Tool{Name: "inventory_report", Description: "Items.", InputSchema: json.RawMessage(stressSchema)})
	f.open("inventory_report")
	f.eval(fmt.Sprintf(`(bridge.sendToolInput({warehouse: "W-7"}), bridge.sendToolResult(%s), true)`, stressResult(30)), nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && !!d.querySelector(".collection[data-state=ready]")`)

	// cell returns {Text, Class, Title, HTML-free facts} of column key in row i.
	type cell struct {
		Text, Class, Title, Label, Img, Chips string
		Clamp                                 bool
	}
	get := func(key string, row int) cell {
		t.Helper()
		var c cell
		f.frameJSON(fmt.Sprintf(`(w, d) => {
			const keys = [...d.querySelectorAll(".collection th")].map(th => th.dataset.key);
			const i = keys.indexOf(%q);
			if (i < 0) throw new Error("no column %s");
			const td = d.querySelectorAll(".collection tbody tr")[%d].children[i];
			const img = td.querySelector("img");
			return {Text: td.textContent, Class: td.className, Title: td.title || (td.firstElementChild ? td.firstElementChild.title : ""),
				Label: td.getAttribute("aria-label") || "", Img: img ? img.className + " " + img.src.slice(0, 22) : "", Clamp: !!td.querySelector(".clamp"),
				Chips: [...td.querySelectorAll(".chip")].map(e => e.textContent).join("|")};
		}`, key, key, row), &c)
		return c
	}
	checks := []struct {
		key   string
		row   int
		check func(c cell) bool
	}{
		// Objects and arrays are formatted, never JSON (issue 23).
		{"supplier", 1, func(c cell) bool { return c.Text == "country US \u00b7 name Acme Corp \u00b7 rating 1" }},
		{"tags", 0, func(c cell) bool { return c.Text == "acmeheavy" && c.Chips == "acme|heavy" }},
		{"discount", 1, func(c cell) bool { return c.Text == "—" && strings.Contains(c.Class, "empty") && c.Title == "null" }},
		{"notes", 1, func(c cell) bool { return c.Text == "—" && strings.Contains(c.Class, "empty") }}, // key missing in odd rows
		{"discount", 0, func(c cell) bool { return c.Text == "0.15" && strings.Contains(c.Class, "num") }},
		{"active", 0, func(c cell) bool { return c.Text == "✗" && c.Label == "false" }},
		{"active", 1, func(c cell) bool { return c.Text == "✓" && c.Label == "true" }},
		{"on_hand", 1, func(c cell) bool { return c.Text == "123,457" }},
		{"unit_price", 0, func(c cell) bool { return c.Text == "0.00" }},
		{"unit_price", 1, func(c cell) bool { return c.Text == "7.31" }},
		{"year", 1, func(c cell) bool { return c.Text == "2021" }},
		{"sku", 0, func(c cell) bool { return c.Text == "SKU-01000" }},
		{"updated_at", 1, func(c cell) bool { return c.Text == "2026-01-02 01:15 UTC" && c.Title == "2026-01-02T01:15:00Z" }},
		{"thumbnail", 0, func(c cell) bool { return c.Img == "thumb data:image/png;base64," }},
		{"description", 1, func(c cell) bool {
			return c.Clamp && strings.HasPrefix(c.Title, "A very long") && strings.HasSuffix(c.Title, "end.")
		}},
	}
	for _, ck := range checks {
		if c := get(ck.key, ck.row); !ck.check(c) {
			t.Errorf("%s row %d = %+v", ck.key, ck.row, c)
		}
	}

	// Wide: the table box scrolls sideways, the page does not; at 400 px the
	// rows stack instead, so no column is out of sight.
	type layout struct{ WrapScroll, WrapClient, PageScroll, PageClient int }
	for _, width := range []int{760, 400} {
		f.eval(fmt.Sprintf(`(document.getElementById("ui").style.width = "%dpx", true)`, width), nil)
		f.waitFrame(fmt.Sprintf(`(w, d) => w.innerWidth === %d && !!d.querySelector(".collection.stacked") === %v`, width, width < 560))
		var l layout
		f.frameJSON(`(w, d) => { const b = d.querySelector(".table-wrap"); return {WrapScroll: b.scrollWidth, WrapClient: b.clientWidth,
			PageScroll: d.documentElement.scrollWidth, PageClient: d.documentElement.clientWidth}; }`, &l)
		if (width > 560) != (l.WrapScroll > l.WrapClient) || l.PageScroll > l.PageClient {
			t.Errorf("width %d: table box %d/%d (want it scrollable at 760, stacked at 400), page %d/%d (want no sideways scroll)", width, l.WrapScroll, l.WrapClient, l.PageScroll, l.PageClient)
		}
	}

	// A handful of rows: no filter, pager or page size; the row count instead.
	f.eval(fmt.Sprintf(`(bridge.sendToolResult(%s), true)`, stressResult(4)), nil)
	f.waitFrame(`(w, d) => d.querySelectorAll(".collection tbody tr").length === 4`)
	var bar struct {
		Filter, Prev, Size, CSV bool
		Info                    string
	}
	f.frameJSON(`(w, d) => { const v = s => { const e = d.querySelector(".collection " + s); return !!e && e.getClientRects().length > 0; };
		return {Filter: v("input.filter"), Prev: v("button.prev"), Size: v("select.page-size"), CSV: v("button.csv"), Info: d.querySelector(".collection .page-info").textContent}; }`, &bar)
	if bar.Filter || bar.Prev || bar.Size || !bar.CSV || bar.Info != "4 rows" {
		t.Errorf("toolbar for 4 rows = %+v, want only the CSV button and \"4 rows\"", bar)
	}

	// No records: a message in the table, no toolbar.
	f.eval(`(bridge.sendToolResult({content: [], structuredContent: {warehouse: "W-0", items: []}}), true)`, nil)
	f.waitFrame(`(w, d) => !!d.querySelector(".collection td.empty-row")`)
	var empty struct {
		Msg string
		Bar bool
	}
	f.frameJSON(`(w, d) => ({Msg: d.querySelector(".collection td.empty-row").textContent, Bar: d.querySelector(".collection .toolbar").getClientRects().length > 0})`, &empty)
	if empty.Msg != "No rows." || empty.Bar {
		t.Errorf("empty result = %+v, want \"No rows.\" and no toolbar", empty)
	}

	// An error: its message sits in the banner, not again below it.
	f.eval(`(bridge.sendToolResult({isError: true, content: [{type: "text", text: "warehouse W-9 does not exist"}]}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "error"`)
	var errView struct {
		Banner string
		Texts  int
	}
	f.frameJSON(`(w, d) => { const b = d.querySelector("#result .error-banner"); return {Banner: b.querySelector(".error-title").textContent + b.querySelector(".error-message").textContent + (b.querySelector("details.error-raw") ? " +raw" : ""), Texts: d.querySelectorAll("#result .text").length}; }`, &errView)
	if errView.Banner != "The tool reported an error.warehouse W-9 does not exist +raw" || errView.Texts != 0 {
		t.Errorf("error view = %+v", errView)
	}
}
