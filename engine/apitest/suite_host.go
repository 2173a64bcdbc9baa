package apitest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/upstream"
)

// The host half of the conformance suite: genui's own surfaces as an MCP
// host (progress, cancel, tasks, answering the upstream's elicitation and
// sampling requests, roots, resources, prompts), run against npm's
// @modelcontextprotocol/server-everything over stdio, a real server that
// exercises every one of them.

// Everything is how to run server-everything for RunHost.
type Everything struct {
	// Node and Script run it: node Script stdio.
	Node, Script string
	// LLM configures genui's LLM provider (a stand-in speaking a
	// provider's wire format) for the sampling draft; LLMText is what it
	// answers and LLMRequests what it was asked (user text of each
	// request). Without LLM the draft case checks the "no provider" error.
	LLM         Option
	LLMText     string
	LLMRequests func() []string
}

// HostRig is a harness over server-everything whose stdin is recorded:
// every frame genui sends the upstream lands in Sent.
type HostRig struct {
	*Harness
	sentPath string
}

// Sent is everything genui has written to the upstream so far.
func (r *HostRig) Sent() string {
	b, _ := os.ReadFile(r.sentPath)
	return string(b)
}

// StartEverything runs a harness over server-everything (stdio, through
// tee so the test sees what reaches the upstream), genui's surfaces
// answering (Options.Surfaces), roots [dir], plus opts.
func StartEverything(t testing.TB, ev Everything, opts ...Option) *HostRig {
	t.Helper()
	sent := filepath.Join(t.TempDir(), "upstream-stdin.jsonl")
	up := upstream.Config{Transport: "stdio", Command: "sh",
		Args:       []string{"-c", `tee -a "$GENUI_TEST_SENT" | exec "$@"`, "sh", ev.Node, ev.Script, "stdio"},
		Env:        []string{"GENUI_TEST_SENT=" + sent},
		BackoffMin: 50 * time.Millisecond, BackoffMax: 500 * time.Millisecond}
	all := append([]Option{func(o *engine.Options) {
		o.Upstream = up
		o.Surfaces = true
		o.Roots = []contract.Root{{URI: "file:///work/project-under-test", Name: "project-under-test"}}
	}}, opts...)
	return &HostRig{Harness: Start(t, all...), sentPath: sent}
}

// RunHost is the host half of the suite for the implementation newAPI
// returns. Every case gets its own server-everything.
func RunHost(t *testing.T, ev Everything, newAPI func(t *testing.T, h *Harness) contract.API) {
	cases := []struct {
		name string
		opts []Option
		f    func(t *testing.T, r *HostRig, api contract.API, ev Everything)
	}{
		{"ProgressThenCancelCall", nil, testProgressThenCancel},
		{"CancelByContext", nil, testCancelByContext},
		{"CancelUnknownCall", nil, testCancelUnknown},
		{"TaskRequiredRunsToItsResult", nil, testTaskRequired},
		{"TaskCancelled", nil, testTaskCancelled},
		{"TaskInputRequired", nil, testTaskInputRequired},
		{"ElicitationAnswered", nil, testElicitationAnswered},
		{"URLElicitation", nil, testURLElicitation},
		{"SamplingAnsweredByHand", nil, testSamplingByHand},
		{"SamplingDraftedByLLM", llmOpts(ev), testSamplingDraft},
		{"UnansweredRequestTimesOut", []Option{func(o *engine.Options) { o.AnswerTimeout = 1500 * time.Millisecond }}, testAnswerTimeout},
		{"NoSurfaceFailsAtOnce", nil, testNoSurface},
		{"Roots", nil, testRoots},
		{"SetRoots", nil, testSetRoots},
		{"SetFirstRoots", []Option{func(o *engine.Options) { o.Roots = nil }}, testSetRoots},
		{"Resources", nil, testResources},
		{"Prompts", nil, testPrompts},
		{"PingLogLevelCompletion", nil, testPingLogLevelCompletion},
		{"ElicitationFormatsChecked", nil, testElicitationFormatsChecked},
		{"LintEverything", nil, testLintEverything},
		{"SignInNotForStdio", nil, testSignInNotForStdio},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := StartEverything(t, ev, c.opts...)
			c.f(t, r, newAPI(t, r.Harness), ev)
		})
	}
}

func llmOpts(ev Everything) []Option {
	if ev.LLM == nil {
		return nil
	}
	return []Option{ev.LLM}
}

// watch subscribes and collects events in the background.
type watch struct {
	mu  sync.Mutex
	evs []contract.Event
	new chan struct{}
}

func watchEvents(t *testing.T, api contract.API) *watch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ch, err := api.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w := &watch{new: make(chan struct{}, 1)}
	go func() {
		for ev := range ch {
			w.mu.Lock()
			w.evs = append(w.evs, ev)
			w.mu.Unlock()
			select {
			case w.new <- struct{}{}:
			default:
			}
		}
	}()
	return w
}

// until waits (bounded) for an event that ok accepts and returns it.
func (w *watch) until(t *testing.T, what string, ok func(contract.Event) bool) contract.Event {
	t.Helper()
	deadline := time.After(bound)
	seen := 0
	for {
		w.mu.Lock()
		evs := w.evs[seen:]
		seen = len(w.evs)
		w.mu.Unlock()
		for _, ev := range evs {
			if ok(ev) {
				return ev
			}
		}
		select {
		case <-w.new:
		case <-deadline:
			t.Fatalf("no %s within %s", what, bound)
		}
	}
}

// all returns the events seen so far that ok accepts.
func (w *watch) all(ok func(contract.Event) bool) []contract.Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []contract.Event
	for _, ev := range w.evs {
		if ok(ev) {
			out = append(out, ev)
		}
	}
	return out
}

// callAsync runs CallTool in the background.
type callOutcome struct {
	res contract.CallResult
	err error
	at  time.Time
}

func callAsync(ctx context.Context, api contract.API, req contract.CallRequest) <-chan callOutcome {
	out := make(chan callOutcome, 1)
	go func() {
		res, err := api.CallTool(ctx, req)
		out <- callOutcome{res, err, time.Now()}
	}()
	return out
}

func waitCall(t *testing.T, ch <-chan callOutcome) callOutcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(bound):
		t.Fatalf("the call did not end within %s", bound)
	}
	return callOutcome{}
}

// resultText is the text of a CallToolResult's content.
func resultText(raw json.RawMessage) string {
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(raw, &r)
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

func isKind(kind contract.EventKind, callID string) func(contract.Event) bool {
	return func(ev contract.Event) bool {
		if ev.Kind != kind {
			return false
		}
		switch d := ev.Detail.(type) {
		case *contract.CallProgress:
			return d.CallID == callID
		case *contract.CallStarted:
			return d.CallID == callID
		case *contract.CallFinished:
			return d.CallID == callID
		case *contract.TaskStatus:
			return d.CallID == callID
		case *contract.PendingRequest:
			return d.CallID == callID
		}
		return true
	}
}

// progressSteps waits until the call reported n distinct progress values.
func progressSteps(t *testing.T, w *watch, callID string, n int) []float64 {
	t.Helper()
	var steps []float64
	w.until(t, "progress steps", func(ev contract.Event) bool {
		if !isKind(contract.EventCallProgress, callID)(ev) {
			return false
		}
		p := ev.Detail.(*contract.CallProgress)
		if !slices.Contains(steps, p.Progress) {
			steps = append(steps, p.Progress)
		}
		return len(steps) >= n
	})
	return steps
}

// sentFrames decodes what genui sent the upstream.
func sentFrames(sent string) []map[string]json.RawMessage {
	var out []map[string]json.RawMessage
	for _, line := range strings.Split(sent, "\n") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// cancelledUpstream reports whether the upstream received
// notifications/cancelled for the tools/call of tool, the one whose
// progress token names callID.
func cancelledUpstream(sent, tool, callID string) bool {
	var id string
	frames := sentFrames(sent)
	for _, f := range frames {
		if string(f["method"]) == `"tools/call"` && strings.Contains(string(f["params"]), `"`+tool+`"`) &&
			strings.Contains(string(f["params"]), callID) {
			id = string(f["id"])
		}
	}
	if id == "" {
		return false
	}
	for _, f := range frames {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if string(f["method"]) == `"notifications/cancelled"` && json.Unmarshal(f["params"], &p) == nil && string(p.RequestID) == id {
			return true
		}
	}
	return false
}

// sentMethod reports whether genui sent the upstream a request of method.
func sentMethod(sent, method string) bool {
	for _, f := range sentFrames(sent) {
		if string(f["method"]) == `"`+method+`"` {
			return true
		}
	}
	return false
}

// testProgressThenCancel: the long-running operation reports progress as
// typed events tied to the call; CancelCall ends it at once with
// CodeCancelled and the upstream receives notifications/cancelled.
func testProgressThenCancel(t *testing.T, r *HostRig, api contract.API, _ Everything) {
	w := watchEvents(t, api)
	ctx := ctxOf(t)
	id := "long-1"
	done := callAsync(ctx, api, contract.CallRequest{Name: "trigger-long-running-operation", CallID: id,
		Arguments: json.RawMessage(`{"duration": 20, "steps": 40}`), Source: contract.SourceTUI})
	started := w.until(t, "call-started", isKind(contract.EventCallStarted, id))
	if cs := started.Detail.(*contract.CallStarted); started.Tool != "trigger-long-running-operation" || cs.Source != contract.SourceTUI {
		t.Fatalf("call-started: %+v %+v", started, cs)
	}
	steps := progressSteps(t, w, id, 3)
	p := w.all(isKind(contract.EventCallProgress, id))[0].Detail.(*contract.CallProgress)
	if p.Total == nil || *p.Total != 40 {
		t.Fatalf("progress %+v: want total 40", p)
	}
	cancelAt := time.Now()
	if err := api.CancelCall(ctx, id); err != nil {
		t.Fatal(err)
	}
	o := waitCall(t, done)
	if d := o.at.Sub(cancelAt); d > time.Second {
		t.Fatalf("the call ended %s after CancelCall, want within 1 s", d)
	}
	if !isCode(o.err, contract.CodeCancelled) || !strings.Contains(o.err.Error(), "notifications/cancelled") {
		t.Fatalf("cancelled call: %v, want code cancelled saying the upstream was told", o.err)
	}
	fin := w.until(t, "call-finished", isKind(contract.EventCallFinished, id)).Detail.(*contract.CallFinished)
	if !fin.Cancelled {
		t.Fatalf("call-finished %+v: want cancelled", fin)
	}
	waitFor(t, "notifications/cancelled at the upstream", func() bool {
		return cancelledUpstream(r.Sent(), "trigger-long-running-operation", id)
	})
	if len(steps) < 3 {
		t.Fatalf("progress steps %v", steps)
	}
	if err := api.CancelCall(ctx, id); !isCode(err, contract.CodeNotFound) {
		t.Fatalf("cancelling an ended call: %v, want not_found", err)
	}
}

// testCancelByContext: ending the caller's context cancels the call the
// same way (for the HTTP client: the request is closed).
func testCancelByContext(t *testing.T, r *HostRig, api contract.API, _ Everything) {
	w := watchEvents(t, api)
	cctx, cancel := context.WithCancel(ctxOf(t))
	id := "long-ctx"
	done := callAsync(cctx, api, contract.CallRequest{Name: "trigger-long-running-operation", CallID: id,
		Arguments: json.RawMessage(`{"duration": 20, "steps": 40}`)})
	progressSteps(t, w, id, 1)
	cancelAt := time.Now()
	cancel()
	o := waitCall(t, done)
	if d := o.at.Sub(cancelAt); d > time.Second || !isCode(o.err, contract.CodeCancelled) {
		t.Fatalf("after cancelling the context: %v after %s, want code cancelled within 1 s", o.err, d)
	}
	fin := w.until(t, "call-finished", isKind(contract.EventCallFinished, id)).Detail.(*contract.CallFinished)
	if !fin.Cancelled {
		t.Fatalf("call-finished %+v: want cancelled", fin)
	}
	waitFor(t, "notifications/cancelled at the upstream", func() bool {
		return cancelledUpstream(r.Sent(), "trigger-long-running-operation", id)
	})
}

func testCancelUnknown(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	if err := api.CancelCall(ctxOf(t), "no-such-call"); !isCode(err, contract.CodeNotFound) {
		t.Fatalf("CancelCall of nothing: %v, want not_found", err)
	}
}

// testTaskRequired: a tool whose execution.taskSupport is "required" runs
// as a task to its result; its statuses are events.
func testTaskRequired(t *testing.T, r *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	tools, err := api.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(tools, func(ti contract.ToolInfo) bool { return ti.Name == "simulate-research-query" })
	if i < 0 || tools[i].TaskSupport != contract.TaskSupportRequired {
		t.Fatalf("simulate-research-query not listed with taskSupport required")
	}
	w := watchEvents(t, api)
	res, err := api.CallTool(ctx, contract.CallRequest{Name: "simulate-research-query", CallID: "task-1",
		Arguments: json.RawMessage(`{"topic": "tide pools"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(resultText(res.Result), "Research Report: tide pools") {
		t.Fatalf("task result: %s", res.Result)
	}
	if res.Task == nil || res.Task.TaskID == "" || res.Task.Status != contract.TaskCompleted {
		t.Fatalf("CallResult.Task %+v, want the completed task", res.Task)
	}
	// The final status is an event of its own: over HTTP it can reach the
	// watcher after the call's answer. Wait for it (bounded), then read all.
	w.until(t, "the task's final status", func(ev contract.Event) bool {
		ts, ok := ev.Detail.(*contract.TaskStatus)
		return ok && ev.Kind == contract.EventTaskStatus && ts.CallID == "task-1" && contract.TaskTerminal(ts.Task.Status)
	})
	var statuses []string
	for _, ev := range w.all(isKind(contract.EventTaskStatus, "task-1")) {
		ts := ev.Detail.(*contract.TaskStatus)
		if ts.Task.TaskID != res.Task.TaskID {
			t.Fatalf("task-status of another task: %+v", ts)
		}
		statuses = append(statuses, ts.Task.Status+": "+ts.Task.StatusMessage)
	}
	if len(statuses) < 3 || !strings.HasPrefix(statuses[len(statuses)-1], contract.TaskCompleted) {
		t.Fatalf("task statuses %q: want working steps, then completed", statuses)
	}
	if !sentMethod(r.Sent(), "tasks/result") {
		t.Fatal("genui never asked tasks/result")
	}
}

// testTaskCancelled: cancelling a task-augmented call cancels the task.
func testTaskCancelled(t *testing.T, r *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	w := watchEvents(t, api)
	done := callAsync(ctx, api, contract.CallRequest{Name: "simulate-research-query", CallID: "task-2",
		Arguments: json.RawMessage(`{"topic": "cancel me"}`)})
	w.until(t, "task-status", isKind(contract.EventTaskStatus, "task-2"))
	cancelAt := time.Now()
	if err := api.CancelCall(ctx, "task-2"); err != nil {
		t.Fatal(err)
	}
	o := waitCall(t, done)
	if d := o.at.Sub(cancelAt); d > 3*time.Second || !isCode(o.err, contract.CodeCancelled) || !strings.Contains(o.err.Error(), "tasks/cancel") {
		t.Fatalf("cancelled task call: %v after %s", o.err, d)
	}
	if !sentMethod(r.Sent(), "tasks/cancel") {
		t.Fatal("the upstream never got tasks/cancel")
	}
	w.until(t, "task-status cancelled", func(ev contract.Event) bool {
		ts, ok := ev.Detail.(*contract.TaskStatus)
		return ok && ts.CallID == "task-2" && ts.Task.Status == contract.TaskCancelled
	})
}

// testTaskInputRequired: a task that needs input (input_required) sends
// its elicitation on tasks/result with related-task metadata; it is the
// call's pending request, names the task, and the answer reaches the task.
func testTaskInputRequired(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	w := watchEvents(t, api)
	ctx := ctxOf(t)
	done := callAsync(ctx, api, contract.CallRequest{Name: "simulate-research-query", CallID: "task-3",
		Arguments: json.RawMessage(`{"topic": "python", "ambiguous": true}`)})
	p := pendingFor(t, w, api, "task-3", contract.RequestElicitation)
	if p.TaskID == "" || !strings.Contains(string(p.Elicitation.RequestedSchema), "interpretation") {
		t.Fatalf("the task's elicitation %+v: want its task id and the interpretation form", p)
	}
	w.until(t, "task-status input_required", func(ev contract.Event) bool {
		ts, ok := ev.Detail.(*contract.TaskStatus)
		return ok && ts.CallID == "task-3" && ts.Task.Status == contract.TaskInputRequired
	})
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: contract.ElicitResult(contract.ElicitAccept,
		map[string]any{"interpretation": "snake"})}); err != nil {
		t.Fatal(err)
	}
	o := waitCall(t, done)
	if o.err != nil || !strings.Contains(resultText(o.res.Result), "Research Report: python (snake)") {
		t.Fatalf("task result after the answer: %s %v", o.res.Result, o.err)
	}
}

// pendingFor waits for the request of a call and checks PendingRequests
// lists it.
func pendingFor(t *testing.T, w *watch, api contract.API, callID, kind string) *contract.PendingRequest {
	t.Helper()
	ev := w.until(t, kind+" request", isKind(contract.EventRequestPending, callID))
	p := ev.Detail.(*contract.PendingRequest)
	if p.Kind != kind || p.ID == "" || p.Deadline.Before(p.Received) {
		t.Fatalf("pending request %+v, want kind %s", p, kind)
	}
	list, err := api.PendingRequests(ctxOf(t))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(list, func(q contract.PendingRequest) bool { return q.ID == p.ID }) {
		t.Fatalf("PendingRequests %+v lacks %s", list, p.ID)
	}
	return p
}

// testElicitationAnswered: an elicitation during a call of genui's own is
// a pending request; the first answer reaches the tool, a second one hears
// it lost.
func testElicitationAnswered(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	w := watchEvents(t, api)
	ctx := ctxOf(t)
	done := callAsync(ctx, api, contract.CallRequest{Name: "trigger-elicitation-request", CallID: "el-1"})
	p := pendingFor(t, w, api, "el-1", contract.RequestElicitation)
	if p.Tool != "trigger-elicitation-request" || p.Elicitation == nil || p.Elicitation.Mode != contract.ElicitForm ||
		!strings.Contains(string(p.Elicitation.RequestedSchema), `"name"`) {
		t.Fatalf("elicitation request %+v", p)
	}
	answer := contract.ElicitResult(contract.ElicitAccept, map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7})
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: json.RawMessage(`{"action":"maybe"}`)}); !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("a malformed answer: %v, want invalid_argument", err)
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: answer, Source: contract.SourceTUI}); err != nil {
		t.Fatal(err)
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: answer, Source: contract.SourcePreview}); !isCode(err, contract.CodeConflict) {
		t.Fatalf("a second answer: %v, want conflict", err)
	}
	o := waitCall(t, done)
	if o.err != nil {
		t.Fatal(o.err)
	}
	text := resultText(o.res.Result)
	if !strings.Contains(text, "Name: Ada Lovelace") || !strings.Contains(text, "Favorite Integer: 7") {
		t.Fatalf("the tool's result does not show the answered values: %s", text)
	}
	a := w.until(t, "request-answered", func(ev contract.Event) bool {
		ra, ok := ev.Detail.(*contract.RequestAnswered)
		return ok && ra.ID == p.ID
	}).Detail.(*contract.RequestAnswered)
	if a.Outcome != contract.OutcomeAnswered || a.By != contract.SourceTUI || a.Action != contract.ElicitAccept {
		t.Fatalf("request-answered %+v", a)
	}
}

// testURLElicitation: a URL-mode elicitation shows its URL and is answered.
func testURLElicitation(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	w := watchEvents(t, api)
	ctx := ctxOf(t)
	done := callAsync(ctx, api, contract.CallRequest{Name: "trigger-url-elicitation", CallID: "url-1",
		Arguments: json.RawMessage(`{"url": "https://example.com/authorize?x=1", "elicitationId": "el-42"}`)})
	p := pendingFor(t, w, api, "url-1", contract.RequestElicitation)
	if p.Elicitation == nil || p.Elicitation.Mode != contract.ElicitURL || p.Elicitation.URL != "https://example.com/authorize?x=1" ||
		p.Elicitation.ElicitationID != "el-42" {
		t.Fatalf("URL elicitation %+v", p.Elicitation)
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: contract.ElicitResult(contract.ElicitAccept, nil)}); err != nil {
		t.Fatal(err)
	}
	o := waitCall(t, done)
	if o.err != nil || !strings.Contains(resultText(o.res.Result), "User completed the URL elicitation flow") {
		t.Fatalf("URL elicitation result: %s %v", o.res.Result, o.err)
	}
}

// testSamplingByHand: a sampling request answered by a person.
func testSamplingByHand(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	w := watchEvents(t, api)
	ctx := ctxOf(t)
	done := callAsync(ctx, api, contract.CallRequest{Name: "trigger-sampling-request", CallID: "s-1",
		Arguments: json.RawMessage(`{"prompt": "What is six times seven?"}`)})
	p := pendingFor(t, w, api, "s-1", contract.RequestSampling)
	if p.Sampling == nil || p.Sampling.SystemPrompt != "You are a helpful test server." || p.Sampling.MaxTokens != 100 ||
		!strings.Contains(string(p.Sampling.Messages), "six times seven") {
		t.Fatalf("sampling request %+v", p.Sampling)
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: json.RawMessage(`{"role":"assistant"}`)}); !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("an incomplete sampling answer: %v, want invalid_argument", err)
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: contract.SamplingResult("by-hand", "Forty-two, by hand.")}); err != nil {
		t.Fatal(err)
	}
	o := waitCall(t, done)
	if o.err != nil || !strings.Contains(resultText(o.res.Result), "Forty-two, by hand.") || !strings.Contains(resultText(o.res.Result), "by-hand") {
		t.Fatalf("sampling result: %s %v", o.res.Result, o.err)
	}
}

// testSamplingDraft: genui's LLM provider drafts the answer; nothing is
// sent until the draft is answered with.
func testSamplingDraft(t *testing.T, _ *HostRig, api contract.API, ev Everything) {
	w := watchEvents(t, api)
	ctx := ctxOf(t)
	done := callAsync(ctx, api, contract.CallRequest{Name: "trigger-sampling-request", CallID: "s-2",
		Arguments: json.RawMessage(`{"prompt": "Name a prime between 10 and 12."}`)})
	p := pendingFor(t, w, api, "s-2", contract.RequestSampling)
	d, err := api.DraftSamplingAnswer(ctx, p.ID)
	if ev.LLM == nil {
		if !isCode(err, contract.CodeUnavailable) {
			t.Fatalf("a draft without an LLM provider: %v, want unavailable", err)
		}
		_ = api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Reject: "no provider"})
		waitCall(t, done)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if d.Text != ev.LLMText || d.Provider == "" || d.Model == "" || contract.CheckAnswer(contract.RequestSampling, d.Result) != nil {
		t.Fatalf("draft %+v, want %q", d, ev.LLMText)
	}
	asked := ev.LLMRequests()
	if !slices.ContainsFunc(asked, func(s string) bool { return strings.Contains(s, "Name a prime between 10 and 12.") }) {
		t.Fatalf("the provider was not asked the sampling request's messages: %q", asked)
	}
	select {
	case o := <-done:
		t.Fatalf("the call ended before the draft was sent: %+v", o)
	case <-time.After(300 * time.Millisecond):
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: d.Result}); err != nil {
		t.Fatal(err)
	}
	o := waitCall(t, done)
	if o.err != nil || !strings.Contains(resultText(o.res.Result), ev.LLMText) {
		t.Fatalf("sampling result: %s %v", o.res.Result, o.err)
	}
}

// testAnswerTimeout: an unanswered request fails with a clear error after
// the configured bound; the tool's result says so.
func testAnswerTimeout(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	w := watchEvents(t, api)
	ctx := ctxOf(t)
	start := time.Now()
	done := callAsync(ctx, api, contract.CallRequest{Name: "trigger-elicitation-request", CallID: "el-t"})
	p := pendingFor(t, w, api, "el-t", contract.RequestElicitation)
	o := waitCall(t, done)
	took := time.Since(start)
	if o.err != nil {
		t.Fatal(o.err)
	}
	text := resultText(o.res.Result)
	if !o.res.IsError || !strings.Contains(text, "no answer from genui's surfaces within 1.5s") {
		t.Fatalf("result after the bound: %s", o.res.Result)
	}
	if took < 1500*time.Millisecond || took > 10*time.Second {
		t.Fatalf("the call ended after %s, want just after the 1.5 s bound", took)
	}
	a := w.until(t, "request-answered", func(ev contract.Event) bool {
		ra, ok := ev.Detail.(*contract.RequestAnswered)
		return ok && ra.ID == p.ID
	}).Detail.(*contract.RequestAnswered)
	if a.Outcome != contract.OutcomeTimedOut {
		t.Fatalf("request-answered %+v, want timed-out", a)
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: contract.ElicitResult(contract.ElicitDecline, nil)}); !isCode(err, contract.CodeNotFound) {
		t.Fatalf("answering a timed-out request: %v, want not_found", err)
	}
}

// testNoSurface: with no surface open (nobody watches events) a request
// fails at once: an agent's call never waits on a person who is not there.
func testNoSurface(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	start := time.Now()
	res, err := api.CallTool(ctx, contract.CallRequest{Name: "trigger-elicitation-request"})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second || !res.IsError || !strings.Contains(resultText(res.Result), "no genui surface is open") {
		t.Fatalf("after %s: %s, want a quick error saying no surface is open", d, res.Result)
	}
}

// testRoots: genui answers roots/list from its configured roots.
func testRoots(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	roots, err := api.Roots(ctx)
	if err != nil || len(roots) != 1 || roots[0].URI != "file:///work/project-under-test" {
		t.Fatalf("roots %+v %v", roots, err)
	}
	res, err := api.CallTool(ctx, contract.CallRequest{Name: "get-roots-list"})
	if err != nil || !strings.Contains(resultText(res.Result), "URI: file:///work/project-under-test") {
		t.Fatalf("the upstream's view of the roots: %s %v", res.Result, err)
	}
}

// testSetRoots: roots edited on the API reach the server: it hears
// notifications/roots/list_changed and asks again (with no roots at the
// start the roots capability was not declared, and the upstream is
// restarted to declare it); bad roots are refused with nothing changed.
func testSetRoots(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	before, err := api.Roots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.SetRoots(ctx, []contract.Root{{URI: "/not/a/uri", Name: "x"}}); contract.AsError(err).Code != contract.CodeInvalidArgument {
		t.Fatalf("a root that is no file:// URI: %v, want invalid argument", err)
	}
	if now, _ := api.Roots(ctx); len(now) != len(before) {
		t.Fatalf("a refused edit changed the roots: %+v", now)
	}
	if len(before) > 0 {
		// server-everything fetches the roots on its first use and keeps
		// them until it hears roots/list_changed.
		res, err := api.CallTool(ctx, contract.CallRequest{Name: "get-roots-list"})
		if err != nil || !strings.Contains(resultText(res.Result), "project-under-test") {
			t.Fatalf("the upstream's roots before the edit: %v %v", res, err)
		}
	}
	want := contract.Root{URI: "file:///work/edited-root", Name: "edited-root"}
	got, err := api.SetRoots(ctx, []contract.Root{want})
	if err != nil || len(got) != 1 || got[0] != want {
		t.Fatalf("SetRoots: %+v %v", got, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := api.CallTool(ctx, contract.CallRequest{Name: "get-roots-list"})
		text := ""
		if err == nil {
			text = resultText(res.Result)
		}
		if strings.Contains(text, "URI: file:///work/edited-root") && !strings.Contains(text, "project-under-test") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the upstream's view of the roots after SetRoots: %s %v", text, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// testResources: lists, templates with arguments, text and blob reads,
// subscriptions with updates as events.
func testResources(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	res, err := api.Resources(ctx)
	if err != nil || len(res) == 0 {
		t.Fatalf("resources %d %v", len(res), err)
	}
	tpls, err := api.ResourceTemplates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(tpls, func(tp contract.ResourceTemplate) bool {
		return strings.HasSuffix(tp.URITemplate, "/blob/{resourceId}")
	})
	if i < 0 || !slices.Equal(tpls[i].Arguments, []string{"resourceId"}) {
		t.Fatalf("templates %+v: want the blob template with argument resourceId", tpls)
	}
	uri := tpls[i].Expand(map[string]string{"resourceId": "3"})
	c, err := api.ReadResource(ctx, uri)
	if err != nil || len(c.Contents) != 1 || c.Contents[0].Blob == "" {
		t.Fatalf("read %s: %+v %v", uri, c, err)
	}
	blob, err := base64.StdEncoding.DecodeString(c.Contents[0].Blob)
	if err != nil || !strings.HasPrefix(string(blob), "Resource 3: This is a base64 blob") {
		t.Fatalf("blob of %s: %q %v", uri, blob, err)
	}
	text := strings.Replace(uri, "/blob/", "/text/", 1)
	c, err = api.ReadResource(ctx, text)
	if err != nil || len(c.Contents) != 1 || c.Contents[0].Text == nil || !strings.Contains(*c.Contents[0].Text, "plaintext resource") {
		t.Fatalf("read %s: %+v %v", text, c, err)
	}
	if _, err := api.ReadResource(ctx, ""); !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("read of no URI: %v", err)
	}
	ui, err := api.ReadResource(ctx, contract.UIURI("get-sum"))
	if err != nil || len(ui.Contents) != 1 || ui.Contents[0].MIMEType != contract.MIMEApp || ui.Contents[0].Text == nil {
		t.Fatalf("genui's own UI resource: %+v %v", ui, err)
	}
	w := watchEvents(t, api)
	sub := res[0].URI
	if err := api.SubscribeResource(ctx, sub); err != nil {
		t.Fatal(err)
	}
	if _, err := api.CallTool(ctx, contract.CallRequest{Name: "toggle-subscriber-updates"}); err != nil {
		t.Fatal(err)
	}
	w.until(t, "resource-updated for "+sub, func(ev contract.Event) bool {
		ru, ok := ev.Detail.(*contract.ResourceUpdated)
		return ok && ru.URI == sub
	})
	if err := api.UnsubscribeResource(ctx, sub); err != nil {
		t.Fatal(err)
	}
}

// testPrompts: lists with arguments, gets one filled in.
func testPrompts(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	ps, err := api.Prompts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ps, func(p contract.Prompt) bool { return p.Name == "args-prompt" })
	if i < 0 || len(ps[i].Arguments) == 0 {
		t.Fatalf("prompts %+v: want args-prompt with arguments", ps)
	}
	var args = map[string]string{}
	for _, a := range ps[i].Arguments {
		args[a.Name] = "Lisbon"
	}
	pr, err := api.GetPrompt(ctx, contract.GetPromptRequest{Name: "args-prompt", Arguments: args})
	if err != nil || !strings.Contains(string(pr.Messages), "Lisbon") {
		t.Fatalf("args-prompt: %+v %v", pr, err)
	}
	if _, err := api.GetPrompt(ctx, contract.GetPromptRequest{Name: "no-such-prompt"}); err == nil {
		t.Fatal("getting an unknown prompt succeeded")
	}
}

// waitFor polls cond (bounded).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s", what, bound)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
