package gen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/fantasy"
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
	fc, ok := l.c.(*fantasyCompleter)
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
	var prompt fantasy.Prompt
	if strings.TrimSpace(p.SystemPrompt) != "" {
		prompt = append(prompt, fantasy.NewSystemMessage(p.SystemPrompt))
	}
	for i, m := range p.Messages {
		text := samplingText(m.Content)
		if text == "" {
			return SamplingAnswer{}, fmt.Errorf("message %d has no content genui can send", i+1)
		}
		role := fantasy.MessageRoleUser
		if m.Role == "assistant" {
			role = fantasy.MessageRoleAssistant
		}
		prompt = append(prompt, fantasy.Message{Role: role, Content: []fantasy.MessagePart{fantasy.TextPart{Text: text}}})
	}
	maxTokens := int64(l.cfg.MaxTokens)
	if p.MaxTokens > 0 && p.MaxTokens < maxTokens {
		maxTokens = p.MaxTokens
	}
	temp := fc.temperature
	if p.Temperature != nil {
		temp = p.Temperature
	}
	ctx, cancel := context.WithTimeout(ctx, samplingAnswerTimeout)
	defer cancel()
	l.requests.Add(1)
	stream, err := fc.model.Stream(ctx, fantasy.Call{Prompt: prompt, MaxOutputTokens: &maxTokens, Temperature: temp})
	if err != nil {
		return SamplingAnswer{}, l.classifyAnswerError(err)
	}
	out := SamplingAnswer{Provider: l.cfg.Provider}
	var text strings.Builder
	finished := false
	for part := range stream {
		switch part.Type {
		case fantasy.StreamPartTypeTextDelta:
			text.WriteString(part.Delta)
			if text.Len() > maxSamplingAnswerBytes {
				return SamplingAnswer{}, fmt.Errorf("the answer passed %d KB while streaming; stopped", maxSamplingAnswerBytes>>10)
			}
		case fantasy.StreamPartTypeError:
			if part.Error == nil {
				part.Error = errors.New("the provider reported a stream error")
			}
			return SamplingAnswer{}, l.classifyAnswerError(part.Error)
		case fantasy.StreamPartTypeFinish:
			finished = true
			out.InputTokens = int(part.Usage.InputTokens)
			out.OutputTokens = int(part.Usage.OutputTokens)
			out.Truncated = part.FinishReason == fantasy.FinishReasonLength
		}
	}
	if err := ctx.Err(); err != nil {
		return SamplingAnswer{}, err
	}
	if !finished {
		return SamplingAnswer{}, errors.New("the provider's stream ended without a finish event")
	}
	out.Text = text.String()
	out.Model = fc.model.Model()
	return out, nil
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
