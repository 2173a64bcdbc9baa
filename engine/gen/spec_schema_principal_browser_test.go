package gen

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestSchemaPrincipalDrawnAsMainView: a search tool's page, proposed from a
// result whose related searches (9) outnumber the results its outputSchema
// declares (2), draws the results as the main table and the related
// searches folded beside it, not tabs of peers; a principal the schema names
// below a wrapper ({ok, data: {matches}}) keeps the wrapper's values as a
// header. Shapes written here: no recorded tuned result has a schema whose
// array is not the result's largest.
func TestSchemaPrincipalDrawnAsMainView(t *testing.T) {
	f, ui := newFixture(t)
	tool := Tool{Name: "search_docs", Description: "Searches the documentation.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`),
		OutputSchema: json.RawMessage(searchSchema)}
	res, err := NewOffline().Generate(context.Background(), Request{Tool: tool, Example: json.RawMessage(searchResult)})
	if err != nil {
		t.Fatal(err)
	}
	ui.addHTML(tool.Name, res.HTML)
	f.open(tool.Name)
	f.eval(`(bridge.sendToolInput({"query":"csv export"}), bridge.sendToolResult(`+searchResult+`), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	var got struct {
		View, Principal string
		Rows            int
		Headers, Folded []string
	}
	const read = `(w, d) => {
		const v = d.querySelector("#result > .rich");
		return {View: v ? v.dataset.view : "", Principal: v ? (v.dataset.principal || "") : "",
			Rows: d.querySelectorAll("#result .rich > .collection table.data tbody tr, #result .rich > table.data tbody tr").length,
			Headers: [...d.querySelectorAll("#result table.data thead th")].map((th) => th.dataset.key),
			Folded: [...d.querySelectorAll("#result details.side")].map((x) => x.dataset.key)};
	}`
	f.frameJSON(read, &got)
	if got.View != "records" || got.Rows != 2 || !strings.Contains(strings.Join(got.Headers, ","), "title") {
		t.Errorf("search: view %q, %d rows under %v, want the 2 results as the main table", got.View, got.Rows, got.Headers)
	}
	if len(got.Folded) != 1 || got.Folded[0] != "related" {
		t.Errorf("search: folded sections %v, want the related searches folded beside the results", got.Folded)
	}
	pageInvariantsHold(t, f, "search", "")

	vault := Tool{Name: "search_vault", Description: "Searches the notes.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","oneOf":[
			{"type":"object","properties":{"ok":{"const":true},"data":{"type":"object","properties":{"matches":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"},"line":{"type":"integer"}}}},"took_ms":{"type":"integer"}}}}},
			{"type":"object","properties":{"ok":{"const":false},"error":{"type":"object","properties":{"message":{"type":"string"}}}}}]}`)}
	showResult(t, f, ui, vault, `{"query":"export"}`, `{"content":[{"type":"text","text":"2 matches"}],"structuredContent":{"ok":true,"data":{"took_ms":4,"matches":[{"path":"Home.md","line":3},{"path":"Projects/Orders export.md","line":1}],"backlinks":[{"from":"a.md"},{"from":"b.md"},{"from":"c.md"}]}}}`)
	var vgot struct {
		Principal string
		Rows      int
		Header    []string
	}
	f.frameJSON(`(w, d) => {
		const v = d.querySelector("#result > .rich");
		return {Principal: v ? (v.dataset.principal || "") : "",
			// The main table's rows: a collapsed section's few records (the backlinks) are drawn in it, hidden.
			Rows: [...d.querySelectorAll("#result .collection table.data tbody tr")].filter((tr) => !tr.closest("details.side")).length,
			Header: [...d.querySelectorAll("#result dl.card.meta dt")].map((dt) => dt.textContent.trim())};
	}`, &vgot)
	if vgot.Principal != "/data/matches" || vgot.Rows != 2 {
		t.Errorf("vault: principal %q, %d rows, want the schema's matches (2) as the main table", vgot.Principal, vgot.Rows)
	}
	if !slices.Contains(vgot.Header, "ok") || !slices.Contains(vgot.Header, "took_ms") {
		t.Errorf("vault: header keys %q, want the wrapper's ok and the matches' took_ms", vgot.Header)
	}
	pageInvariantsHold(t, f, "vault", "")
}
