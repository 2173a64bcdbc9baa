package gen

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/uicorpus"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
	"github.com/genui-dev/genui/viewspec"
)

// specPage is the offline page of tool drawing spec, made as the offline
// generator makes its pages (shim, packing, CSP).
func specPage(t *testing.T, tool Tool, spec viewspec.Spec, outcomes []viewspec.Outcome) string {
	t.Helper()
	html, err := viewdefs.RichSpec(viewdefs.ToolData{Name: tool.Name, Title: tool.Title, Description: tool.Description,
		InputSchema: tool.InputSchema, OutputSchema: tool.OutputSchema}, spec, outcomes)
	if err != nil {
		t.Fatal(err)
	}
	if html, err = pagepack.Pack(mcpshim.Inject(html)); err != nil {
		t.Fatal(err)
	}
	return pagecsp.Apply(html)
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
