package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// args is a tool call's arguments, kept raw so each handler can check types
// and report clear errors. An explicit JSON null counts as omitted.
type args map[string]json.RawMessage

// parseArgs decodes the call's arguments object. Absent or null arguments
// give an empty map.
func parseArgs(req mcp.CallToolRequest) (args, error) {
	raw := bytes.TrimSpace(req.Params.RawArguments)
	if len(raw) == 0 && req.Params.Arguments != nil {
		// Built in process rather than decoded from the wire.
		b, err := json.Marshal(req.Params.Arguments)
		if err != nil {
			return nil, fmt.Errorf("arguments are not valid JSON: %v", err)
		}
		raw = b
	}
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return args{}, nil
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("arguments must be a JSON object")
	}
	var a args
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("arguments must be a JSON object: %v", err)
	}
	for k, v := range a {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(a, k)
		}
	}
	return a, nil
}

// str returns the string argument name; ok is false when it is absent.
func (a args) str(name string) (s string, ok bool, err error) {
	raw, present := a[name]
	if !present {
		return "", false, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("%s must be a string, got %s", name, brief(raw))
	}
	return s, true, nil
}

// integer returns the integer argument name; ok is false when it is absent.
// Integral numbers written as floats (7.0) are accepted.
func (a args) integer(name string) (n int, ok bool, err error) {
	raw, present := a[name]
	if !present {
		return 0, false, nil
	}
	var num json.Number
	if err := json.Unmarshal(raw, &num); err != nil || bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`)) {
		return 0, false, fmt.Errorf("%s must be an integer, got %s", name, brief(raw))
	}
	f, err := num.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1e9 {
		return 0, false, fmt.Errorf("%s must be an integer, got %s", name, brief(raw))
	}
	return int(f), true, nil
}

// object returns the object argument name; ok is false when it is absent.
func (a args) object(name string) (m map[string]json.RawMessage, ok bool, err error) {
	raw, present := a[name]
	if !present {
		return nil, false, nil
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, false, fmt.Errorf("%s must be an object, got %s", name, brief(raw))
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false, fmt.Errorf("%s must be an object: %v", name, err)
	}
	return m, true, nil
}

// units resolves the optional units argument against the default.
func (a args) units(def string) (string, error) {
	u, ok, err := a.str("units")
	if err != nil {
		return "", err
	}
	if !ok {
		return def, nil
	}
	switch u {
	case unitsMetric, unitsImperial:
		return u, nil
	}
	return "", fmt.Errorf("units must be %q or %q, got %q", unitsMetric, unitsImperial, u)
}

// brief shortens a raw JSON value for an error message.
func brief(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// marshalJS encodes v the way JSON.stringify(v) would: compact, with <, >
// and & left as they are.
func marshalJS(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// structuredResult returns v as structuredContent plus the same JSON as a
// text item.
func structuredResult(v any) (*mcp.CallToolResult, error) {
	text, err := marshalJS(v)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return mcp.NewToolResultStructured(v, text), nil
}

// toolError is a tool execution error (isError: true) with message msg.
func toolError(format string, a ...any) *mcp.CallToolResult {
	return mcp.NewToolResultError(fmt.Sprintf(format, a...))
}

// hashString is FNV-1a over s; the seed for all per-key demo data.
func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// rng is splitmix64: tiny, fast and, unlike math/rand, fixed forever, so
// the demo data never changes between Go releases.
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng { return &rng{s: seed} }

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn returns a value in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// between returns a value in [lo, hi] with one decimal place.
func (r *rng) between(lo, hi float64) float64 {
	steps := int(math.Round((hi - lo) * 10))
	return round1(lo + float64(r.intn(steps+1))/10)
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }

// boolPtr is for tool annotations.
func boolPtr(b bool) *bool { return &b }

// annotations builds tool annotations; none of the demo tools touch the
// outside world, so openWorldHint is always false.
func annotations(title string, readOnly, destructive, idempotent bool) mcp.ToolAnnotation {
	return mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    boolPtr(readOnly),
		DestructiveHint: boolPtr(destructive),
		IdempotentHint:  boolPtr(idempotent),
		OpenWorldHint:   boolPtr(false),
	}
}

// visibility returns the tool _meta that limits who may call a tool:
// {"ui":{"visibility":[who]}}.
func visibility(who string) *mcp.Meta {
	return &mcp.Meta{AdditionalFields: map[string]any{
		"ui": map[string]any{"visibility": []string{who}},
	}}
}
