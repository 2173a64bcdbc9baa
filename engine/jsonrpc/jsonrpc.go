// Package jsonrpc holds the JSON-RPC 2.0 message shapes genui passes between
// hosts and upstream servers. Payloads stay json.RawMessage so nothing a peer
// sends is lost in re-encoding.
package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Standard JSON-RPC and MCP error codes.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeResourceNotFound = -32002
	// CodeUpstreamUnavailable is genui's server error for "the wrapped server is
	// down or went away while handling the request".
	CodeUpstreamUnavailable = -32001
	// CodeRequestCancelled mirrors the code mcp-go and the TS SDK use.
	CodeRequestCancelled = -32800
)

// Message is any JSON-RPC 2.0 frame: request (ID+Method), notification
// (Method only) or response (ID with Result or Error).
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// IsRequest reports whether m is a request (has an id and a method).
func (m *Message) IsRequest() bool { return len(m.ID) > 0 && !isNull(m.ID) && m.Method != "" }

// IsNotification reports whether m is a notification (method, no id).
func (m *Message) IsNotification() bool { return m.Method != "" && (len(m.ID) == 0 || isNull(m.ID)) }

// IsResponse reports whether m is a response (no method; a result or an
// error).
func (m *Message) IsResponse() bool { return m.Method == "" && (len(m.Result) > 0 || m.Error != nil) }

func isNull(b json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }

// Error is a JSON-RPC error object. It implements error so callers can return
// it unchanged from upstream to host.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// Errorf builds an *Error with a formatted message.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError converts any error into a JSON-RPC error, keeping an *Error as is.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}

// wire decodes a frame into a Message in place, except that method is a
// pointer, so Parse can tell a missing method from a null one.
type wire struct {
	Message
	Method *string `json:"method"`
}

// Parse decodes one frame and checks it against JSON-RPC 2.0: an object
// with "jsonrpc":"2.0"; a request or notification has a non-empty string
// method and, if any, structured params (object or array); a request's id
// is a string or a number; a response has an id and a result or an error.
// Invalid JSON is -32700 (answered with id null), params that are not
// structured -32602, anything else invalid -32600. On error the returned
// message (nil for a parse error) carries the id whenever a valid one
// could be read, so the answer can name the request, and IsResponse tells
// whether the frame was an (unanswerable) response.
func Parse(b []byte) (*Message, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		if json.Valid(b) {
			return nil, &Error{Code: CodeInvalidRequest, Message: "invalid request: not a JSON-RPC request object"}
		}
		return nil, &Error{Code: CodeParseError, Message: "parse error: not valid JSON"}
	}
	w := &wire{}
	m := &w.Message
	if err := json.Unmarshal(b, w); err != nil {
		var ute *json.UnmarshalTypeError
		if !errors.As(err, &ute) {
			// JSON-RPC: the answer to a parse error has id null.
			return nil, &Error{Code: CodeParseError, Message: "parse error: " + err.Error()}
		}
		// Valid JSON with a member of the wrong type; the others are
		// decoded, the id among them.
		if !ValidID(m.ID) {
			m.ID = nil
		}
		if ute.Field == "error" { // a response, so nobody answers it
			m.Error = &Error{Code: CodeInvalidRequest, Message: "invalid response: " + err.Error()}
			return m, m.Error
		}
		m.Error = nil
		return m, &Error{Code: CodeInvalidRequest, Message: fmt.Sprintf("invalid request: %q has the wrong type", ute.Field)}
	}
	rawID := m.ID
	if len(m.ID) > 0 && !ValidID(m.ID) && !isNull(m.ID) {
		m.ID = nil // not usable in an answer
	}
	if w.Method != nil {
		if *w.Method == "" {
			return m, &Error{Code: CodeInvalidRequest, Message: `invalid request: "method" must be a non-empty string`}
		}
		m.Method = *w.Method
	}
	if len(m.Params) > 0 && !isNull(m.Params) && m.Params[0] != '{' && m.Params[0] != '[' {
		return m, &Error{Code: CodeInvalidParams, Message: `invalid params: "params" must be an object or an array`}
	}
	if m.JSONRPC != "2.0" {
		return m, &Error{Code: CodeInvalidRequest, Message: `invalid request: "jsonrpc" must be "2.0"`}
	}
	if m.Method == "" && len(m.Result) == 0 && m.Error == nil {
		if len(rawID) == 0 {
			return m, &Error{Code: CodeInvalidRequest, Message: "invalid request: neither method nor id"}
		}
		return m, &Error{Code: CodeInvalidRequest, Message: `invalid request: no "method" (and not a response: no "result" or "error")`}
	}
	if len(rawID) > 0 && !ValidID(rawID) && (m.Method != "" || !isNull(rawID)) {
		// MCP: a request id is a string or an integer, never null. (A
		// response may carry id null: the answer to an unparsable request.)
		return m, &Error{Code: CodeInvalidRequest, Message: "invalid request: id must be a string or a number"}
	}
	return m, nil
}

// Bounds of RecoverID's scan.
const (
	recoverMaxTokens = 4096
	recoverMaxDepth  = 64
)

// RecoverID finds the top-level "id" of a frame that does not parse (cut
// short, nested deeper than encoding/json allows, broken after the id), so
// the error answer can name the request instead of id null. It returns the
// id as JSON text (a string or a number), or nil. The scan is bounded
// (recoverMaxTokens tokens, recoverMaxDepth levels), so hostile input
// costs little; an id behind a bigger value is not found.
func RecoverID(b []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for n := 0; n < recoverMaxTokens; {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		k, ok := key.(string)
		if !ok {
			return nil // the closing brace: no id
		}
		v, err := dec.Token()
		if err != nil {
			return nil
		}
		n++
		if k == "id" {
			switch v := v.(type) {
			case string:
				q, _ := json.Marshal(v)
				return q
			case json.Number:
				return json.RawMessage(v.String())
			}
			return nil
		}
		depth := 0
		if d, ok := v.(json.Delim); ok && (d == '{' || d == '[') {
			depth = 1
		}
		for depth > 0 {
			if n++; n >= recoverMaxTokens || depth > recoverMaxDepth {
				return nil
			}
			t, err := dec.Token()
			if err != nil {
				return nil
			}
			if d, ok := t.(json.Delim); ok {
				if d == '{' || d == '[' {
					depth++
				} else {
					depth--
				}
			}
		}
	}
	return nil
}

// ValidID reports whether id is a JSON string or number. (No decoding:
// it runs on every frame.)
func ValidID(id json.RawMessage) bool {
	b := bytes.TrimSpace(id)
	if len(b) == 0 {
		return false
	}
	switch c := b[0]; {
	case c == '"', c == '-' || c >= '0' && c <= '9':
		return json.Valid(b)
	}
	return false
}

// NewRequest encodes a request frame.
func NewRequest(id json.RawMessage, method string, params json.RawMessage) []byte {
	return mustMarshal(Message{JSONRPC: "2.0", ID: id, Method: method, Params: params})
}

// NewNotification encodes a notification frame.
func NewNotification(method string, params json.RawMessage) []byte {
	return mustMarshal(Message{JSONRPC: "2.0", Method: method, Params: params})
}

// NewResult encodes a success response. A nil result is sent as {}.
// Results are usually large (UI HTML, upstream payloads) and always valid
// JSON already (parsed from a peer or produced by encoding/json), so the
// frame is assembled directly instead of re-encoding and HTML-escaping the
// whole payload; only raw newlines are compacted away. Use NewResultChecked
// for a result of unknown origin.
func NewResult(id json.RawMessage, result json.RawMessage) []byte {
	if len(result) == 0 {
		result = json.RawMessage("{}")
	}
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	if hasCRLF(result) || hasCRLF(id) {
		var buf bytes.Buffer
		if err := json.Compact(&buf, result); err != nil {
			return NewErrorResponse(id, &Error{Code: CodeInternalError, Message: "internal error: result is not valid JSON"})
		}
		result = buf.Bytes()
		buf2 := bytes.Buffer{}
		_ = json.Compact(&buf2, id)
		id = buf2.Bytes()
	}
	b := make([]byte, 0, len(result)+len(id)+32)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}

// hasCRLF reports whether b holds a CR or LF (vectorized byte searches).
func hasCRLF(b []byte) bool { return bytes.IndexByte(b, '\n') >= 0 || bytes.IndexByte(b, '\r') >= 0 }

// ASCII returns the JSON text b with every non-ASCII character escaped as
// \uXXXX (a surrogate pair above U+FFFF); b must be encoding/json output,
// where non-ASCII bytes only occur inside strings and are valid UTF-8. A
// pure-ASCII document lets clients decode it on their fast path (Node's
// UTF-8 decoder slows down several-fold for a single non-ASCII byte).
func ASCII(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < utf8.RuneSelf {
		i++
	}
	if i == len(b) {
		return b
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(b)+len(b)/8)
	out = append(out, b[:i]...)
	esc := func(r rune) {
		out = append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		i += n
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			esc(r1)
			esc(r2)
			continue
		}
		esc(r)
	}
	return out
}

// NewResultChecked is NewResult for a result that may not be valid JSON: an
// invalid one becomes an internal-error response instead of a broken frame.
func NewResultChecked(id json.RawMessage, result json.RawMessage) []byte {
	if len(result) > 0 && !json.Valid(result) || len(id) > 0 && !json.Valid(id) {
		if !json.Valid(id) {
			id = nil
		}
		return NewErrorResponse(id, &Error{Code: CodeInternalError, Message: "internal error: result is not valid JSON"})
	}
	return NewResult(id, result)
}

// NewErrorResponse encodes an error response. A missing id is sent as null,
// as JSON-RPC requires for parse errors.
func NewErrorResponse(id json.RawMessage, e *Error) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return mustMarshal(Message{JSONRPC: "2.0", ID: id, Error: e})
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only RawMessage fields that are not valid JSON get here; they come
		// from our own code, never from a peer (peers' bytes were parsed).
		panic("jsonrpc: marshal: " + err.Error())
	}
	return b
}

type ridKey struct{}

// WithRequestID returns ctx carrying genui's id for the request being
// served, so every log line of its work (host, engine, upstream) carries it.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ridKey{}, id)
}

// RequestID returns the id carried by ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(ridKey{}).(string)
	return id
}
