package gen

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/uicorpus"
	"github.com/genui-dev/genui/viewspec"
)

// corpusCall returns the tool definition and the first successful
// result of tool on the recorded corpus server.
func corpusCall(t *testing.T, servers []uicorpus.Server, server, tool string, nth int) (Tool, json.RawMessage) {
	t.Helper()
	for _, s := range servers {
		if s.Name != server {
			continue
		}
		var def Tool
		for _, raw := range s.Tools {
			if uicorpus.ToolName(raw) == tool {
				var d struct {
					Name, Title, Description string
					InputSchema              json.RawMessage `json:"inputSchema"`
					OutputSchema             json.RawMessage `json:"outputSchema"`
				}
				if err := json.Unmarshal(raw, &d); err != nil {
					t.Fatal(err)
				}
				def = Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema}
			}
		}
		for _, c := range s.Calls {
			if c.Tool != tool || c.Result == nil || strings.Contains(string(c.Result), `"isError":true`) {
				continue
			}
			if nth == 0 {
				return def, c.Result
			}
			nth--
		}
	}
	t.Fatalf("no result of %s/%s in the corpus", server, tool)
	return Tool{}, nil
}

// TestRefinementsOnRecordedResults: plain-word refinements, nested field
// names among them, on recorded results of the corpus' servers: each is
// applied (with the change it made to the spec) or answered "not applied"
// or "partly applied" with a reason. None is silent.
func TestRefinementsOnRecordedResults(t *testing.T) {
	servers, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		server, tool string
		nth          int
		refinement   string
		status       string
		// want is in the outcome's changes (applied) or reason (otherwise).
		want string
	}{
		{"git", "git_branch", 0, "show the branches only once", viewspec.Applied, "/branches is the principal data, drawn once"},
		{"git", "git_branch", 0, "hide the commit hash", viewspec.Applied, "hidden: commitHash"},
		{"git", "git_branch", 0, "hide the message", viewspec.Applied, "hidden: message"},
		{"git", "git_branch", 0, "show the rows as a table with one column per field", viewspec.Applied, "view.kind: table"},
		{"git", "git_log", 0, "show only the subject and the author email", viewspec.Applied, "view.columns: subject, authorEmail"},
		{"git", "git_log", 0, "show only the message and the author email", viewspec.PartlyApplied, `no field "message"`},
		{"git", "git_log", 0, "sort by timestamp newest first", viewspec.Applied, "view.sort.field: timestamp"},
		{"git", "git_log", 0, "sort by date", viewspec.NotApplied, `no field "date"`},
		{"git", "git_log", 0, "show only the reviewer", viewspec.NotApplied, `no field "reviewer" in the result`},
		{"git", "git_status", 0, "show only the unstaged changes", viewspec.Applied, "principal: /unstagedChanges"},
		{"git", "git_show", 0, "show only the content", viewspec.Applied, "principal: /content"},
		{"postgres", "query", 0, "hide the email", viewspec.Applied, "hidden: email"},
		{"postgres", "query", 0, "show only name and country", viewspec.Applied, "view.columns: name, country"},
		{"postgres", "query", 0, "sort by created_at descending and make it sparkle", viewspec.PartlyApplied, "not understood offline"},
		{"postgres", "query", 2, "bar chart of orders by day", viewspec.Applied, "view.chart"},
		{"desktop-commander", "get_config", 0, "show only the blocked commands", viewspec.Applied, "principal: /config/blockedCommands"},
		{"sequential-thinking", "sequentialthinking", 0, "hide the branches", viewspec.Applied, "hidden: branches"},
		{"sequential-thinking", "sequentialthinking", 0, "show it as a table", viewspec.NotApplied, "no rows"},
		{"redis", "get", 0, "show only the cart", viewspec.Applied, "principal: /cart"},
		{"excel", "excel_describe_sheets", 0, "show only the sheet names", viewspec.Applied, "view.columns: name"},
		{"time", "current_time", 0, "hide the message", viewspec.NotApplied, "the result is text"},
		{"ripgrep", "search", 0, "dark theme and bigger font", viewspec.Applied, "theme.scheme: dark"},
		{"code-runner", "run-code", 0, "make it sparkle", viewspec.NotApplied, "not understood offline"},
		{"fetch", "fetch_markdown", 0, "call it Orders page", viewspec.Applied, "title: Orders page"},
	}
	servs := map[string]bool{}
	for _, c := range cases {
		servs[c.server] = true
		tool, result := corpusCall(t, servers, c.server, c.tool, c.nth)
		spec, outs, _ := SpecFor(tool, result, []string{c.refinement})
		if len(outs) != 1 {
			t.Fatalf("%s/%s %q: %d outcomes", c.server, c.tool, c.refinement, len(outs))
		}
		o := outs[0]
		text := o.String()
		if o.Status != c.status || !strings.Contains(text, c.want) {
			t.Errorf("%s/%s %q: got %s\n  want %s containing %q\n  spec %s", c.server, c.tool, c.refinement, text, c.status, c.want, spec.JSON())
		}
		if o.Status != viewspec.Applied && o.Reason == "" {
			t.Errorf("%s/%s %q: %s without a reason", c.server, c.tool, c.refinement, o.Status)
		}
		if o.Status == viewspec.Applied && len(o.Changes) == 0 && o.Reason == "" {
			t.Errorf("%s/%s %q: applied, but says neither what changed nor why nothing had to", c.server, c.tool, c.refinement)
		}
		if errs := spec.Check(); errs != nil {
			t.Errorf("%s/%s %q: invalid spec %s: %v", c.server, c.tool, c.refinement, spec.JSON(), errs)
		}
		t.Logf("%s/%s %q: %s", c.server, c.tool, c.refinement, text)
	}
	if len(servs) < 6 {
		t.Fatalf("the suite covers %d servers, want at least 6", len(servs))
	}
}

// TestNestedFieldRefinement: the field named sits one level down
// ("show only the note content": content inside note), in a record and
// in rows.
func TestNestedFieldRefinement(t *testing.T) {
	one := json.RawMessage(`{"content":[{"type":"text","text":"{\"note\":{\"id\":3,\"title\":\"x\",\"content\":\"# Hello\"},\"message\":\"ok\"}"}]}`)
	spec, outs, _ := SpecFor(Tool{Name: "get_note"}, one, []string{"show only the note content", "hide the message"})
	if spec.Principal != "/note/content" || outs[0].Status != viewspec.Applied || outs[1].Status != viewspec.Applied || strings.Join(spec.Hidden, ",") != "message" {
		t.Fatalf("record: %s %v", spec.JSON(), outs)
	}
	rows := json.RawMessage(`{"structuredContent":{"notes":[{"id":1,"note":{"content":"a","tags":[]}},{"id":2,"note":{"content":"b"}}]}}`)
	spec, outs, _ = SpecFor(Tool{Name: "list_notes"}, rows, []string{"show only the note content"})
	if spec.Principal != "/notes" || spec.View == nil || len(spec.View.Columns) != 1 || spec.View.Columns[0].Field != "/note/content" || outs[0].Status != viewspec.Applied {
		t.Fatalf("rows: %s %v", spec.JSON(), outs)
	}
	// Without any result, a name cannot be checked: applied as given, and said so.
	spec, outs, _ = SpecFor(Tool{Name: "x"}, nil, []string{"hide the message"})
	if outs[0].Status != viewspec.Applied || !strings.Contains(outs[0].Reason, "no result seen yet") || strings.Join(spec.Hidden, ",") != "message" {
		t.Fatalf("no result: %s %v", spec.JSON(), outs)
	}
}
