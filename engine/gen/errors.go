package gen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"charm.land/fantasy"
)

// ErrorClass names what went wrong with an LLM call.
type ErrorClass string

// Error classes. Retryable ones are retried within the budget.
const (
	ErrTimeout         ErrorClass = "TIMEOUT"
	ErrRateLimit       ErrorClass = "RATE_LIMIT"
	ErrInvalidRequest  ErrorClass = "INVALID_REQUEST"
	ErrAuth            ErrorClass = "AUTH"
	ErrServer          ErrorClass = "SERVER_ERROR"
	ErrNetwork         ErrorClass = "NETWORK"
	ErrContentFiltered ErrorClass = "CONTENT_FILTERED"
	// ErrCancelled: the generation was stopped before an answer
	// (superseded by a newer one, or its caller or genui stopped it).
	ErrCancelled ErrorClass = "CANCELLED"
)

// Error is a classified LLM failure. Its message never holds an API key
// (messages are redacted before they are stored).
type Error struct {
	Class     ErrorClass `json:"class"`
	Retryable bool       `json:"retryable"`
	// Status is the HTTP status (0 when there was none).
	Status int `json:"status,omitempty"`
	// RetryAfter is what the provider asked us to wait (Retry-After,
	// retry-after-ms), 0 when it did not say.
	RetryAfter time.Duration `json:"retryAfter,omitempty"`
	Message    string        `json:"message"`
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Class, e.Status, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Class, e.Message)
}

// classify maps any error from a provider call to an *Error. redact is
// applied to every message kept.
func classify(err error, redact func(string) string) *Error {
	var ge *Error
	if errors.As(err, &ge) {
		return ge
	}
	msg := redact(err.Error())
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Class: ErrTimeout, Retryable: false, Message: "the generation budget ran out: " + msg}
	case errors.Is(err, context.Canceled):
		return &Error{Class: ErrTimeout, Retryable: false, Message: "cancelled: " + msg}
	}
	var pe *fantasy.ProviderError
	if errors.As(err, &pe) {
		transient := pe.TransientError || pe.IsRetryable()
		return statusError(pe.StatusCode, headerGetter(pe.ResponseHeaders), redact(providerMessage(pe)), pe.AuthError, transient)
	}
	var ae *apiError
	if errors.As(err, &ae) {
		get := func(k string) string { return strings.TrimSpace(ae.header.Get(k)) }
		e := statusError(ae.status, get, redact(shorten(ae.message)), false, ae.transient)
		if ae.retryAfter > 0 {
			e.RetryAfter = ae.retryAfter
		}
		return e
	}
	var ne net.Error
	var oe *net.OpError
	var de *net.DNSError
	if errors.As(err, &oe) || errors.As(err, &de) || errors.As(err, &ne) || fantasy.IsTransportError(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Class: ErrNetwork, Retryable: true, Message: msg}
	}
	return &Error{Class: ErrServer, Retryable: false, Message: msg}
}

// statusError classifies a provider's answer by its HTTP status; a stream's
// error event has none, and transient says whether it names a temporary
// condition.
func statusError(status int, header func(string) string, msg string, authErr, transient bool) *Error {
	e := &Error{Status: status, Message: msg, RetryAfter: retryAfter(header)}
	switch s := status; {
	case s == http.StatusUnauthorized || s == http.StatusForbidden || authErr:
		e.Class = ErrAuth
	case s == http.StatusTooManyRequests:
		e.Class, e.Retryable = ErrRateLimit, true
	case s == http.StatusRequestTimeout:
		e.Class, e.Retryable = ErrTimeout, true
	case s >= 500:
		e.Class, e.Retryable = ErrServer, true
	case s >= 400:
		e.Class = ErrInvalidRequest
		if s == http.StatusConflict {
			e.Retryable = true
		}
	case transient:
		// Mid-stream error events and dropped streams carry no status.
		e.Class, e.Retryable = ErrServer, true
		if strings.Contains(strings.ToLower(msg), "rate") {
			e.Class = ErrRateLimit
		}
	default:
		e.Class = ErrServer
	}
	return e
}

// apiError is a provider's error as genui's own SDK completers (Anthropic,
// Gemini) report it: an HTTP status with the response's headers, or an error
// event inside a 200 stream (status 0).
type apiError struct {
	status    int
	header    http.Header
	message   string
	transient bool
	// retryAfter is when the provider asked to be asked again, where it
	// says so in the error's body instead of a header (Gemini's RetryInfo).
	retryAfter time.Duration
	cause      error
}

func (e *apiError) Error() string { return e.message }
func (e *apiError) Unwrap() error { return e.cause }

// streamErrorEvent reads an SSE error event's payload,
// {"type":"error","error":{"type":"overloaded_error","message":"..."}}.
func streamErrorEvent(payload string, cause error) error {
	var env struct {
		Error *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(payload), &env) != nil || env.Error == nil || (env.Error.Type == "" && env.Error.Message == "") {
		return &apiError{message: "the provider's stream sent an error: " + payload, cause: cause}
	}
	msg := env.Error.Message
	if env.Error.Type != "" {
		msg = env.Error.Type + ": " + msg
	}
	return &apiError{message: msg, transient: fantasy.TransientStreamErrorTypes[env.Error.Type], cause: cause}
}

// responseHeader is r's header, or none when there was no response.
func responseHeader(r *http.Response) http.Header {
	if r == nil {
		return nil
	}
	return r.Header
}

// shorten keeps a provider's message readable in one line of a log.
func shorten(m string) string {
	if len(m) > 600 {
		return m[:600] + "..."
	}
	return m
}

// headerGetter reads a header from fantasy's map of them, case-insensitively.
func headerGetter(h map[string]string) func(string) string {
	return func(k string) string {
		for hk, v := range h {
			if strings.EqualFold(hk, k) {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
}

// providerMessage is the provider's own message without the request and
// response dumps fantasy keeps (those can hold headers).
func providerMessage(pe *fantasy.ProviderError) string {
	m := pe.Message
	if pe.Title != "" && !strings.Contains(m, pe.Title) {
		m = pe.Title + ": " + m
	}
	return shorten(m)
}

// retryAfter reads retry-after-ms or retry-after (seconds or an HTTP date).
func retryAfter(get func(string) string) time.Duration {
	if v := get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	if v := get("retry-after"); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
			return time.Duration(s * float64(time.Second))
		}
		if t, err := http.ParseTime(v); err == nil {
			if d := time.Until(t); d > 0 {
				return d
			}
		}
	}
	return 0
}
