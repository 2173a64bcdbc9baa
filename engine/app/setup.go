package app

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/engine/gctarget"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/history"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/install"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/pkg/browser"
)

// Setup is resolved configuration (package config, which only resolves
// settings) turned into what genui runs on: the LLM generator's settings
// (keys and base URLs from the provider's variables), the upstream's, the
// log, and the options of the engine and the App. It opens the log only
// when something is built (NewApp, EngineOptions, Logger), so commands
// that only look (preview reusing a running genui) write nothing.
type Setup struct {
	*config.Resolved
	// Gen configures the LLM generator (Provider offline: none).
	Gen gen.Config
	// Upstream configures the connection to the wrapped server.
	Upstream upstream.Config
	// Stderr also receives the logs when not nil (--debug sets it to
	// os.Stderr; a TUI owning the terminal clears it).
	Stderr io.Writer
	// Notices receives the configuration's warnings once, when the log
	// opens (default os.Stderr; never stdout).
	Notices io.Writer

	logOnce sync.Once
	logger  *slog.Logger
	closer  io.Closer
	logErr  error
	// startGC puts the GC's target back (startGCRaise); nil for a Setup
	// made without Configure.
	startGC func()
}

// startGCBound is the longest the GC's target stays raised for a start
// (when no App runs to end it sooner: a command that only looks, or an
// upstream whose tools never come).
const startGCBound = 30 * time.Second

// startGCRaise raises the GC's target (package gctarget) for a command's
// start, or takes over the raise BeginStart made: at GOGC 100 the runtime
// collected while genui configured itself and while the upstream booted
// beside it, on the CPU the upstream needs. App.Run puts it back a second
// after the upstream's tools are in, Close at the latest, a timer after
// startGCBound in any case.
func startGCRaise() func() {
	processStart.mu.Lock()
	restore := processStart.restore
	processStart.restore = nil
	processStart.mu.Unlock()
	if restore != nil {
		return restore
	}
	restore = gctarget.Raise()
	t := time.AfterFunc(startGCBound, restore)
	return func() {
		t.Stop()
		restore()
	}
}

// processStart holds the raise BeginStart made until a command's Configure
// takes it over.
var processStart struct {
	mu      sync.Mutex
	restore func()
}

// BeginStart raises the GC's target from the first line of main, before
// the commands are built (which collected once more at GOGC 100); the
// command's Configure takes the raise over, and a command that never
// configures (version, demo-server) has it put back after startGCBound.
func BeginStart() {
	processStart.mu.Lock()
	defer processStart.mu.Unlock()
	if processStart.restore != nil {
		return
	}
	restore := gctarget.Raise()
	t := time.AfterFunc(startGCBound, restore)
	processStart.restore = func() {
		t.Stop()
		restore()
	}
}

// Configure resolves a command's settings (config.Resolve: flags > GENUI_*
// environment > genui.json > defaults) and sets them up.
func Configure(f *config.Flags, args []string, dash int) (*Setup, error) {
	restore := startGCRaise()
	r, err := config.Resolve(f, args, dash)
	return configured(r, err, restore)
}

// ConfigureInput is Configure for a prepared config.Input.
func ConfigureInput(f *config.Flags, in config.Input) (*Setup, error) {
	restore := startGCRaise()
	r, err := config.ResolveInput(f, in)
	return configured(r, err, restore)
}

// configured sets resolved settings up; the start's raised GC target is
// put back at once when that fails, else by the Setup (startGCRaise).
func configured(r *config.Resolved, err error, restoreGC func()) (*Setup, error) {
	var s *Setup
	if err == nil {
		s, err = NewSetup(r)
	}
	if err != nil {
		restoreGC()
		return nil, err
	}
	s.startGC = restoreGC
	return s, nil
}

// NewSetup maps resolved settings onto the generator's and the upstream's.
func NewSetup(r *config.Resolved) (*Setup, error) {
	s := &Setup{Resolved: r, Notices: os.Stderr}
	if r.Debug {
		s.Stderr = os.Stderr
	}
	c := r.Config
	gc := gen.Config{Provider: c.LLM.Provider, Model: c.LLM.Model, BaseURL: c.LLM.BaseURL, APIKey: c.LLM.APIKey,
		MaxTokens: c.LLM.MaxTokens, Temperature: c.LLM.Temperature, Budget: c.Generation.Budget.D(),
		WaitBudget: c.Generation.WaitBudget.D(), Retries: c.Generation.Retries, MaxConcurrent: c.Generation.MaxConcurrent,
		PromptsDir: c.Generation.PromptsDirectory, FirstRead: c.Generation.FirstRead,
		Mode: c.Generation.Mode, HTMLTools: c.Generation.HTMLTools, NoEnvironment: !c.LLM.FromEnvironment}
	if gc.Retries == 0 {
		gc.Retries = -1 // none
	}
	if gc.FirstRead == "instant" {
		gc.FirstRead = gen.FirstReadBackground
	}
	getenv := func(k string) string { v, _ := r.LookupEnv(k); return v }
	var err error
	if s.Gen, err = gen.FromEnv(gc, getenv); err != nil {
		return nil, err
	}
	if r.Debug {
		s.Gen.DebugDir = filepath.Join(c.Dir, "debug")
	}
	s.Upstream = upstreamConfig(c.Upstream, c.Dir)
	if !c.Secrets.Empty() {
		s.Upstream.Redact = c.Secrets.Redact
	}
	return s, nil
}

// upstreamConfig maps the upstream section onto the upstream package.
// An http or sse upstream signs in with OAuth when it answers 401, unless
// a static Authorization header is configured; its tokens are kept under
// dir/auth.
func upstreamConfig(u config.Upstream, dir string) upstream.Config {
	up := upstream.Config{BackoffMin: u.Reconnect.Min.D(), BackoffMax: u.Reconnect.Max.D()}
	switch {
	case u.Command != "":
		up.Transport, up.Command, up.Args, up.Dir = upstream.TransportStdio, u.Command, u.Args, u.Cwd
		keys := make([]string, 0, len(u.Env))
		for k := range u.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			up.Env = append(up.Env, k+"="+u.Env[k])
		}
	case u.URL != "":
		up.Transport, up.URL, up.Headers = u.Transport, u.URL, u.Headers
		if up.Transport == "" {
			up.Transport = upstream.TransportHTTP
		}
		if !hasHeader(u.Headers, "Authorization") {
			up.OAuth = &upstream.OAuth{ClientID: u.OAuth.ClientID, ClientSecret: u.OAuth.ClientSecret, Scopes: u.OAuth.Scopes,
				RedirectPort: u.OAuth.RedirectPort, TokenFile: AuthFile(dir, u.URL), OpenBrowser: browser.OpenURL}
		}
	default:
		up.Transport, up.InProcess = upstream.TransportInProcess, demo.ServeStdio
	}
	return up
}

// hasHeader reports whether headers set name (case-insensitive).
func hasHeader(headers map[string]string, name string) bool {
	for k := range headers {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// AuthFile is where the OAuth client and tokens of the upstream at
// upstreamURL are kept: DIR/auth/HOST-HASH.json (mode 0600).
func AuthFile(dir, upstreamURL string) string {
	sum := sha256.Sum256([]byte(upstreamURL))
	host := "upstream"
	if u, err := url.Parse(upstreamURL); err == nil && u.Hostname() != "" {
		host = strings.Map(func(r rune) rune {
			if r == '.' || r == '-' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				return r
			}
			return '_'
		}, strings.ToLower(u.Hostname()))
	}
	return filepath.Join(dir, "auth", host+"-"+hex.EncodeToString(sum[:6])+".json")
}

// Logger opens the log (once) and returns the logger every part of genui
// derives its component logger from.
func (s *Setup) Logger() (*slog.Logger, error) {
	s.logOnce.Do(func() {
		s.logger, s.closer, s.logErr = config.NewLogger(s.Config, s.Debug, s.Stderr)
		if s.logErr != nil {
			return
		}
		s.Gen.Logger = s.logger // the generator adds component=gen
		for _, w := range s.Warnings {
			s.logger.Warn("config", "warning", w)
			if s.Notices != nil {
				fmt.Fprintln(s.Notices, "genui: warning:", w)
			}
		}
		s.logger.Info("genui starting", "version", engine.Version, "commit", engine.BuildCommit(),
			"config", s.File, "dir", s.Config.Dir, "upstream", DescribeUpstream(s.Upstream), "llm", s.Gen.Provider, "llmFrom", s.Gen.Source())
	})
	return s.logger, s.logErr
}

// Close closes the log (and puts the GC's target back, if the start had
// not yet).
func (s *Setup) Close() error {
	if s.startGC != nil {
		s.startGC()
	}
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// EngineOptions builds the engine's options (and the LLM generator).
func (s *Setup) EngineOptions() (engine.Options, error) {
	log, err := s.Logger()
	if err != nil {
		return engine.Options{}, err
	}
	var g gen.Generator
	if s.Gen.Provider != gen.ProviderOffline {
		gc := s.Gen
		gc.Pages.ReadableSources = s.Debug // --debug: this engine's pages inline the readable sources
		l, err := gen.New(gc)
		if err != nil {
			return engine.Options{}, err
		}
		log.Info("UI generation with an LLM", "provider", l.Name(), "model", l.Model(), "firstRead", l.FirstRead(), "mode", s.Gen.Mode, "htmlTools", s.Gen.HTMLTools,
			"budget", l.Budget(false).String(), "prompts", l.PromptVersion())
		g = l
	}
	c := s.Config
	return engine.Options{
		Upstream: s.Upstream, Dir: c.Dir, Generator: g, GeneratorSource: s.Gen.Source(), Logger: log, LogReplace: config.LogReplacer(c),
		PersistCache: c.Cache.Persist, CacheDir: c.Cache.Directory, NoCache: s.NoCache,
		CacheMaxEntries: c.Cache.MaxEntries, CacheMaxEntryBytes: c.Cache.MaxEntryBytes, CacheMaxTotalBytes: c.Cache.MaxTotalBytes,
		GenerationTimeout: c.Generation.Timeout.D(), MaxConcurrentGenerations: c.Generation.MaxConcurrent,
		DefaultTheme: c.Generation.DefaultTheme, EnabledTools: c.Generation.EnabledTools, DisabledTools: c.Generation.DisabledTools,
		RefreshInterval: c.ToolRefresh.Interval.D(), RefreshBackoffMax: c.ToolRefresh.Backoff.D(),
		ReadableAssets: s.Debug,
		Roots:          roots(c.Roots), AnswerTimeout: c.AnswerTimeout.D(),
		History: history.Options{Disabled: !c.History.Enabled, MaxEntries: c.History.MaxEntries, MaxBytes: c.History.MaxBytes,
			MaxValueBytes: c.History.MaxValueBytes, ExcludeArguments: c.History.ExcludeArguments, ExcludeResults: c.History.ExcludeResults,
			Redact: c.History.Redact},
		ChecksDir: c.Checks.Directory, CheckTimeout: c.Checks.Timeout.D(),
		Watch: engine.WatchOptions{Paths: c.Upstream.Watch.Paths, Ignore: c.Upstream.Watch.Ignore, Debounce: c.Upstream.Watch.Debounce.D(),
			Build: c.Upstream.Watch.Build, BuildTimeout: c.Upstream.Watch.BuildTimeout.D()},
	}, nil
}

// roots turns the configured roots into MCP roots: a file:// URI as
// given, a folder as its absolute file:// URI named after it. Unset (nil)
// stays nil: none.
func roots(list []string) []contract.Root {
	if list == nil {
		return nil
	}
	out := make([]contract.Root, 0, len(list))
	for _, r := range list {
		if strings.HasPrefix(r, "file://") {
			name := strings.TrimRight(r, "/")
			out = append(out, contract.Root{URI: r, Name: name[strings.LastIndexByte(name, '/')+1:]})
			continue
		}
		out = append(out, engine.RootOf(r))
	}
	return out
}

// ExportEngineOptions are EngineOptions for `genui export`, which writes
// finished pages: it waits for the LLM's (up to its budget).
func (s *Setup) ExportEngineOptions() (engine.Options, error) {
	s.Gen.FirstRead, s.Gen.WaitBudget = gen.FirstReadWait, max(s.Gen.Budget, gen.DefaultBudget)
	return s.EngineOptions()
}

// AppOptions builds the options of a running genui (engine, MCP host,
// side server on http.uiPort/http.mcpPort).
func (s *Setup) AppOptions() (Options, error) {
	eo, err := s.EngineOptions()
	if err != nil {
		return Options{}, err
	}
	c := s.Config
	return Options{Engine: eo, UIMetadata: c.UIMetadata, UIPort: c.HTTP.UIPort,
		APIPort: c.HTTP.MCPPort, AutoInstall: true, Notices: s.Notices,
		Host: host.Options{Capabilities: c.Upstream.Capabilities, AllowedOrigins: c.HTTP.AllowedOrigins, ToolsPageSize: c.MCP.ToolsPageSize,
			MaxSessions: c.MCP.Sessions.Max, SessionEvictIdle: c.MCP.Sessions.EvictIdle.D(),
			MaxListens: c.MCP.Listen.MaxStreams, MaxListenSubscriptions: c.MCP.Listen.MaxSubscriptions,
			ListenStallTimeout: c.MCP.Listen.StallTimeout.D()}}, nil
}

// NewApp builds the engine, its MCP host and the side server. A stdio
// upstream is started first of all, so it boots while genui opens its
// log, loads its cache, installs DIR's files and starts its listeners
// (the engine's first connection then takes it over); a command that does
// not start is left to the engine, which reports and retries it as usual.
func (s *Setup) NewApp() (*App, error) {
	started, _ := upstream.Start(s.Upstream)
	if started != nil {
		s.Upstream.Started = started
	}
	o, err := s.AppOptions()
	if err == nil {
		var a *App
		if a, err = New(o); err == nil {
			a.startGC = s.startGC
			return a, nil
		}
	}
	if started != nil {
		started.Stop()
	}
	return nil, err
}

// PreviewOptions describe `genui preview TOOL` in this configuration.
func (s *Setup) PreviewOptions(tool, args string, noOpen bool) PreviewOptions {
	return PreviewOptions{Dir: s.Config.Dir, Tool: tool, Args: args, NoOpen: noOpen,
		OwnUpstream: s.Sources["upstream.command"].Layer == config.LayerFlag}
}

// InstallOptions describe `genui install` in the effective configuration.
func InstallOptions(eff *config.Effective, project string, force bool) install.Options {
	return install.Options{Dir: eff.Config.Dir, ProjectDir: project, Force: force, Version: engine.Version}
}
