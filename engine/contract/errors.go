package contract

import (
	"context"
	"errors"
	"fmt"
)

// ErrorCode classifies an API failure.
type ErrorCode string

// Error codes. Each has one HTTP status (HTTPStatus), the side server's
// answer to it; the client maps the status back (CodeOf).
const (
	CodeUnknownTool         ErrorCode = "unknown_tool"
	CodeInvalidArgument     ErrorCode = "invalid_argument"
	CodeUpstreamUnavailable ErrorCode = "upstream_unavailable"
	CodeTimeout             ErrorCode = "timeout"
	CodeUpstreamError       ErrorCode = "upstream_error"
	// CodeUnavailable: what was asked for does not exist in this genui (no
	// side server: no preview), or (client side) genui is not reachable.
	CodeUnavailable ErrorCode = "unavailable"
	CodeInternal    ErrorCode = "internal"
	// CodeCancelled: the call was cancelled (CancelCall, or the caller's
	// context); the upstream was told (notifications/cancelled).
	CodeCancelled ErrorCode = "cancelled"
	// CodeNotFound: a call or pending request that is not (or no longer)
	// there: it ended, was answered, or never existed; a recorded call or
	// a check that is not there.
	CodeNotFound ErrorCode = "not_found"
	// CodeConflict: another surface answered the request first.
	CodeConflict ErrorCode = "conflict"
	// CodeNotUnderstood: a refinement asked to be understood
	// (RefineRequest.RequireUnderstood) that the offline generator cannot
	// read; nothing was recorded.
	CodeNotUnderstood ErrorCode = "not_understood"
)

// statusTable is the one code <-> HTTP status table: every code has its own
// status, so the two directions invert exactly. (Numbers, not net/http's
// names: the contract compiles without net/http.)
var statusTable = []struct {
	code   ErrorCode
	status int
}{
	{CodeUnknownTool, 404},         // Not Found
	{CodeInvalidArgument, 400},     // Bad Request
	{CodeUpstreamUnavailable, 503}, // Service Unavailable
	{CodeTimeout, 504},             // Gateway Timeout
	{CodeUpstreamError, 502},       // Bad Gateway
	{CodeUnavailable, 501},         // Not Implemented
	{CodeInternal, 500},            // Internal Server Error
	{CodeCancelled, 499},           // Client Closed Request (nginx's)
	{CodeNotFound, 410},            // Gone
	{CodeConflict, 409},            // Conflict
	{CodeNotUnderstood, 422},       // Unprocessable Content
}

// HTTPStatus is the status the side server answers an error code with (500
// for a code it does not know).
func HTTPStatus(code ErrorCode) int {
	for _, r := range statusTable {
		if r.code == code {
			return r.status
		}
	}
	return 500
}

// CodeOf is the error code of an HTTP error status, for answers that carry
// none (a proxy's page, an older genui): the inverse of HTTPStatus; other
// 4xx statuses are invalid_argument, anything else internal.
func CodeOf(status int) ErrorCode {
	for _, r := range statusTable {
		if r.status == status {
			return r.code
		}
	}
	if status >= 400 && status < 500 {
		return CodeInvalidArgument
	}
	return CodeInternal
}

// Error is how every API method fails. Its JSON form is the side server's
// one error body: {"error": "message", "code": "unknown_tool"}.
type Error struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"error"`
	// Suggestions are close matches for an unknown tool name.
	Suggestions []string `json:"suggestions,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Is makes errors.Is(err, ErrUnknownTool) true for every unknown-tool error.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Code == e.Code
}

// ErrUnknownTool matches (errors.Is) every error for a tool name the
// upstream does not list.
var ErrUnknownTool error = &Error{Code: CodeUnknownTool}

// ErrUpstreamUnavailable matches errors for an upstream that is not connected.
var ErrUpstreamUnavailable error = &Error{Code: CodeUpstreamUnavailable}

// ErrCancelled matches errors of cancelled calls.
var ErrCancelled error = &Error{Code: CodeCancelled}

// ErrNoSampler is what a front end's sampler (the function the MCP host
// gives the engine for `--llm sampling`) returns, wrapped, when no connected
// host session declared the sampling capability.
var ErrNoSampler = errors.New("no connected host session advertised the sampling capability, so --llm sampling cannot ask the host's model; " +
	"connect a host that supports MCP sampling or choose another --llm")

// Errorf returns an *Error with code and a formatted message.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error, classifying plain errors (context
// deadline -> timeout, context cancelled -> cancelled, anything else ->
// internal).
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Message: err.Error()}
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeCancelled, Message: err.Error()}
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}
