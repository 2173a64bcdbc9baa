package apitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

// The develop loop's part of the suite: the call history, re-running and
// comparing calls, and checks. The demo's set_units changes what
// get_current_weather answers (temperatures in °F), which stands for a
// server whose answer changed.

func codeOf(err error) contract.ErrorCode {
	var ce *contract.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// compact is raw without insignificant whitespace (the HTTP API indents
// what it serves).
func compact(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

func callOK(t *testing.T, api contract.API, source, tool, args string) contract.CallResult {
	t.Helper()
	res, err := api.CallTool(ctxOf(t), contract.CallRequest{Name: tool, Arguments: json.RawMessage(args), Source: source})
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	return res
}

// testHistory: every call is recorded (arguments, result, source,
// generation), listed newest first with filters, and read back whole.
func testHistory(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	a := callOK(t, api, contract.SourceTUI, "get_current_weather", `{"location":"Berlin"}`)
	b := callOK(t, api, contract.SourceAPI, "get_forecast", `{"location":"Oslo","days":2}`)
	c := callOK(t, api, contract.SourceAPI, "get_current_weather", `{"location":"Oslo","units":"kelvin"}`) // isError
	if a.HistoryID == 0 || b.HistoryID <= a.HistoryID || c.HistoryID <= b.HistoryID || !c.IsError {
		t.Fatalf("history ids %d %d %d (isError %v)", a.HistoryID, b.HistoryID, c.HistoryID, c.IsError)
	}
	page, err := api.History(ctx, contract.HistoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, e := range page.Entries {
		ids = append(ids, e.ID)
		if !e.Listed || e.Result != nil || e.Summary == "" {
			t.Errorf("listed entry %+v", e)
		}
	}
	if !slices.Equal(ids, []int64{c.HistoryID, b.HistoryID, a.HistoryID}) || page.Matching != 3 {
		t.Fatalf("history %v (matching %d)", ids, page.Matching)
	}
	for q, want := range map[string]contract.HistoryQuery{
		"tool":   {Tool: "get_current_weather"},
		"source": {Source: contract.SourceTUI},
		"errors": {Errors: true},
		"before": {Before: b.HistoryID},
		"limit":  {Limit: 1},
	} {
		p, err := api.History(ctx, want)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, e := range p.Entries {
			got = append(got, e.ID)
		}
		exp := map[string][]int64{"tool": {c.HistoryID, a.HistoryID}, "source": {a.HistoryID}, "errors": {c.HistoryID},
			"before": {a.HistoryID}, "limit": {c.HistoryID}}[q]
		if !slices.Equal(got, exp) {
			t.Errorf("history %s: %v, want %v", q, got, exp)
		}
	}
	e, err := api.HistoryEntry(ctx, a.HistoryID)
	if err != nil {
		t.Fatal(err)
	}
	if e.Tool != "get_current_weather" || e.Source != contract.SourceTUI || compact(e.Arguments) != `{"location":"Berlin"}` ||
		!json.Valid(e.Result) || !strings.Contains(string(e.Result), `"Berlin"`) || e.Generation < 1 || e.Listed || e.Duration <= 0 {
		t.Fatalf("entry %+v", e)
	}
	if _, err := api.HistoryEntry(ctx, 99999); codeOf(err) != contract.CodeNotFound {
		t.Fatalf("unknown entry: %v", err)
	}
	if _, err := api.History(ctx, contract.HistoryQuery{Limit: -1}); codeOf(err) != contract.CodeInvalidArgument {
		t.Fatalf("negative limit: %v", err)
	}
	if st, _ := api.State(ctx); !st.History.Enabled || st.History.LastID != c.HistoryID || st.History.Entries != 3 {
		t.Fatalf("state.history %+v", st.History)
	}
}

// testRerunAndCompare: re-running a call after the server's answer
// changed reports how, path by path; ignore paths and edited arguments
// work.
func testRerunAndCompare(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	first := callOK(t, api, contract.SourceTUI, "get_current_weather", `{"location":"Berlin"}`)
	same, err := api.RerunCall(ctx, contract.RerunRequest{ID: first.HistoryID, Source: contract.SourceTUI})
	if err != nil {
		t.Fatal(err)
	}
	if !same.Diff.Equal || same.Previous.ID != first.HistoryID || same.Entry.ID <= first.HistoryID ||
		compact(same.Entry.Arguments) != `{"location":"Berlin"}` || same.Entry.Source != contract.SourceTUI {
		t.Fatalf("rerun of an unchanged server: %+v", same)
	}
	callOK(t, api, contract.SourceAPI, "set_units", `{"units":"imperial"}`) // the server's answer changes
	changed, err := api.RerunCall(ctx, contract.RerunRequest{ID: first.HistoryID})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range changed.Diff.Changes {
		paths = append(paths, c.Path)
	}
	if changed.Diff.Equal || !slices.Contains(paths, "/structuredContent/units") || !slices.Contains(paths, "/structuredContent/temperature") {
		t.Fatalf("rerun after the change: %+v", changed.Diff)
	}
	text := strings.Join(changed.Diff.Text(), "\n")
	if !strings.Contains(text, `~ /structuredContent/units: "metric" → "imperial"`) {
		t.Fatalf("diff text:\n%s", text)
	}
	d, err := api.CompareCalls(ctx, contract.CompareRequest{A: first.HistoryID, B: changed.Entry.ID})
	if err != nil {
		t.Fatal(err)
	}
	if d.Equal || len(d.Changes) != len(changed.Diff.Changes) {
		t.Fatalf("compare: %+v", d)
	}
	d, err = api.CompareCalls(ctx, contract.CompareRequest{A: first.HistoryID, B: changed.Entry.ID,
		Ignore: []string{"structuredContent.units", "structuredContent.temperature", "/content"}})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Equal || d.Ignored == 0 {
		t.Fatalf("compare with ignore paths: %+v", d)
	}
	edited, err := api.RerunCall(ctx, contract.RerunRequest{ID: first.HistoryID, Arguments: json.RawMessage(`{"location":"Berlin","units":"metric"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !edited.Diff.Equal || !strings.Contains(string(edited.Entry.Arguments), `"metric"`) {
		t.Fatalf("rerun with edited arguments: %+v", edited)
	}
	if _, err := api.CompareCalls(ctx, contract.CompareRequest{A: first.HistoryID, B: changed.Entry.ID, Ignore: []string{"a["}}); codeOf(err) != contract.CodeInvalidArgument {
		t.Fatalf("bad ignore path: %v", err)
	}
	if _, err := api.RerunCall(ctx, contract.RerunRequest{ID: 424242}); codeOf(err) != contract.CodeNotFound {
		t.Fatalf("rerun of an unknown call: %v", err)
	}
}

// testChecks: a pinned call replays equal, changed (with the diff) after
// the server changed, and --update accepts the new result.
func testChecks(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	if list, err := api.Checks(ctx); err != nil || len(list) != 0 {
		t.Fatalf("no checks yet: %v %v", list, err)
	}
	call := callOK(t, api, contract.SourceTUI, "get_current_weather", `{"location":"Lisbon"}`)
	c, err := api.AddCheck(ctx, contract.AddCheckRequest{Name: "lisbon", HistoryID: call.HistoryID})
	if err != nil {
		t.Fatal(err)
	}
	if c.Tool != "get_current_weather" || string(c.Arguments) == "" || !strings.Contains(string(c.Result), "Lisbon") || c.File == "" {
		t.Fatalf("check %+v", c)
	}
	if _, err := api.AddCheck(ctx, contract.AddCheckRequest{Name: "forecast", Tool: "get_forecast", Arguments: json.RawMessage(`{"location":"Lisbon","days":1}`),
		Ignore: []string{"structuredContent.days[*].conditions"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.AddCheck(ctx, contract.AddCheckRequest{Name: "lisbon", HistoryID: call.HistoryID}); err != nil {
		t.Fatalf("pinning the same call again changes nothing: %v", err)
	}
	for _, bad := range []contract.AddCheckRequest{
		{Name: "../escape", Tool: "get_forecast"},
		{Name: "x", Tool: "get_forecast", Ignore: []string{"a["}},
		{Name: "x"},
		{Name: "x", HistoryID: 777777},
	} {
		if _, err := api.AddCheck(ctx, bad); err == nil {
			t.Errorf("AddCheck(%+v) accepted", bad)
		}
	}
	list, err := api.Checks(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "forecast" || list[1].Name != "lisbon" {
		t.Fatalf("checks %+v %v", list, err)
	}
	rep, err := api.RunChecks(ctx, contract.RunChecksRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Equal != 2 {
		t.Fatalf("run: %+v", rep)
	}
	callOK(t, api, contract.SourceAPI, "set_units", `{"units":"imperial"}`)
	rep, err = api.RunChecks(ctx, contract.RunChecksRequest{Names: []string{"lisbon"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Changed != 1 || rep.Outcomes[0].Diff == nil || rep.Outcomes[0].Diff.Equal {
		t.Fatalf("run after the change: %+v", rep)
	}
	rep, err = api.RunChecks(ctx, contract.RunChecksRequest{Update: true})
	if err != nil {
		t.Fatal(err)
	}
	// forecast changed too (°F), lisbon too: both accepted.
	if !rep.OK() || rep.Updated != 2 {
		t.Fatalf("update: %+v", rep)
	}
	if rep, _ := api.RunChecks(ctx, contract.RunChecksRequest{}); !rep.OK() || rep.Equal != 2 {
		t.Fatalf("after the update: %+v", rep)
	}
	if _, err := api.RunChecks(ctx, contract.RunChecksRequest{Names: []string{"nope"}}); codeOf(err) != contract.CodeNotFound {
		t.Fatalf("unknown check: %v", err)
	}
	// Check runs are calls like any other.
	if p, _ := api.History(ctx, contract.HistoryQuery{Source: contract.SourceCheck}); len(p.Entries) == 0 {
		t.Fatal("check runs are not in the history")
	}
}
