package gen

import (
	"slices"
	"strings"
	"testing"
)

// TestFromEnvSaysWhatItBorrowed: the variables FromEnv took settings from
// (other tools set them too: Claude Code sets ANTHROPIC_API_KEY and
// ANTHROPIC_BASE_URL) are listed, so front ends can show them; --llm auto
// names the one it used; NoEnvironment (llm.fromEnvironment false) reads
// none: auto stays offline, a named provider needs genui's own key.
func TestFromEnvSaysWhatItBorrowed(t *testing.T) {
	claude := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-claude", "ANTHROPIC_BASE_URL": "http://proxy.example", "OPENAI_API_KEY": ""}
	getenv := func(k string) string { return claude[k] }

	got, err := FromEnv(Config{}, getenv)
	if err != nil || got.Provider != ProviderAnthropic || !slices.Equal(got.FromEnvironment, []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"}) {
		t.Fatalf("auto: %+v %v", got, err)
	}
	if s := got.Source(); s != "ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL from the environment" {
		t.Fatalf("Source = %q", s)
	}

	// Given to genui (llm.apiKey, llm.baseUrl): nothing borrowed.
	got, err = FromEnv(Config{Provider: "anthropic", APIKey: "genui-key", BaseURL: "http://mine"}, getenv)
	if err != nil || len(got.FromEnvironment) != 0 || got.Source() != "" {
		t.Fatalf("given: %+v %v", got.FromEnvironment, err)
	}

	got, err = FromEnv(Config{NoEnvironment: true}, getenv)
	if err != nil || got.Provider != ProviderOffline || len(got.FromEnvironment) != 0 {
		t.Fatalf("auto without the environment: %+v %v", got, err)
	}
	if _, err := FromEnv(Config{Provider: "anthropic", NoEnvironment: true}, getenv); err == nil || !strings.Contains(err.Error(), "llm.fromEnvironment is false") {
		t.Fatalf("anthropic without the environment: %v", err)
	}
	got, err = FromEnv(Config{Provider: "anthropic", APIKey: "k", NoEnvironment: true}, getenv)
	if err != nil || got.BaseURL != "" || got.APIKey != "k" {
		t.Fatalf("the base URL was read although the environment is off: %+v %v", got, err)
	}
}
