package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/schemacheck"
)

// Server-to-client requests from the upstream (elicitation, sampling,
// roots), routed by the call they belong to: a connected host's call goes
// to that host (the MCP host's request handler, never taken from it); a
// call of genui's own surfaces, or one whose host did not declare the
// capability, becomes a pending request any surface may answer (first
// answer wins) within Options.AnswerTimeout. With no surface open to
// answer (nobody subscribed to events) it fails at once with the error the
// host gave. roots/list that no host answers is answered from
// Options.Roots.

// defaultAnswerTimeout bounds how long a pending request waits.
const defaultAnswerTimeout = 5 * time.Minute

// maxPendingRequests bounds the requests waiting at once; more fail at once.
const maxPendingRequests = 64

// NoHostAnswer is the error for a request no connected host can answer:
// no host session, or the one the call belongs to did not declare the
// capability. Any error with a NoHost method that reports true means the
// same (the MCP host's own, engine/host, declares it without importing
// this package). The engine then offers the request to genui's own
// surfaces; with none open the upstream hears the JSON-RPC error wrapped.
type NoHostAnswer struct{ Err *jsonrpc.Error }

func (n *NoHostAnswer) Error() string { return n.Err.Error() }

// Unwrap lets jsonrpc.AsError find the JSON-RPC error.
func (n *NoHostAnswer) Unwrap() error { return n.Err }

// NoHost marks the request as one no host can answer.
func (n *NoHostAnswer) NoHost() bool { return true }

// noHoster is an error that says no host can answer the request.
type noHoster interface{ NoHost() bool }

// capabilityOf is the client capability a server-to-client request needs
// ("" for ping and methods genui does not answer itself).
func capabilityOf(method string) string {
	switch method {
	case "sampling/createMessage":
		return contract.RequestSampling
	case "elicitation/create":
		return contract.RequestElicitation
	case "roots/list":
		return "roots"
	}
	return ""
}

// pendingRequest is one request waiting for an answer.
type pendingRequest struct {
	info  contract.PendingRequest
	owner *surfaceCall
	// answered carries the winning answer; done is set (under pendingSet.mu)
	// by whoever settles the request first.
	answered chan contract.Answer
	done     bool
	by       string
}

type pendingSet struct {
	mu   sync.Mutex
	next int64
	byID map[string]*pendingRequest
	// recent remembers who answered the last requests (at most
	// maxRecentAnswers), so a late answer hears it lost to another surface.
	recent      map[string]string
	recentOrder []string
}

const maxRecentAnswers = 256

// remember records the winner of a request (under mu).
func (ps *pendingSet) remember(id, by string) {
	if ps.recent == nil {
		ps.recent = map[string]string{}
	}
	ps.recent[id] = by
	ps.recentOrder = append(ps.recentOrder, id)
	if len(ps.recentOrder) > maxRecentAnswers {
		delete(ps.recent, ps.recentOrder[0])
		ps.recentOrder = ps.recentOrder[1:]
	}
}

// onUpstreamRequest answers a server-to-client request from the upstream.
// One whose capability genui did not declare to it is refused as a client
// without the capability would (-32601): behind genui a server sees the
// client it was told of, whoever could answer.
func (e *Engine) onUpstreamRequest(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	kind := capabilityOf(method)
	if kind == "" {
		return e.relay.askHost(ctx, method, params)
	}
	if !e.relay.declared(kind) {
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "Method not found: %s (genui did not declare the %s capability to this server: its host did not; see upstream.capabilities)", method, kind)
	}
	owner := e.requestOwner(params)
	if owner != nil && kind != "roots" {
		return e.askSurfaces(ctx, owner, kind, method, params, nil)
	}
	if owner != nil && len(e.currentRoots()) > 0 {
		return e.rootsResult(), nil
	}
	res, err := e.relay.askHost(ctx, method, params)
	var nh noHoster
	if err == nil || !errors.As(err, &nh) || !nh.NoHost() {
		return res, err
	}
	if kind == "roots" {
		if len(e.currentRoots()) > 0 {
			return e.rootsResult(), nil
		}
		return nil, err
	}
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		je = jsonrpc.AsError(err)
	}
	return e.askSurfaces(ctx, nil, kind, method, params, je)
}

// OwnCapabilities are the client capabilities genui can answer itself:
// roots when some are configured (Options.Roots), elicitation (form and
// URL mode) and sampling when its own surfaces may answer
// (Options.Surfaces). The MCP host declares the roots always, the rest
// only in the workbench's capability mode.
func (e *Engine) OwnCapabilities() json.RawMessage {
	caps := map[string]any{}
	if len(e.currentRoots()) > 0 {
		caps["roots"] = map[string]any{"listChanged": true}
	}
	if e.opts.Surfaces {
		caps["sampling"] = map[string]any{}
		caps["elicitation"] = map[string]any{"form": map[string]any{}, "url": map[string]any{}}
	}
	b, _ := json.Marshal(caps)
	return b
}

// surfacesOpen reports whether a genui surface may answer requests: some
// front end watches the engine's events (a TUI, a preview page, an API
// client following /events).
func (e *Engine) surfacesOpen() bool { return e.hub.broker.SubscriberCount() > 0 }

// askSurfaces makes a request pending for genui's surfaces and waits for
// the first answer, the bound, the end of the call it belongs to, or the
// upstream giving up. hostErr is what the upstream hears when no surface
// is open (nil: a call of genui's own, which has its own wording).
func (e *Engine) askSurfaces(ctx context.Context, owner *surfaceCall, kind, method string, params json.RawMessage, hostErr *jsonrpc.Error) (json.RawMessage, error) {
	if !e.surfacesOpen() {
		if hostErr != nil {
			return nil, hostErr
		}
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "%s: no genui surface is open to answer it (no TUI attached, no preview page open)", method)
	}
	timeout := e.opts.AnswerTimeout
	now := time.Now()
	p := &pendingRequest{owner: owner, answered: make(chan contract.Answer, 1), info: contract.PendingRequest{
		Kind: kind, Method: method, Params: append(json.RawMessage(nil), params...), Received: now, Deadline: now.Add(timeout)}}
	if owner != nil {
		p.info.CallID, p.info.Tool, p.info.Source = owner.id, owner.tool, owner.source
		owner.mu.Lock()
		p.info.TaskID = owner.taskID
		owner.asking++
		owner.mu.Unlock()
		defer func() {
			owner.mu.Lock()
			owner.asking--
			owner.mu.Unlock()
		}()
	} else {
		p.info.Source = contract.SourceMCP
	}
	p.info.ParsePendingParams()
	e.pending.mu.Lock()
	if e.pending.byID == nil {
		e.pending.byID = map[string]*pendingRequest{}
	}
	if len(e.pending.byID) >= maxPendingRequests {
		e.pending.mu.Unlock()
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "%s: %d requests already wait for an answer from genui's surfaces", method, maxPendingRequests)
	}
	e.pending.next++
	p.info.ID = "r-" + strconv.FormatInt(e.pending.next, 10)
	e.pending.byID[p.info.ID] = p
	e.pending.mu.Unlock()
	info := p.info
	e.hub.publish(contract.EventRequestPending, info.Tool, &info)

	var ownerDone <-chan struct{}
	if owner != nil {
		ownerDone = owner.ctx.Done()
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case a := <-p.answered:
		return e.answered(p, a)
	case <-timer.C:
		if a, ok := e.settle(p); ok {
			return e.answered(p, a)
		}
		msg := fmt.Sprintf("%s: no answer from genui's surfaces within %s (answerTimeout)", method, timeout)
		e.hub.publish(contract.EventRequestAnswered, info.Tool, &contract.RequestAnswered{ID: info.ID, Kind: kind, Outcome: contract.OutcomeTimedOut, Error: msg})
		return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "%s", msg)
	case <-ownerDone:
		if a, ok := e.settle(p); ok {
			return e.answered(p, a)
		}
		e.hub.publish(contract.EventRequestAnswered, info.Tool, &contract.RequestAnswered{ID: info.ID, Kind: kind, Outcome: contract.OutcomeWithdrawn,
			Error: "the call it belongs to ended"})
		return nil, jsonrpcCancelled(method)
	case <-ctx.Done():
		if a, ok := e.settle(p); ok {
			return e.answered(p, a)
		}
		e.hub.publish(contract.EventRequestAnswered, info.Tool, &contract.RequestAnswered{ID: info.ID, Kind: kind, Outcome: contract.OutcomeWithdrawn,
			Error: "the upstream stopped waiting"})
		return nil, ctx.Err()
	}
}

// settle ends a pending request that was not answered; false means an
// answer won the race and waits in p.answered.
func (e *Engine) settle(p *pendingRequest) (contract.Answer, bool) {
	e.pending.mu.Lock()
	won := p.done
	p.done = true
	delete(e.pending.byID, p.info.ID)
	e.pending.mu.Unlock()
	if won {
		return <-p.answered, true
	}
	return contract.Answer{}, false
}

// answered turns the winning answer into the upstream's result.
func (e *Engine) answered(p *pendingRequest, a contract.Answer) (json.RawMessage, error) {
	ev := &contract.RequestAnswered{ID: p.info.ID, Kind: p.info.Kind, By: a.Source}
	if a.Reject != "" {
		ev.Outcome, ev.Error = contract.OutcomeRejected, a.Reject
		e.hub.publish(contract.EventRequestAnswered, p.info.Tool, ev)
		// -1 is what the spec's examples use for a refused sampling request.
		return nil, &jsonrpc.Error{Code: -1, Message: a.Reject}
	}
	ev.Outcome = contract.OutcomeAnswered
	var r struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(a.Result, &r) == nil {
		ev.Action = r.Action
	}
	e.hub.publish(contract.EventRequestAnswered, p.info.Tool, ev)
	return a.Result, nil
}

// PendingRequests lists the requests waiting for an answer, oldest first.
func (e *Engine) PendingRequests(ctx context.Context) ([]contract.PendingRequest, error) {
	if err := ctx.Err(); err != nil {
		return nil, contract.AsError(err)
	}
	e.pending.mu.Lock()
	out := make([]contract.PendingRequest, 0, len(e.pending.byID))
	for _, p := range e.pending.byID {
		if !p.done {
			out = append(out, p.info)
		}
	}
	e.pending.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		return out[i].Received.Before(out[j].Received) || out[i].Received.Equal(out[j].Received) && out[i].ID < out[j].ID
	})
	return out, nil
}

// AnswerRequest answers a pending request; the first answer wins.
func (e *Engine) AnswerRequest(ctx context.Context, a contract.Answer) error {
	if err := ctx.Err(); err != nil {
		return contract.AsError(err)
	}
	if a.Source == "" {
		a.Source = contract.SourceAPI
	}
	e.pending.mu.Lock()
	p := e.pending.byID[a.ID]
	var kind string
	var elicit *contract.ElicitationRequest
	if p != nil {
		kind, elicit = p.info.Kind, p.info.Elicitation
	}
	by, answeredBefore := e.pending.recent[a.ID]
	e.pending.mu.Unlock()
	if p == nil && answeredBefore {
		return contract.Errorf(contract.CodeConflict, "request %s was already answered (by %s)", a.ID, by)
	}
	if p == nil {
		return contract.Errorf(contract.CodeNotFound, "no request %q awaits an answer (timed out, withdrawn, or never asked)", clipName(a.ID))
	}
	if a.Reject == "" {
		if err := contract.CheckAnswer(kind, a.Result); err != nil {
			return contract.Errorf(contract.CodeInvalidArgument, "%s", err)
		}
		if err := checkElicitedContent(elicit, a.Result); err != nil {
			return err
		}
		a.Result = append(json.RawMessage(nil), a.Result...)
	}
	e.pending.mu.Lock()
	defer e.pending.mu.Unlock()
	if p.done && p.by == "" {
		return contract.Errorf(contract.CodeNotFound, "request %s no longer awaits an answer (it timed out or its call ended)", a.ID)
	}
	if p.done {
		return contract.Errorf(contract.CodeConflict, "request %s was already answered (by %s)", a.ID, p.by)
	}
	p.done, p.by = true, a.Source
	delete(e.pending.byID, a.ID)
	e.pending.remember(a.ID, a.Source)
	p.answered <- a
	return nil
}

// DraftSamplingAnswer asks genui's LLM provider to answer a pending
// sampling request, without sending the answer.
func (e *Engine) DraftSamplingAnswer(ctx context.Context, id string) (contract.SamplingDraft, error) {
	e.pending.mu.Lock()
	p := e.pending.byID[id]
	e.pending.mu.Unlock()
	if p == nil {
		return contract.SamplingDraft{}, contract.Errorf(contract.CodeNotFound, "no request %q awaits an answer", clipName(id))
	}
	if p.info.Kind != contract.RequestSampling {
		return contract.SamplingDraft{}, contract.Errorf(contract.CodeInvalidArgument, "request %s is %s, not sampling: only sampling requests can be drafted by the LLM", id, p.info.Kind)
	}
	l := e.ui.llm()
	if l == nil {
		return contract.SamplingDraft{}, contract.Errorf(contract.CodeUnavailable,
			"genui has no LLM provider configured (it generates offline): start it with --llm and a key to draft sampling answers")
	}
	start := time.Now()
	ans, err := l.AnswerSampling(ctx, p.info.Params)
	if err != nil {
		if ctx.Err() != nil {
			return contract.SamplingDraft{}, contract.AsError(ctx.Err())
		}
		return contract.SamplingDraft{}, contract.Errorf(contract.CodeUpstreamError, "%s could not draft an answer: %v", l.Name(), err)
	}
	return contract.SamplingDraft{ID: id, Result: contract.SamplingResult(ans.Model, ans.Text), Text: ans.Text,
		Provider: ans.Provider, Model: ans.Model, Duration: time.Since(start)}, nil
}

// Roots are the roots genui answers roots/list with.
func (e *Engine) Roots(ctx context.Context) ([]contract.Root, error) {
	if err := ctx.Err(); err != nil {
		return nil, contract.AsError(err)
	}
	return append([]contract.Root{}, e.currentRoots()...), nil
}

// currentRoots are the roots genui answers with now (Options.Roots, then
// SetRoots). The slice is never changed in place.
func (e *Engine) currentRoots() []contract.Root {
	e.rootsMu.Lock()
	defer e.rootsMu.Unlock()
	return e.roots
}

// Bounds on SetRoots' list.
const (
	maxRoots       = 64
	maxRootURI     = 4096
	maxRootNameLen = 256
)

// SetRoots replaces the roots genui answers the upstream's roots/list
// with and tells the upstream (notifications/roots/list_changed). An
// upstream whose handshake declared no roots capability (none were
// configured, no host declared them) never asks: a stdio or in-process
// one is restarted so that its new handshake declares them; another
// gets an error saying so. A host's own roots still win for its calls.
func (e *Engine) SetRoots(ctx context.Context, roots []contract.Root) ([]contract.Root, error) {
	if err := ctx.Err(); err != nil {
		return nil, contract.AsError(err)
	}
	if len(roots) > maxRoots {
		return nil, contract.Errorf(contract.CodeInvalidArgument, "%d roots: at most %d", len(roots), maxRoots)
	}
	list := make([]contract.Root, 0, len(roots))
	for i, r := range roots {
		u, err := url.Parse(r.URI)
		switch {
		case len(r.URI) > maxRootURI || len(r.Name) > maxRootNameLen:
			return nil, contract.Errorf(contract.CodeInvalidArgument, "root %d: the URI is limited to %d bytes, the name to %d", i+1, maxRootURI, maxRootNameLen)
		case err != nil || u.Scheme != "file" || u.Path == "":
			return nil, contract.Errorf(contract.CodeInvalidArgument, "root %d: %q is not a file:// URI (MCP roots are file:// URIs; a folder becomes one with RootOf)", i+1, clipName(r.URI))
		}
		list = append(list, r)
	}
	e.rootsMu.Lock()
	e.roots = list
	e.rootsMu.Unlock()
	e.log.Info("roots changed", "roots", len(list))
	if e.relay.declared("roots") {
		if err := e.relay.up.Notify(ctx, "notifications/roots/list_changed", nil); err != nil {
			return list, contract.Errorf(contract.CodeUpstreamError, "roots changed, but the upstream was not told: %v", err)
		}
		return list, nil
	}
	if len(list) == 0 {
		return list, nil
	}
	// Tell a new handshake: the upstream was told genui has no roots.
	if err := e.relay.up.Restart(ctx, "roots changed: the server is told genui has roots now"); err != nil {
		return list, contract.Errorf(contract.CodeUpstreamError,
			"roots changed, but the upstream was told at its start that genui has none and could not be restarted to hear otherwise: %v", err)
	}
	return list, nil
}

// rootsResult is genui's own answer to roots/list.
func (e *Engine) rootsResult() json.RawMessage {
	b, _ := json.Marshal(map[string]any{"roots": append([]contract.Root{}, e.currentRoots()...)})
	return b
}

// RootOf is a root for a directory: a file:// URI, named after the folder.
func RootOf(dir string) contract.Root {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return contract.Root{URI: u.String(), Name: filepath.Base(abs)}
}

// checkElicitedContent checks an accepted form elicitation's content
// against the schema the upstream asked for (types, required fields, the
// formats email, uri, date and date-time, lengths, bounds, enums), so a
// wrong value is refused with the reason, per field, instead of being sent.
// A schema that does not compile is the upstream's problem: the answer goes.
func checkElicitedContent(e *contract.ElicitationRequest, result json.RawMessage) error {
	if e == nil || e.Mode != contract.ElicitForm || len(e.RequestedSchema) == 0 {
		return nil
	}
	var r struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(result, &r) != nil || r.Action != contract.ElicitAccept {
		return nil
	}
	s, err := schemacheck.Compile(e.RequestedSchema, schemacheck.Options{AssertFormat: true})
	if err != nil {
		return nil
	}
	content := r.Content
	if len(content) == 0 {
		content = json.RawMessage(`{}`)
	}
	problems := s.Check(content)
	if len(problems) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(problems))
	for _, p := range problems {
		field := strings.TrimPrefix(p.Path, "/")
		if field == "" {
			msgs = append(msgs, p.Message)
		} else {
			msgs = append(msgs, field+": "+p.Message)
		}
	}
	return contract.Errorf(contract.CodeInvalidArgument, "the answer does not fit the requested schema: %s", strings.Join(msgs, "; "))
}
