package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Requests awaiting an answer. The upstream asks its client for things
// (elicitation/create, sampling/createMessage, roots/list). A request that
// belongs to a connected host's call goes to that host. One that belongs to
// a call from genui's own surfaces, or whose host did not declare the
// capability, becomes a PendingRequest: an EventRequestPending every
// surface sees, answered with AnswerRequest by whichever surface answers
// first (the others see EventRequestAnswered). Without an answer within
// the bound (answerTimeout) the upstream gets a clear error; when no
// surface is open to answer (nobody subscribed to events) it fails at once.
// roots/list is answered by genui itself from its configured roots.

// Kinds of pending requests (PendingRequest.Kind).
const (
	RequestElicitation = "elicitation" // elicitation/create (form or URL mode)
	RequestSampling    = "sampling"    // sampling/createMessage
)

// Elicitation modes (ElicitationRequest.Mode).
const (
	ElicitForm = "form"
	ElicitURL  = "url"
)

// Elicitation answers (ElicitResult's action).
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// Outcomes of a pending request (RequestAnswered.Outcome).
const (
	OutcomeAnswered  = "answered"  // a surface sent a result
	OutcomeRejected  = "rejected"  // a surface answered with an error
	OutcomeTimedOut  = "timed-out" // nobody answered within the bound
	OutcomeWithdrawn = "withdrawn" // the call it belonged to ended, or the upstream stopped waiting
)

// PendingRequest is a request from the upstream waiting for an answer from
// one of genui's surfaces.
type PendingRequest struct {
	// ID names the request in AnswerRequest and DraftSamplingAnswer.
	ID string `json:"id"`
	// Kind is RequestElicitation or RequestSampling; Method the MCP method.
	Kind   string `json:"kind"`
	Method string `json:"method"`
	// CallID, Tool and Source identify the call it belongs to, when genui
	// can tell (CallID "" for a host's call or an unknown one).
	CallID string `json:"callId,omitempty"`
	Tool   string `json:"tool,omitempty"`
	Source string `json:"source,omitempty"`
	// TaskID is the task it belongs to (its related-task _meta).
	TaskID string `json:"taskId,omitempty"`
	// Params are the request's params verbatim.
	Params json.RawMessage `json:"params"`
	// Elicitation or Sampling is Params read for display.
	Elicitation *ElicitationRequest `json:"elicitation,omitempty"`
	Sampling    *SamplingRequest    `json:"sampling,omitempty"`
	Received    time.Time           `json:"received"`
	// Deadline is when the upstream gets an error instead of an answer.
	Deadline time.Time `json:"deadline"`
}

// ElicitationRequest is elicitation/create's params.
type ElicitationRequest struct {
	Mode    string `json:"mode"`
	Message string `json:"message"`
	// RequestedSchema is the form's flat JSON Schema (form mode).
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	// URL and ElicitationID are URL mode's.
	URL           string `json:"url,omitempty"`
	ElicitationID string `json:"elicitationId,omitempty"`
}

// SamplingRequest is sampling/createMessage's params.
type SamplingRequest struct {
	// Messages are the conversation verbatim (role + content, which is one
	// block or an array of blocks).
	Messages         json.RawMessage `json:"messages"`
	SystemPrompt     string          `json:"systemPrompt,omitempty"`
	MaxTokens        int             `json:"maxTokens,omitempty"`
	Temperature      *float64        `json:"temperature,omitempty"`
	IncludeContext   string          `json:"includeContext,omitempty"`
	StopSequences    []string        `json:"stopSequences,omitempty"`
	ModelPreferences json.RawMessage `json:"modelPreferences,omitempty"`
}

// ParsePendingParams fills Elicitation or Sampling from Params (a malformed
// field is left out: the raw params stay for display).
func (p *PendingRequest) ParsePendingParams() {
	switch p.Kind {
	case RequestElicitation:
		var e ElicitationRequest
		if json.Unmarshal(p.Params, &e) == nil {
			if e.Mode == "" {
				e.Mode = ElicitForm
			}
			p.Elicitation = &e
		}
	case RequestSampling:
		var s SamplingRequest
		if json.Unmarshal(p.Params, &s) == nil {
			p.Sampling = &s
		}
	}
}

// Answer answers a pending request.
type Answer struct {
	ID string `json:"id"`
	// Result is the MCP result verbatim: an ElicitResult
	// ({"action": "accept", "content": {...}}) or a CreateMessageResult
	// ({"role": "assistant", "content": {...}, "model": "..."}); see
	// ElicitResult and SamplingResult.
	Result json.RawMessage `json:"result,omitempty"`
	// Reject answers with an error carrying this message instead (a
	// sampling request the person refused).
	Reject string `json:"reject,omitempty"`
	Source string `json:"source,omitempty"`
}

// ElicitResult is an elicitation answer: action ElicitAccept (with the
// form's content; nil for URL mode), ElicitDecline or ElicitCancel.
func ElicitResult(action string, content map[string]any) json.RawMessage {
	m := map[string]any{"action": action}
	if action == ElicitAccept && content != nil {
		m["content"] = content
	}
	b, _ := json.Marshal(m)
	return b
}

// SamplingResult is a sampling answer: one text block from model.
func SamplingResult(model, text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"role": "assistant", "model": model, "stopReason": "endTurn",
		"content": map[string]any{"type": "text", "text": text}})
	return b
}

// CheckAnswer checks a result against the kind of request it answers, so a
// malformed answer is refused here rather than confusing the upstream.
func CheckAnswer(kind string, result json.RawMessage) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(result, &m); err != nil || m == nil {
		return fmt.Errorf("the answer must be a JSON object (the MCP result)")
	}
	switch kind {
	case RequestElicitation:
		var action string
		_ = json.Unmarshal(m["action"], &action)
		switch action {
		case ElicitAccept:
			if c, ok := m["content"]; ok {
				var obj map[string]json.RawMessage
				if json.Unmarshal(c, &obj) != nil || obj == nil {
					return fmt.Errorf("an accepted elicitation's content must be a JSON object of the form's values")
				}
			}
		case ElicitDecline, ElicitCancel:
		default:
			return fmt.Errorf("an elicitation answer's action must be %q, %q or %q, not %q", ElicitAccept, ElicitDecline, ElicitCancel, action)
		}
	case RequestSampling:
		var missing []string
		for _, k := range []string{"role", "content", "model"} {
			if len(m[k]) == 0 || string(m[k]) == "null" {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("a sampling answer (CreateMessageResult) needs %s", strings.Join(missing, ", "))
		}
	}
	return nil
}

// SamplingDraft is what genui's LLM provider would answer a pending
// sampling request with; nothing was sent upstream.
type SamplingDraft struct {
	ID string `json:"id"`
	// Result is the CreateMessageResult to send with AnswerRequest.
	Result   json.RawMessage `json:"result"`
	Text     string          `json:"text"`
	Provider string          `json:"provider"`
	Model    string          `json:"model"`
	Duration time.Duration   `json:"duration"`
}

// RequestAnswered is the detail of EventRequestAnswered: a pending request
// is no longer pending.
type RequestAnswered struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Outcome string `json:"outcome"`
	// By is the source that answered (OutcomeAnswered, OutcomeRejected).
	By string `json:"by,omitempty"`
	// Action is an elicitation answer's action.
	Action string `json:"action,omitempty"`
	// Error is what the upstream was told instead of an answer.
	Error string `json:"error,omitempty"`
}

// UnimplementedHost answers every host-side method of API (calls
// cancelled, requests answered, roots, resources, prompts) with
// CodeUnavailable. Embed it in a partial implementation of API (a test's
// stub) that has none of them.
type UnimplementedHost struct{}

func unimplemented(what string) *Error {
	return Errorf(CodeUnavailable, "%s is not implemented here", what)
}

func (UnimplementedHost) CancelCall(context.Context, string) error {
	return unimplemented("CancelCall")
}
func (UnimplementedHost) PendingRequests(context.Context) ([]PendingRequest, error) {
	return nil, unimplemented("PendingRequests")
}
func (UnimplementedHost) AnswerRequest(context.Context, Answer) error {
	return unimplemented("AnswerRequest")
}
func (UnimplementedHost) DraftSamplingAnswer(context.Context, string) (SamplingDraft, error) {
	return SamplingDraft{}, unimplemented("DraftSamplingAnswer")
}
func (UnimplementedHost) Roots(context.Context) ([]Root, error) { return nil, unimplemented("Roots") }

// SetRoots implements API.
func (UnimplementedHost) SetRoots(context.Context, []Root) ([]Root, error) {
	return nil, unimplemented("SetRoots")
}
func (UnimplementedHost) Resources(context.Context) ([]Resource, error) {
	return nil, unimplemented("Resources")
}
func (UnimplementedHost) ResourceTemplates(context.Context) ([]ResourceTemplate, error) {
	return nil, unimplemented("ResourceTemplates")
}
func (UnimplementedHost) ReadResource(context.Context, string) (ResourceContents, error) {
	return ResourceContents{}, unimplemented("ReadResource")
}
func (UnimplementedHost) SubscribeResource(context.Context, string) error {
	return unimplemented("SubscribeResource")
}
func (UnimplementedHost) UnsubscribeResource(context.Context, string) error {
	return unimplemented("UnsubscribeResource")
}
func (UnimplementedHost) Prompts(context.Context) ([]Prompt, error) {
	return nil, unimplemented("Prompts")
}
func (UnimplementedHost) GetPrompt(context.Context, GetPromptRequest) (PromptResult, error) {
	return PromptResult{}, unimplemented("GetPrompt")
}
