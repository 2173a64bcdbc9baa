package contract

import (
	"context"
	"encoding/json"
	"time"
)

// The host features a developer reaches for in MCP Inspector, served
// through API: ping with its round trip, the upstream's log level, argument
// completion, and the server linter.

// PingResult is a ping's outcome.
type PingResult struct {
	// RoundTrip is from sending ping to its answer.
	RoundTrip time.Duration `json:"roundTrip"`
	At        time.Time     `json:"at"`
}

// LogLevels are the MCP log levels (RFC 5424's), least severe first:
// SetLogLevel accepts these.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Completion references (CompleteRequest.Ref).
const (
	CompletePrompt   = "ref/prompt"   // a prompt's argument (Name)
	CompleteResource = "ref/resource" // a resource template's variable (URI: the template)
)

// CompleteRequest asks the upstream to complete one argument
// (completion/complete).
type CompleteRequest struct {
	// Ref is CompletePrompt (Name is the prompt's) or CompleteResource
	// (URI is the resource template's).
	Ref  string `json:"ref"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
	// Argument and Value are the argument being completed and what is
	// typed so far; Context holds the other arguments already given.
	Argument string            `json:"argument"`
	Value    string            `json:"value"`
	Context  map[string]string `json:"context,omitempty"`
}

// Completion is completion/complete's answer.
type Completion struct {
	// Values are the suggestions (at most 100, as the spec bounds them).
	Values []string `json:"values"`
	// Total is how many there are in all, when the server says; HasMore
	// that there are more than Values.
	Total   int             `json:"total,omitempty"`
	HasMore bool            `json:"hasMore,omitempty"`
	Raw     json.RawMessage `json:"raw,omitempty"`
}

// Ping, SetLogLevel, Complete and Lint of UnimplementedHost answer
// CodeUnavailable.
func (UnimplementedHost) Ping(context.Context) (PingResult, error) {
	return PingResult{}, unimplemented("Ping")
}
func (UnimplementedHost) SetLogLevel(context.Context, string) error {
	return unimplemented("SetLogLevel")
}
func (UnimplementedHost) Complete(context.Context, CompleteRequest) (Completion, error) {
	return Completion{}, unimplemented("Complete")
}
func (UnimplementedHost) Lint(context.Context) (LintReport, error) {
	return LintReport{}, unimplemented("Lint")
}

// SignIn and SignOut of UnimplementedHost answer CodeUnavailable.
func (UnimplementedHost) SignIn(context.Context) (AuthState, error) {
	return AuthState{}, unimplemented("SignIn")
}
func (UnimplementedHost) SignOut(context.Context) (AuthState, error) {
	return AuthState{}, unimplemented("SignOut")
}

// Summary is a tool's UI state in words, the same wherever genui shows it
// (the TUI's Detail pane, _ui_list, the tool list's badge in short):
// "cached rich · by offline", "fallback minimal · <reason>", "generating",
// "own UI", "disabled", "none"; "· generating" is added while an LLM
// generation runs behind a served UI.
func (u UIStatus) Summary() string {
	s := u.State
	switch u.State {
	case UIStateCached, UIStateFallback:
		if u.Kind != "" {
			s += " " + u.Kind
		}
		if u.Generator != "" {
			s += " · by " + u.Generator
		}
		if u.FallbackReason != "" {
			s += " · " + u.FallbackReason
		}
	case UIStateOwn:
		s = "own UI"
	case "":
		s = UIStateNone
	}
	if u.Generating && u.State != UIStateGenerating {
		s += " · generating"
	}
	return s
}
