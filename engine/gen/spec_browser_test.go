package gen

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/uicorpus"
	"github.com/genui-dev/genui/viewspec"
)

// specPage is the offline page of tool drawing spec.
func specPage(t *testing.T, tool Tool, spec viewspec.Spec, outcomes []viewspec.Outcome) string {
	t.Helper()
	html, err := RenderSpec(tool, spec, outcomes)
	if err != nil {
		t.Fatal(err)
	}
	return html
}

// TestSpecDrivesTheDrawing: fields of the view spec change what the page
// draws of a recorded result: column order and labels, a hidden field, the
// principal path (a part at depth drawn alone, the principal drawn once
// however many content blocks hold it), a column one level down in the
// row, and refinements not applied said on the page.
func TestSpecDrivesTheDrawing(t *testing.T) {
	servers, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	env := newCorpusEnv(t)
	// show opens html for tool and delivers result, then returns the text
	// of what the frame answers to fn.
	show := func(id string, html string, call *uicorpus.Call, fn string) string {
		t.Helper()
		if err := env.open(id, html); err != nil {
			t.Fatal(err)
		}
		if err := env.show(&corpusPage{call: call}); err != nil {
			t.Fatal(err)
		}
		b, err := env.frame(fn)
		if err != nil {
			t.Fatal(err)
		}
		var s string
		if json.Unmarshal(b, &s) != nil {
			s = string(b)
		}
		return s
	}
	headers := `(w, d) => [...d.querySelectorAll("#result table.data th")].map((th) => th.textContent.trim()).join("|")`
	resultText := `(w, d) => d.getElementById("result").innerText`

	branchTool, branchResult := corpusCall(t, servers, "git", "git_branch", 0)
	branchCall := &uicorpus.Call{Tool: "git_branch", Arguments: json.RawMessage(`{}`), Result: branchResult}

	// Auto: the renderer's own columns.
	auto := show("auto", specPage(t, branchTool, viewspec.New(), nil), branchCall, headers)
	if !strings.Contains(auto, "commitHash") || !strings.HasPrefix(auto, "name") {
		t.Fatalf("auto columns: %q", auto)
	}
	// Column order and labels, as the spec says.
	s := viewspec.New()
	s.Principal = "/branches"
	s.ViewOf().Columns = []viewspec.Column{{Field: "current", Label: "Current?"}, {Field: "name", Label: "Branch", Width: 240}}
	if got := show("cols", specPage(t, branchTool, s, nil), branchCall, headers); got != "Current?|Branch" {
		t.Errorf("columns from the spec: got %q, want Current?|Branch (auto was %q)", got, auto)
	}
	width := show("cols", specPage(t, branchTool, s, nil), branchCall, `(w, d) => [...d.querySelectorAll("#result table.data th")][1].style.width`)
	if width != "240px" {
		t.Errorf("the Branch column's width: %q", width)
	}
	// A column's format sets its type (here a count read as text: no number alignment or numeric sort).
	typeOf := `(w, d) => { const th = d.querySelector('#result table.data th[data-key="ahead"]'); return th ? th.dataset.type : "none"; }`
	if got := show("auto", specPage(t, branchTool, viewspec.New(), nil), branchCall, typeOf); got != "number" {
		t.Fatalf("auto type of ahead: %q", got)
	}
	s = viewspec.New()
	s.ViewOf().Columns = []viewspec.Column{{Field: "name"}, {Field: "ahead", Format: "text"}}
	if got := show("format", specPage(t, branchTool, s, nil), branchCall, typeOf); got != "string" {
		t.Errorf("format text: the ahead column's type is %q", got)
	}
	// A hidden field (from a plain-word refinement, through the generator).
	res, err := NewOffline().Generate(context.Background(), Request{Tool: branchTool, Example: branchResult, Refinements: []string{"hide the commit hash"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := show("hidden", res.HTML, branchCall, headers); strings.Contains(got, "commitHash") || !strings.Contains(got, "name") {
		t.Errorf("hide the commit hash: columns %q", got)
	}
	// The principal data is drawn once although the text block repeats it.
	tables := `(w, d) => String(d.querySelectorAll("#result table.data").length)`
	res, err = NewOffline().Generate(context.Background(), Request{Tool: branchTool, Example: branchResult})
	if err != nil {
		t.Fatal(err)
	}
	if res.Spec.Principal != "/branches" {
		t.Fatalf("proposal: %s", res.Spec.JSON())
	}
	if got := show("once", res.HTML, branchCall, tables); got != "1" {
		t.Errorf("principal /branches: %s tables, want 1", got)
	}

	// The principal path picks a part at depth and draws it alone.
	statusTool, statusResult := corpusCall(t, servers, "git", "git_status", 0)
	statusCall := &uicorpus.Call{Tool: "git_status", Arguments: json.RawMessage(`{}`), Result: statusResult}
	whole := show("status", specPage(t, statusTool, viewspec.New(), nil), statusCall, resultText)
	s = viewspec.New()
	s.Principal = "/unstagedChanges"
	part := show("status-part", specPage(t, statusTool, s, nil), statusCall, resultText)
	if !strings.Contains(whole, "currentBranch") && !strings.Contains(whole, "main") {
		t.Fatalf("auto git_status shows %q", whole)
	}
	if !strings.Contains(part, "src/orders.js") || strings.Contains(part, "currentBranch") || strings.Contains(part, "TODO.md") {
		t.Errorf("principal /unstagedChanges shows %q (the whole result: %q)", part, whole)
	}

	// A part with its own label and view is drawn on its own, once, and not in the rest.
	s = viewspec.New()
	s.Parts = []viewspec.Part{{Path: "/untrackedFiles", Label: "New files", View: &viewspec.View{Kind: viewspec.KindJSON}}}
	parted := show("status-parts", specPage(t, statusTool, s, nil), statusCall, `(w, d) => {
		const sec = d.querySelector("#result section.spec-part");
		const rest = [...d.getElementById("result").children].filter((c) => !c.matches("section.spec-part, details.raw")).map((c) => c.innerText).join(" ");
		return sec ? sec.querySelector("h3").textContent + "|" + (sec.querySelector("[data-view=json]") ? "json" : "other") + "|" + sec.innerText.includes("TODO.md") + "|" + rest.includes("TODO.md") : "none";
	}`)
	if parted != "New files|json|true|false" {
		t.Errorf("a part with its own view: %q", parted)
	}

	// A column one level down in each row ("show only the note content").
	notesTool := Tool{Name: "list_notes", InputSchema: json.RawMessage(`{"type":"object"}`)}
	notes := json.RawMessage(`{"content":[],"structuredContent":{"notes":[{"id":1,"note":{"content":"first note","tags":["a"]}},{"id":2,"note":{"content":"second note"}}]}}`)
	res, err = NewOffline().Generate(context.Background(), Request{Tool: notesTool, Example: notes, Refinements: []string{"show only the note content"}})
	if err != nil {
		t.Fatal(err)
	}
	notesCall := &uicorpus.Call{Tool: "list_notes", Arguments: json.RawMessage(`{}`), Result: notes}
	if got := show("notes", res.HTML, notesCall, headers); got != "content" {
		t.Errorf("show only the note content: columns %q, spec %s", got, res.Spec.JSON())
	}
	if got := show("notes", res.HTML, notesCall, `(w, d) => [...d.querySelectorAll("#result table.data td")].map((td) => td.textContent).join("|")`); got != "first note|second note" {
		t.Errorf("show only the note content: cells %q", got)
	}

	// The chart's kind, axes, unit and labels.
	dayTool, dayResult := corpusCall(t, servers, "postgres", "query", 2)
	dayCall := &uicorpus.Call{Tool: "query", Arguments: json.RawMessage(`{}`), Result: dayResult}
	s = viewspec.New()
	s.ViewOf().Kind = viewspec.KindChart
	s.View.Chart = &viewspec.Chart{Kind: "bar", X: "day", Y: []string{"orders"}, Unit: "orders", YLabel: "Orders per day"}
	chart := show("chart", specPage(t, dayTool, s, nil), dayCall, `(w, d) => { const c = d.querySelector("#result svg.chart"); return c ? c.getAttribute("class") + "|" + c.getAttribute("aria-label") + "|" + [...c.querySelectorAll(".grid text")].map((x) => x.textContent).join(",") : "none"; }`)
	if !strings.HasPrefix(chart, "chart bar|Bar chart of Orders per day by day|") || !strings.Contains(chart, " orders") {
		t.Errorf("chart from the spec: %q", chart)
	}

	// A refinement not applied is said on the page.
	res, err = NewOffline().Generate(context.Background(), Request{Tool: branchTool, Example: branchResult, Refinements: []string{"show only the reviewer"}})
	if err != nil {
		t.Fatal(err)
	}
	note := show("missed", res.HTML, branchCall, `(w, d) => (d.querySelector(".refine-outcomes") || {}).textContent || ""`)
	if !strings.Contains(note, "not applied") || !strings.Contains(note, "reviewer") {
		t.Errorf("the page says of a refinement not applied: %q", note)
	}
}
