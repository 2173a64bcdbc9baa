package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// env is a fake environment.
type env map[string]string

func (e env) lookup(k string) (string, bool) { v, ok := e[k]; return v, ok }

// writeConfig writes body as a config file in a temp dir.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "genui.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// flagsFor registers the common flags and parses args.
func flagsFor(t *testing.T, args ...string) *Flags {
	t.Helper()
	f := &Flags{}
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.Register(fs)
	f.RegisterPorts(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

func load(t *testing.T, body string, e env, args ...string) (*Effective, error) {
	t.Helper()
	f := flagsFor(t, args...)
	in := Input{LookupEnv: e.lookup, Flags: f.fs}
	if body != "" {
		in.File = writeConfig(t, body)
	} else {
		in.File = filepath.Join(t.TempDir(), "absent.json")
		if err := os.WriteFile(in.File, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Load(in)
}

// TestConfigErrorsNamePaths: every class of configuration error names the
// path (or the flag, variable or file position) and the rule it breaks.
func TestConfigErrorsNamePaths(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string
		env  env
		args []string
		want []string // each must appear in the error text
	}{
		{"syntax", "{\n  \"dir\": \".ui\",\n  \"llm\": }\n", nil, nil, []string{"line 3, column 10", "invalid character"}},
		{"truncated", `{"dir": ".ui"`, nil, nil, []string{"line 1", "ends too early"}},
		{"two values", `{} {}`, nil, nil, []string{"more than one JSON value"}},
		{"not an object", `["a"]`, nil, nil, []string{"must hold a JSON object"}},
		{"unknown top-level key", `{"dirr": "x"}`, nil, nil, []string{`dirr: unknown key (did you mean "dir"?)`}},
		{"unknown nested key", `{"llm": {"provider": "offline", "tempreature": 1}}`, nil, nil, []string{`llm.tempreature: unknown key (did you mean "temperature"?)`}}, //nolint:misspell // misspelled on purpose
		{"unknown key far off", `{"cache": {"zzzzzz": 1}}`, nil, nil, []string{"cache.zzzzzz: unknown key (known: persist, directory, maxEntries"}},
		{"wrong type", `{"cache": {"maxEntries": "many"}}`, nil, nil, []string{"cache.maxEntries: must be an integer, not a string"}},
		{"wrong type bool", `{"cache": {"persist": "yes"}}`, nil, nil, []string{"cache.persist: must be true or false, not a string"}},
		{"above maximum", `{"llm": {"provider": "offline", "temperature": 5}}`, nil, nil, []string{"llm.temperature: must be <= 2"}},
		{"below minimum", `{"generation": {"maxConcurrent": 0}}`, nil, nil, []string{"generation.maxConcurrent: must be >= 1"}},
		{"enum", `{"logging": {"format": "xml"}}`, nil, nil, []string{`logging.format: must be json or text, not "xml"`}},
		{"provider enum", `{"llm": "gpt"}`, nil, nil, []string{`llm: unknown LLM provider "gpt"`}},
		{"llm wrong type", `{"llm": 3}`, nil, nil, []string{"llm: must be a string or an object"}},
		{"duration", `{"generation": {"budget": "ninety"}}`, nil, nil, []string{`generation.budget: must be a duration such as 90s`}},
		{"zero duration", `{"generation": {"budget": "0s"}}`, nil, nil, []string{"generation.budget: must be longer than 0s"}},
		{"url", `{"upstream": {"url": "ftp://x"}}`, nil, nil, []string{"upstream.url: must be an http:// or https:// URL"}},
		{"const host", `{"http": {"host": "0.0.0.0"}}`, nil, nil, []string{`http.host: must be "127.0.0.1"`}},
		{"array item", `{"upstream": {"command": "x", "args": ["a", 3]}}`, nil, nil, []string{"upstream.args[1]: must be a string, not a number"}},
		{"empty string", `{"dir": ""}`, nil, nil, []string{"dir: must not be empty"}},
		{"missing env var", `{"upstream": {"url": "http://x/mcp", "headers": {"Authorization": "Bearer ${env:GENUI_TEST_NOPE}"}}}`, env{}, nil,
			[]string{"upstream.headers.Authorization: ${env:GENUI_TEST_NOPE}: GENUI_TEST_NOPE is not set"}},
		{"bad env reference", `{"dir": "${env:1X}"}`, nil, nil, []string{`dir: ${env:1X}: "1X" is not an environment variable name`}},
		{"command and url", `{"upstream": {"command": "node", "url": "http://x/mcp"}}`, nil, nil, []string{"upstream: give either command (stdio) or url (http/sse), not both"}},
		{"old and new name", `{"generation": {"promptsDir": "a", "promptsDirectory": "b"}}`, nil, nil, []string{"generation.promptsDir: give promptsDirectory or its old name promptsDir, not both"}},
		{"array command with args", `{"upstream": {"command": ["node", "s.js"], "args": ["x"]}}`, nil, nil, []string{"upstream.args: not allowed when upstream.command is an array"}},
		{"args without command", `{"upstream": {"args": ["x"]}}`, nil, nil, []string{"upstream.args: needs upstream.command"}},
		{"transport without url", `{"upstream": {"transport": "sse"}}`, nil, nil, []string{"upstream.transport: sse needs upstream.url"}},
		{"reconnect order", `{"upstream": {"reconnect": {"min": "1m", "max": "10s"}}}`, nil, nil, []string{"upstream.reconnect.min: must not be longer than upstream.reconnect.max (10s)"}},
		{"cache limits", `{"cache": {"maxEntryBytes": 2000000, "maxTotalBytes": 1000000}}`, nil, nil, []string{"cache.maxEntryBytes: must not exceed cache.maxTotalBytes (1000000)"}},
		{"same ports", `{"http": {"uiPort": 7000, "mcpPort": 7000}}`, nil, nil, []string{"http.mcpPort: must differ from http.uiPort"}},
		{"env out of range", "", env{"GENUI_LLM_TEMPERATURE": "5"}, nil, []string{"llm.temperature: must be <= 2 (from GENUI_LLM_TEMPERATURE)"}},
		{"env not finite", "", env{"GENUI_LLM_TEMPERATURE": "NaN"}, nil, []string{`llm.temperature: must be a number, not "NaN" (from GENUI_LLM_TEMPERATURE)`}},
		{"env not a number", "", env{"GENUI_CACHE_MAX_ENTRIES": "lots"}, nil, []string{`cache.maxEntries: must be an integer, not "lots" (from GENUI_CACHE_MAX_ENTRIES)`}},
		{"env enum", "", env{"GENUI_UI_METADATA": "sometimes"}, nil, []string{`uiMetadata: must be always, auto or never, not "sometimes" (from GENUI_UI_METADATA)`}},
		{"env duration", "", env{"GENUI_GENERATION_BUDGET": "soon"}, nil, []string{"generation.budget: must be a duration such as 90s, 1m30s or 500ms, not \"soon\" (from GENUI_GENERATION_BUDGET)"}},
		{"flag enum", "", nil, []string{"--ui-metadata", "sometimes"}, []string{`--ui-metadata must be always, auto or never, not "sometimes"`}},
		{"flag provider", "", nil, []string{"--llm", "gpt"}, []string{`--llm: unknown LLM provider "gpt"`}},
		{"flag header", "", nil, []string{"--header", "novalue"}, []string{`--header: "novalue": want 'Key: Value'`}},
		{"flag port", "", nil, []string{"--port", "70000"}, []string{"--port must be <= 65535"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, tc.file, tc.env, tc.args...)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			var errs *Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error %T %v is not *config.Errors", err, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n  %v\nwant it to contain\n  %s", err, w)
				}
			}
			for _, e := range errs.List {
				if e.Path == "" && e.Source.Layer != LayerFile {
					t.Errorf("error %q names no path", e)
				}
			}
		})
	}
}

// TestConfigErrorsAllListed: a file with several problems reports them
// all, in path order, and names the file.
func TestConfigErrorsAllListed(t *testing.T) {
	p := writeConfig(t, `{"llm": {"provider": "offline", "temperature": 3}, "cache": {"maxEntries": -1}, "bogus": true, "dir": "${env:GENUI_TEST_UNSET}"}`)
	_, err := ValidateFile(p, env{}.lookup)
	var errs *Errors
	if !errors.As(err, &errs) {
		t.Fatalf("err = %v", err)
	}
	var paths []string
	for _, e := range errs.List {
		paths = append(paths, e.Path)
	}
	if got, want := strings.Join(paths, ","), "bogus,cache.maxEntries,dir,llm.temperature"; got != want {
		t.Errorf("paths %s, want %s\n%v", got, want, err)
	}
	if !strings.HasPrefix(err.Error(), p+": 4 errors:") {
		t.Errorf("error does not start with the file and the count: %v", err)
	}
}

// TestPrecedencePerLayer proves flags > GENUI_* environment > file >
// defaults for settings of every kind: each layer added on top wins and is
// named as the source.
func TestPrecedencePerLayer(t *testing.T) {
	type layer struct {
		file string   // JSON fragment for the file
		env  env      // variables
		args []string // flags
		want any      // expected value (JSON-equal)
	}
	for _, tc := range []struct {
		path               string
		def                any
		file, envL, flagsL layer
	}{
		{path: "dir", def: ".ui",
			file:   layer{file: `{"dir": "from-file"}`, want: "from-file"},
			envL:   layer{env: env{"GENUI_DIR": "from-env"}, want: "from-env"},
			flagsL: layer{args: []string{"--dir", "from-flag"}, want: "from-flag"}},
		{path: "llm.provider", def: "auto",
			file:   layer{file: `{"llm": "ollama"}`, want: "ollama"},
			envL:   layer{env: env{"GENUI_LLM": "openai"}, want: "openai"},
			flagsL: layer{args: []string{"--llm", "offline"}, want: "offline"}},
		{path: "llm.model", def: nil,
			file:   layer{file: `{"llm": {"model": "m-file"}}`, want: "m-file"},
			envL:   layer{env: env{"GENUI_MODEL": "m-env"}, want: "m-env"},
			flagsL: layer{args: []string{"--model", "m-flag"}, want: "m-flag"}},
		{path: "toolRefresh.interval", def: "0s",
			file:   layer{file: `{"toolRefresh": {"interval": "1m"}}`, want: "1m"},
			envL:   layer{env: env{"GENUI_TOOL_REFRESH_INTERVAL": "2m"}, want: "2m"},
			flagsL: layer{args: []string{"--refresh-interval", "3m"}, want: "3m0s"}},
		{path: "cache.persist", def: true,
			file:   layer{file: `{"cache": {"persist": false}}`, want: false},
			envL:   layer{env: env{"GENUI_CACHE_PERSIST": "true"}, want: true},
			flagsL: layer{args: []string{"--persist-cache=false"}, want: false}},
		{path: "http.mcpPort", def: 0,
			file:   layer{file: `{"http": {"mcpPort": 7001}}`, want: 7001},
			envL:   layer{env: env{"GENUI_HTTP_MCP_PORT": "07002"}, want: 7002},
			flagsL: layer{args: []string{"--mcp-port", "7003"}, want: 7003}},
		{path: "logging.level", def: "info",
			file:   layer{file: `{"logging": {"level": "warn"}}`, want: "warn"},
			envL:   layer{env: env{"GENUI_LOGGING_LEVEL": "error"}, want: "error"},
			flagsL: layer{args: []string{"--log-level", "debug"}, want: "debug"}},
		{path: "uiMetadata", def: "always",
			file:   layer{file: `{"uiMetadata": "auto"}`, want: "auto"},
			envL:   layer{env: env{"GENUI_UI_METADATA": "never"}, want: "never"},
			flagsL: layer{args: []string{"--ui-metadata", "always"}, want: "always"}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			check := func(step string, eff *Effective, err error, want any, layer Layer, name string) {
				t.Helper()
				if err != nil {
					t.Fatalf("%s: %v", step, err)
				}
				got, ok := getPath(eff.tree, tc.path)
				if want == nil {
					if ok {
						t.Errorf("%s: %s = %v, want unset", step, tc.path, got)
					}
					return
				}
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(want)
				if string(gb) != string(wb) {
					t.Errorf("%s: %s = %s, want %s", step, tc.path, gb, wb)
				}
				src := eff.Sources[tc.path]
				if src.Layer != layer || (name != "" && src.Name != name) {
					t.Errorf("%s: source of %s = %v, want %s %s", step, tc.path, src, layer, name)
				}
			}
			eff, err := load(t, "", nil)
			check("defaults", eff, err, tc.def, LayerDefault, "")

			eff, err = load(t, tc.file.file, nil)
			check("file over defaults", eff, err, tc.file.want, LayerFile, "")

			eff, err = load(t, tc.file.file, tc.envL.env)
			var envName string
			for k := range tc.envL.env {
				envName = k
			}
			check("env over file", eff, err, tc.envL.want, LayerEnv, envName)

			eff, err = load(t, tc.file.file, tc.envL.env, tc.flagsL.args...)
			check("flag over env", eff, err, tc.flagsL.want, LayerFlag, "")
		})
	}
}

// TestFlagLeftAtDefaultDoesNotWin: --persist-cache defaults to true, but
// only a flag the user set overrides the file.
func TestFlagLeftAtDefaultDoesNotWin(t *testing.T) {
	eff, err := load(t, `{"cache": {"persist": false}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if eff.Config.Cache.Persist {
		t.Error("cache.persist: the unset --persist-cache flag hid the file's false")
	}
}

// TestUpstreamSelection: the highest layer naming an upstream picks it; a
// command after -- replaces the file's URL and vice versa.
func TestUpstreamSelection(t *testing.T) {
	file := writeConfig(t, `{"upstream": {"url": "http://127.0.0.1:9/mcp", "transport": "sse", "headers": {"X-A": "1"}}}`)
	eff, err := Load(Input{File: file, LookupEnv: env{}.lookup, Command: []string{"node", "s.js"}})
	if err != nil {
		t.Fatal(err)
	}
	u := eff.Config.Upstream
	if u.Command != "node" || len(u.Args) != 1 || u.URL != "" || u.Transport != "" {
		t.Errorf("command after -- should replace the file's URL: %+v", u)
	}
	file = writeConfig(t, `{"upstream": {"command": ["node", "s.js"], "env": {"A": "1"}}}`)
	eff, err = Load(Input{File: file, LookupEnv: env{"GENUI_UPSTREAM_URL": "http://127.0.0.1:9/mcp"}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	u = eff.Config.Upstream
	if u.Command != "" || u.Env != nil || u.URL != "http://127.0.0.1:9/mcp" {
		t.Errorf("GENUI_UPSTREAM_URL should replace the file's command: %+v", u)
	}
	f := flagsFor(t, "--upstream-url", "http://127.0.0.1:9/mcp")
	_, err = Load(Input{File: filepath.Join(t.TempDir(), "none.json"), Flags: f.fs, Command: []string{"x"}})
	if err == nil || !strings.Contains(err.Error(), "config:") {
		// the explicit file is missing: that error comes first
		t.Logf("err = %v", err)
	}
	_, err = Load(Input{LookupEnv: env{}.lookup, Flags: f.fs, Command: []string{"x"}, File: writeConfig(t, `{}`)})
	if err == nil || !strings.Contains(err.Error(), "give either an upstream command after -- or --upstream-url, not both") {
		t.Errorf("command and URL from flags: err = %v", err)
	}
}

// TestEnvExpansion: ${env:VAR} expands in every string (map values, list
// items, nested), $${env:...} is a literal, and an unset VAR is an error
// naming the path.
func TestEnvExpansion(t *testing.T) {
	e := env{"GENUI_T_TOKEN": "tok123456789", "GENUI_T_DIR": "/tmp/x", "GENUI_T_EMPTY": "", "GENUI_T_ARG": "--port=1"}
	eff, err := load(t, `{
	  "dir": "${env:GENUI_T_DIR}/ui",
	  "upstream": {"command": "srv", "args": ["${env:GENUI_T_ARG}", "lit $${env:NOT_EXPANDED}"],
	               "env": {"TOKEN": "${env:GENUI_T_TOKEN}", "E": "[${env:GENUI_T_EMPTY}]"}}}`, e)
	if err != nil {
		t.Fatal(err)
	}
	c := eff.Config
	if c.Dir != "/tmp/x/ui" {
		t.Errorf("dir = %q", c.Dir)
	}
	if c.Upstream.Args[0] != "--port=1" || c.Upstream.Args[1] != "lit ${env:NOT_EXPANDED}" {
		t.Errorf("args = %q", c.Upstream.Args)
	}
	if c.Upstream.Env["TOKEN"] != "tok123456789" || c.Upstream.Env["E"] != "[]" {
		t.Errorf("env = %q", c.Upstream.Env)
	}
	if !eff.secret["upstream.env.TOKEN"] {
		t.Error("a value read from a *TOKEN variable is not marked secret")
	}
	for _, bad := range []struct{ in, want string }{
		{"${env:GENUI_T_MISSING}", "GENUI_T_MISSING is not set"},
		{"${env:}", `"" is not an environment variable name`},
		{"${env:GENUI_T_DIR", "unterminated ${env:"},
	} {
		_, _, err := Expand(bad.in, e.lookup)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Expand(%q) = %v, want %q", bad.in, err, bad.want)
		}
	}
}

// TestLegacyNamesKeepWorking: the forms the README documented before the
// schema (llm as a string, top-level model, promptsDir, command arrays,
// firstRead background) still load, to the canonical names.
func TestLegacyNamesKeepWorking(t *testing.T) {
	eff, err := load(t, `{"dir": ".ui", "uiMetadata": "always", "model": "m1", "llm": "ollama",
	  "upstream": {"command": ["node", "server.js"], "env": {"K": "V"}},
	  "generation": {"firstRead": "background", "budget": "90s", "waitBudget": "15s", "retries": 2, "maxConcurrent": 2, "promptsDir": "prompts/"}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := eff.Config
	if c.LLM.Provider != "ollama" || c.LLM.Model != "m1" || c.Generation.PromptsDirectory != "prompts/" ||
		c.Upstream.Command != "node" || c.Upstream.Args[0] != "server.js" || c.Generation.Budget.D() != 90*time.Second {
		t.Errorf("legacy forms: %+v", c)
	}
	if len(eff.Warnings) == 0 || !strings.Contains(strings.Join(eff.Warnings, "\n"), "llm.model") {
		t.Errorf("top-level model should warn: %q", eff.Warnings)
	}
	eff, err = load(t, `{"llm": {"provider": "anthropic", "model": "claude-sonnet-4-5", "baseUrl": "http://127.0.0.1:1", "maxTokens": 16000},
	 "generation": {"firstRead": "instant"}, "$schema": "./genui.schema.json"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if eff.Config.LLM.BaseURL != "http://127.0.0.1:1" || eff.Config.Generation.FirstRead != "instant" {
		t.Errorf("%+v", eff.Config)
	}
}

// TestAPIKeyInFileWarns: a literal apiKey loads but warns; one written as
// ${env:VAR} does not.
func TestAPIKeyInFileWarns(t *testing.T) {
	eff, err := load(t, `{"llm": {"provider": "anthropic", "apiKey": "sk-ant-literal-0123456789"}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(eff.Warnings, "\n"), "llm.apiKey") {
		t.Errorf("no warning about the key in the file: %q", eff.Warnings)
	}
	eff, err = load(t, `{"llm": {"provider": "anthropic", "apiKey": "${env:MY_API_KEY}"}}`, env{"MY_API_KEY": "sk-ant-fromenv-0123456789"})
	if err != nil {
		t.Fatal(err)
	}
	if len(eff.Warnings) != 0 {
		t.Errorf("warnings for a key from the environment: %q", eff.Warnings)
	}
}

// TestSettingsMatchSchema: the settings table and the schema describe the
// same leaves (the schema's legacy names excepted), and each GENUI_*
// variable name is unique.
func TestSettingsMatchSchema(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(Schema, &doc); err != nil {
		t.Fatal(err)
	}
	defs := doc["$defs"].(map[string]any)
	var leaves []string
	var walk func(prefix string, node map[string]any)
	walk = func(prefix string, node map[string]any) {
		if ref, ok := node["$ref"].(string); ok {
			node = defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		}
		if one, ok := node["oneOf"].([]any); ok {
			for _, alt := range one {
				if m := alt.(map[string]any); m["properties"] != nil {
					node = m
				}
			}
		}
		props, ok := node["properties"].(map[string]any)
		if !ok || node["type"] == "object" && node["additionalProperties"] != false {
			leaves = append(leaves, prefix)
			return
		}
		for k, v := range props {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			walk(p, v.(map[string]any))
		}
	}
	walk("", doc)
	legacy := map[string]bool{"$schema": true, "model": true, "generation.promptsDir": true}
	inSchema := map[string]bool{}
	for _, l := range leaves {
		inSchema[l] = true
		if _, ok := lookupSetting(l); !ok && !legacy[l] {
			t.Errorf("schema leaf %s has no setting", l)
		}
	}
	envs := map[string]string{}
	for _, s := range settings {
		if !inSchema[s.Path] {
			t.Errorf("setting %s is not in the schema", s.Path)
		}
		for _, e := range s.envNames() {
			if other, dup := envs[e]; dup {
				t.Errorf("%s sets both %s and %s", e, other, s.Path)
			}
			envs[e] = s.Path
		}
	}
}

func TestEnvName(t *testing.T) {
	for in, want := range map[string]string{
		"dir": "GENUI_DIR", "uiMetadata": "GENUI_UI_METADATA", "llm.baseUrl": "GENUI_LLM_BASE_URL",
		"toolRefresh.interval": "GENUI_TOOL_REFRESH_INTERVAL", "logging.maxSizeMB": "GENUI_LOGGING_MAX_SIZE_MB",
		"http.mcpPort": "GENUI_HTTP_MCP_PORT", "cache.maxEntryBytes": "GENUI_CACHE_MAX_ENTRY_BYTES",
	} {
		if got := EnvName(in); got != want {
			t.Errorf("EnvName(%s) = %s, want %s", in, got, want)
		}
	}
}

// history.redact: a default that hides secret-looking keys, its variable,
// and [] for none; a path must start from arguments. or result.
func TestHistoryRedact(t *testing.T) {
	eff, err := load(t, "", env{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(eff.Config.History.Redact, " "); got != "*token *secret* *password* *apikey* authorization" {
		t.Fatalf("default %q", got)
	}
	if eff, err = load(t, "", env{"GENUI_HISTORY_REDACT": "pin,arguments.account.id"}); err != nil ||
		strings.Join(eff.Config.History.Redact, " ") != "pin arguments.account.id" {
		t.Fatalf("variable: %v %v", eff.Config.History.Redact, err)
	}
	if eff, err = load(t, `{"history": {"redact": []}}`, env{}); err != nil || len(eff.Config.History.Redact) != 0 {
		t.Fatalf("none: %v %v", eff.Config.History.Redact, err)
	}
	if _, err = load(t, `{"history": {"redact": ["headers.x"]}}`, env{}); err == nil || !strings.Contains(err.Error(), "history.redact") {
		t.Fatalf("a path from elsewhere: %v", err)
	}
}
