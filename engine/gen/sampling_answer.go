package gen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Answering the upstream's sampling requests. When an upstream asks genui
// for a completion (sampling/createMessage) during a call made from one of
// genui's own surfaces, a person may answer it by hand or let the provider
// that generates UIs draft the answer; the draft is shown before it is sent.

// SamplingAnswer is a provider's answer to an MCP sampling request.
type SamplingAnswer struct {
	Text                      string
	Model                     string
	Provider                  string
	InputTokens, OutputTokens int
	Truncated                 bool
}

// samplingAnswerTimeout bounds one draft.
const samplingAnswerTimeout = 2 * time.Minute

// maxSamplingAnswerBytes bounds a draft's text (a runaway stream stops).
const maxSamplingAnswerBytes = 1 << 20

// AnswerSampling asks the configured provider to answer an MCP
// sampling/createMessage request (its params verbatim): the system prompt,
// the conversation's text (other content is named, not sent), maxTokens
// (at most the configured limit) and temperature. One attempt, no retries:
// a person is waiting and can ask again.
func (l *LLM) AnswerSampling(ctx context.Context, params json.RawMessage) (SamplingAnswer, error) {
	if err := l.AuthFailure(); err != nil {
		return SamplingAnswer{}, err
	}
	pc, ok := l.c.(providerCompleter)
	if !ok {
		return SamplingAnswer{}, errors.New("--llm sampling asks a host's own model; genui has no provider of its own to draft a sampling answer with")
	}
	var p struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		SystemPrompt string   `json:"systemPrompt"`
		MaxTokens    int64    `json:"maxTokens"`
		Temperature  *float64 `json:"temperature"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return SamplingAnswer{}, fmt.Errorf("the sampling request's params: %v", err)
	}
	if len(p.Messages) == 0 {
		return SamplingAnswer{}, errors.New("the sampling request has no messages")
	}
	msgs := make([]message, 0, len(p.Messages))
	for i, m := range p.Messages {
		text := samplingText(m.Content)
		if text == "" {
			return SamplingAnswer{}, fmt.Errorf("message %d has no content genui can send", i+1)
		}
		role := roleUser
		if m.Role == "assistant" {
			role = roleAssistant
		}
		msgs = append(msgs, message{Role: role, Text: text})
	}
	lim := limits{maxTokens: int64(l.cfg.MaxTokens), temperature: l.cfg.Temperature, maxBytes: maxSamplingAnswerBytes}
	if p.MaxTokens > 0 && p.MaxTokens < lim.maxTokens {
		lim.maxTokens = p.MaxTokens
	}
	if p.Temperature != nil {
		lim.temperature = p.Temperature
	}
	ctx, cancel := context.WithTimeout(ctx, samplingAnswerTimeout)
	defer cancel()
	l.requests.Add(1)
	c, err := pc.withLimits(lim).complete(ctx, strings.TrimSpace(p.SystemPrompt), msgs, Request{}, nil)
	if err != nil {
		if ctx.Err() != nil {
			return SamplingAnswer{}, ctx.Err()
		}
		return SamplingAnswer{}, l.classifyAnswerError(err)
	}
	return SamplingAnswer{Text: c.Text, Model: c.Model, Provider: l.cfg.Provider,
		InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, Truncated: c.Truncated}, nil
}

// classifyAnswerError words a provider failure, keys redacted.
func (l *LLM) classifyAnswerError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return classify(err, l.redact)
}

// samplingText is the text of a sampling message's content (one block or
// an array of blocks); other blocks are named so the model knows.
func samplingText(content json.RawMessage) string {
	type block struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		MIMEType string `json:"mimeType"`
	}
	var blocks []block
	var one block
	if json.Unmarshal(content, &one) == nil && one.Type != "" {
		blocks = []block{one}
	} else if json.Unmarshal(content, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		default:
			parts = append(parts, fmt.Sprintf("[%s content (%s) not shown]", b.Type, b.MIMEType))
		}
	}
	return strings.Join(parts, "\n")
}
