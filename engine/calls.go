package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Calls from genui's own surfaces (the TUI, the preview, the HTTP API).
// Each carries a progress token of genui's own, so the upstream's progress
// becomes EventCallProgress; each can be cancelled (CancelCall or its
// context: the upstream client sends notifications/cancelled and the call
// ends at once); tools that ask for it run as tasks (tasks.go). While a
// call runs it is registered, so a server-to-client request the upstream
// makes during it can be routed to genui's surfaces (requests.go).

// maxCallIDLen bounds a caller-chosen call id.
const maxCallIDLen = 128

// progressTokenPrefix starts the progress tokens genui's own calls carry.
const progressTokenPrefix = "genui-call-"

// surfaceCall is one call from genui's surfaces in flight.
type surfaceCall struct {
	id, tool, source string
	// seq orders calls in flight, genui's and hosts' (NextCallSeq).
	seq    int64
	token  string
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu     sync.Mutex
	taskID string
	// asking counts the server-to-client requests of this call waiting for
	// an answer (a call that already asks is not the one a new request
	// comes from, when another is in flight).
	asking int
	// ended is set once a final task status (completed, failed, cancelled)
	// was published: a status read earlier (a tasks/get answer, a late
	// notification) that arrives after it is stale and not published.
	ended bool
}

// publishTaskStatus publishes t for watchers unless the call's task already
// reached a final status: a task's statuses end at the first final one.
func (e *Engine) publishTaskStatus(c *surfaceCall, t contract.Task) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return
	}
	c.ended = contract.TaskTerminal(t.Status)
	c.mu.Unlock()
	e.hub.publish(contract.EventTaskStatus, c.tool, &contract.TaskStatus{CallID: c.id, Task: t})
}

// callRegistry holds the calls in flight from genui's surfaces.
type callRegistry struct {
	mu      sync.Mutex
	byID    map[string]*surfaceCall
	byToken map[string]*surfaceCall
	byTask  map[string]*surfaceCall
}

func (r *callRegistry) add(c *surfaceCall) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID, r.byToken, r.byTask = map[string]*surfaceCall{}, map[string]*surfaceCall{}, map[string]*surfaceCall{}
	}
	if _, dup := r.byID[c.id]; dup {
		return false
	}
	r.byID[c.id], r.byToken[c.token] = c, c
	return true
}

func (r *callRegistry) remove(c *surfaceCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID[c.id] == c {
		delete(r.byID, c.id)
	}
	if r.byToken[c.token] == c {
		delete(r.byToken, c.token)
	}
	c.mu.Lock()
	task := c.taskID
	c.mu.Unlock()
	if task != "" && r.byTask[task] == c {
		delete(r.byTask, task)
	}
}

func (r *callRegistry) setTask(c *surfaceCall, taskID string) {
	c.mu.Lock()
	c.taskID = taskID
	c.mu.Unlock()
	r.mu.Lock()
	r.byTask[taskID] = c
	r.mu.Unlock()
}

func (r *callRegistry) get(id string) *surfaceCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byID[id]
}

func (r *callRegistry) byProgressToken(tok string) *surfaceCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byToken[tok]
}

func (r *callRegistry) task(id string) *surfaceCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byTask[id]
}

// newest is the call in flight a new server-to-client request most likely
// belongs to: the newest one not already waiting for an answer (else the
// newest).
func (r *callRegistry) newest() *surfaceCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	var best, busy *surfaceCall
	for _, c := range r.byID {
		c.mu.Lock()
		asking := c.asking
		c.mu.Unlock()
		if asking == 0 && (best == nil || c.seq > best.seq) {
			best = c
		}
		if busy == nil || c.seq > busy.seq {
			busy = c
		}
	}
	if best != nil {
		return best
	}
	return busy
}

func newCallID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "c-" + hex.EncodeToString(b[:])
}

// CallTool calls an upstream tool and returns its result verbatim (see
// contract.API).
func (e *Engine) CallTool(ctx context.Context, req contract.CallRequest) (contract.CallResult, error) {
	res, _, err := e.callTool(ctx, req)
	return res, err
}

// callTool is CallTool that also returns the call's entry in the history,
// also when it failed upstream (0: not recorded).
func (e *Engine) callTool(ctx context.Context, req contract.CallRequest) (contract.CallResult, int64, error) {
	args := json.RawMessage(strings.TrimSpace(string(req.Arguments)))
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return contract.CallResult{}, 0, contract.Errorf(contract.CodeInvalidArgument, "arguments must be a JSON object")
	}
	if len(req.CallID) > maxCallIDLen {
		return contract.CallResult{}, 0, contract.Errorf(contract.CodeInvalidArgument, "callId longer than %d bytes", maxCallIDLen)
	}
	t, err := e.LookupTool(ctx, req.Name)
	if err != nil {
		return contract.CallResult{}, 0, err
	}
	asTask := t.TaskSupport == contract.TaskSupportRequired
	if req.Task {
		if t.TaskSupport != contract.TaskSupportOptional && t.TaskSupport != contract.TaskSupportRequired {
			return contract.CallResult{}, 0, contract.Errorf(contract.CodeInvalidArgument,
				"%s cannot run as a task: its execution.taskSupport is %q", t.Name, orForbidden(t.TaskSupport))
		}
		asTask = true
	}
	if req.Source == contract.SourceAPI || req.Source == contract.SourceTUI {
		e.Push(req.Source, "tools/call", req.Name, map[string]any{"arguments": args})
	}
	if err := e.relay.Wait(ctx); err != nil {
		return contract.CallResult{}, 0, err
	}
	id := req.CallID
	if id == "" {
		id = newCallID()
	}
	source := req.Source
	if source == "" {
		source = contract.SourceAPI
	}
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c := &surfaceCall{id: id, tool: t.Name, source: source, seq: e.relay.NextCallSeq(), token: progressTokenPrefix + id, ctx: cctx, cancel: cancel}
	if !e.calls.add(c) {
		return contract.CallResult{}, 0, contract.Errorf(contract.CodeInvalidArgument, "a call with id %q is already in flight", id)
	}
	defer e.calls.remove(c)
	call := map[string]any{"name": req.Name, "arguments": args, "_meta": map[string]any{"progressToken": c.token}}
	if asTask {
		call["task"] = map[string]any{"ttl": taskTTL.Milliseconds()}
	}
	params, err := json.Marshal(call)
	if err != nil {
		return contract.CallResult{}, 0, contract.Errorf(contract.CodeInvalidArgument, "arguments: %v", err)
	}
	e.hub.publish(contract.EventCallStarted, t.Name, &contract.CallStarted{CallID: id, Source: source, Task: asTask})
	gen := e.relay.up.Generation()
	start := time.Now()
	var res json.RawMessage
	var task *contract.Task
	if asTask {
		res, task, err = e.callAsTask(cctx, c, params)
	} else {
		res, err = e.relay.request(cctx, "tools/call", params)
	}
	d := time.Since(start)
	if err != nil {
		ce := e.callError(cctx, c, err, d)
		e.hub.publish(contract.EventCallFinished, t.Name, &contract.CallFinished{CallID: id, Error: ce.Message,
			Cancelled: ce.Code == contract.CodeCancelled, Duration: d})
		return contract.CallResult{}, e.recordSurfaceCall(ctx, req, args, nil, ce.Message, gen, start, d), ce
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(res, &r)
	e.ObserveResult(req.Name, args, res, d) // one real result shows an LLM the data's shape
	e.hub.publish(contract.EventCallFinished, t.Name, &contract.CallFinished{CallID: id, IsError: r.IsError, Duration: d})
	hid := e.recordSurfaceCall(ctx, req, args, res, "", gen, start, d)
	return contract.CallResult{Result: res, IsError: r.IsError, Duration: d, CallID: id, Task: task, HistoryID: hid}, hid, nil
}

func orForbidden(s string) string {
	if s == "" {
		return contract.TaskSupportForbidden
	}
	return s
}

// errCallCancelled is the cause CancelCall gives a call's context.
type errCallCancelled struct{}

func (errCallCancelled) Error() string { return "cancelled (CancelCall)" }

// callError words a failed call: cancelled (by CancelCall or the caller),
// timed out, or the upstream's error.
func (e *Engine) callError(ctx context.Context, c *surfaceCall, err error, d time.Duration) *contract.Error {
	if ctx.Err() == nil {
		return upstreamError("tools/call "+c.tool, err)
	}
	cause := context.Cause(ctx)
	if errors.Is(cause, context.DeadlineExceeded) {
		return contract.Errorf(contract.CodeTimeout, "tools/call %s timed out after %s; the upstream was told (notifications/cancelled)",
			c.tool, d.Round(time.Millisecond))
	}
	why := "cancelled by its caller"
	var cc errCallCancelled
	if errors.As(cause, &cc) {
		why = "cancelled"
	}
	told := "notifications/cancelled"
	if c.taskIDOf() != "" {
		told = "tasks/cancel"
	}
	return contract.Errorf(contract.CodeCancelled, "tools/call %s %s after %s; the upstream was told (%s)",
		c.tool, why, d.Round(time.Millisecond), told)
}

func (c *surfaceCall) taskIDOf() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.taskID
}

// CancelCall cancels a call in flight from genui's surfaces.
func (e *Engine) CancelCall(ctx context.Context, callID string) error {
	if err := ctx.Err(); err != nil {
		return contract.AsError(err)
	}
	c := e.calls.get(callID)
	if c == nil {
		return contract.Errorf(contract.CodeNotFound, "no call %q in flight (it ended, or never started)", clipName(callID))
	}
	c.cancel(errCallCancelled{})
	return nil
}

// interceptNotification handles the upstream's notifications that belong
// to genui's own calls (progress, task status) and reports resources and
// prompts changes; it returns true when the notification is consumed.
func (e *Engine) interceptNotification(method string, params json.RawMessage) bool {
	switch method {
	case "notifications/progress":
		var p struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress float64         `json:"progress"`
			Total    *float64        `json:"total"`
			Message  string          `json:"message"`
		}
		if json.Unmarshal(params, &p) != nil {
			return false
		}
		var tok string
		if json.Unmarshal(p.Token, &tok) != nil || !strings.HasPrefix(tok, progressTokenPrefix) {
			return false
		}
		c := e.calls.byProgressToken(tok)
		if c == nil {
			return true // a call of ours that ended: nobody else owns the token
		}
		e.hub.publish(contract.EventCallProgress, c.tool, &contract.CallProgress{CallID: c.id, Progress: p.Progress, Total: p.Total, Message: p.Message})
		return true
	case "notifications/tasks/status":
		var t contract.Task
		if json.Unmarshal(params, &t) != nil || t.TaskID == "" {
			return false
		}
		c := e.calls.task(t.TaskID)
		if c == nil {
			return false // a host's task
		}
		e.publishTaskStatus(c, t)
		return true
	case "notifications/resources/updated":
		var p struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(params, &p) == nil && p.URI != "" {
			e.hub.publish(contract.EventResourceUpdated, "", &contract.ResourceUpdated{URI: p.URI})
		}
	case "notifications/resources/list_changed":
		e.hub.publish(contract.EventListChanged, "", &contract.ListChanged{List: "resources"})
	case "notifications/prompts/list_changed":
		e.hub.publish(contract.EventListChanged, "", &contract.ListChanged{List: "prompts"})
	}
	return false
}

// requestOwner finds the call of genui's surfaces a server-to-client
// request belongs to: the task named in its related-task _meta, else the
// newest call in flight when it is newer than every host call in flight.
// nil means a host's call (or none).
func (e *Engine) requestOwner(params json.RawMessage) *surfaceCall {
	var p struct {
		Meta struct {
			Related struct {
				TaskID string `json:"taskId"`
			} `json:"io.modelcontextprotocol/related-task"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) == nil && p.Meta.Related.TaskID != "" {
		if c := e.calls.task(p.Meta.Related.TaskID); c != nil {
			return c
		}
		return nil // a host's task
	}
	c := e.calls.newest()
	if c == nil || e.relay.newestHostCall() > c.seq {
		return nil
	}
	return c
}

// jsonrpcCancelled is the error the upstream hears for a request of its
// that belonged to a call genui cancelled.
func jsonrpcCancelled(method string) error {
	return jsonrpc.Errorf(jsonrpc.CodeInternalError, "%s: the call it belongs to was cancelled", method)
}
