package gen

import (
	"strings"
	"testing"
)

// TestResultsOwnRecordInSightBeforeItsContext: a result that is one record
// with its context ({task: {ten fields}, message, context: {ancestors:
// [...], root: {task, children: [...]}}}, a task tracker's getTask) draws the
// record's fields in sight in its header, above the context's records; it
// had folded the record behind its key (more than a small object's eight
// fields), so the task itself was one click away while its ancestors were
// the table. The context's records, found below the header, are captioned
// with their keys ("context › ancestors"): "2 rows" alone did not say what
// they are.
func TestResultsOwnRecordInSightBeforeItsContext(t *testing.T) {
	f, ui := newFixture(t)
	miss := shownRecordedMetrics(t, f, ui, "astrotask", "getTask", 2)
	var got struct {
		Header   string
		Folds    []string
		Rows     int
		Above    bool
		Caption  string
	}
	f.frameJSON(`(w, d) => {
		const seen = (e) => !!e && e.getClientRects().length > 0;
		const card = [...d.querySelectorAll("#result dl.card.meta")].find(seen);
		const table = [...d.querySelectorAll("#result table.data")].find(seen);
		return {
			Header: card ? card.innerText : "",
			Folds: [...d.querySelectorAll("#result details.side > summary")].filter(seen).map((s) => s.textContent),
			Rows: table ? table.querySelectorAll("tbody tr").length : 0,
			Above: !!(card && table && (card.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING)),
			Caption: ((d.querySelector("#result .records-caption") || {}).textContent || ""),
		};
	}`, &got)
	for _, want := range []string{"Add a tax column to the export", "Tax in integer cents", "in-progress", "ENGN-JCXZ", "Found task"} {
		if !strings.Contains(got.Header, want) {
			t.Errorf("the header in sight lacks %q: %q", want, got.Header)
		}
	}
	for _, s := range got.Folds {
		if strings.HasPrefix(strings.TrimSpace(s), "task") {
			t.Errorf("the task is still a fold: %q", s)
		}
	}
	if got.Rows == 0 || !got.Above {
		t.Errorf("want the context's records as a table below the task's card (rows %d, card above %v)", got.Rows, got.Above)
	}
	// Found below the header, the table says what its rows are.
	if got.Caption != "context \u203a ancestors" {
		t.Errorf("records caption %q, want the keys down to the rows", got.Caption)
	}
	if miss["coverage"] != "" || miss["dup"] != "" {
		t.Errorf("metrics: %v", miss)
	}
}
