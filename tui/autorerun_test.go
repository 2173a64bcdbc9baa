package tui

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

func rerunOf(tool string, prev, id int64, equal bool) contract.Rerun {
	r := contract.Rerun{Previous: contract.HistoryEntry{ID: prev, Tool: tool}, Entry: contract.HistoryEntry{ID: id, Tool: tool},
		Diff: contract.ResultDiff{Equal: equal}}
	if !equal {
		r.Diff.Changes = []contract.PathChange{{Path: "/content/0/text", Kind: "changed", Old: json.RawMessage(`"a"`), New: json.RawMessage(`"b"`)}}
	}
	return r
}

// The re-runs after a restart open their report only when something
// changed (or failed), and keys typed just before it showed go to what was
// under it; D shows the report when asked.
func TestAutoRerunReportOpensOnlyWithChangesAndTakesNoEarlyKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		d := newDriver(t, newStub(), func(o *Options) { o.Now = func() time.Time { return now } })
		defer d.finish()
		viewer := func() bool { _, open := find[*viewerDialog](&d.m.overlay); return open }

		// A save with no change: the status line says so, nothing opens.
		d.send(historyAutoMsg{generation: 2, reruns: []contract.Rerun{rerunOf("alpha", 1, 3, true), rerunOf("beta", 2, 4, true)}})
		if viewer() {
			t.Fatal("the report opened with 0 changes")
		}
		mustContain(t, d.screen(), "2 call(s) run again, none changed")
		if got := d.m.selected(); got != "alpha" {
			t.Fatalf("selected %s", got)
		}

		// A change: it opens, but a key pressed within the grace goes to
		// the tool list (j moves down), not into the report.
		d.send(historyAutoMsg{generation: 3, reruns: []contract.Rerun{rerunOf("alpha", 3, 5, false)}})
		if !viewer() {
			t.Fatal("the report did not open with a change")
		}
		d.key("j")
		if got := d.m.selected(); got != "beta" || !viewer() {
			t.Fatalf("a key typed as the report opened: selected %s, report open %v; want beta, open", got, viewer())
		}
		// Once it has been on screen, keys are its own: esc closes it.
		now = now.Add(time.Second)
		d.key("esc")
		if viewer() {
			t.Fatal("esc after the grace did not close the report")
		}
		if got := d.m.selected(); got != "beta" {
			t.Fatalf("esc reached the list: selected %s", got)
		}
		// D in the History pane shows it again, taking keys at once.
		d.key("8")
		d.key("l")
		d.key("D")
		if !viewer() || !strings.Contains(d.screen(), "After the restart · 1 changed of 1") {
			t.Fatalf("D did not show the report:\n%s", d.screen())
		}
		d.key("esc")
		if viewer() {
			t.Fatal("esc did not close the report D showed")
		}
	})
}
