package app

import (
	"testing"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/gen"
)

// TestBorrowedLLMSettingsAreShownAndCanBeTurnedOff: beside Claude Code
// (ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL set), --llm auto picks
// anthropic and the engine is told where its settings came from (State's
// generatorSource, the serve banner, the TUI header); GENUI_LLM_FROM_ENVIRONMENT=false
// (llm.fromEnvironment) keeps genui offline.
func TestBorrowedLLMSettingsAreShownAndCanBeTurnedOff(t *testing.T) {
	claude := env{"ANTHROPIC_API_KEY": "sk-ant-claude-0123456789", "ANTHROPIC_BASE_URL": "http://127.0.0.1:1"}
	s, err := ConfigureInput(nil, config.Input{File: writeConfig(t, `{"dir": "`+t.TempDir()+`"}`), LookupEnv: claude.lookup})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o, err := s.EngineOptions()
	if err != nil {
		t.Fatal(err)
	}
	if s.Gen.Provider != gen.ProviderAnthropic || o.GeneratorSource != "ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL from the environment" {
		t.Fatalf("provider %q, source %q", s.Gen.Provider, o.GeneratorSource)
	}

	off := env{"GENUI_LLM_FROM_ENVIRONMENT": "false"}
	for k, v := range claude {
		off[k] = v
	}
	s2, err := ConfigureInput(nil, config.Input{File: writeConfig(t, `{"dir": "`+t.TempDir()+`"}`), LookupEnv: off.lookup})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	o2, err := s2.EngineOptions()
	if err != nil {
		t.Fatal(err)
	}
	if s2.Gen.Provider != gen.ProviderOffline || o2.GeneratorSource != "" {
		t.Fatalf("with fromEnvironment false: provider %q, source %q", s2.Gen.Provider, o2.GeneratorSource)
	}
}
