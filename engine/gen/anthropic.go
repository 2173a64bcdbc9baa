package gen

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// anthropicCompleter streams from Anthropic's Messages API through the
// official SDK (github.com/anthropics/anthropic-sdk-go), not fantasy's
// Anthropic provider: that provider imports the SDK's Bedrock and Vertex
// clients, the AWS SDK and Google's auth for options genui never sets, 2.7
// MB of the binary (`make size`), with no build tag to leave them out.
type anthropicCompleter struct {
	client anthropic.Client
	model  string
	limits
}

func newAnthropicCompleter(cfg Config, maxTokens int64) *anthropicCompleter {
	opts := []option.RequestOption{
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0), // genui retries within its own budget
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	return &anthropicCompleter{client: anthropic.NewClient(opts...), model: cfg.Model,
		limits: limits{maxTokens: maxTokens, temperature: cfg.Temperature}}
}

func (c *anthropicCompleter) withLimits(l limits) completer {
	cc := *c
	cc.limits = l
	return &cc
}

func (c *anthropicCompleter) complete(ctx context.Context, system string, msgs []message, _ Request, onText func(int)) (Completion, error) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(c.model),
		MaxTokens: c.maxTokens,
	}
	if system != "" {
		// The system prompt is the same for every tool: let Anthropic cache it.
		params.System = []anthropic.TextBlockParam{{Text: system, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	if c.temperature != nil {
		params.Temperature = anthropic.Float(*c.temperature)
	}
	for _, m := range msgs {
		if m.Role == roleAssistant {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(anthropic.NewTextBlock(m.Text)))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Text)))
		}
	}
	stream := c.client.Messages.NewStreaming(ctx, params)
	defer func() { _ = stream.Close() }()
	var (
		out      Completion
		text     = answerText{limit: c.maxBytes}
		stop     anthropic.StopReason
		finished bool
		usage    anthropic.Usage
	)
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "message_start":
			out.Model = string(ev.Message.Model)
			usage = ev.Message.Usage
		case "content_block_delta":
			if ev.Delta.Type != "text_delta" {
				continue
			}
			if err := text.add(ev.Delta.Text, onText); err != nil {
				return Completion{}, err
			}
		case "message_delta":
			stop = ev.Delta.StopReason
			// message_delta's counts are cumulative; input counts may be absent (0).
			u := ev.Usage
			usage.OutputTokens = max(usage.OutputTokens, u.OutputTokens)
			usage.InputTokens = max(usage.InputTokens, u.InputTokens)
			usage.CacheReadInputTokens = max(usage.CacheReadInputTokens, u.CacheReadInputTokens)
			usage.CacheCreationInputTokens = max(usage.CacheCreationInputTokens, u.CacheCreationInputTokens)
		case "message_stop":
			finished = true
		}
	}
	if err := stream.Err(); err != nil {
		return Completion{}, anthropicError(err)
	}
	if err := ctx.Err(); err != nil {
		return Completion{}, err
	}
	if !finished {
		return Completion{}, &Error{Class: ErrNetwork, Retryable: true, Message: "the stream ended without a message_stop event"}
	}
	out.InputTokens = int(usage.InputTokens + usage.CacheReadInputTokens + usage.CacheCreationInputTokens)
	out.OutputTokens = int(usage.OutputTokens)
	switch stop {
	case anthropic.StopReasonRefusal:
		return out, &Error{Class: ErrContentFiltered, Message: "the model refused the request (stop_reason refusal)"}
	case anthropic.StopReasonMaxTokens:
		out.Truncated = true
	}
	if out.Model == "" {
		out.Model = c.model
	}
	out.Text = text.String()
	return out, nil
}

// anthropicError gives the SDK's errors the shape classify reads: an HTTP
// error with its status and headers, or an error event inside a 200 stream
// (the SDK reports those as text; their "type" says whether to retry).
func anthropicError(err error) error {
	var ae *anthropic.Error
	if errors.As(err, &ae) && ae.StatusCode < 400 {
		// An error event after the 200 (the SDK keeps the 200 as its status).
		return streamErrorEvent(ae.RawJSON(), err)
	}
	if ae != nil {
		return &apiError{status: ae.StatusCode, header: responseHeader(ae.Response), message: ae.Error(), cause: err}
	}
	const prefix = "received error while streaming:"
	if _, payload, ok := strings.Cut(err.Error(), prefix); ok {
		return streamErrorEvent(strings.TrimSpace(payload), err)
	}
	return err
}

// limits are what one ask may spend: the answer's tokens, its temperature
// and its bytes (0: twice the largest page genui keeps). A draft of an
// answer to a sampling request asks with its own.
type limits struct {
	maxTokens   int64
	temperature *float64
	maxBytes    int
}

// answerText collects a streamed answer, refusing one that outgrows its
// bound (by default, any page genui would keep).
type answerText struct {
	b     []byte
	limit int
}

func (t *answerText) add(s string, onText func(int)) error {
	t.b = append(t.b, s...)
	switch {
	case t.limit == 0 && len(t.b) > 2*MaxHTMLBytes:
		return &Error{Class: ErrInvalidRequest,
			Message: fmt.Sprintf("the answer passed %d KB while streaming; a page may be at most %d KB", 2*MaxHTMLBytes>>10, MaxHTMLBytes>>10)}
	case t.limit > 0 && len(t.b) > t.limit:
		return &Error{Class: ErrInvalidRequest, Message: fmt.Sprintf("the answer passed %d KB while streaming; stopped", t.limit>>10)}
	}
	if onText != nil {
		onText(len(t.b))
	}
	return nil
}

func (t *answerText) String() string { return string(t.b) }
