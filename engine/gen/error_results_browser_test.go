package gen

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 33's classes, understanding results by their structure: an error
// result leads with its message, however the server sends it (an error
// object as data, JSON text inside the message, an API's error body in a
// JSON-RPC error), no raw JSON or markers in sight, the text as it came one
// click away.
//
// Each test shows a result recorded from a server of the UI corpus
// (internal/uicorpus) in its offline page; some of these servers were
// held out until 2 December 2026 and then moved to the tuned split to be
// looked at by the corpus rule (testdata/uicorpus/README.md).
// Where no recorded server shows a shape the issue quotes, the test
// writes that shape, as its comment says.

// TestErrorReportedAsDataLeadsWithMessage: an error a server reports as data
// ({"success": false, "error": ...} or {"error": ...} without isError; the
// recorded task manager answers a task it does not have that way, the
// recorded database gateway sets isError, TestRecordedErrorLeadsWithMessage)
// or as a JSON error object in an isError result shows the message first, no
// raw JSON in sight, the payload one click away.
func TestErrorReportedAsDataLeadsWithMessage(t *testing.T) {
	f, ui := newFixture(t)
	tool := Tool{Name: "execute_sql", Description: "Runs SQL against the demo database.", InputSchema: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`)}
	recorded := recordedCall(t, "ohno-tasks", "get_task", 2)
	for _, c := range []struct {
		name, result, message string
		tool                  *Tool
		args                  string
	}{
		{name: "recorded: an error object without isError", result: string(recorded.Result), message: "Task not found: task-0badc0de", tool: new(corpusTool(t, "ohno-tasks", "get_task")), args: string(recorded.Arguments)},
		{name: "success false in text", result: `{"content":[{"type":"text","text":"{\n  \"success\": false,\n  \"error\": \"no such table: employes\",\n  \"code\": \"EXECUTION_ERROR\"\n}"}]}`, message: "no such table: employes"},
		{name: "success false structured", result: `{"content":[{"type":"text","text":"{\"success\":false,\"error\":\"no such table: employes\",\"code\":null}"}],"structuredContent":{"success":false,"error":"no such table: employes"}}`, message: "no such table: employes"},
		{name: "isError with an error object", result: `{"isError":true,"content":[{"type":"text","text":"{\"error\":{\"code\":\"SQLITE_ERROR\",\"message\":\"near \\\"SELEC\\\": syntax error\"}}"}]}`, message: `near "SELEC": syntax error`},
	} {
		tl, args := tool, `{"sql":"SELECT * FROM employes"}`
		if c.tool != nil {
			tl, args = *c.tool, c.args
		}
		showResult(t, f, ui, tl, args, c.result)
		var got struct {
			Message string
			Visible string
			Raw     int
		}
		f.frameJSON(errorShownJS, &got)
		if got.Message != c.message {
			t.Errorf("%s: the banner says %q, want %q", c.name, got.Message, c.message)
		}
		if strings.Contains(got.Visible, "{") || strings.Contains(got.Visible, `"success"`) {
			t.Errorf("%s: raw JSON in sight: %q", c.name, got.Visible)
		}
		if got.Raw == 0 {
			t.Errorf("%s: the payload is not one click away", c.name)
		}
		pageInvariantsHold(t, f, c.name, c.message)
	}
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
		f.frameJSON(errorShownJS, &got)
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

// TestErrorMessageQuotedAsJSONLeads: an error object whose message is
// itself JSON text ({"error": "[{\"code\": \"invalid_enum_value\", \"options\":
// [...], \"path\": [...], \"message\": \"Invalid enum value...\"}]"}, a
// validator's issues) leads with the issues' messages, not with the text's
// first line "[" said again for each line of the JSON.
func TestErrorMessageQuotedAsJSONLeads(t *testing.T) {
	f, ui := newFixture(t)
	showRecorded(t, f, ui, "ohno-tasks", "update_task_status", 3)
	var got struct {
		Messages []string
		Raw      int
	}
	f.frameJSON(`(w, d) => ({
		Messages: [...d.querySelectorAll("#result .error-banner .error-message")].map((m) => m.textContent),
		Raw: d.querySelectorAll("#result details.raw").length})`, &got)
	if len(got.Messages) != 1 || !strings.HasPrefix(got.Messages[0], "Invalid enum value. Expected 'todo'") {
		t.Errorf("the banner says %q, want the issue's message once", got.Messages)
	}
	if got.Raw == 0 {
		t.Error("the raw text is not one click away")
	}
	c := recordedCall(t, "ohno-tasks", "update_task_status", 3)
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(c.Result, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("recorded result %s", c.Result)
	}
	pageInvariantsHold(t, f, "ohno-tasks/update_task_status", cleanErrorMessage(r.Content[0].Text))
	// The text as it came (the code, options and path) is one click away.
	var raw string
	f.frameJSON(`(w, d) => (d.querySelector("#result .error-banner details.raw pre") || {}).textContent || ""`, &raw)
	if !strings.Contains(raw, "invalid_enum_value") || !strings.Contains(raw, "options") {
		t.Errorf("the raw error text %q, want the text as it came", raw)
	}
	if miss := recordedMetrics(t, f, "ohno-tasks", "update_task_status", 3); miss["coverage"] != "" {
		t.Error(miss["coverage"])
	}
}

// TestCallErrorOfJSONBodyLeadsWithItsMessage: a failed call whose JSON-RPC
// message is an API's error body as JSON
// ({"error":{"code":"not_found","message":"no order 4711"}}, an OpenAPI
// client passing on a 404) leads with the body's message on its own line,
// the JSON as it came one click away, not the JSON as the headline.
func TestCallErrorOfJSONBodyLeadsWithItsMessage(t *testing.T) {
	f, ui := newFixture(t)
	c := recordedCall(t, "openapi-twilio", "Acme-orders--getOrder", 3)
	var e struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal(c.Error, &e); err != nil || !strings.HasPrefix(e.Message, "{") {
		t.Fatalf("call 3 is not the recorded JSON error body: %s", c.Error)
	}
	ui.add(t, corpusTool(t, "openapi-twilio", "Acme-orders--getOrder"))
	f.open("Acme-orders--getOrder")
	msg, _ := json.Marshal(e.Message)
	f.eval(`(window.replies.push({rpcError: `+string(msg)+`}), true)`, nil)
	var ok bool
	f.frameJSON(`(w, d) => (d.getElementById("tool-form").requestSubmit(), true)`, &ok)
	f.waitFrame(`(w, d) => d.body.dataset.state === "error" && !d.getElementById("call-error").hidden`)
	var got struct {
		Headline string
		Raw      string
	}
	f.frameJSON(`(w, d) => ({
		Headline: (d.querySelector("#call-error .error-message") || {}).textContent || "",
		Raw: (d.querySelector("#call-error details.raw pre") || {}).textContent || ""})`, &got)
	if got.Headline != "no order 4711" {
		t.Errorf("headline %q, want the body's message", got.Headline)
	}
	if !strings.Contains(got.Raw, `"code":"not_found"`) {
		t.Errorf("raw error text %q, want the body as it came", got.Raw)
	}
	pageInvariantsHold(t, f, "openapi-twilio/Acme-orders--getOrder call 3", "no order 4711")
}

// TestRecordedErrorRawTextOneClickAway: an error's message is shown
// cleaned ("Debugger is not paused", not "Error: browserBackend.callTool:
// ..."); the text as it came, with the prefixes cleaning dropped, is one
// click away in the page (the raw fold holds it before it is opened).
func TestRecordedErrorRawTextOneClickAway(t *testing.T) {
	f, ui := newFixture(t)
	metricsHold(t, f, ui, []string{"coverage"},
		recordedRef{"playwright", "browser_resume", 1},
		recordedRef{"playwright", "browser_navigate", 4},
		recordedRef{"playwright", "browser_click", 4},
		recordedRef{"postgres-admin", "pg_manage_indexes", 1},
		recordedRef{"postgres-admin", "pg_execute_query", 3})
	var raw string
	f.frameJSON(`(w, d) => { const r = d.querySelector("#result details.raw.error-raw"); return r && !r.open ? r.textContent : ""; }`, &raw)
	if !strings.Contains(raw, "MCP error -32603") {
		t.Errorf("the closed raw fold holds %q, want the text as it came", raw)
	}
}

// errorShownJS reads an error result's banner message, the result's text in
// sight (its raw folds hidden) and how many raw folds it has.
const errorShownJS = `(w, d) => {
	const m = d.querySelector("#result .error-banner .error-message");
	const r = d.getElementById("result");
	const raw = [...r.querySelectorAll("details.raw")];
	raw.forEach((x) => x.hidden = true);
	const visible = r.innerText;
	raw.forEach((x) => x.hidden = false);
	return {Message: m ? m.textContent : "", Visible: visible, Raw: raw.length};
}`
