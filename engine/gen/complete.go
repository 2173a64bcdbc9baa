package gen

import (
	"context"
	"errors"
	"time"

	"charm.land/fantasy"
	"github.com/genui-dev/genui/engine/contract"
)

// Completion is one model answer.
type Completion struct {
	Text                      string
	InputTokens, OutputTokens int
	// Model is the model that answered, when the provider says.
	Model string
	// Truncated is set when the model stopped at the token limit.
	Truncated bool
}

// Message roles of a conversation with the model.
const (
	roleUser      = "user"
	roleAssistant = "assistant"
)

// message is one turn: the prompt, or (on a re-ask) the model's rejected
// answer and the problems found in it.
type message struct {
	Role, Text string
}

// completer is one way to ask a model: a provider's SDK (Anthropic, Gemini),
// an OpenAI-style API through fantasy, or the host's model through MCP sampling.
type completer interface {
	// complete asks once (no retries). onText receives the answer's length
	// in bytes as it streams.
	complete(ctx context.Context, system string, msgs []message, req Request, onText func(n int)) (Completion, error)
}

// providerCompleter asks a provider of genui's own (not the host's model
// through sampling); a draft answer to an upstream's sampling request asks it
// with that request's limits.
type providerCompleter interface {
	completer
	withLimits(limits) completer
}

// fantasyCompleter streams from a fantasy language model (OpenAI and the
// OpenAI-compatible APIs: Ollama, OpenRouter, any compatible server).
type fantasyCompleter struct {
	model fantasy.LanguageModel
	limits
}

func (c *fantasyCompleter) withLimits(l limits) completer {
	cc := *c
	cc.limits = l
	return &cc
}

func (c *fantasyCompleter) complete(ctx context.Context, system string, msgs []message, _ Request, onText func(int)) (Completion, error) {
	var prompt fantasy.Prompt
	if system != "" {
		prompt = append(prompt, fantasy.NewSystemMessage(system))
	}
	for _, m := range msgs {
		if m.Role == roleAssistant {
			prompt = append(prompt, fantasy.Message{Role: fantasy.MessageRoleAssistant, Content: []fantasy.MessagePart{fantasy.TextPart{Text: m.Text}}})
		} else {
			prompt = append(prompt, fantasy.NewUserMessage(m.Text))
		}
	}
	call := fantasy.Call{
		Prompt:          prompt,
		MaxOutputTokens: &c.maxTokens,
		Temperature:     c.temperature,
	}
	stream, err := c.model.Stream(ctx, call)
	if err != nil {
		return Completion{}, err
	}
	var out Completion
	text := answerText{limit: c.maxBytes}
	finished := false
	for part := range stream {
		switch part.Type {
		case fantasy.StreamPartTypeTextDelta:
			if err := text.add(part.Delta, onText); err != nil {
				return Completion{}, err
			}
		case fantasy.StreamPartTypeError:
			if part.Error == nil {
				part.Error = errors.New("the provider reported a stream error")
			}
			return Completion{}, part.Error
		case fantasy.StreamPartTypeFinish:
			finished = true
			out.InputTokens = int(part.Usage.InputTokens + part.Usage.CacheReadTokens + part.Usage.CacheCreationTokens)
			out.OutputTokens = int(part.Usage.OutputTokens)
			switch part.FinishReason {
			case fantasy.FinishReasonContentFilter:
				return out, &Error{Class: ErrContentFiltered, Message: "the provider's content filter stopped the answer"}
			case fantasy.FinishReasonLength:
				out.Truncated = true
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return Completion{}, err
	}
	if !finished {
		return Completion{}, &Error{Class: ErrNetwork, Retryable: true, Message: "the stream ended without a finish event"}
	}
	out.Text = text.String()
	out.Model = c.model.Model()
	return out, nil
}

// throttle calls f at most every interval (and always for the first call).
func throttle(interval time.Duration, f func(int)) func(int) {
	var last time.Time
	return func(n int) {
		if now := time.Now(); now.Sub(last) >= interval {
			last = now
			f(n)
		}
	}
}

// errNoSampler is what the host's sampler returns (wrapped) when no session
// can sample.
var errNoSampler = contract.ErrNoSampler
