package gen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// SampleFunc sends an MCP sampling/createMessage request (params as JSON)
// to a connected host that advertised the sampling capability and returns
// its result, or an error wrapping contract.ErrNoSampler when no session
// can sample. The MCP host (engine/host) provides it.
type SampleFunc func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)

// samplingCompleter asks the host's own model through sampling/createMessage.
type samplingCompleter struct {
	model       string // a model hint for the host, may be ""
	maxTokens   int64
	temperature *float64
}

func (c *samplingCompleter) complete(ctx context.Context, system string, msgs []message, req Request, onText func(int)) (Completion, error) {
	if req.Sample == nil {
		return Completion{}, &Error{Class: ErrInvalidRequest, Message: errNoSampler.Error()}
	}
	var messages []any
	for _, m := range msgs {
		messages = append(messages, map[string]any{"role": m.Role, "content": map[string]any{"type": "text", "text": m.Text}})
	}
	params := map[string]any{
		"messages":       messages,
		"systemPrompt":   system,
		"maxTokens":      c.maxTokens,
		"includeContext": "none",
		"modelPreferences": map[string]any{
			"intelligencePriority": 0.8, "speedPriority": 0.3, "costPriority": 0.2,
		},
		"_meta": map[string]any{"genui/purpose": "generate the MCP App UI of tool " + req.Tool.Name},
	}
	if c.model != "" {
		params["modelPreferences"].(map[string]any)["hints"] = []any{map[string]any{"name": c.model}}
	}
	if c.temperature != nil {
		params["temperature"] = *c.temperature
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return Completion{}, err
	}
	res, err := req.Sample(ctx, raw)
	if err != nil {
		return Completion{}, classifySampling(err)
	}
	var r struct {
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
		Content    json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return Completion{}, &Error{Class: ErrServer, Message: fmt.Sprintf("the host's sampling result is not a CreateMessageResult: %v", err)}
	}
	// content is one block (2025-06-18) or an array of blocks (2025-11-25).
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var blocks []block
	var one block
	if json.Unmarshal(r.Content, &one) == nil && one.Type != "" {
		blocks = []block{one}
	} else if err := json.Unmarshal(r.Content, &blocks); err != nil {
		return Completion{}, &Error{Class: ErrServer, Message: "the host's sampling result has no content"}
	}
	var text strings.Builder
	for _, b := range blocks {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	if onText != nil {
		onText(text.Len())
	}
	return Completion{Text: text.String(), Model: r.Model, Truncated: r.StopReason == "maxTokens"}, nil
}

// classifySampling maps a failed sampling request: a host that refuses
// (the user declined) is final, a host that did not answer in time is a
// timeout, a missing sampler says how to fix it.
func classifySampling(err error) *Error {
	if errors.Is(err, errNoSampler) {
		return &Error{Class: ErrInvalidRequest, Message: err.Error()}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Class: ErrTimeout, Message: "the host did not answer sampling/createMessage in time"}
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		msg := fmt.Sprintf("the host answered sampling/createMessage with error %d: %s", je.Code, je.Message)
		lower := strings.ToLower(je.Message)
		switch {
		case strings.Contains(lower, "did not answer") || strings.Contains(lower, "timeout"):
			return &Error{Class: ErrTimeout, Message: msg}
		case je.Code == -1 || strings.Contains(lower, "reject") || strings.Contains(lower, "denied") || strings.Contains(lower, "declin"):
			return &Error{Class: ErrAuth, Message: msg}
		case je.Code == jsonrpc.CodeInternalError:
			return &Error{Class: ErrServer, Retryable: true, Message: msg}
		}
		return &Error{Class: ErrInvalidRequest, Message: msg}
	}
	return &Error{Class: ErrNetwork, Retryable: true, Message: err.Error()}
}
