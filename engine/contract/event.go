package contract

import (
	"encoding/json"
	"fmt"
	"time"
)

// Event is one engine event. On the wire (GET /events, and the MCP host's
// own uses) it is a discriminated JSON envelope:
//
//	{"seq": 7, "time": "...", "kind": "generation-finished", "tool": "get_forecast",
//	 "detail": {"uiType": "rich", "durationMs": 12, ...}}
//
// Kind says which EventDetail type Detail holds (see the Event* constants).
type Event struct {
	// Seq numbers the engine's events 1, 2, 3 ... in publishing order.
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	Kind EventKind `json:"kind"`
	// Tool is the tool the event is about ("" for engine-wide events).
	Tool   string      `json:"tool,omitempty"`
	Detail EventDetail `json:"detail,omitempty"`
}

// EventKind discriminates events.
type EventKind string

// Event kinds, each with the EventDetail type its Detail holds. Final
// events are never dropped for a slow subscriber; streaming ones
// (IsStreaming) may be.
const (
	EventToolsChanged       EventKind = "tools-changed"       // *ToolsChanged
	EventUIUpdated          EventKind = "ui-updated"          // *UIUpdated
	EventGenerationStarted  EventKind = "generation-started"  // *GenerationStarted
	EventGenerationProgress EventKind = "generation-progress" // *GenerationProgress (streaming)
	EventGenerationFinished EventKind = "generation-finished" // *GenerationFinished
	EventGenerationFailed   EventKind = "generation-failed"   // *GenerationFailed
	EventUpstreamUp         EventKind = "upstream-up"         // *UpstreamChanged
	EventUpstreamDown       EventKind = "upstream-down"       // *UpstreamChanged
	EventQueued             EventKind = "queued"              // *Queued: pushed to the /wait queue
	EventQueueDrained       EventKind = "queue-drained"       // *QueueDrained: a /wait poller took events
	EventSessionsChanged    EventKind = "sessions-changed"    // *SessionsChanged
	EventTraffic            EventKind = "traffic"             // *Traffic (streaming)
	EventLog                EventKind = "log"                 // *LogRecord (streaming)
	EventLagged             EventKind = "lagged"              // *Lagged: the subscription ends
	EventSecurity           EventKind = "security"            // *Security: a UI did what a page must never do
	// Calls from genui's surfaces (calls.go), requests awaiting an answer
	// (requests.go), the upstream's resources and prompts (resources.go).
	EventCallStarted     EventKind = "call-started"     // *CallStarted
	EventCallProgress    EventKind = "call-progress"    // *CallProgress (streaming)
	EventCallFinished    EventKind = "call-finished"    // *CallFinished
	EventTaskStatus      EventKind = "task-status"      // *TaskStatus
	EventRequestPending  EventKind = "request-pending"  // *PendingRequest
	EventRequestAnswered EventKind = "request-answered" // *RequestAnswered
	EventResourceUpdated EventKind = "resource-updated" // *ResourceUpdated
	EventListChanged     EventKind = "list-changed"     // *ListChanged
	EventUpstreamRestart EventKind = "upstream-restart" // *UpstreamRestart: a watched upstream's restart, step by step
)

// IsStreaming reports whether events of this kind may be dropped for a
// subscriber that falls behind.
func (k EventKind) IsStreaming() bool {
	switch k {
	case EventGenerationProgress, EventTraffic, EventLog, EventCallProgress:
		return true
	}
	return false
}

// EventDetail is the typed payload of an Event; the concrete type is fixed
// by the event's Kind.
type EventDetail interface{ eventKind() EventKind }

// ToolsChanged is the detail of EventToolsChanged.
type ToolsChanged struct {
	Diff ToolDiff `json:"diff"`
}

// UIUpdated is the detail of EventUIUpdated: a tool's served UI changed.
type UIUpdated struct {
	// Reason is "refine", "regenerate", "generated" or "upgrade" (a
	// background generation replaced the UI first served).
	Reason   string `json:"reason"`
	CacheKey string `json:"cacheKey,omitempty"`
	UIType   string `json:"uiType,omitempty"`
}

// GenerationStarted is the detail of EventGenerationStarted.
type GenerationStarted struct {
	RequestID string `json:"requestId,omitempty"`
	Generator string `json:"generator,omitempty"`
	// Background is true when the host was already served another UI.
	Background bool `json:"background,omitempty"`
}

// GenerationProgress is the detail of EventGenerationProgress.
type GenerationProgress struct {
	Bytes     int           `json:"bytes"`
	Elapsed   time.Duration `json:"elapsed"`
	Generator string        `json:"generator,omitempty"`
}

// GenerationFinished is the detail of EventGenerationFinished.
type GenerationFinished struct {
	UIType         string        `json:"uiType,omitempty"`
	Generator      string        `json:"generator,omitempty"`
	Duration       time.Duration `json:"duration"`
	CacheKey       string        `json:"cacheKey,omitempty"`
	FallbackReason string        `json:"fallbackReason,omitempty"`
	Warnings       []string      `json:"warnings,omitempty"`
	RequestID      string        `json:"requestId,omitempty"`
	InputTokens    int           `json:"inputTokens,omitempty"`
	OutputTokens   int           `json:"outputTokens,omitempty"`
	// Chain is the generated -> repaired -> offline path with reasons.
	Chain []ChainStep `json:"chain,omitempty"`
}

// GenerationFailed is the detail of EventGenerationFailed.
type GenerationFailed struct {
	Error     string `json:"error"`
	RequestID string `json:"requestId,omitempty"`
	// Class is the LLM error class (TIMEOUT, RATE_LIMIT, AUTH, ...).
	Class     string      `json:"class,omitempty"`
	Retryable bool        `json:"retryable,omitempty"`
	Chain     []ChainStep `json:"chain,omitempty"`
}

// UpstreamChanged is the detail of EventUpstreamUp and EventUpstreamDown.
type UpstreamChanged struct {
	Upstream UpstreamState `json:"upstream"`
}

// Queued is the detail of EventQueued: an event pushed to the /wait queue
// (a UI's ui/message, a refine request from the preview, an API tool call,
// an engine event agents are told about). The queue still holds it.
type Queued struct {
	Event QueuedEvent `json:"event"`
}

// QueueDrained is the detail of EventQueueDrained: a /wait poller took
// Count events (up to sequence number LastSeq); Pending remain.
type QueueDrained struct {
	Count   int   `json:"count"`
	LastSeq int64 `json:"lastSeq"`
	Pending int   `json:"pending"`
}

// SessionsChanged is the detail of EventSessionsChanged.
type SessionsChanged struct {
	Sessions []SessionInfo `json:"sessions"`
}

// Traffic directions.
const (
	HostToGenui     = "host->genui"
	GenuiToHost     = "genui->host"
	GenuiToUpstream = "genui->upstream"
	UpstreamToGenui = "upstream->genui"
)

// Traffic is the detail of EventTraffic: one JSON-RPC frame genui sent or
// received, on either leg (host<->genui, genui<->upstream), as it went over
// the wire: requests with their real ids, the answers, every notification
// (notifications/cancelled included) and genui's answers to requests.
type Traffic struct {
	// Seq numbers the frames genui recorded, from 1, without gaps: a
	// subscriber that sees a jump missed frames (RecentTraffic has the
	// recent ones).
	Seq       int64  `json:"seq,omitempty"`
	Direction string `json:"direction"`
	// Session is the MCP session (host traffic only).
	Session string `json:"session,omitempty"`
	// Kind is "request", "response", "notification" or "error" (an error
	// answer, or a frame that is not JSON-RPC).
	Kind string `json:"kind"`
	// Method is the request's or notification's method; on an answer, the
	// method of the request it answers (when genui saw that request).
	Method string          `json:"method,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
	// Tool is the tool a tools/call names, on the request, its answer and a
	// notifications/cancelled of it.
	Tool string `json:"tool,omitempty"`
	// RequestID is the id of the request a notifications/cancelled gives
	// up on.
	RequestID json.RawMessage `json:"requestId,omitempty"`
	// Latency is set on answers: the time since the request.
	Latency time.Duration `json:"latency,omitempty"`
	// Size is the frame's length; Frame is the frame, cut to
	// MaxTrafficFrame bytes (Truncated says so).
	Size      int             `json:"size"`
	Frame     json.RawMessage `json:"frame,omitempty"`
	Truncated bool            `json:"truncated,omitempty"`
}

// MaxTrafficFrame bounds the frame copy a Traffic event carries.
const MaxTrafficFrame = 16 << 10

// LogRecord is the detail of EventLog: one line of genui's log (the
// upstream's stderr arrives as component "upstream" lines).
type LogRecord struct {
	Level     string         `json:"level"`
	Message   string         `json:"msg"`
	Component string         `json:"component,omitempty"`
	Attrs     map[string]any `json:"attrs,omitempty"`
}

// Security kinds (Security.Kind).
const (
	// SecurityNavigation: a UI navigated (or tried to navigate) its frame
	// away from itself, which can carry tool results out in the URL.
	SecurityNavigation = "navigation"
)

// Security is the detail of EventSecurity: a UI did something a page must
// never do, seen by the host that showed it, and what genui did about it.
type Security struct {
	// Kind is SecurityNavigation.
	Kind string `json:"kind"`
	// Source is who saw it (SourcePreview).
	Source string `json:"source"`
	// URL is where the page went or tried to go, when known.
	URL string `json:"url,omitempty"`
	// Detail says how it was noticed ("the page tried to navigate to ...
	// (blocked)", "the frame loaded a second document").
	Detail string `json:"detail"`
	// UIType and CacheKey name the UI that did it.
	UIType   string `json:"uiType,omitempty"`
	CacheKey string `json:"cacheKey,omitempty"`
	// Action is what genui did ("the LLM page was dropped: the offline UI
	// is served until the UI is refined or regenerated").
	Action string `json:"action"`
}

// Lagged is the detail of EventLagged, the last event of a subscription
// that fell too far behind.
type Lagged struct {
	Pending int `json:"pending"`
}

func (*ToolsChanged) eventKind() EventKind       { return EventToolsChanged }
func (*UIUpdated) eventKind() EventKind          { return EventUIUpdated }
func (*GenerationStarted) eventKind() EventKind  { return EventGenerationStarted }
func (*GenerationProgress) eventKind() EventKind { return EventGenerationProgress }
func (*GenerationFinished) eventKind() EventKind { return EventGenerationFinished }
func (*GenerationFailed) eventKind() EventKind   { return EventGenerationFailed }
func (*UpstreamChanged) eventKind() EventKind    { return EventUpstreamUp }
func (*Queued) eventKind() EventKind             { return EventQueued }
func (*QueueDrained) eventKind() EventKind       { return EventQueueDrained }
func (*SessionsChanged) eventKind() EventKind    { return EventSessionsChanged }
func (*Traffic) eventKind() EventKind            { return EventTraffic }
func (*LogRecord) eventKind() EventKind          { return EventLog }
func (*Lagged) eventKind() EventKind             { return EventLagged }
func (*Security) eventKind() EventKind           { return EventSecurity }
func (*CallStarted) eventKind() EventKind        { return EventCallStarted }
func (*CallProgress) eventKind() EventKind       { return EventCallProgress }
func (*CallFinished) eventKind() EventKind       { return EventCallFinished }
func (*TaskStatus) eventKind() EventKind         { return EventTaskStatus }
func (*PendingRequest) eventKind() EventKind     { return EventRequestPending }
func (*RequestAnswered) eventKind() EventKind    { return EventRequestAnswered }
func (*ResourceUpdated) eventKind() EventKind    { return EventResourceUpdated }
func (*ListChanged) eventKind() EventKind        { return EventListChanged }
func (*UpstreamRestart) eventKind() EventKind    { return EventUpstreamRestart }

// newDetail returns an empty detail of the type kind carries (nil for an
// unknown kind).
func newDetail(kind EventKind) EventDetail {
	switch kind {
	case EventToolsChanged:
		return &ToolsChanged{}
	case EventUIUpdated:
		return &UIUpdated{}
	case EventGenerationStarted:
		return &GenerationStarted{}
	case EventGenerationProgress:
		return &GenerationProgress{}
	case EventGenerationFinished:
		return &GenerationFinished{}
	case EventGenerationFailed:
		return &GenerationFailed{}
	case EventUpstreamUp, EventUpstreamDown:
		return &UpstreamChanged{}
	case EventQueued:
		return &Queued{}
	case EventQueueDrained:
		return &QueueDrained{}
	case EventSessionsChanged:
		return &SessionsChanged{}
	case EventTraffic:
		return &Traffic{}
	case EventLog:
		return &LogRecord{}
	case EventLagged:
		return &Lagged{}
	case EventSecurity:
		return &Security{}
	case EventCallStarted:
		return &CallStarted{}
	case EventCallProgress:
		return &CallProgress{}
	case EventCallFinished:
		return &CallFinished{}
	case EventTaskStatus:
		return &TaskStatus{}
	case EventRequestPending:
		return &PendingRequest{}
	case EventRequestAnswered:
		return &RequestAnswered{}
	case EventResourceUpdated:
		return &ResourceUpdated{}
	case EventListChanged:
		return &ListChanged{}
	case EventUpstreamRestart:
		return &UpstreamRestart{}
	}
	return nil
}

// UnmarshalJSON decodes the envelope and Detail as the type Kind names.
// An unknown kind (a newer genui) keeps the envelope with a nil Detail.
func (ev *Event) UnmarshalJSON(b []byte) error {
	var env struct {
		Seq    int64           `json:"seq"`
		Time   time.Time       `json:"time"`
		Kind   EventKind       `json:"kind"`
		Tool   string          `json:"tool"`
		Detail json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("event: %w", err)
	}
	*ev = Event{Seq: env.Seq, Time: env.Time, Kind: env.Kind, Tool: env.Tool}
	d := newDetail(env.Kind)
	if d == nil || len(env.Detail) == 0 || string(env.Detail) == "null" {
		return nil
	}
	if err := json.Unmarshal(env.Detail, d); err != nil {
		return fmt.Errorf("event %s: detail: %w", env.Kind, err)
	}
	ev.Detail = d
	return nil
}
