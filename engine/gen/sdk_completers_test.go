package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
)

// TestGeminiWire: the Gemini completer (Google's genai SDK) against a
// stand-in speaking the Gemini API's streamGenerateContent and its
// google.rpc.Status errors.
func TestGeminiWire(t *testing.T) {
	t.Run("request", func(t *testing.T) {
		r := newWireRig(t, llmtest.Gemini, llmtest.Reply{Text: llmtest.ForecastPage, InputTokens: 11, OutputTokens: 22}, nil)
		res := r.generate("k")
		wantChain(t, res, "generated")
		if res.UIType != UITypeLLM || res.Provider != ProviderGoogle || res.InputTokens != 11 || res.OutputTokens != 22 {
			t.Fatalf("result = %+v", res)
		}
		q := r.srv.Requests()[0]
		if q.Path != "/v1beta/models/test-model:streamGenerateContent" || q.Header.Get("X-Goog-Api-Key") != llmtest.TestKey {
			t.Errorf("path %q, key sent %v", q.Path, q.Header.Get("X-Goog-Api-Key") == llmtest.TestKey)
		}
		var body struct {
			SystemInstruction struct {
				Parts []struct{ Text string } `json:"parts"`
			} `json:"systemInstruction"`
			Contents []struct {
				Role  string                  `json:"role"`
				Parts []struct{ Text string } `json:"parts"`
			} `json:"contents"`
			GenerationConfig struct {
				MaxOutputTokens int `json:"maxOutputTokens"`
			} `json:"generationConfig"`
		}
		if err := json.Unmarshal(q.Body, &body); err != nil {
			t.Fatal(err)
		}
		if len(body.SystemInstruction.Parts) != 1 || !strings.Contains(body.SystemInstruction.Parts[0].Text, "window.McpApps") {
			t.Errorf("system instruction lacks the App API: %.200s", q.Body)
		}
		if len(body.Contents) != 1 || body.Contents[0].Role != "user" || !strings.Contains(body.Contents[0].Parts[0].Text, `"get_forecast"`) {
			t.Errorf("contents lack the tool definition: %.300s", q.Body)
		}
		if body.GenerationConfig.MaxOutputTokens <= 0 {
			t.Errorf("maxOutputTokens %d", body.GenerationConfig.MaxOutputTokens)
		}
	})
	t.Run("rate limit waits as RetryInfo says", func(t *testing.T) {
		r := newWireRig(t, llmtest.Gemini, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
		r.srv.Push(llmtest.Reply{Status: http.StatusTooManyRequests, Message: "quota exceeded"})
		res := r.generate("k")
		wantChain(t, res, "generated")
		if res.Attempts != 2 || r.srv.Count() != 2 {
			t.Fatalf("attempts %d, requests %d; want 2", res.Attempts, r.srv.Count())
		}
		if s := r.slept(); len(s) != 1 || s[0] != 7*time.Second {
			t.Fatalf("waited %v before the retry, want exactly [7s] (RetryInfo retryDelay)", s)
		}
	})
	t.Run("server error then success", func(t *testing.T) {
		r := newWireRig(t, llmtest.Gemini, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
		r.srv.Push(llmtest.Reply{Status: http.StatusServiceUnavailable, Message: "overloaded"})
		res := r.generate("k")
		wantChain(t, res, "generated")
		if res.Attempts != 2 {
			t.Fatalf("attempts = %d, want 2", res.Attempts)
		}
	})
	t.Run("bad key stops", func(t *testing.T) {
		r := newWireRig(t, llmtest.Gemini, llmtest.Reply{Status: http.StatusForbidden, Message: "API key not valid"}, nil)
		res := r.generate("k")
		wantChain(t, res, "generated!", "offline")
		if res.Error == nil || res.Error.Class != ErrAuth || res.Error.Retryable || res.Error.Status != 403 ||
			!strings.Contains(res.Error.Message, "PERMISSION_DENIED") || r.srv.Count() != 1 {
			t.Fatalf("error %+v after %d requests", res.Error, r.srv.Count())
		}
	})
	t.Run("safety stop is content filtered", func(t *testing.T) {
		r := newWireRig(t, llmtest.Gemini, llmtest.Reply{Text: "partial", Finish: "SAFETY"}, nil)
		res := r.generate("k")
		if res.Error == nil || res.Error.Class != ErrContentFiltered || res.Error.Retryable || r.srv.Count() != 1 {
			t.Fatalf("error %+v after %d requests", res.Error, r.srv.Count())
		}
	})
}

// TestAnthropicStreamErrorEvent: an error event inside the Messages API's
// 200 stream is retried when its type names a passing condition and not
// otherwise; a refusal is content filtered.
func TestAnthropicStreamErrorEvent(t *testing.T) {
	t.Run("overloaded is retried", func(t *testing.T) {
		r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
		r.srv.Push(llmtest.Reply{Text: llmtest.ForecastPage[:100], StreamError: "overloaded_error"})
		res := r.generate("k")
		wantChain(t, res, "generated")
		if res.Attempts != 2 || r.srv.Count() != 2 {
			t.Fatalf("attempts %d, requests %d; want 2", res.Attempts, r.srv.Count())
		}
	})
	t.Run("invalid request is not", func(t *testing.T) {
		r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage[:100], StreamError: "invalid_request_error"}, nil)
		res := r.generate("k")
		wantChain(t, res, "generated!", "offline")
		if res.Error == nil || res.Error.Retryable || !strings.Contains(res.Error.Message, "invalid_request_error") || r.srv.Count() != 1 {
			t.Fatalf("error %+v after %d requests", res.Error, r.srv.Count())
		}
	})
	t.Run("refusal", func(t *testing.T) {
		r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: "partial", Finish: "refusal"}, nil)
		res := r.generate("k")
		if res.Error == nil || res.Error.Class != ErrContentFiltered || res.Error.Retryable || r.srv.Count() != 1 {
			t.Fatalf("error %+v after %d requests", res.Error, r.srv.Count())
		}
	})
}

// TestOpenRouterDefaultURL: with no base URL the openrouter provider (fantasy's
// OpenAI-compatible client) asks OpenRouter's own API.
func TestOpenRouterDefaultURL(t *testing.T) {
	asked := make(chan string, 4)
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		asked <- r.URL.String()
		return nil, errors.New("no network in tests")
	})}
	l, err := New(Config{Provider: ProviderOpenRouter, APIKey: "sk-or-test-0123456789abcdef", HTTPClient: hc,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Generate(context.Background(), Request{Tool: forecastTool}); err != nil {
		t.Fatal(err)
	}
	if got := <-asked; got != "https://openrouter.ai/api/v1/chat/completions" {
		t.Fatalf("asked %s", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestAnswerSamplingThroughEachProvider: a draft answer to an upstream's
// sampling request goes through the configured provider's own client with
// the request's system prompt, conversation, token limit and temperature.
func TestAnswerSamplingThroughEachProvider(t *testing.T) {
	const params = `{"systemPrompt":"Answer in one word.","maxTokens":50,"temperature":0.25,"messages":[
		{"role":"user","content":{"type":"text","text":"What is two plus two?"}},
		{"role":"assistant","content":[{"type":"text","text":"Four."}]},
		{"role":"user","content":[{"type":"text","text":"And three plus three?"},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}]}]}`
	for _, w := range []llmtest.Wire{llmtest.Anthropic, llmtest.OpenAI, llmtest.Gemini} {
		t.Run(string(w), func(t *testing.T) {
			r := newWireRig(t, w, llmtest.Reply{Text: "Six.", InputTokens: 30, OutputTokens: 3}, nil)
			ans, err := r.llm.AnswerSampling(context.Background(), json.RawMessage(params))
			if err != nil {
				t.Fatal(err)
			}
			if ans.Text != "Six." || ans.Provider != providerFor(w) || ans.InputTokens != 30 || ans.OutputTokens != 3 || ans.Model == "" {
				t.Fatalf("answer %+v", ans)
			}
			q := r.srv.Requests()[0]
			body := string(q.Body)
			for _, want := range []string{"Answer in one word.", "What is two plus two?", "Four.", "And three plus three?",
				"[image content (image/png) not shown]", "50", "0.25"} {
				if !strings.Contains(body, want) {
					t.Errorf("the request lacks %q: %s", want, body)
				}
			}
			if strings.Contains(body, "window.McpApps") {
				t.Error("a sampling draft was sent the UI generator's system prompt")
			}
		})
	}
	t.Run("no system prompt sends none", func(t *testing.T) {
		r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: "Six."}, nil)
		if _, err := r.llm.AnswerSampling(context.Background(), json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}`)); err != nil {
			t.Fatal(err)
		}
		if b := r.srv.Requests()[0].Body; bytes.Contains(b, []byte(`"system"`)) {
			t.Errorf("an empty system prompt was sent: %s", b)
		}
	})
}
