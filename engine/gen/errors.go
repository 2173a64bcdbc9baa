package gen

import (
	"context"
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
		e := &Error{Status: pe.StatusCode, Message: redact(providerMessage(pe)), RetryAfter: retryAfter(pe.ResponseHeaders)}
		switch s := pe.StatusCode; {
		case s == http.StatusUnauthorized || s == http.StatusForbidden || pe.AuthError:
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
		case pe.TransientError || pe.IsRetryable():
			// Mid-stream error events and dropped streams carry no status.
			e.Class, e.Retryable = ErrServer, true
			if strings.Contains(strings.ToLower(pe.Message+pe.Title), "rate") {
				e.Class = ErrRateLimit
			}
		default:
			e.Class = ErrServer
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

// providerMessage is the provider's own message without the request and
// response dumps fantasy keeps (those can hold headers).
func providerMessage(pe *fantasy.ProviderError) string {
	m := pe.Message
	if pe.Title != "" && !strings.Contains(m, pe.Title) {
		m = pe.Title + ": " + m
	}
	if len(m) > 600 {
		m = m[:600] + "..."
	}
	return m
}

// retryAfter reads retry-after-ms or retry-after (seconds or an HTTP date).
func retryAfter(h map[string]string) time.Duration {
	get := func(k string) string {
		for hk, v := range h {
			if strings.EqualFold(hk, k) {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
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
