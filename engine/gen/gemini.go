package gen

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/genai"
)

// geminiCompleter streams from the Gemini API through Google's SDK
// (google.golang.org/genai), not fantasy's Google provider: that provider
// imports fantasy's Anthropic provider (for Claude on Vertex), which brings
// the Bedrock and Vertex clients genui never uses (see anthropicCompleter).
type geminiCompleter struct {
	client *genai.Client
	model  string
	limits
}

func newGeminiCompleter(cfg Config, maxTokens int64) (*geminiCompleter, error) {
	cc := &genai.ClientConfig{
		APIKey:      cfg.APIKey,
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  cfg.HTTPClient,
		HTTPOptions: genai.HTTPOptions{BaseURL: cfg.BaseURL},
	}
	client, err := genai.NewClient(context.Background(), cc)
	if err != nil {
		return nil, err
	}
	return &geminiCompleter{client: client, model: cfg.Model, limits: limits{maxTokens: maxTokens, temperature: cfg.Temperature}}, nil
}

func (c *geminiCompleter) withLimits(l limits) completer {
	cc := *c
	cc.limits = l
	return &cc
}

func (c *geminiCompleter) complete(ctx context.Context, system string, msgs []message, _ Request, onText func(int)) (Completion, error) {
	conf := &genai.GenerateContentConfig{
		MaxOutputTokens: int32(min(c.maxTokens, 1<<31-1)), //nolint:gosec // bounded just above
	}
	if system != "" {
		conf.SystemInstruction = genai.NewContentFromText(system, genai.RoleUser)
	}
	if c.temperature != nil {
		t := float32(*c.temperature)
		conf.Temperature = &t
	}
	contents := make([]*genai.Content, 0, len(msgs))
	for _, m := range msgs {
		role := genai.Role(genai.RoleUser)
		if m.Role == roleAssistant {
			role = genai.RoleModel
		}
		contents = append(contents, genai.NewContentFromText(m.Text, role))
	}
	var (
		out    Completion
		text   = answerText{limit: c.maxBytes}
		finish genai.FinishReason
	)
	for resp, err := range c.client.Models.GenerateContentStream(ctx, c.model, contents, conf) {
		if err != nil {
			return Completion{}, geminiError(err)
		}
		if resp.ModelVersion != "" {
			out.Model = resp.ModelVersion
		}
		if u := resp.UsageMetadata; u != nil && u.TotalTokenCount != 0 {
			out.InputTokens = int(u.PromptTokenCount)
			out.OutputTokens = int(u.CandidatesTokenCount)
		}
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			return out, &Error{Class: ErrContentFiltered, Message: fmt.Sprintf("the provider blocked the prompt (%s)", pf.BlockReason)}
		}
		if len(resp.Candidates) == 0 {
			continue
		}
		cand := resp.Candidates[0]
		if cand.Content != nil {
			for _, p := range cand.Content.Parts {
				if p == nil || p.Thought || p.Text == "" {
					continue
				}
				if err := text.add(p.Text, onText); err != nil {
					return Completion{}, err
				}
			}
		}
		if cand.FinishReason != "" {
			finish = cand.FinishReason
		}
	}
	if err := ctx.Err(); err != nil {
		return Completion{}, err
	}
	switch finish {
	case "":
		return Completion{}, &Error{Class: ErrNetwork, Retryable: true, Message: "the stream ended without a finish reason"}
	case genai.FinishReasonSafety, genai.FinishReasonBlocklist, genai.FinishReasonProhibitedContent,
		genai.FinishReasonSPII, genai.FinishReasonImageSafety:
		return out, &Error{Class: ErrContentFiltered, Message: fmt.Sprintf("the provider's content filter stopped the answer (%s)", finish)}
	case genai.FinishReasonMaxTokens:
		out.Truncated = true
	}
	if out.Model == "" {
		out.Model = c.model
	}
	out.Text = text.String()
	return out, nil
}

// geminiError gives the SDK's API errors (a google.rpc.Status: code,
// status, message and details; no headers) the shape classify reads. A 429
// says when to retry in a RetryInfo detail.
func geminiError(err error) error {
	var ae genai.APIError
	if !errors.As(err, &ae) {
		var pae *genai.APIError
		if !errors.As(err, &pae) || pae == nil {
			return err
		}
		ae = *pae
	}
	msg := ae.Message
	if ae.Status != "" {
		msg = ae.Status + ": " + msg
	}
	out := &apiError{status: ae.Code, message: msg, cause: err}
	for _, d := range ae.Details {
		if t, _ := d["@type"].(string); t != "type.googleapis.com/google.rpc.RetryInfo" {
			continue
		}
		if s, _ := d["retryDelay"].(string); s != "" {
			if dur, err := time.ParseDuration(s); err == nil && dur > 0 {
				out.retryAfter = dur
			}
		}
	}
	return out
}
