package gen

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"charm.land/fantasy"
	"charm.land/fantasy/providers/openai"
	"charm.land/fantasy/providers/openaicompat"
)

// Provider names (--llm values besides auto and offline).
const (
	ProviderAnthropic  = "anthropic"
	ProviderOpenAI     = "openai"
	ProviderOllama     = "ollama"
	ProviderGoogle     = "google"
	ProviderOpenRouter = "openrouter"
	// ProviderOpenAICompatible is any server speaking OpenAI's chat
	// completions API (LM Studio, vLLM, llama.cpp): needs a base URL.
	ProviderOpenAICompatible = "openai-compatible"
	ProviderSampling         = "sampling"
	ProviderOffline          = "offline"
	ProviderAuto             = "auto"
)

// First-read modes (generation.firstRead).
const (
	FirstReadBackground = "background"
	FirstReadWait       = "wait"
)

// Generation modes (generation.mode): what a model writes.
const (
	// ModeSpec (the default): the model writes a view specification
	// (viewspec) that genui's own renderers draw; no model-written script
	// reaches a page.
	ModeSpec = "spec"
	// ModeHTML: the model writes a whole page with its own script, held to
	// Rules by Check and run under the page's CSP.
	ModeHTML = "html"
)

// Defaults for the zero values of Config.
const (
	DefaultBudget        = 90 * time.Second
	DefaultWaitBudget    = 15 * time.Second
	DefaultRetries       = 2
	DefaultMaxConcurrent = 2
	DefaultMaxTokens     = 16000
	DefaultBackoff       = time.Second
	defaultOllamaHost    = "http://127.0.0.1:11434"
)

// DefaultModels are the models used when none is configured.
var DefaultModels = map[string]string{
	ProviderAnthropic:  "claude-sonnet-4-5",
	ProviderOpenAI:     "gpt-4.1",
	ProviderOllama:     "qwen2.5-coder:14b",
	ProviderGoogle:     "gemini-2.5-flash",
	ProviderOpenRouter: "anthropic/claude-sonnet-4.5",
}

// KeyEnv names the environment variable holding each provider's API key;
// --llm auto picks the first provider (in this order) whose key is set.
var KeyEnv = []struct{ Provider, Var string }{
	{ProviderAnthropic, "ANTHROPIC_API_KEY"},
	{ProviderOpenAI, "OPENAI_API_KEY"},
	{ProviderGoogle, "GEMINI_API_KEY"},
	{ProviderOpenRouter, "OPENROUTER_API_KEY"},
}

// BaseURLEnv names each provider's standard base-URL variable.
var BaseURLEnv = map[string]string{
	ProviderAnthropic:  "ANTHROPIC_BASE_URL",
	ProviderOpenAI:     "OPENAI_BASE_URL",
	ProviderOllama:     "OLLAMA_HOST",
	ProviderGoogle:     "GOOGLE_GEMINI_BASE_URL",
	ProviderOpenRouter: "OPENROUTER_BASE_URL",
}

// Config is everything the LLM generator needs, as plain values (the CLI
// and the config file fill it; see FromEnv for the environment).
type Config struct {
	// Pages are how the pages it serves are rendered (genui --debug:
	// readable sources); the offline fallback renders with them too.
	Pages PageOptions
	// Provider is one of the Provider* names (not auto: see FromEnv).
	Provider string
	Model    string
	BaseURL  string
	APIKey   string
	// MaxTokens bounds one answer (default 16000).
	MaxTokens int
	// Temperature, when set, is passed to the model.
	Temperature *float64
	// Budget bounds one background generation, retries included (default
	// 90 s); WaitBudget one a reader waits for (default 15 s).
	Budget, WaitBudget time.Duration
	// Retries after the first attempt for retryable errors (0 = default
	// 2, negative = none).
	Retries int
	// BackoffBase is the first retry delay, doubled per retry (default
	// 1 s); a provider's Retry-After wins when it says more.
	BackoffBase time.Duration
	// MaxConcurrent is the global limit on generations running at once
	// (default 2).
	MaxConcurrent int
	// PromptsDir overrides the embedded prompt templates with files of the
	// same name (system.tmpl, generate.tmpl, refine.tmpl).
	PromptsDir string
	// FirstRead is FirstReadBackground (default) or FirstReadWait.
	FirstRead string
	// Mode is ModeSpec (default) or ModeHTML; HTMLTools (names or
	// path.Match globs) get ModeHTML whatever Mode says.
	Mode      string
	HTMLTools []string
	// DebugDir, when set, receives each prompt and raw answer (redacted).
	DebugDir string
	Logger   *slog.Logger
	// HTTPClient is used for provider requests (default: a client with
	// no overall timeout; the budget bounds each request).
	HTTPClient *http.Client
	// Sleep waits between retries; tests replace it. nil = a timer bounded
	// by ctx.
	Sleep func(ctx context.Context, d time.Duration) error

	// NoEnvironment keeps FromEnv from reading the providers' own
	// variables (llm.fromEnvironment false): only what genui was given
	// counts.
	NoEnvironment bool
	// FromEnvironment are the variables FromEnv took settings from
	// (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ...): variables other tools
	// set too, that the user did not give genui. Front ends show them.
	FromEnvironment []string
}

// Source says where the generator's settings came from, for the front
// ends: "" when genui was given them, else "ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL from the environment".
func (c Config) Source() string {
	if len(c.FromEnvironment) == 0 {
		return ""
	}
	return strings.Join(c.FromEnvironment, ", ") + " from the environment"
}

// FromEnv resolves --llm: auto picks the first provider whose API key is in
// the environment (KeyEnv order), else offline; an explicit provider takes
// its key and base URL from the environment when cfg has none. A provider
// that needs a key and has none is an error that names the variable.
func FromEnv(cfg Config, getenv func(string) string) (Config, error) {
	cfg.FromEnvironment = nil
	if cfg.NoEnvironment {
		getenv = func(string) string { return "" }
	} else {
		read := getenv
		getenv = func(k string) string {
			v := read(k)
			if v != "" && !slices.Contains(cfg.FromEnvironment, k) {
				cfg.FromEnvironment = append(cfg.FromEnvironment, k)
			}
			return v
		}
	}
	p := strings.ToLower(strings.TrimSpace(cfg.Provider))
	if p == "" {
		p = ProviderAuto
	}
	if p == ProviderAuto {
		p = ProviderOffline
		if cfg.APIKey != "" {
			return cfg, fmt.Errorf("an API key is configured but the provider is auto: name the provider (--llm)")
		}
		for _, k := range KeyEnv {
			if getenv(k.Var) != "" {
				p = k.Provider
				break
			}
		}
	}
	cfg.Provider = p
	switch p {
	case ProviderOffline, ProviderSampling:
		return cfg, nil
	case ProviderOllama, ProviderOpenAICompatible:
	case ProviderAnthropic, ProviderOpenAI, ProviderGoogle, ProviderOpenRouter:
		if cfg.APIKey == "" {
			v := keyVar(p)
			cfg.APIKey = getenv(v)
			if cfg.APIKey == "" && p == ProviderGoogle {
				cfg.APIKey = getenv("GOOGLE_API_KEY")
			}
			if cfg.APIKey == "" && cfg.NoEnvironment {
				return cfg, fmt.Errorf("--llm %s needs an API key: llm.fromEnvironment is false, so give it as llm.apiKey (${env:VAR})", p)
			}
			if cfg.APIKey == "" {
				return cfg, fmt.Errorf("--llm %s needs an API key: set %s", p, v)
			}
		}
	default:
		return cfg, fmt.Errorf("unknown LLM provider %q (want auto, anthropic, openai, ollama, google, openrouter, openai-compatible, sampling or offline)", p)
	}
	if cfg.BaseURL == "" {
		if v, ok := BaseURLEnv[p]; ok {
			cfg.BaseURL = getenv(v)
		}
		if cfg.BaseURL == "" && p == ProviderGoogle {
			cfg.BaseURL = getenv("GEMINI_BASE_URL")
		}
	}
	if p == ProviderOpenAICompatible && cfg.BaseURL == "" {
		return cfg, fmt.Errorf("--llm openai-compatible needs a base URL (llm.baseUrl in genui.json)")
	}
	return cfg, nil
}

func keyVar(provider string) string {
	for _, k := range KeyEnv {
		if k.Provider == provider {
			return k.Var
		}
	}
	return ""
}

// ollamaBaseURL turns OLLAMA_HOST forms (host, host:port, URL) into the
// OpenAI-compatible endpoint (.../v1).
func ollamaBaseURL(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		v = defaultOllamaHost
	}
	bare := !strings.Contains(v, "://") // OLLAMA_HOST style: host[:port]
	if bare {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("OLLAMA_HOST %q is not a host or URL", v)
	}
	if bare && u.Port() == "" {
		u.Host = net.JoinHostPort(u.Hostname(), "11434")
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/v1") {
		u.Path += "/v1"
	}
	return u.String(), nil
}

// openRouterURL is OpenRouter's OpenAI-compatible API.
const openRouterURL = "https://openrouter.ai/api/v1"

// newCompleter builds the provider client for cfg (after defaults).
func newCompleter(cfg Config) (completer, error) {
	temp := cfg.Temperature
	maxTokens := int64(cfg.MaxTokens)
	if cfg.Provider == ProviderSampling {
		return &samplingCompleter{model: cfg.Model, maxTokens: maxTokens, temperature: temp}, nil
	}
	var prov fantasy.Provider
	var err error
	client := cfg.HTTPClient
	switch cfg.Provider {
	case ProviderAnthropic:
		return newAnthropicCompleter(cfg, maxTokens), nil
	case ProviderOpenAI:
		opts := []openai.Option{openai.WithAPIKey(cfg.APIKey), openai.WithHTTPClient(client)}
		if cfg.BaseURL != "" {
			opts = append(opts, openai.WithBaseURL(cfg.BaseURL))
		}
		prov, err = openai.New(opts...)
	case ProviderOllama, ProviderOpenAICompatible:
		base := cfg.BaseURL
		if cfg.Provider == ProviderOllama {
			if base, err = ollamaBaseURL(base); err != nil {
				return nil, err
			}
		}
		key := cfg.APIKey
		if key == "" {
			key = "ollama" // Ollama ignores it; the OpenAI client wants one
		}
		prov, err = openaicompat.New(openaicompat.WithBaseURL(base), openaicompat.WithAPIKey(key),
			openaicompat.WithName(cfg.Provider), openaicompat.WithHTTPClient(client))
	case ProviderGoogle:
		c, err := newGeminiCompleter(cfg, maxTokens)
		if err != nil {
			return nil, fmt.Errorf("%s provider: %w", cfg.Provider, err)
		}
		return c, nil
	case ProviderOpenRouter:
		// OpenRouter speaks OpenAI's chat completions. fantasy's openrouter
		// provider would import its Anthropic provider (see anthropicCompleter).
		base := cfg.BaseURL
		if base == "" {
			base = openRouterURL
		}
		prov, err = openaicompat.New(openaicompat.WithBaseURL(base), openaicompat.WithAPIKey(cfg.APIKey),
			openaicompat.WithName(cfg.Provider), openaicompat.WithHTTPClient(client))
	default:
		return nil, fmt.Errorf("unknown LLM provider %q", cfg.Provider)
	}
	if err != nil {
		return nil, fmt.Errorf("%s provider: %w", cfg.Provider, err)
	}
	model, err := prov.LanguageModel(context.Background(), cfg.Model)
	if err != nil {
		return nil, fmt.Errorf("%s model %s: %w", cfg.Provider, cfg.Model, err)
	}
	return &fantasyCompleter{model: model, limits: limits{maxTokens: maxTokens, temperature: temp}}, nil
}
