package engine

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/events"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/registry"
	"github.com/genui-dev/genui/engine/suggest"
	"github.com/genui-dev/genui/pagepack"
)

// *Engine is the in-process implementation of contract.API.
var _ contract.API = (*Engine)(nil)

// Defaults of the front-door waits.
const (
	// defaultToolLookupWait bounds how long a request naming a tool that is
	// not (yet) listed waits for the upstream's first tools/list.
	defaultToolLookupWait = 10 * time.Second
	defaultUpstreamWait   = 15 * time.Second
	defaultReconnectWait  = 3 * time.Second
)

// SetURLs records where the HTTP side server listens (it calls this once
// listening); State, Preview and _ui_status report them.
func (e *Engine) SetURLs(u contract.URLs, portConflict string) {
	e.fronts.mu.Lock()
	e.fronts.urls, e.fronts.portConflict = u, portConflict
	e.fronts.mu.Unlock()
}

// SetSessionSource registers the MCP host's list of connected sessions for
// State. The host calls it once; it must be cheap and must not block.
func (e *Engine) SetSessionSource(f func() []contract.SessionInfo) {
	e.fronts.mu.Lock()
	e.fronts.sessions = f
	e.fronts.mu.Unlock()
}

// SessionsChanged tells watchers that MCP sessions came or went.
func (e *Engine) SessionsChanged(list []contract.SessionInfo) {
	e.hub.publish(contract.EventSessionsChanged, "", &contract.SessionsChanged{Sessions: list})
}

// Tools lists the upstream tools with their schemas and UI status.
func (e *Engine) Tools(ctx context.Context) ([]contract.ToolInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, contract.AsError(err)
	}
	tools := e.tools.List()
	out := make([]contract.ToolInfo, 0, len(tools))
	for _, t := range tools {
		out = append(out, e.toolInfo(t))
	}
	return out, nil
}

func (e *Engine) toolInfo(t *registry.Tool) contract.ToolInfo {
	return contract.ToolInfo{ToolStatus: e.ui.status(t, e.ui.isGenerating(t.Name)), Title: t.Title(),
		Description: t.Description(), InputSchema: t.InputSchema(), OutputSchema: t.OutputSchema(),
		Annotations: t.Annotations(), TaskSupport: t.TaskSupport}
}

// LookupTool finds a tool, waiting (bounded) for the upstream's first
// tools/list; an unknown name gets close-match suggestions.
func (e *Engine) LookupTool(ctx context.Context, name string) (*registry.Tool, error) {
	if name == "" {
		return nil, contract.Errorf(contract.CodeInvalidArgument, "a tool name is required")
	}
	if t, ok := e.tools.Get(name); ok {
		return t, nil
	}
	wctx, cancel := context.WithTimeout(ctx, e.opts.ToolLookupWait)
	defer cancel()
	if err := e.tools.WaitReady(wctx); err != nil {
		if ctx.Err() != nil {
			return nil, contract.AsError(ctx.Err())
		}
		return nil, contract.Errorf(contract.CodeUpstreamUnavailable, "tool %q: the upstream is not ready (no tools/list within %s): %v",
			clipName(name), e.opts.ToolLookupWait, err)
	}
	if t, ok := e.tools.Get(name); ok {
		return t, nil
	}
	return nil, e.unknownTool(name)
}

// clipName shortens a tool name a caller sent for an error message, so a
// huge name is not echoed back.
func clipName(name string) string {
	if len(name) > 100 {
		return strings.ToValidUTF8(name[:100], "") + "…"
	}
	return name
}

// unknownTool is the error for a name the upstream does not list.
func (e *Engine) unknownTool(name string) *contract.Error {
	var names []string
	for _, t := range e.tools.List() {
		names = append(names, t.Name)
	}
	shown := clipName(name)
	err := &contract.Error{Code: contract.CodeUnknownTool, Suggestions: suggest.CloseMatches(name, names)}
	switch {
	case len(err.Suggestions) > 0:
		err.Message = fmt.Sprintf("unknown tool %q; did you mean %s?", shown, strings.Join(err.Suggestions, ", "))
	case len(names) <= 50:
		err.Message = fmt.Sprintf("unknown tool %q; known tools: %s", shown, strings.Join(names, ", "))
	default:
		err.Message = fmt.Sprintf("unknown tool %q (the upstream lists %d tools)", shown, len(names))
	}
	return err
}

// UI returns a tool's UI as hosts read it.
func (e *Engine) UI(ctx context.Context, name string) (contract.UIView, error) {
	t, err := e.LookupTool(ctx, name)
	if err != nil {
		return contract.UIView{}, err
	}
	if t.OwnUI != "" {
		return e.ownUI(ctx, t)
	}
	ui, err := e.readUI(ctx, name)
	if err != nil {
		return contract.UIView{}, contract.AsError(err)
	}
	return contract.UIView{Tool: name, URI: t.ResourceURI(), MIMEType: contract.MIMEApp, HTML: ui.HTML, CacheKey: string(ui.Key),
		FromCache: ui.FromCache, Meta: ui.Meta}, nil
}

// ownUI reads the upstream's own UI resource of a tool.
func (e *Engine) ownUI(ctx context.Context, t *registry.Tool) (contract.UIView, error) {
	if err := e.relay.Wait(ctx); err != nil {
		return contract.UIView{}, err
	}
	params, _ := json.Marshal(map[string]string{"uri": t.OwnUI})
	res, err := e.relay.request(ctx, "resources/read", params)
	if err != nil {
		return contract.UIView{}, upstreamError(fmt.Sprintf("reading the upstream's UI resource %s", t.OwnUI), err)
	}
	var rr struct {
		Contents []struct {
			MIMEType string          `json:"mimeType"`
			Text     *string         `json:"text"`
			Blob     string          `json:"blob"`
			Meta     json.RawMessage `json:"_meta"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(res, &rr); err != nil {
		return contract.UIView{}, contract.Errorf(contract.CodeUpstreamError, "upstream resources/read %s: malformed result: %v", t.OwnUI, err)
	}
	if len(rr.Contents) == 0 {
		return contract.UIView{}, contract.Errorf(contract.CodeUpstreamError, "upstream resources/read %s returned no contents", t.OwnUI)
	}
	c := rr.Contents[0]
	v := contract.UIView{Tool: t.Name, URI: t.OwnUI, MIMEType: c.MIMEType, OwnUI: true, ResourceMeta: c.Meta}
	switch {
	case c.Text != nil:
		v.HTML = *c.Text
	case c.Blob != "":
		b, err := base64.StdEncoding.DecodeString(c.Blob)
		if err != nil {
			return contract.UIView{}, contract.Errorf(contract.CodeUpstreamError, "upstream resources/read %s: blob is not base64: %v", t.OwnUI, err)
		}
		v.HTML = string(b)
	default:
		return contract.UIView{}, contract.Errorf(contract.CodeUpstreamError, "upstream resources/read %s: contents[0] has neither text nor blob", t.OwnUI)
	}
	return v, nil
}

// Inspect describes a tool's UI state without generating anything.
func (e *Engine) Inspect(ctx context.Context, name string) (contract.Inspection, error) {
	t, err := e.LookupTool(ctx, name)
	if err != nil {
		return contract.Inspection{}, err
	}
	key := e.ui.key(t)
	in := contract.Inspection{Tool: e.toolInfo(t), CacheKey: string(key), History: e.ui.refine.History(name)}
	if in.History == nil {
		in.History = []contract.Refinement{}
	}
	for i := range in.History {
		in.History[i].Failed = e.ui.notAppliedReason(name, in.History[i].Feedback)
	}
	if ent, ok := e.ui.cache.Peek(key); ok {
		m := ent.Meta
		in.Cached, in.Meta = true, &m
	}
	if g, ok := e.ui.generationOf(name); ok {
		in.Generation = &g
	}
	return in, nil
}

// Refine appends feedback to a tool's history and regenerates its UI now.
func (e *Engine) Refine(ctx context.Context, req contract.RefineRequest) (contract.UIChange, error) {
	if strings.TrimSpace(req.Feedback) == "" {
		return contract.UIChange{}, contract.Errorf(contract.CodeInvalidArgument, "feedback is empty")
	}
	t, err := e.LookupTool(ctx, req.Tool)
	if err != nil {
		return contract.UIChange{}, err
	}
	if t.OwnUI != "" {
		return contract.UIChange{}, contract.Errorf(contract.CodeInvalidArgument, "%s ships its own UI (%s); genui does not refine it", t.Name, t.OwnUI)
	}
	if t.UIDisabled {
		return contract.UIChange{}, contract.Errorf(contract.CodeInvalidArgument, "%s gets no generated UI (generation.enabledTools / disabledTools)", t.Name)
	}
	source := req.Source
	if source == "" {
		source = contract.SourceAPI
	}
	if req.RequireUnderstood {
		if notes := e.ui.notUnderstood(t, req.Feedback); len(notes) > 0 {
			return contract.UIChange{}, contract.Errorf(contract.CodeNotUnderstood, "%s (nothing recorded: send it again to record it anyway)",
				strings.Join(notes, "; "))
		}
	}
	oldKey, oldHTML := e.ui.cachedHTML(t)
	hist, err := e.ui.refine.Add(t.Name, req.Feedback, source)
	if err != nil {
		return contract.UIChange{}, contract.Errorf(contract.CodeInternal, "saving refinement: %v", err)
	}
	change, err := e.regenerated(ctx, t, contract.UIChange{Reason: "refine", Feedback: req.Feedback,
		Refinements: len(hist), OldCacheKey: oldKey, OldHTML: oldHTML})
	if err != nil {
		return contract.UIChange{}, err
	}
	change.Outcome = change.Meta.OutcomeOf(req.Feedback)
	return change, nil
}

// DropRefinement removes one refinement from a tool's history and
// regenerates its UI from the rest.
func (e *Engine) DropRefinement(ctx context.Context, req contract.DropRefinementRequest) (contract.UIChange, error) {
	t, err := e.LookupTool(ctx, req.Tool)
	if err != nil {
		return contract.UIChange{}, err
	}
	oldKey, oldHTML := e.ui.cachedHTML(t)
	dropped, hist, err := e.ui.refine.Drop(t.Name, req.Index, req.Feedback)
	if err != nil {
		if dropped.Feedback == "" {
			return contract.UIChange{}, contract.Errorf(contract.CodeInvalidArgument, "%v", err)
		}
		return contract.UIChange{}, contract.Errorf(contract.CodeInternal, "dropping a refinement: %v", err)
	}
	return e.regenerated(ctx, t, contract.UIChange{Reason: "drop", Feedback: dropped.Feedback,
		Refinements: len(hist), OldCacheKey: oldKey, OldHTML: oldHTML})
}

// ReadableUI is UI with a packed page unpacked (Packed set).
func (e *Engine) ReadableUI(ctx context.Context, name string) (contract.UIView, error) {
	v, err := e.UI(ctx, name)
	if err != nil || !pagepack.IsPacked(v.HTML) {
		return v, err
	}
	html, err := pagepack.Unpack(v.HTML)
	if err != nil {
		return contract.UIView{}, contract.Errorf(contract.CodeInternal, "unpacking the UI of %s: %v", name, err)
	}
	v.HTML, v.Packed = html, true
	return v, nil
}

// Regenerate drops a tool's cached UI (and optionally its refinements) and
// generates it again.
func (e *Engine) Regenerate(ctx context.Context, req contract.RegenerateRequest) (contract.UIChange, error) {
	t, err := e.LookupTool(ctx, req.Tool)
	if err != nil {
		return contract.UIChange{}, err
	}
	if t.OwnUI != "" {
		return contract.UIChange{}, contract.Errorf(contract.CodeInvalidArgument, "%s ships its own UI (%s); genui does not regenerate it", t.Name, t.OwnUI)
	}
	if t.UIDisabled {
		return contract.UIChange{}, contract.Errorf(contract.CodeInvalidArgument, "%s gets no generated UI (generation.enabledTools / disabledTools)", t.Name)
	}
	oldKey, oldHTML := e.ui.cachedHTML(t)
	if !req.ClearRefinements {
		e.ui.keepPreviousLLM(t) // an unusable new answer keeps the current LLM page
	}
	if req.ClearRefinements {
		if err := e.ui.refine.Clear(t.Name); err != nil {
			return contract.UIChange{}, contract.Errorf(contract.CodeInternal, "clearing refinements: %v", err)
		}
	}
	e.ui.forgetGeneration(t.Name) // a failed LLM generation may be tried again at once
	e.ui.cache.DeleteTool(t.Name)
	return e.regenerated(ctx, t, contract.UIChange{Reason: "regenerate",
		Refinements: len(e.ui.refine.History(t.Name)), RefinementsCleared: req.ClearRefinements,
		OldCacheKey: oldKey, OldHTML: oldHTML})
}

// regenerated is the one tail of Refine, DropRefinement and Regenerate,
// once each has changed what the tool's UI is made from: the UI read again
// (generated now), an EventUIUpdated with change.Reason, and change
// completed with the new page (its key, HTML, metadata, warnings as notes,
// and how long the read took).
func (e *Engine) regenerated(ctx context.Context, t *registry.Tool, change contract.UIChange) (contract.UIChange, error) {
	start := time.Now()
	ui, err := e.readUI(ctx, t.Name)
	if err != nil {
		return contract.UIChange{}, contract.AsError(err)
	}
	e.hub.publish(contract.EventUIUpdated, t.Name, &contract.UIUpdated{Reason: change.Reason, CacheKey: string(ui.Key), UIType: ui.Meta.UIType})
	change.Tool, change.Notes, change.CacheKey, change.HTML, change.Meta = t.Name, ui.Meta.Warnings, string(ui.Key), ui.HTML, ui.Meta
	change.Duration = time.Since(start)
	return change, nil
}

// readUI returns a tool's UI from the UI service.
func (e *Engine) readUI(ctx context.Context, name string) (page, error) {
	t, ok := e.tools.Get(name)
	if !ok {
		return page{}, e.unknownTool(name)
	}
	return e.ui.read(ctx, t)
}

// upstreamError classifies a failed upstream request.
func upstreamError(what string, err error) *contract.Error {
	var je *jsonrpc.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return contract.Errorf(contract.CodeTimeout, "%s: %v", what, err)
	case errors.Is(err, context.Canceled):
		return contract.Errorf(contract.CodeCancelled, "%s: cancelled", what)
	case errors.As(err, &je) && je.Code == jsonrpc.CodeUpstreamUnavailable:
		return contract.Errorf(contract.CodeUpstreamUnavailable, "%s", je.Message)
	case errors.As(err, &je) && (je.Code == jsonrpc.CodeInvalidParams || je.Code == jsonrpc.CodeInvalidRequest):
		return contract.Errorf(contract.CodeInvalidArgument, "%s: %s", what, je.Message)
	case errors.As(err, &je):
		return contract.Errorf(contract.CodeUpstreamError, "%s: %s", what, je.Message)
	}
	return contract.Errorf(contract.CodeUpstreamError, "%s: %v", what, err)
}

// Preview returns the browser preview URL of a tool.
func (e *Engine) Preview(ctx context.Context, name string) (contract.PreviewInfo, error) {
	t, err := e.LookupTool(ctx, name)
	if err != nil {
		return contract.PreviewInfo{}, err
	}
	urls, _, _ := e.fronts.get()
	api := urls.API
	if api == "" {
		return contract.PreviewInfo{}, contract.Errorf(contract.CodeUnavailable, "this genui runs no HTTP side server, so there is no preview")
	}
	return contract.PreviewInfo{Tool: t.Name, URL: api + "/preview/" + url.PathEscape(t.Name)}, nil
}

// PendingEvents implements API: the /wait queue's pending events, oldest
// first, left in the queue for agents.
func (e *Engine) PendingEvents(ctx context.Context) ([]contract.QueuedEvent, error) {
	if err := ctx.Err(); err != nil {
		return nil, contract.AsError(err)
	}
	return e.hub.queue.Peek(), nil
}

// Subscribe streams engine events until ctx ends or the engine stops.
func (e *Engine) Subscribe(ctx context.Context) (<-chan contract.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, contract.AsError(err)
	}
	return e.hub.subscribe(ctx), nil
}

// AgentQueue is the /wait queue the side server serves to agents. Pushing
// goes through Push; watchers see pushes and drains as events.
func (e *Engine) AgentQueue() *events.Queue { return e.hub.queue }

// Push queues an event for agents (GET /wait); watchers see it as an
// EventQueued without draining it.
func (e *Engine) Push(source, typ, tool string, payload any) contract.QueuedEvent {
	return e.hub.queue.Push(source, typ, tool, payload)
}
