package config

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestConfigErrorsHideEnvValues: an error about a value read from
// ${env:NAME} names the path and the rule and shows <from ${env:NAME}>,
// never the value, in `genui config validate` (ValidateFile) and at start-up
// (ResolveInput, which every engine command runs); values of secret keys
// are never shown either.
func TestConfigErrorsHideEnvValues(t *testing.T) {
	const secret = "sk-SUPERSECRET-0123456789abcdef"
	e := env{"X": secret, "GENUI_T_HOST": secret}
	for _, tc := range []struct {
		name, file string
		want       string
	}{
		{"pattern", `{"llm": {"provider": "openai", "baseUrl": "${env:X}"}}`,
			"llm.baseUrl: must be an http:// or https:// URL, not <from ${env:X}>"},
		{"pattern inside a longer string", `{"llm": {"provider": "openai", "baseUrl": "ftp://${env:X}/v1"}}`,
			"llm.baseUrl: must be an http:// or https:// URL, not <from ${env:X}>"},
		{"enum", `{"logging": {"format": "${env:X}"}}`, "logging.format: must be json or text, not <from ${env:X}>"},
		{"provider enum", `{"llm": "${env:X}"}`, "llm: unknown LLM provider <from ${env:X}>"},
		{"const", `{"http": {"host": "${env:GENUI_T_HOST}"}}`, `http.host: must be "127.0.0.1", not <from ${env:GENUI_T_HOST}>`},
		{"duration", `{"generation": {"budget": "${env:X}"}}`, "generation.budget: must be a duration such as 90s, 1m30s or 500ms, not <from ${env:X}>"},
		{"url", `{"upstream": {"url": "${env:X}"}}`, "upstream.url: must be an http:// or https:// URL, not <from ${env:X}>"},
		{"cross-field rule", `{"upstream": {"reconnect": {"min": "1m", "max": "${env:X}"}}}`, "upstream.reconnect.max: must be a duration"},
		{"secret key with an enum-like rule", `{"upstream": {"url": "http://x/mcp", "transport": "${env:X}"}}`,
			"upstream.transport: must be stdio, http or sse, not <from ${env:X}>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeConfig(t, tc.file)
			_, verr := ValidateFile(p, e.lookup)
			_, rerr := ResolveInput(nil, Input{File: p, LookupEnv: e.lookup})
			for what, err := range map[string]error{"validate": verr, "start-up": rerr} {
				if err == nil {
					t.Fatalf("%s: no error", what)
				}
				var errs *Errors
				if !errors.As(err, &errs) {
					t.Fatalf("%s: %T %v is not *Errors", what, err, err)
				}
				if strings.Contains(err.Error(), "SUPERSECRET") {
					t.Errorf("%s error shows the value of ${env:...}:\n%v", what, err)
				}
				for _, x := range errs.List {
					if strings.Contains(x.Rule, "SUPERSECRET") {
						t.Errorf("%s: Error.Rule shows the value: %q", what, x.Rule)
					}
				}
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s error\n  %v\nwant it to contain\n  %s", what, err, tc.want)
				}
			}
		})
	}
}

// TestConfigErrorsHideSecretKeys: a literal value under a key that holds a
// secret (llm.apiKey, upstream.headers, upstream.env entries named like
// secrets) is never printed by an error, while other literal values still
// are (they help the user find the typo).
func TestConfigErrorsHideSecretKeys(t *testing.T) {
	const secret = "sk-SUPERSECRET-0123456789abcdef"
	errs := []*Error{
		{Path: "llm.apiKey", Rule: `must match ^x$, not "` + secret + `"`},
		{Path: "upstream.headers.Authorization", Rule: `must be one of a or b, not "Bearer ` + secret + `"`},
		{Path: "upstream.env.API_TOKEN", Rule: `bad value "` + secret + `"`},
	}
	tree := map[string]any{
		"llm":      map[string]any{"apiKey": secret},
		"upstream": map[string]any{"headers": map[string]any{"Authorization": "Bearer " + secret}, "env": map[string]any{"API_TOKEN": secret}},
	}
	eff := &Effective{secret: map[string]bool{}}
	eff.scrub(errs, tree)
	for _, x := range errs {
		if strings.Contains(x.Rule, "SUPERSECRET") {
			t.Errorf("%s: %s", x.Path, x.Rule)
		}
		if !strings.Contains(x.Rule, "<secret>") {
			t.Errorf("%s: %q does not say a secret was hidden", x.Path, x.Rule)
		}
	}
	_, err := load(t, `{"logging": {"format": "xml"}}`, nil)
	if err == nil || !strings.Contains(err.Error(), `not "xml"`) {
		t.Errorf("a literal value is no longer shown: %v", err)
	}
}

// TestSecretsRedact: every ${env:VAR} value the configuration read, and
// the values of secret keys, are hidden by the one function the output
// surfaces use (Secrets.Redact): in free text, in `config show` and in
// every log line; values too short to tell from other text are not.
func TestSecretsRedact(t *testing.T) {
	const secret = "plain-VALUE-4242"
	e := env{"PLAIN": secret, "API_TOKEN": "tok-0123456789", "N": "1"}
	p := writeConfig(t, `{"upstream": {"command": "server", "args": ["--label", "${env:PLAIN}", "--level=${env:N}"],
		"env": {"API_TOKEN": "${env:API_TOKEN}", "PASSWORD": "hunter2-literal"}}}`)
	eff, err := ResolveInput(nil, Input{File: p, LookupEnv: e.lookup})
	if err != nil {
		t.Fatal(err)
	}
	sec := eff.Config.Secrets
	got := sec.Redact("server --label " + secret + " --level=1 (token tok-0123456789, pw hunter2-literal)")
	if want := "server --label <from ${env:PLAIN}> --level=1 (token <from ${env:API_TOKEN}>, pw <secret>)"; got != want {
		t.Fatalf("Redact:\n got %s\nwant %s", got, want)
	}
	var shown strings.Builder
	if err := eff.Show(&shown, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(shown.String(), secret) || !strings.Contains(shown.String(), `"<from ${env:PLAIN}>"`) {
		t.Fatalf("config show:\n%s", shown.String())
	}
	eff.Config.Dir = t.TempDir()
	log, closer, err := NewLogger(eff.Config, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	log.Info("upstream started "+secret, "command", "server --label "+secret, "args", []string{secret},
		"err", errors.New("exit: "+secret), "env", map[string]string{"X": secret})
	closer.Close()
	b, err := os.ReadFile(LogFile(eff.Config))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), secret) || strings.Count(string(b), "<from ${env:PLAIN}>") != 5 {
		t.Fatalf("log line:\n%s", b)
	}
	if (*Secrets)(nil).Redact(secret) != secret {
		t.Fatal("a nil Secrets hides something")
	}
}
