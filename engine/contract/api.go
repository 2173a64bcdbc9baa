// Package contract is the engine as its front ends see it: the API
// interface, its request and result types, its error codes (with the one
// table of HTTP statuses the side server answers them with) and its event
// stream. The TUI, the HTTP side server and its client, and the MCP host's
// _ui_* tools depend on this package; it depends on the standard library
// only, so a front end that holds an API compiles none of the engine (no
// upstream client, no LLM SDK, no mcp-go).
package contract

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"time"
)

// API is the engine as its front ends see it: the TUI, the HTTP side server
// (which serves exactly this interface, one route per method) and the MCP
// host's _ui_* tools. There are two implementations: *engine.Engine
// (in-process) and apiclient.Client (an HTTP client of a running genui's
// side server). Both pass the same conformance suite (engine/apitest).
//
// Every method is safe for concurrent use and honours ctx. Failures are
// *Error values with a Code, so callers can tell an unknown tool from an
// upstream that is down whichever implementation they hold.
type API interface {
	// State is a snapshot of everything: version, folder, generator,
	// upstream, URLs, MCP sessions, tools with their UI status, cache,
	// generation queue, refinements and the /wait queue.
	State(ctx context.Context) (State, error)
	// Variables is State as a flat tree of variables (what /variables serves).
	Variables(ctx context.Context) (Variables, error)
	// Tools lists the upstream's tools in upstream order, schemas included.
	Tools(ctx context.Context) ([]ToolInfo, error)
	// UI returns a tool's UI as a host would read it (from the cache, or
	// generated now), with its metadata. A tool that ships its own UI
	// returns the upstream's HTML with Meta.OwnUI set.
	UI(ctx context.Context, tool string) (UIView, error)
	// Inspect describes a tool and its UI without generating anything.
	Inspect(ctx context.Context, tool string) (Inspection, error)
	// Refine adds feedback to a tool's history and regenerates its UI now.
	Refine(ctx context.Context, req RefineRequest) (UIChange, error)
	// Regenerate drops a tool's cached UI (optionally its refinements too)
	// and generates it again.
	Regenerate(ctx context.Context, req RegenerateRequest) (UIChange, error)
	// DropRefinement removes one refinement from a tool's history and
	// regenerates its UI from the rest.
	DropRefinement(ctx context.Context, req DropRefinementRequest) (UIChange, error)
	// ReadableUI is UI as a person reads it: a page the offline generator
	// packs (its renderers and styles deflated into one block) comes back
	// unpacked, with Packed set. Hosts get UI; this is for the TUI and
	// scripts that read a page's code.
	ReadableUI(ctx context.Context, tool string) (UIView, error)
	// CallTool calls an upstream tool (waiting, bounded, for an upstream
	// that is starting) and returns its CallToolResult verbatim. Calls from
	// the HTTP API and the TUI (Source SourceAPI, SourceTUI) are also pushed
	// to the /wait queue so agents see what the developer did. The call
	// carries a progress token: the upstream's progress arrives as
	// EventCallProgress events tied to req.CallID (set it to follow the
	// call; one is made when empty), between EventCallStarted and
	// EventCallFinished. Ending ctx, or CancelCall, cancels it: the
	// upstream gets notifications/cancelled (a task: tasks/cancel) and the
	// call fails at once with CodeCancelled. A tool whose
	// execution.taskSupport is "required" (or "optional" with req.Task)
	// runs as a task: created, followed (EventTaskStatus), its result
	// fetched; CallResult.Task is the task.
	CallTool(ctx context.Context, req CallRequest) (CallResult, error)
	// CancelCall cancels a call in flight made with CallTool by any of
	// genui's surfaces (CodeNotFound when no such call runs).
	CancelCall(ctx context.Context, callID string) error
	// RefreshTools fetches the upstream's tools again and reports the change.
	RefreshTools(ctx context.Context) (ToolDiff, error)
	// Preview returns the browser preview URL of a tool (it opens nothing).
	Preview(ctx context.Context, tool string) (PreviewInfo, error)
	// PendingEvents returns the /wait queue's pending events, oldest first
	// (a "dropped" marker first when some were lost), without draining
	// them: the next /wait still returns every one. Front ends that watch
	// the queue call it once and then follow EventQueued events.
	PendingEvents(ctx context.Context) ([]QueuedEvent, error)
	// History lists recorded tool calls, newest first (without their
	// results); HistoryEntry returns one whole.
	History(ctx context.Context, q HistoryQuery) (HistoryPage, error)
	HistoryEntry(ctx context.Context, id int64) (HistoryEntry, error)
	// RerunCall calls a recorded call again (same tool and arguments, or
	// edited ones) and reports how the result differs.
	RerunCall(ctx context.Context, req RerunRequest) (Rerun, error)
	// CompareCalls reports how one recorded call's result differs from
	// another's.
	CompareCalls(ctx context.Context, req CompareRequest) (ResultDiff, error)
	// Checks lists the pinned calls; AddCheck pins one; RunChecks replays
	// them against the upstream and reports equal, changed (with the diff)
	// or failed.
	Checks(ctx context.Context) ([]Check, error)
	AddCheck(ctx context.Context, req AddCheckRequest) (Check, error)
	RunChecks(ctx context.Context, req RunChecksRequest) (CheckReport, error)
	// Subscribe streams every engine event from now until ctx ends. Final
	// events are never dropped; streaming ones (generation progress,
	// traffic, log) may be for a reader that falls behind. Watching never
	// consumes: the /wait queue still holds every queued event for agents.
	// The channel is closed when ctx ends, the engine stops, or (remote) the
	// connection is lost; a subscriber that falls too far behind (256
	// pending events) is closed too, after an EventLagged event.
	Subscribe(ctx context.Context) (<-chan Event, error)
	// RecentTraffic returns the JSON-RPC frames genui recorded (whether or
	// not anyone watched) after traffic number q.After, oldest first: the
	// newest q.Limit of them at most. A front end that attaches calls it to
	// start with history, and again to fill a gap in the Traffic.Seq
	// numbers its subscription shows (see traffic.go).
	RecentTraffic(ctx context.Context, q TrafficQuery) (TrafficPage, error)

	// PendingRequests lists the upstream's requests waiting for an answer
	// from genui's surfaces (elicitation, sampling), oldest first; front
	// ends call it once and then follow EventRequestPending and
	// EventRequestAnswered. See requests.go.
	PendingRequests(ctx context.Context) ([]PendingRequest, error)
	// AnswerRequest answers a pending request; the first answer wins
	// (CodeConflict for a later one, CodeNotFound once it is gone).
	AnswerRequest(ctx context.Context, a Answer) error
	// DraftSamplingAnswer asks genui's configured LLM provider (the one
	// that generates UIs) to answer a pending sampling request and returns
	// its answer without sending it: send it with AnswerRequest.
	DraftSamplingAnswer(ctx context.Context, requestID string) (SamplingDraft, error)
	// Roots are the roots genui answers the upstream's roots/list with
	// (configuration "roots"; default none).
	Roots(ctx context.Context) ([]Root, error)
	// SetRoots replaces them (file:// URIs, at most 64) and tells the
	// upstream with notifications/roots/list_changed (an upstream told at
	// its start that genui has none is restarted, stdio and in-process
	// only); it returns the roots now in force.
	SetRoots(ctx context.Context, roots []Root) ([]Root, error)

	// Resources lists the upstream's resources (every page).
	Resources(ctx context.Context) ([]Resource, error)
	// ResourceTemplates lists the upstream's resource templates with their
	// arguments (every page).
	ResourceTemplates(ctx context.Context) ([]ResourceTemplate, error)
	// ReadResource reads a resource: genui's own ui:// UIs from the
	// engine, anything else from the upstream (text and blob contents).
	ReadResource(ctx context.Context, uri string) (ResourceContents, error)
	// SubscribeResource asks the upstream for notifications/resources/updated
	// of uri (EventResourceUpdated); UnsubscribeResource stops them.
	SubscribeResource(ctx context.Context, uri string) error
	UnsubscribeResource(ctx context.Context, uri string) error
	// Prompts lists the upstream's prompts with their arguments (every page).
	Prompts(ctx context.Context) ([]Prompt, error)
	// GetPrompt gets a prompt with its arguments filled in.
	GetPrompt(ctx context.Context, req GetPromptRequest) (PromptResult, error)

	// Ping pings the upstream and returns the round trip (hostfeatures.go).
	Ping(ctx context.Context) (PingResult, error)
	// SetLogLevel asks the upstream for log messages at level and above
	// (logging/setLevel; one of LogLevels); CodeUnavailable when it does
	// not declare logging.
	SetLogLevel(ctx context.Context, level string) error
	// Complete asks the upstream to complete a prompt's or a resource
	// template's argument (completion/complete); CodeUnavailable when it
	// does not declare completions.
	Complete(ctx context.Context, req CompleteRequest) (Completion, error)
	// Lint runs the server linter on the upstream's tools and the results
	// recorded in the history and the checks (lint.go).
	Lint(ctx context.Context) (LintReport, error)

	// SignIn starts the OAuth sign-in to an http or sse upstream anew (the
	// authorization URL is then in State's Upstream.Auth) and returns the
	// auth state; SignOut forgets its tokens and drops the connection until
	// the next SignIn. CodeUnavailable for an upstream genui does not sign
	// in to (stdio, the demo, one with a static Authorization header).
	SignIn(ctx context.Context) (AuthState, error)
	SignOut(ctx context.Context) (AuthState, error)
}

// Sources of requests and refinements (RefineRequest.Source,
// CallRequest.Source, Refinement.Source, QueuedEvent.Source).
const (
	SourceMCP     = "mcp"     // an MCP host through a _ui_* tool or tools/call
	SourceTUI     = "tui"     // the terminal workbench
	SourcePreview = "preview" // the browser preview page
	SourceAPI     = "api"     // the HTTP tool API (scripts, .ui/mcp)
	SourceEngine  = "engine"  // the engine itself
)

// MIMEApp is the only MIME type hosts recognise for MCP App HTML.
const MIMEApp = "text/html;profile=mcp-app"

// PageBlockURIPrefix starts the URI of an offline page's deferred block
// (its rich views, pagepack.DeferredPrefix: the same string, checked by
// engine's tests), which a page reads through its host and ReadResource
// serves.
const PageBlockURIPrefix = "ui://genui/pack/"

// UIURI is genui's resource URI for a tool's UI.
func UIURI(tool string) string { return "ui://" + url.PathEscape(tool) }

// ToolFromURI returns the tool name a genui ui:// URI names.
func ToolFromURI(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, "ui://")
	if !ok || rest == "" {
		return "", false
	}
	name, err := url.PathUnescape(rest)
	if err != nil {
		return "", false
	}
	return name, true
}

// ToolStatus is one tool as State lists it: identity and UI status, no schemas.
type ToolStatus struct {
	Name string `json:"name"`
	// ResourceURI is where the tool's UI is served: genui's ui://<tool>, or
	// the upstream's own URI when OwnUI.
	ResourceURI string `json:"resourceUri"`
	OwnUI       bool   `json:"ownUI"`
	// Visibility is _meta.ui.visibility (empty: the default, model and app).
	Visibility []string `json:"visibility,omitempty"`
	// Hash covers name, description and schemas; it changes exactly when the
	// UI must be regenerated.
	Hash        string   `json:"hash"`
	UI          UIStatus `json:"ui"`
	Refinements int      `json:"refinements"`
}

// AppOnly reports whether only UIs may call the tool (visibility ["app"]).
func (t ToolStatus) AppOnly() bool {
	return len(t.Visibility) > 0 && !slices.Contains(t.Visibility, "model")
}

// ModelOnly reports whether UIs may not call the tool (visibility lacks "app").
func (t ToolStatus) ModelOnly() bool {
	return len(t.Visibility) > 0 && !slices.Contains(t.Visibility, "app")
}

// UI states (UIStatus.State).
const (
	UIStateNone       = "none"       // never generated (or evicted)
	UIStateGenerating = "generating" // a generation is running
	UIStateCached     = "cached"     // a generated UI is cached
	UIStateFallback   = "fallback"   // the cached UI is a fallback (see FallbackReason)
	UIStateOwn        = "own"        // the upstream ships its own UI
	UIStateDisabled   = "disabled"   // left out by generation.enabledTools/disabledTools
)

// UIStatus is a tool's UI at a glance (the TUI's badge).
type UIStatus struct {
	State string `json:"state"`
	// Kind is the UI type of the cached UI ("rich", "minimal", "llm", ...).
	Kind           string `json:"kind,omitempty"`
	Generator      string `json:"generator,omitempty"`
	FallbackReason string `json:"fallbackReason,omitempty"`
	CacheKey       string `json:"cacheKey,omitempty"`
	// Generating is true while a generation runs, also when an older UI is
	// still cached and served (background upgrade).
	Generating  bool      `json:"generating,omitempty"`
	GeneratedAt time.Time `json:"generatedAt,omitzero"`
}

// ToolInfo is one upstream tool with its schemas, as the TUI's Detail and
// Call panes need it.
type ToolInfo struct {
	ToolStatus
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	// TaskSupport is execution.taskSupport ("" = forbidden, the default).
	TaskSupport string `json:"taskSupport,omitempty"`
}

// UIMeta describes a generated UI: when, by what, how long, warnings and
// why it fell back, if it did. The UI cache stores it with every entry.
type UIMeta struct {
	GeneratedAt    time.Time     `json:"generatedAt"`
	Duration       time.Duration `json:"duration"`
	Provider       string        `json:"provider,omitempty"`
	Model          string        `json:"model,omitempty"`
	InputTokens    int           `json:"inputTokens,omitempty"`
	OutputTokens   int           `json:"outputTokens,omitempty"`
	UIType         string        `json:"uiType,omitempty"`
	FallbackReason string        `json:"fallbackReason,omitempty"`
	Warnings       []string      `json:"warnings,omitempty"`
	RequestID      string        `json:"requestId,omitempty"`
	// Chain is how an LLM page came to be: generated, or repaired (with
	// what was wrong and what was fixed).
	Chain []ChainStep `json:"chain,omitempty"`
	// CacheVersion is the cache format version the entry was stored with.
	CacheVersion int `json:"cacheVersion"`
	// Spec is the view specification the page draws (package viewspec's
	// format, as JSON); absent for a page a model wrote whole.
	Spec json.RawMessage `json:"spec,omitempty"`
	// Outcomes say what became of each refinement the page was made with,
	// in order.
	Outcomes []RefinementOutcome `json:"outcomes,omitempty"`
}

// RefinementOutcome is what became of one refinement: Status
// RefinementApplied, RefinementPartlyApplied or RefinementNotApplied, what
// it changed in the view specification ("hidden: message") and, when not
// (fully) applied, why. The one declaration: package viewspec's Outcome is
// this type.
type RefinementOutcome struct {
	Refinement string   `json:"refinement"`
	Status     string   `json:"status"`
	Changes    []string `json:"changes,omitempty"`
	Reason     string   `json:"reason,omitempty"`
}

// The statuses of a RefinementOutcome.
const (
	RefinementApplied       = "applied"
	RefinementPartlyApplied = "partly applied"
	RefinementNotApplied    = "not applied"
)

// String is "applied: hidden: message" or "not applied: reason".
func (o RefinementOutcome) String() string {
	s := o.Status
	if len(o.Changes) > 0 {
		s += ": " + strings.Join(o.Changes, "; ")
	}
	if o.Reason != "" {
		if len(o.Changes) > 0 {
			s += " (" + o.Reason + ")"
		} else {
			s += ": " + o.Reason
		}
	}
	return s
}

// OutcomeOf is the outcome of the newest refinement with this feedback
// in m (nil when m has none: a page a model wrote).
func (m UIMeta) OutcomeOf(feedback string) *RefinementOutcome {
	for i := len(m.Outcomes) - 1; i >= 0; i-- {
		if m.Outcomes[i].Refinement == feedback {
			o := m.Outcomes[i]
			return &o
		}
	}
	return nil
}

// ChainStep is one step of a generation's generated -> repaired -> offline
// chain.
type ChainStep struct {
	Stage  string `json:"stage"`
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"`
}

// Refinement is one piece of feedback on a tool's UI.
type Refinement struct {
	Feedback string    `json:"feedback"`
	Time     time.Time `json:"time"`
	// Source says where it came from (SourceTUI, SourceMCP, ...).
	Source string `json:"source,omitempty"`
	// Failed says why the refinement is not in the served LLM page (its
	// generation failed, was superseded or never answered); "" otherwise.
	// Kept in memory by the running genui, not persisted.
	Failed string `json:"failed,omitempty"`
}

// UIView is a tool's UI as served to hosts.
type UIView struct {
	Tool     string `json:"tool"`
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	HTML     string `json:"html"`
	// CacheKey identifies this version of the UI ("" for an upstream's own UI
	// and for an uncached emergency page).
	CacheKey  string `json:"cacheKey,omitempty"`
	FromCache bool   `json:"fromCache"`
	OwnUI     bool   `json:"ownUI,omitempty"`
	Meta      UIMeta `json:"meta"`
	// ResourceMeta is the _meta of an upstream's own UI resource (its csp, ...).
	ResourceMeta json.RawMessage `json:"resourceMeta,omitempty"`
	// Packed says the page is served packed and HTML is its unpacked,
	// readable form (ReadableUI only).
	Packed bool `json:"packed,omitempty"`
}

// Inspection is a tool and its UI state, without generating anything.
type Inspection struct {
	Tool     ToolInfo `json:"tool"`
	CacheKey string   `json:"cacheKey"`
	Cached   bool     `json:"cached"`
	// Meta is the cached UI's metadata (nil when nothing is cached).
	Meta    *UIMeta      `json:"meta,omitempty"`
	History []Refinement `json:"history"`
	// Generation is the latest LLM generation of the tool (progress, chain,
	// error), when there is one.
	Generation *GenerationStatus `json:"generation,omitempty"`
}

// RefineRequest asks for a refinement.
type RefineRequest struct {
	Tool     string `json:"tool"`
	Feedback string `json:"feedback"`
	// Source says where it came from (SourceTUI, SourceMCP, ...).
	Source string `json:"source,omitempty"`
	// RequireUnderstood refuses (CodeNotUnderstood, nothing recorded)
	// feedback the offline generator cannot read, when it is the one that
	// generates: the front end asks the developer, and sends it again
	// without the flag to record it anyway (an LLM may read it later).
	RequireUnderstood bool `json:"requireUnderstood,omitempty"`
}

// RegenerateRequest asks for a regeneration.
type RegenerateRequest struct {
	Tool             string `json:"tool"`
	ClearRefinements bool   `json:"clearRefinements,omitempty"`
	Source           string `json:"source,omitempty"`
}

// DropRefinementRequest asks to remove one refinement from a tool's history.
type DropRefinementRequest struct {
	Tool string `json:"tool"`
	// Index is the refinement's position in the history (Inspection.History),
	// from 0; -1 is the last one.
	Index int `json:"index"`
	// Feedback, when set, must be that refinement's feedback (another
	// process may have changed the history meanwhile: then nothing is
	// dropped and the call fails with CodeInvalidArgument).
	Feedback string `json:"feedback,omitempty"`
	Source   string `json:"source,omitempty"`
}

// UIChange is the outcome of a refine, a regenerate or a dropped
// refinement: the UI before and after, so front ends can show what changed.
type UIChange struct {
	Tool string `json:"tool"`
	// Reason is "refine", "regenerate" or "drop".
	Reason string `json:"reason"`
	// Feedback is the refinement added (refine) or dropped (drop).
	Feedback string `json:"feedback,omitempty"`
	// Notes say how the refinement was understood, or what was not
	// (the new UI's warnings).
	Notes              []string `json:"notes,omitempty"`
	Refinements        int      `json:"refinements"`
	RefinementsCleared bool     `json:"refinementsCleared,omitempty"`
	OldCacheKey        string   `json:"oldCacheKey,omitempty"`
	CacheKey           string   `json:"cacheKey"`
	// Outcome is what became of the refinement (refine; nil when the page
	// does not say, as a page a model wrote whole).
	Outcome *RefinementOutcome `json:"outcome,omitempty"`
	// OldHTML is "" when no UI was cached before.
	OldHTML  string        `json:"oldHtml,omitempty"`
	HTML     string        `json:"html"`
	Meta     UIMeta        `json:"meta"`
	Duration time.Duration `json:"duration"`
}

// CallRequest asks to call an upstream tool.
type CallRequest struct {
	Name string `json:"name"`
	// Arguments is a JSON object (nil means {}).
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Source    string          `json:"source,omitempty"`
	// CallID names the call in its events and in CancelCall; the engine
	// makes one when it is empty. At most 128 bytes.
	CallID string `json:"callId,omitempty"`
	// Task runs a tool whose execution.taskSupport is "optional" as a task
	// (a "required" one always runs as a task).
	Task bool `json:"task,omitempty"`
}

// CallResult is a tool's CallToolResult, verbatim.
type CallResult struct {
	Result   json.RawMessage `json:"result"`
	IsError  bool            `json:"isError"`
	Duration time.Duration   `json:"duration"`
	CallID   string          `json:"callId,omitempty"`
	// Task is the task the call ran as (its last status), if it did.
	Task *Task `json:"task,omitempty"`
	// HistoryID is the call's entry in the history (0 when not recorded).
	HistoryID int64 `json:"historyId,omitempty"`
}

// PreviewInfo is where a tool's browser preview is.
type PreviewInfo struct {
	Tool string `json:"tool"`
	URL  string `json:"url"`
}

// ToolDiff is the outcome of a tools refresh.
type ToolDiff struct {
	Added     []string `json:"added"`
	Removed   []string `json:"removed"`
	Changed   []string `json:"changed"`
	Unchanged []string `json:"unchanged"`
	// Changes say how each added, removed or changed tool changed.
	Changes []ToolChange `json:"changes,omitempty"`
}

// Empty reports whether nothing was added, removed or changed.
func (d ToolDiff) Empty() bool { return len(d.Added)+len(d.Removed)+len(d.Changed) == 0 }

// QueuedEvent is one event of the /wait queue, waiting for (or handed to)
// a poller.
type QueuedEvent struct {
	Seq     int64           `json:"seq"`
	Time    time.Time       `json:"time"`
	Source  string          `json:"source"`
	Type    string          `json:"type"`
	Tool    string          `json:"tool,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}
