package gen

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
)

func TestFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, tc := range []struct {
		name                string
		cfg                 Config
		env                 func(string) string
		provider, key, base string
		err                 string
	}{
		{"auto without keys is offline", Config{}, env(), ProviderOffline, "", "", ""},
		{"auto picks anthropic first", Config{Provider: "auto"}, env("OPENAI_API_KEY", "o", "ANTHROPIC_API_KEY", "a"), ProviderAnthropic, "a", "", ""},
		{"auto picks openai", Config{}, env("OPENAI_API_KEY", "o", "OPENAI_BASE_URL", "http://x/v1"), ProviderOpenAI, "o", "http://x/v1", ""},
		{"auto picks gemini", Config{}, env("GEMINI_API_KEY", "g"), ProviderGoogle, "g", "", ""},
		{"auto picks openrouter", Config{}, env("OPENROUTER_API_KEY", "r"), ProviderOpenRouter, "r", "", ""},
		{"auto ignores OLLAMA_HOST", Config{}, env("OLLAMA_HOST", "h:1"), ProviderOffline, "", "", ""},
		{"explicit needs its key", Config{Provider: "anthropic"}, env(), "", "", "", "ANTHROPIC_API_KEY"},
		{"config key wins", Config{Provider: "openai", APIKey: "cfg"}, env("OPENAI_API_KEY", "env"), ProviderOpenAI, "cfg", "", ""},
		{"config base URL wins", Config{Provider: "anthropic", BaseURL: "http://cfg"}, env("ANTHROPIC_API_KEY", "a", "ANTHROPIC_BASE_URL", "http://env"), ProviderAnthropic, "a", "http://cfg", ""},
		{"ollama needs no key", Config{Provider: "ollama"}, env("OLLAMA_HOST", "box:1234"), ProviderOllama, "", "box:1234", ""},
		{"google falls back to GOOGLE_API_KEY", Config{Provider: "google"}, env("GOOGLE_API_KEY", "gk"), ProviderGoogle, "gk", "", ""},
		{"compatible needs a base URL", Config{Provider: "openai-compatible"}, env(), "", "", "", "base URL"},
		{"sampling needs nothing", Config{Provider: "sampling"}, env(), ProviderSampling, "", "", ""},
		{"unknown", Config{Provider: "gpt"}, env(), "", "", "", "unknown LLM provider"},
		{"case and space", Config{Provider: " Anthropic "}, env("ANTHROPIC_API_KEY", "a"), ProviderAnthropic, "a", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromEnv(tc.cfg, tc.env)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Provider != tc.provider || got.APIKey != tc.key || got.BaseURL != tc.base {
				t.Fatalf("got provider %q key %q base %q", got.Provider, got.APIKey, got.BaseURL)
			}
		})
	}
}

func TestOllamaBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "http://127.0.0.1:11434/v1",
		"0.0.0.0":                    "http://0.0.0.0:11434/v1",
		"box:8080":                   "http://box:8080/v1",
		"https://ollama.example.com": "https://ollama.example.com/v1",
		"http://h:1/v1":              "http://h:1/v1",
		"http://h:1/":                "http://h:1/v1",
		"[::1]:5000":                 "http://[::1]:5000/v1",
	} {
		got, err := ollamaBaseURL(in)
		if err != nil || got != want {
			t.Errorf("ollamaBaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ollamaBaseURL("http://"); err == nil {
		t.Error("an empty host must be an error")
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg Config
		err string
	}{
		{Config{Provider: "offline"}, "not an LLM provider"},
		{Config{Provider: "openai-compatible", BaseURL: "http://x"}, "needs a model"},
		{Config{Provider: "anthropic", APIKey: "k", FirstRead: "later"}, "firstRead"},
		{Config{Provider: "anthropic", APIKey: "k", PromptsDir: "/nonexistent/dir/is/fine"}, ""},
	} {
		_, err := New(tc.cfg)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("New(%+v) = %v, want %q", tc.cfg, err, tc.err)
		}
	}
}

// TestNetworkErrorClassified: a provider that is not listening is NETWORK,
// retryable, retried, and the UI falls back.
func TestNetworkErrorClassified(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var waits []time.Duration
	l, err := New(Config{Provider: ProviderOllama, Model: "m", BaseURL: "http://" + addr,
		Sleep: func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.Generate(context.Background(), Request{Tool: forecastTool})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Class != ErrNetwork || !res.Error.Retryable || res.Attempts != 3 || len(waits) != 2 {
		t.Fatalf("error %+v attempts %d waits %v", res.Error, res.Attempts, waits)
	}
	if res.UIType != UITypeOfflineRich {
		t.Fatalf("UIType %q", res.UIType)
	}
}

// TestRetryAfterBeyondBudget: a Retry-After longer than what is left of the
// budget ends the generation at once, saying so.
func TestRetryAfterBeyondBudget(t *testing.T) {
	r := newWireRig(t, llmtest.OpenAI, llmtest.Reply{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After": "120"}},
		func(c *Config) { c.Budget = 2 * time.Second })
	res := r.generate("k")
	if res.Error == nil || res.Error.Class != ErrRateLimit || res.Error.RetryAfter != 120*time.Second ||
		!strings.Contains(res.Error.Message, "would pass the budget") || len(r.slept()) != 0 || r.srv.Count() != 1 {
		t.Fatalf("error %+v, waits %v, requests %d", res.Error, r.slept(), r.srv.Count())
	}
}

func TestRetryAfterHeader(t *testing.T) {
	for _, tc := range []struct {
		h    map[string]string
		want time.Duration
	}{
		{map[string]string{"Retry-After": "3"}, 3 * time.Second},
		{map[string]string{"retry-after": "1.5"}, 1500 * time.Millisecond},
		{map[string]string{"retry-after-ms": "250", "retry-after": "9"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{}, 0},
	} {
		if got := retryAfter(headerGetter(tc.h)); got != tc.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tc.h, got, tc.want)
		}
	}
	future := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	if got := retryAfter(headerGetter(map[string]string{"Retry-After": future})); got < 80*time.Second || got > 91*time.Second {
		t.Errorf("HTTP-date Retry-After = %v", got)
	}
}

func TestClassifyRedacts(t *testing.T) {
	l := &LLM{secrets: []string{"my-secret-key-1234"}}
	e := classify(errors.New("dial failed for key my-secret-key-1234 and sk-ant-api03-abcdefghijklmnop"), l.redact)
	if strings.Contains(e.Message, "my-secret-key-1234") || strings.Contains(e.Message, "sk-ant-api03") {
		t.Fatalf("message not redacted: %q", e.Message)
	}
}

// TestOpenRouterBaseURL: the openrouter provider (OpenAI wire format) goes
// to a configured base URL.
func TestOpenRouterBaseURL(t *testing.T) {
	srv := llmtest.New(t, llmtest.OpenAI, llmtest.Reply{Text: llmtest.ForecastPage})
	l, err := New(Config{Provider: ProviderOpenRouter, APIKey: "sk-or-test-0123456789abcdef", BaseURL: srv.BaseURL(), Mode: ModeHTML})
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.Generate(context.Background(), Request{Tool: forecastTool})
	if err != nil || res.UIType != UITypeLLM || srv.Count() != 1 {
		t.Fatalf("uiType %q err %v requests %d chain %+v", res.UIType, err, srv.Count(), res.Chain)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-or-test-0123456789abcdef" {
		t.Errorf("authorization %q", got)
	}
}

// TestGoogleProvider: the google provider (Gemini API, SSE) through Google's SDK
// against a stand-in at GOOGLE_GEMINI_BASE_URL.
func TestGoogleProvider(t *testing.T) {
	srv := llmtest.New(t, llmtest.Gemini, llmtest.Reply{Text: llmtest.ForecastPage, InputTokens: 11, OutputTokens: 22})
	l, err := New(Config{Provider: ProviderGoogle, APIKey: "AIzaTestKey0123456789abcdef", BaseURL: srv.URL, Mode: ModeHTML})
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.Generate(context.Background(), Request{Tool: forecastTool})
	if err != nil || res.UIType != UITypeLLM || srv.Count() != 1 {
		t.Fatalf("uiType %q err %v requests %d chain %+v", res.UIType, err, srv.Count(), res.Chain)
	}
	if res.InputTokens != 11 || res.OutputTokens != 22 {
		t.Errorf("tokens %d/%d", res.InputTokens, res.OutputTokens)
	}
	q := srv.Requests()[0]
	if q.Header.Get("X-Goog-Api-Key") != "AIzaTestKey0123456789abcdef" || !strings.Contains(q.Path, "gemini-2.5-flash") {
		t.Errorf("request %s headers %v", q.Path, q.Header)
	}
}
