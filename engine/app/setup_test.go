package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/spf13/pflag"
)

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

// TestSetupWiresSettings: every section of genui.json reaches the part
// it configures (gen.Config, upstream.Config, engine.Options,
// app.Options).
func TestSetupWiresSettings(t *testing.T) {
	dir := t.TempDir()
	file := writeConfig(t, `{
	  "dir": "`+filepath.ToSlash(dir)+`", "uiMetadata": "auto",
	  "upstream": {"command": "srv", "args": ["-x"], "env": {"B": "2", "A": "1"}, "cwd": "/srv",
	               "reconnect": {"min": "2s", "max": "20s"}},
	  "llm": {"provider": "openai-compatible", "model": "m", "baseUrl": "http://127.0.0.1:1/v1", "maxTokens": 1000, "temperature": 0.5},
	  "cache": {"persist": false, "directory": "/c", "maxEntries": 7, "maxEntryBytes": 2048, "maxTotalBytes": 4096},
	  "generation": {"firstRead": "instant", "budget": "80s", "waitBudget": "9s", "timeout": "1m", "retries": 0,
	                 "maxConcurrent": 3, "promptsDirectory": "p/", "defaultTheme": "dark",
	                 "enabledTools": ["a*"], "disabledTools": ["ab"], "mode": "spec", "htmlTools": ["draw_*"]},
	  "logging": {"level": "warn", "format": "text", "file": "`+filepath.ToSlash(filepath.Join(dir, "x.log"))+`", "maxSizeMB": 2, "maxBackups": 1},
	  "toolRefresh": {"interval": "5m", "backoff": "30m"},
	  "http": {"uiPort": 7101, "mcpPort": 7102}}`)
	r, err := ConfigureInput(nil, config.Input{File: file, LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := r.Gen
	if g.Provider != "openai-compatible" || g.Model != "m" || g.BaseURL != "http://127.0.0.1:1/v1" || g.MaxTokens != 1000 ||
		*g.Temperature != 0.5 || g.Budget != 80*time.Second || g.WaitBudget != 9*time.Second || g.Retries != -1 ||
		g.MaxConcurrent != 3 || g.PromptsDir != "p/" || g.FirstRead != gen.FirstReadBackground || g.Mode != gen.ModeSpec ||
		!slices.Equal(g.HTMLTools, []string{"draw_*"}) {
		t.Errorf("gen.Config %+v", g)
	}
	u := r.Upstream
	if u.Transport != "stdio" || u.Command != "srv" || !slices.Equal(u.Args, []string{"-x"}) || u.Dir != "/srv" ||
		!slices.Equal(u.Env, []string{"A=1", "B=2"}) || u.BackoffMin != 2*time.Second || u.BackoffMax != 20*time.Second {
		t.Errorf("upstream.Config %+v", u)
	}
	ao, err := r.AppOptions()
	if err != nil {
		t.Fatal(err)
	}
	eo := ao.Engine
	if ao.UIMetadata != "auto" || ao.UIPort != 7101 || ao.APIPort != 7102 || eo.Dir != dir || eo.PersistCache ||
		eo.CacheDir != "/c" || eo.CacheMaxEntries != 7 || eo.CacheMaxEntryBytes != 2048 || eo.CacheMaxTotalBytes != 4096 ||
		eo.GenerationTimeout != time.Minute || eo.MaxConcurrentGenerations != 3 || eo.DefaultTheme != "dark" ||
		!slices.Equal(eo.EnabledTools, []string{"a*"}) || !slices.Equal(eo.DisabledTools, []string{"ab"}) ||
		eo.RefreshInterval != 5*time.Minute || eo.RefreshBackoffMax != 30*time.Minute || eo.Generator == nil ||
		eo.ReadableAssets {
		t.Errorf("app.Options %+v / engine.Options %+v", ao, eo)
	}
	eo.Logger.Warn("logged", "component", "test")
	_ = r.Close()
	b, err := os.ReadFile(filepath.Join(dir, "x.log"))
	if err != nil || !strings.Contains(string(b), "level=WARN") || !strings.Contains(string(b), "msg=logged") {
		t.Errorf("logging.file/format: %v %q", err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "log")); err == nil {
		t.Error("DIR/log was created although logging.file points elsewhere")
	}
}

// TestGenerationModeSettings: the spec mode is the default with nothing
// set; GENUI_GENERATION_MODE and the file choose the html mode; anything
// else is an error that names the setting.
func TestGenerationModeSettings(t *testing.T) {
	for _, tc := range []struct {
		file string
		env  env
		want string
	}{
		{`{"llm": "ollama"}`, env{}, gen.ModeSpec},
		{`{"llm": "ollama", "generation": {"mode": "html"}}`, env{}, gen.ModeHTML},
		{`{"llm": "ollama"}`, env{"GENUI_GENERATION_MODE": "html"}, gen.ModeHTML},
		{`{"llm": "ollama", "generation": {"mode": "html"}}`, env{"GENUI_GENERATION_MODE": "spec"}, gen.ModeSpec},
	} {
		r, err := ConfigureInput(nil, config.Input{File: writeConfig(t, tc.file), LookupEnv: tc.env.lookup})
		if err != nil {
			t.Fatal(err)
		}
		if r.Gen.Mode != tc.want {
			t.Errorf("%s %v: mode %q, want %q", tc.file, tc.env, r.Gen.Mode, tc.want)
		}
		l, err := gen.New(r.Gen)
		if err != nil || l.Mode("any_tool") != tc.want {
			t.Errorf("%s %v: the generator's mode is not %q (%v)", tc.file, tc.env, tc.want, err)
		}
	}
	_, err := ConfigureInput(nil, config.Input{File: writeConfig(t, `{"generation": {"mode": "page"}}`), LookupEnv: env{}.lookup})
	if err == nil || !strings.Contains(err.Error(), "generation.mode") {
		t.Errorf("mode page: %v", err)
	}
}

// TestDebugInlinesReadableSources: --debug makes generated pages carry the
// readable JavaScript and CSS instead of the minified build.
func TestDebugInlinesReadableSources(t *testing.T) {
	r, err := ConfigureInput(&config.Flags{Debug: true}, config.Input{File: writeConfig(t, `{"dir": "`+filepath.ToSlash(t.TempDir())+`"}`), LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	r.Stderr = nil // keep the test's output clean
	defer r.Close()
	eo, err := r.EngineOptions()
	if err != nil {
		t.Fatal(err)
	}
	if !eo.ReadableAssets {
		t.Error("--debug: engine.Options.ReadableAssets is false")
	}
}

// TestSetupDoesNotTouchDiskUntilBuilt: resolving (config show, preview
// reusing a running genui) creates nothing; the log opens when an engine is
// built.
func TestSetupDoesNotTouchDiskUntilBuilt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ui")
	r, err := ConfigureInput(nil, config.Input{File: writeConfig(t, `{"dir": "`+filepath.ToSlash(dir)+`"}`), LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("Configure created DIR")
	}
	if _, err := r.Logger(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := os.Stat(filepath.Join(dir, "log", "genui.log")); err != nil {
		t.Errorf("the log was not opened: %v", err)
	}
}

// TestHostSettingsReachTheHost: the MCP server's limits (mcp.*) and the
// allowed origins (http.allowedOrigins, --allowed-origins,
// GENUI_HTTP_ALLOWED_ORIGINS) reach host.Options, with defaults large
// enough for ordinary use.
func TestHostSettingsReachTheHost(t *testing.T) {
	r, err := ConfigureInput(nil, config.Input{File: writeConfig(t, `{"dir": "`+t.TempDir()+`"}`), LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	ao, err := r.AppOptions()
	if err != nil {
		t.Fatal(err)
	}
	h := ao.Host
	if h.ToolsPageSize != 1000 || h.MaxSessions != 1000 || h.SessionEvictIdle != 5*time.Minute ||
		h.MaxListens != 256 || h.MaxListenSubscriptions != 1000 || h.ListenStallTimeout != 10*time.Second || len(h.AllowedOrigins) != 0 {
		t.Errorf("defaults: %+v", h)
	}
	_ = r.Close()

	f := &config.Flags{}
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.Register(fs)
	f.RegisterPorts(fs)
	if err := fs.Parse([]string{"--allowed-origins", "vscode-webview://*", "--allowed-origins", "app://shell,null"}); err != nil {
		t.Fatal(err)
	}
	in := f.Input(nil)
	in.File = writeConfig(t, `{"dir": "`+t.TempDir()+`",
	  "http": {"allowedOrigins": ["http://devbox.lan:3000"]},
	  "mcp": {"toolsPageSize": 50, "sessions": {"max": 7, "evictIdle": "90s"},
	          "listen": {"maxStreams": 3, "maxSubscriptions": 4, "stallTimeout": "2s"}}}`)
	in.LookupEnv = env{"GENUI_MCP_SESSIONS_MAX": "9"}.lookup
	r, err = ConfigureInput(f, in)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ao, err = r.AppOptions()
	if err != nil {
		t.Fatal(err)
	}
	h = ao.Host
	if h.ToolsPageSize != 50 || h.MaxSessions != 9 || h.SessionEvictIdle != 90*time.Second ||
		h.MaxListens != 3 || h.MaxListenSubscriptions != 4 || h.ListenStallTimeout != 2*time.Second {
		t.Errorf("set: %+v", h)
	}
	if want := []string{"vscode-webview://*", "app://shell", "null"}; !slices.Equal(h.AllowedOrigins, want) {
		t.Errorf("allowed origins %q, want the flag's %q", h.AllowedOrigins, want)
	}
	if src := r.Sources["http.allowedOrigins"]; src.Layer != config.LayerFlag || src.Name != "--allowed-origins" {
		t.Errorf("source of http.allowedOrigins: %v", src)
	}
}
