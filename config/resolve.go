package config

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/app"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/install"
	"github.com/genui-dev/genui/engine/upstream"
)

// Resolved is a configuration ready to run: the effective config plus the
// LLM generator's settings (keys and base URLs from the provider's
// variables) and the upstream's. It opens the log only when an engine is
// built (NewApp, EngineOptions), so commands that only look (config show,
// preview reusing a running genui) write nothing.
type Resolved struct {
	*Effective
	// NoCache and Debug are --no-cache and --debug.
	NoCache, Debug bool
	// Gen configures the LLM generator (Provider offline: none).
	Gen gen.Config
	// Upstream configures the connection to the wrapped server.
	Upstream upstream.Config
	// Stderr also receives the logs when not nil (--debug sets it to
	// os.Stderr; a TUI owning the terminal clears it).
	Stderr io.Writer
	// Notices receives the configuration's warnings once, when the engine
	// is built (default os.Stderr; never stdout).
	Notices io.Writer

	logOnce sync.Once
	logger  *slog.Logger
	closer  io.Closer
	logErr  error
}

// Resolve is what every engine-running command calls: flags (those the
// user set) > GENUI_* environment > the config file > defaults, validated;
// args and dash are the command's positional arguments and cobra's
// ArgsLenAtDash (only an upstream command after "--" is allowed).
func Resolve(f *Flags, args []string, dash int) (*Resolved, error) {
	command, err := SplitCommand(args, dash)
	if err != nil {
		return nil, err
	}
	return ResolveInput(f, Input{File: f.configFile(), Flags: f.flagSet(), Command: command})
}

// ResolveInput is Resolve for a prepared Input (tests set LookupEnv).
func ResolveInput(f *Flags, in Input) (*Resolved, error) {
	eff, err := Load(in)
	if err != nil {
		return nil, err
	}
	lookup := in.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	getenv := func(k string) string { v, _ := lookup(k); return v }
	r := &Resolved{Effective: eff, Notices: os.Stderr}
	if f != nil {
		r.NoCache, r.Debug = f.NoCache, f.Debug
	}
	if r.Debug {
		r.Stderr = os.Stderr
	}
	c := eff.Config
	gc := gen.Config{Provider: c.LLM.Provider, Model: c.LLM.Model, BaseURL: c.LLM.BaseURL, APIKey: c.LLM.APIKey,
		MaxTokens: c.LLM.MaxTokens, Temperature: c.LLM.Temperature, Budget: c.Generation.Budget.D(),
		WaitBudget: c.Generation.WaitBudget.D(), Retries: c.Generation.Retries, MaxConcurrent: c.Generation.MaxConcurrent,
		PromptsDir: c.Generation.PromptsDirectory, FirstRead: c.Generation.FirstRead}
	if gc.Retries == 0 {
		gc.Retries = -1 // none
	}
	if gc.FirstRead == "instant" {
		gc.FirstRead = gen.FirstReadBackground
	}
	if r.Gen, err = gen.FromEnv(gc, getenv); err != nil {
		return nil, err
	}
	if r.Debug {
		r.Gen.DebugDir = filepath.Join(c.Dir, "debug")
	}
	r.Upstream = upstreamConfig(c.Upstream)
	return r, nil
}

// LoadFlags is Load for commands that need only the effective config
// (install, config show): flags, environment and file, no command line.
func LoadFlags(f *Flags) (*Effective, error) {
	return Load(Input{File: f.configFile(), Flags: f.flagSet()})
}

func (f *Flags) configFile() string {
	if f == nil {
		return ""
	}
	return f.ConfigFile
}

// upstreamConfig maps the upstream section onto the upstream package.
func upstreamConfig(u Upstream) upstream.Config {
	up := upstream.Config{BackoffMin: u.Reconnect.Min.D(), BackoffMax: u.Reconnect.Max.D()}
	switch {
	case u.Command != "":
		up.Transport, up.Command, up.Args, up.Dir = upstream.TransportStdio, u.Command, u.Args, u.Cwd
		for _, k := range sortedKeys(u.Env) {
			up.Env = append(up.Env, k+"="+u.Env[k])
		}
	case u.URL != "":
		up.Transport, up.URL, up.Headers = u.Transport, u.URL, u.Headers
		if up.Transport == "" {
			up.Transport = upstream.TransportHTTP
		}
	default:
		up.Transport, up.InProcess = upstream.TransportInProcess, demo.ServeStdio
	}
	return up
}

// Logger opens the log (once) and returns the logger every part of genui
// derives its component logger from.
func (r *Resolved) Logger() (*slog.Logger, error) {
	r.logOnce.Do(func() {
		r.logger, r.closer, r.logErr = NewLogger(r.Config, r.Debug, r.Stderr)
		if r.logErr != nil {
			return
		}
		r.Gen.Logger = r.logger.With("component", ComponentGen)
		for _, w := range r.Warnings {
			r.logger.Warn("config", "warning", w)
			if r.Notices != nil {
				fmt.Fprintln(r.Notices, "genui: warning:", w)
			}
		}
		r.logger.Info("genui starting", "version", engine.Version, "commit", engine.BuildCommit(),
			"config", r.File, "dir", r.Config.Dir, "upstream", app.DescribeUpstream(r.Upstream), "llm", r.Gen.Provider)
	})
	return r.logger, r.logErr
}

// LogPath is where the logs go.
func (r *Resolved) LogPath() string { return LogFile(r.Config) }

// Close closes the log.
func (r *Resolved) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// EngineOptions builds the engine's options (and the LLM generator).
func (r *Resolved) EngineOptions() (engine.Options, error) {
	log, err := r.Logger()
	if err != nil {
		return engine.Options{}, err
	}
	var g gen.Generator
	if r.Gen.Provider != gen.ProviderOffline {
		l, err := gen.New(r.Gen)
		if err != nil {
			return engine.Options{}, err
		}
		log.Info("UI generation with an LLM", "provider", l.Name(), "model", l.Model(), "firstRead", l.FirstRead(),
			"budget", l.Budget(false).String(), "prompts", l.PromptVersion())
		g = l
	}
	c := r.Config
	return engine.Options{
		Upstream: r.Upstream, Dir: c.Dir, Generator: g, Logger: log,
		PersistCache: c.Cache.Persist, CacheDir: c.Cache.Directory, NoCache: r.NoCache,
		CacheMaxEntries: c.Cache.MaxEntries, CacheMaxEntryBytes: c.Cache.MaxEntryBytes, CacheMaxTotalBytes: c.Cache.MaxTotalBytes,
		GenerationTimeout: c.Generation.Timeout.D(), MaxConcurrentGenerations: c.Generation.MaxConcurrent,
		DefaultTheme: c.Generation.DefaultTheme, EnabledTools: c.Generation.EnabledTools, DisabledTools: c.Generation.DisabledTools,
		RefreshInterval: c.ToolRefresh.Interval.D(), RefreshBackoffMax: c.ToolRefresh.Backoff.D(),
		ReadableAssets: r.Debug,
		Roots:          roots(c.Roots), AnswerTimeout: c.AnswerTimeout.D(),
	}, nil
}

// roots turns the configured roots into MCP roots: a file:// URI as
// given, a folder as its absolute file:// URI named after it. Unset (nil)
// stays nil: the engine's default, the working directory.
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
func (r *Resolved) ExportEngineOptions() (engine.Options, error) {
	r.Gen.FirstRead, r.Gen.WaitBudget = gen.FirstReadWait, max(r.Gen.Budget, gen.DefaultBudget)
	return r.EngineOptions()
}

// AppOptions builds the options of a running genui (engine, MCP host,
// side server on http.uiPort/http.mcpPort).
func (r *Resolved) AppOptions() (app.Options, error) {
	eo, err := r.EngineOptions()
	if err != nil {
		return app.Options{}, err
	}
	return app.Options{Engine: eo, UIMetadata: r.Config.UIMetadata, UIPort: r.Config.HTTP.UIPort,
		APIPort: r.Config.HTTP.MCPPort, AutoInstall: true, Notices: r.Notices}, nil
}

// NewApp builds the engine, its MCP host and the side server. A stdio
// upstream is started first of all, so it boots while genui opens its
// log, loads its cache, installs DIR's files and starts its listeners
// (the engine's first connection then takes it over); a command that does
// not start is left to the engine, which reports and retries it as usual.
func (r *Resolved) NewApp() (*app.App, error) {
	started, _ := upstream.Start(r.Upstream)
	if started != nil {
		r.Upstream.Started = started
	}
	o, err := r.AppOptions()
	if err == nil {
		var a *app.App
		if a, err = app.New(o); err == nil {
			return a, nil
		}
	}
	if started != nil {
		started.Stop()
	}
	return nil, err
}

// PreviewOptions describe `genui preview TOOL` in this configuration.
func (r *Resolved) PreviewOptions(tool, args string, noOpen bool) app.PreviewOptions {
	return app.PreviewOptions{Dir: r.Config.Dir, Tool: tool, Args: args, NoOpen: noOpen,
		OwnUpstream: r.Sources["upstream.command"].Layer == LayerFlag}
}

// InstallOptions describe `genui install` in this configuration.
func (eff *Effective) InstallOptions(project string, force bool) install.Options {
	return install.Options{Dir: eff.Config.Dir, ProjectDir: project, Force: force, Version: engine.Version}
}

// sortedKeys is the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
