package apitest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
)

// bound is the longest the suite waits for anything that should be quick.
const bound = 20 * time.Second

// Run is the conformance suite of contract.API. newAPI returns the
// implementation under test for a fresh harness (the engine itself, or a
// client of h.APIURL). Every subtest gets its own harness, so they are
// independent.
func Run(t *testing.T, newAPI func(t *testing.T, h *Harness) contract.API) {
	cases := []struct {
		name string
		f    func(t *testing.T, h *Harness, api contract.API)
	}{
		{"State", testState},
		{"Variables", testVariables},
		{"Tools", testTools},
		{"UnknownTool", testUnknownTool},
		{"UI", testUI},
		{"Inspect", testInspect},
		{"RefineAndRegenerate", testRefineAndRegenerate},
		{"DropRefinement", testDropRefinement},
		{"RefineNotUnderstood", testRefineNotUnderstood},
		{"ReadableUI", testReadableUI},
		{"CallTool", testCallTool},
		{"RefreshTools", testRefreshTools},
		{"Preview", testPreview},
		{"SubscribeSeesEngineEvents", testSubscribeEngineEvents},
		{"WatchingNeverConsumes", testWatchingNeverConsumes},
		{"SubscribeEndsWithContext", testSubscribeEnds},
		{"SubscribeSeesTraffic", testSubscribeTraffic},
		{"RecentTraffic", testRecentTraffic},
		{"PendingEventsNeverConsumes", testPendingEvents},
		{"SubscribeSeesLogRecords", testSubscribeLog},
		{"History", testHistory},
		{"RerunAndCompare", testRerunAndCompare},
		{"Checks", testChecks},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := Start(t)
			c.f(t, h, newAPI(t, h))
		})
	}
}

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	t.Cleanup(cancel)
	return ctx
}

// demoTools are the demo upstream's tools, in its order (sorted by name).
var demoTools = []string{"datastore_search", "get_battery_status", "get_current_weather", "get_forecast",
	"get_tiny_image", "reset_demo", "run_battery", "set_units"}

func testState(t *testing.T, h *Harness, api contract.API) {
	st, err := api.State(ctxOf(t))
	if err != nil {
		t.Fatal(err)
	}
	if st.Version != engine.Version || st.Generator == "" || !st.Upstream.Connected {
		t.Fatalf("state: version %q generator %q upstream %+v", st.Version, st.Generator, st.Upstream)
	}
	if st.URLs.API != h.APIURL || st.URLs.MCP != h.APIURL+"/mcp" || st.URLs.UI != h.UIURL {
		t.Fatalf("urls %+v, want api %s ui %s", st.URLs, h.APIURL, h.UIURL)
	}
	var names []string
	for _, ts := range st.Tools {
		names = append(names, ts.Name)
		if ts.UI.State != contract.UIStateNone || ts.ResourceURI != contract.UIURI(ts.Name) || ts.Hash == "" {
			t.Errorf("fresh tool %s: %+v", ts.Name, ts)
		}
	}
	if !slices.Equal(names, demoTools) {
		t.Fatalf("state tools %v, want %v", names, demoTools)
	}
	if st.Sessions == nil || st.Refinements == nil {
		t.Fatalf("sessions and refinements must be lists/maps, never null: %+v %+v", st.Sessions, st.Refinements)
	}
}

func testVariables(t *testing.T, h *Harness, api contract.API) {
	v, err := api.Variables(ctxOf(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Variables) < 20 || v.Variables[v.RootID].Type != "object" || v.Version != engine.Version {
		t.Fatalf("variables: %d nodes, root %+v", len(v.Variables), v.Variables[v.RootID])
	}
	found := false
	for _, x := range v.Variables {
		if x.Path == "upstream.connected" {
			found = x.Value == true
		}
	}
	if !found {
		t.Fatal("no upstream.connected = true in the tree")
	}
}

func testTools(t *testing.T, h *Harness, api contract.API) {
	tools, err := api.Tools(ctxOf(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]contract.ToolInfo{}
	for _, ti := range tools {
		names = append(names, ti.Name)
		byName[ti.Name] = ti
	}
	if !slices.Equal(names, demoTools) {
		t.Fatalf("tools %v, want %v", names, demoTools)
	}
	f := byName["get_forecast"]
	if f.Description == "" || !json.Valid(f.InputSchema) || !strings.Contains(string(f.InputSchema), `"location"`) ||
		len(f.OutputSchema) == 0 {
		t.Fatalf("get_forecast: %+v", f)
	}
	if b := byName["get_battery_status"]; !b.AppOnly() || b.ModelOnly() {
		t.Fatalf("get_battery_status visibility %v: want app-only", b.Visibility)
	}
	if r := byName["reset_demo"]; !r.ModelOnly() || r.AppOnly() {
		t.Fatalf("reset_demo visibility %v: want model-only", r.Visibility)
	}
}

func testUnknownTool(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	checks := map[string]func() error{
		"UI":      func() error { _, err := api.UI(ctx, "get_forcast"); return err },
		"Inspect": func() error { _, err := api.Inspect(ctx, "get_forcast"); return err },
		"Refine": func() error {
			_, err := api.Refine(ctx, contract.RefineRequest{Tool: "get_forcast", Feedback: "x"})
			return err
		},
		"Regenerate": func() error {
			_, err := api.Regenerate(ctx, contract.RegenerateRequest{Tool: "get_forcast"})
			return err
		},
		"CallTool": func() error {
			_, err := api.CallTool(ctx, contract.CallRequest{Name: "get_forcast"})
			return err
		},
		"Preview": func() error { _, err := api.Preview(ctx, "get_forcast"); return err },
	}
	for name, f := range checks {
		err := f()
		var ae *contract.Error
		if !errors.Is(err, contract.ErrUnknownTool) || !errors.As(err, &ae) {
			t.Errorf("%s of an unknown tool: %v (%T), want an unknown_tool *contract.Error", name, err, err)
			continue
		}
		if !slices.Contains(ae.Suggestions, "get_forecast") || !strings.Contains(ae.Message, "get_forecast") {
			t.Errorf("%s: suggestions %v, message %q: want get_forecast suggested", name, ae.Suggestions, ae.Message)
		}
	}
}

func testUI(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	v, err := api.UI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	if v.Tool != "get_forecast" || v.URI != "ui://get_forecast" || v.MIMEType != contract.MIMEApp ||
		!strings.Contains(v.HTML, "<html") || v.CacheKey == "" || v.FromCache || v.Meta.UIType == "" {
		t.Fatalf("first UI read: %+v (html %d bytes)", v.Meta, len(v.HTML))
	}
	again, err := api.UI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	if !again.FromCache || again.HTML != v.HTML || again.CacheKey != v.CacheKey {
		t.Fatalf("second read: fromCache %v, same html %v, key %s vs %s", again.FromCache, again.HTML == v.HTML, again.CacheKey, v.CacheKey)
	}
	st, err := api.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range st.Tools {
		if ts.Name == "get_forecast" && (ts.UI.State != contract.UIStateCached || ts.UI.Kind != v.Meta.UIType || ts.UI.CacheKey != v.CacheKey) {
			t.Fatalf("state after reading the UI: %+v", ts.UI)
		}
	}
}

func testInspect(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	in, err := api.Inspect(ctx, "get_current_weather")
	if err != nil {
		t.Fatal(err)
	}
	if in.Cached || in.Meta != nil || len(in.History) != 0 || in.CacheKey == "" || in.Tool.Name != "get_current_weather" {
		t.Fatalf("inspect before any read: %+v", in)
	}
	if _, err := api.UI(ctx, "get_current_weather"); err != nil {
		t.Fatal(err)
	}
	in, err = api.Inspect(ctx, "get_current_weather")
	if err != nil {
		t.Fatal(err)
	}
	if !in.Cached || in.Meta == nil || in.Meta.UIType == "" || in.Meta.GeneratedAt.IsZero() {
		t.Fatalf("inspect after a read: %+v", in)
	}
}

func testRefineAndRegenerate(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	before, err := api.UI(ctx, "datastore_search")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.Refine(ctx, contract.RefineRequest{Tool: "datastore_search", Feedback: "  "}); !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("empty feedback: %v, want invalid_argument", err)
	}
	ch, err := api.Refine(ctx, contract.RefineRequest{Tool: "datastore_search", Feedback: "dark theme, 25 per page", Source: contract.SourceTUI})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Tool != "datastore_search" || ch.Reason != "refine" || ch.Refinements != 1 || ch.OldHTML != before.HTML ||
		ch.OldCacheKey != before.CacheKey || ch.CacheKey == before.CacheKey || ch.HTML == before.HTML || ch.Feedback == "" {
		t.Fatalf("refine: %+v (old key %s)", summary(ch), before.CacheKey)
	}
	in, err := api.Inspect(ctx, "datastore_search")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.History) != 1 || in.History[0].Feedback != "dark theme, 25 per page" || in.History[0].Source != contract.SourceTUI {
		t.Fatalf("history after refine: %+v", in.History)
	}
	now, err := api.UI(ctx, "datastore_search")
	if err != nil || now.HTML != ch.HTML || now.CacheKey != ch.CacheKey {
		t.Fatalf("UI after refine is not the refined one (%v)", err)
	}
	re, err := api.Regenerate(ctx, contract.RegenerateRequest{Tool: "datastore_search", ClearRefinements: true})
	if err != nil {
		t.Fatal(err)
	}
	if re.Reason != "regenerate" || !re.RefinementsCleared || re.Refinements != 0 || re.OldHTML != ch.HTML ||
		re.CacheKey != before.CacheKey || re.HTML != before.HTML {
		t.Fatalf("regenerate with clear: %+v", summary(re))
	}
}

// testDropRefinement: dropping a refinement (the last, or any one by its
// index) regenerates the UI from the rest: dropping every one brings the
// first UI back; a stale feedback check or a missing index drops nothing.
func testDropRefinement(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	const tool = "datastore_search"
	before, err := api.UI(ctx, tool)
	if err != nil {
		t.Fatal(err)
	}
	first, err := api.Refine(ctx, contract.RefineRequest{Tool: tool, Feedback: "dark theme"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := api.Refine(ctx, contract.RefineRequest{Tool: tool, Feedback: "25 per page"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.DropRefinement(ctx, contract.DropRefinementRequest{Tool: tool, Index: 0, Feedback: "not what it is"}); !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("drop with a stale feedback: %v, want invalid_argument", err)
	}
	if _, err := api.DropRefinement(ctx, contract.DropRefinementRequest{Tool: tool, Index: 5}); !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("drop of refinement 5 of 2: %v, want invalid_argument", err)
	}
	if _, err := api.DropRefinement(ctx, contract.DropRefinementRequest{Tool: "datastore_serch", Index: -1}); !isCode(err, contract.CodeUnknownTool) {
		t.Fatalf("drop on an unknown tool: %v", err)
	}
	// Drop the first: the UI is what the second alone makes.
	ch, err := api.DropRefinement(ctx, contract.DropRefinementRequest{Tool: tool, Index: 0, Feedback: "dark theme", Source: contract.SourceTUI})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Reason != "drop" || ch.Feedback != "dark theme" || ch.Refinements != 1 || ch.OldHTML != second.HTML || ch.HTML == second.HTML {
		t.Fatalf("drop the first: %+v", summary(ch))
	}
	in, err := api.Inspect(ctx, tool)
	if err != nil || len(in.History) != 1 || in.History[0].Feedback != "25 per page" {
		t.Fatalf("history after dropping the first: %+v %v", in.History, err)
	}
	// Drop the last (the only one): the first UI again.
	last, err := api.DropRefinement(ctx, contract.DropRefinementRequest{Tool: tool, Index: -1})
	if err != nil {
		t.Fatal(err)
	}
	if last.Refinements != 0 || last.HTML != before.HTML || last.CacheKey != before.CacheKey || last.Feedback != "25 per page" {
		t.Fatalf("drop the last: %+v (the first UI's key %s; first refine %s)", summary(last), before.CacheKey, first.CacheKey)
	}
}

// testRefineNotUnderstood: with RequireUnderstood, feedback the offline
// generator cannot read is refused and nothing is recorded; without it, it
// is recorded (the developer confirmed).
func testRefineNotUnderstood(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	const tool = "get_forecast"
	_, err := api.Refine(ctx, contract.RefineRequest{Tool: tool, Feedback: "make it sparkle like a unicorn", RequireUnderstood: true})
	if !isCode(err, contract.CodeNotUnderstood) || !strings.Contains(err.Error(), "not understood offline") {
		t.Fatalf("refine not understood: %v, want not_understood", err)
	}
	in, err := api.Inspect(ctx, tool)
	if err != nil || len(in.History) != 0 {
		t.Fatalf("a refused refinement was recorded: %+v %v", in.History, err)
	}
	if _, err := api.Refine(ctx, contract.RefineRequest{Tool: tool, Feedback: "dark theme", RequireUnderstood: true}); err != nil {
		t.Fatalf("an understood refinement with RequireUnderstood: %v", err)
	}
	ch, err := api.Refine(ctx, contract.RefineRequest{Tool: tool, Feedback: "make it sparkle like a unicorn"})
	if err != nil || ch.Refinements != 2 || len(ch.Notes) == 0 {
		t.Fatalf("confirmed refinement: %+v %v", summary(ch), err)
	}
}

// testReadableUI: the offline page is served packed; ReadableUI has it
// unpacked (its scripts and styles readable), marked Packed.
func testReadableUI(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	v, err := api.UI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	r, err := api.ReadableUI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.HTML, "data-genui-pack") || v.Packed {
		t.Fatalf("UI is not the packed page as served (packed %v)", v.Packed)
	}
	if !r.Packed || strings.Contains(r.HTML, "data-genui-pack>") || len(r.HTML) <= len(v.HTML) || r.CacheKey != v.CacheKey ||
		!strings.Contains(r.HTML, "function") || !strings.Contains(r.HTML, "<style") {
		t.Fatalf("ReadableUI: packed %v, %d bytes (served %d)", r.Packed, len(r.HTML), len(v.HTML))
	}
	if _, err := api.ReadableUI(ctx, "get_forcast"); !isCode(err, contract.CodeUnknownTool) {
		t.Fatalf("ReadableUI of an unknown tool: %v", err)
	}
}

func summary(ch contract.UIChange) contract.UIChange {
	ch.HTML, ch.OldHTML = clip(ch.HTML), clip(ch.OldHTML)
	return ch
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func isCode(err error, code contract.ErrorCode) bool {
	var e *contract.Error
	return errors.As(err, &e) && e.Code == code
}

func testCallTool(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	res, err := api.CallTool(ctx, contract.CallRequest{Name: "get_current_weather", Arguments: json.RawMessage(`{"location":"Paris"}`)})
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(res.Result, &r); err != nil || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, "Paris") ||
		r.StructuredContent["location"] != "Paris" || res.IsError {
		t.Fatalf("call result: %s (%v)", res.Result, err)
	}
	for _, bad := range []string{`[1]`, `"Paris"`, `{`} {
		if _, err := api.CallTool(ctx, contract.CallRequest{Name: "get_current_weather", Arguments: json.RawMessage(bad)}); !isCode(err, contract.CodeInvalidArgument) {
			t.Errorf("arguments %s: %v, want invalid_argument", bad, err)
		}
	}
	// A tool error is a result, not a failure.
	res, err = api.CallTool(ctx, contract.CallRequest{Name: "get_forecast", Arguments: json.RawMessage(`{"location":"Paris","days":99}`)})
	if err != nil || !res.IsError {
		t.Fatalf("out-of-range days: err %v, isError %v: %s", err, res.IsError, res.Result)
	}
}

func testRefreshTools(t *testing.T, h *Harness, api contract.API) {
	d, err := api.RefreshTools(ctxOf(t))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Empty() || len(d.Unchanged) != len(demoTools) {
		t.Fatalf("refresh of an unchanged upstream: %+v", d)
	}
}

func testPreview(t *testing.T, h *Harness, api contract.API) {
	p, err := api.Preview(ctxOf(t), "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	if p.Tool != "get_forecast" || p.URL != h.APIURL+"/preview/get_forecast" {
		t.Fatalf("preview: %+v", p)
	}
}

// next returns the first event of kind for tool, failing after bound.
func next(t *testing.T, ch <-chan contract.Event, kind contract.EventKind, tool string) contract.Event {
	t.Helper()
	timeout := time.After(bound)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatalf("event stream closed while waiting for %s", kind)
			}
			if ev.Kind == kind && ev.Tool == tool {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s event for %q within %s", kind, tool, bound)
		}
	}
}

func testSubscribeEngineEvents(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	ch, err := api.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.Refine(ctx, contract.RefineRequest{Tool: "get_forecast", Feedback: "dark theme"}); err != nil {
		t.Fatal(err)
	}
	started := next(t, ch, contract.EventGenerationStarted, "get_forecast")
	if _, ok := started.Detail.(*contract.GenerationStarted); !ok {
		t.Fatalf("generation-started detail %T", started.Detail)
	}
	fin := next(t, ch, contract.EventGenerationFinished, "get_forecast")
	fd, ok := fin.Detail.(*contract.GenerationFinished)
	if !ok || fd.UIType == "" || fd.CacheKey == "" || fin.Seq <= started.Seq || fin.Time.IsZero() {
		t.Fatalf("generation-finished: %+v %T %+v", fin, fin.Detail, fd)
	}
	up := next(t, ch, contract.EventUIUpdated, "get_forecast")
	ud, ok := up.Detail.(*contract.UIUpdated)
	if !ok || ud.Reason != "refine" || ud.CacheKey != fd.CacheKey {
		t.Fatalf("ui-updated: %T %+v", up.Detail, ud)
	}
}

func testWatchingNeverConsumes(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	ch, err := api.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A UI's ui/message as the preview queues it for agents.
	pushed := h.E.Push(contract.SourcePreview, "ui/message", "get_forecast", map[string]any{"text": "hello from the UI"})
	ev := next(t, ch, contract.EventQueued, "get_forecast")
	q, ok := ev.Detail.(*contract.Queued)
	if !ok || q.Event.Seq != pushed.Seq || q.Event.Type != "ui/message" || !strings.Contains(string(q.Event.Payload), "hello from the UI") {
		t.Fatalf("queued event: %T %+v", ev.Detail, q)
	}
	// The agent still gets it.
	code, body := h.Wait(t, "2")
	if code != 200 || !strings.Contains(string(body), "hello from the UI") {
		t.Fatalf("/wait after a watcher saw the event: %d %s", code, body)
	}
	dr := next(t, ch, contract.EventQueueDrained, "")
	if d, ok := dr.Detail.(*contract.QueueDrained); !ok || d.Count < 1 || d.LastSeq < pushed.Seq {
		t.Fatalf("queue-drained: %T %+v", dr.Detail, dr.Detail)
	}
}

func testSubscribeEnds(t *testing.T, h *Harness, api contract.API) {
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := api.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	timeout := time.After(bound)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatal("the event channel stayed open after its context ended")
		}
	}
}

func testSubscribeTraffic(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	ch, err := api.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.CallTool(ctx, contract.CallRequest{Name: "get_current_weather", Arguments: json.RawMessage(`{"location":"Oslo"}`)}); err != nil {
		t.Fatal(err)
	}
	var req, resp *contract.Traffic
	timeout := time.After(bound)
	for req == nil || resp == nil {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatal("event stream closed")
			}
			tr, isT := ev.Detail.(*contract.Traffic)
			if ev.Kind != contract.EventTraffic || !isT || tr.Method != "tools/call" {
				continue
			}
			switch {
			case tr.Direction == contract.GenuiToUpstream && tr.Kind == "request":
				req = tr
			case tr.Direction == contract.UpstreamToGenui && tr.Kind == "response":
				resp = tr
			}
		case <-timeout:
			t.Fatalf("no tools/call traffic within %s (request %v, response %v)", bound, req != nil, resp != nil)
		}
	}
	if !strings.Contains(string(req.Frame), "Oslo") || !strings.Contains(string(resp.Frame), "Oslo") || resp.Latency <= 0 || resp.Size == 0 {
		t.Fatalf("traffic: request %s / response %.200s latency %s", req.Frame, resp.Frame, resp.Latency)
	}
	// The frames as they went over the wire: the request's real id, the
	// answer under the same id, both naming the tool.
	if len(req.ID) == 0 || string(req.ID) == "null" || string(resp.ID) != string(req.ID) {
		t.Fatalf("traffic ids: request %q, response %q", req.ID, resp.ID)
	}
	if !strings.Contains(string(req.Frame), `"id":`+string(req.ID)) {
		t.Fatalf("the request's frame does not carry its id %s: %s", req.ID, req.Frame)
	}
	if req.Tool != "get_current_weather" || resp.Tool != "get_current_weather" {
		t.Fatalf("traffic tool: request %q, response %q", req.Tool, resp.Tool)
	}
}

// testRecentTraffic: the frames of a call nobody watched are recorded,
// numbered without gaps, and read back after a number and within a limit.
func testRecentTraffic(t *testing.T, h *Harness, api contract.API) {
	ctx := ctxOf(t)
	if _, err := api.CallTool(ctx, contract.CallRequest{Name: "get_current_weather", Arguments: json.RawMessage(`{"location":"Oslo"}`)}); err != nil {
		t.Fatal(err)
	}
	all, err := api.RecentTraffic(ctx, contract.TrafficQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var call, answer int64
	for i, ev := range all.Events {
		tr, ok := ev.Detail.(*contract.Traffic)
		if !ok || ev.Kind != contract.EventTraffic || ev.Time.IsZero() {
			t.Fatalf("event %d: %+v", i, ev)
		}
		if want := all.Last - int64(len(all.Events)-1-i); tr.Seq != want {
			t.Fatalf("event %d: traffic number %d, want %d (no gaps, the newest last)", i, tr.Seq, want)
		}
		if tr.Method == "tools/call" && tr.Direction == contract.UpstreamToGenui && tr.Kind == "response" && strings.Contains(string(tr.Frame), "Oslo") {
			answer = tr.Seq
		}
		if tr.Method == "tools/call" && tr.Direction == contract.GenuiToUpstream && tr.Kind == "request" {
			call = tr.Seq
		}
	}
	if call == 0 || answer <= call || all.Skipped != 0 {
		t.Fatalf("recent traffic: call %d, answer %d, skipped %d, %d events", call, answer, all.Skipped, len(all.Events))
	}
	// After the call's number, limited to one: the newest frame, and the
	// count of those between.
	page, err := api.RecentTraffic(ctx, contract.TrafficQuery{After: call, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != 1 || page.Events[0].Detail.(*contract.Traffic).Seq != page.Last || page.Skipped != page.Last-call-1 {
		t.Fatalf("after %d limit 1: %d events, skipped %d, last %d", call, len(page.Events), page.Skipped, page.Last)
	}
	if page, err := api.RecentTraffic(ctx, contract.TrafficQuery{After: page.Last}); err != nil || len(page.Events) != 0 {
		t.Fatalf("after the last: %+v, %v", page, err)
	}
}
