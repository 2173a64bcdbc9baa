package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/app"
	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/upstream"
)

// flags shared by the commands that run an engine.
type commonFlags struct {
	configFile        string
	dir               string
	llm               string
	model             string
	noCache           bool
	persistCache      bool
	debug             bool
	uiMetadata        string
	upstreamURL       string
	upstreamTransport string
	headers           []string
	upstreamCmd       []string // after --
	refreshInterval   time.Duration
}

func (f *commonFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.configFile, "config", "", "config file (default ./genui.json when present)")
	fl.StringVar(&f.dir, "dir", "", "folder genui keeps its files in (default .ui)")
	fl.StringVar(&f.llm, "llm", "", "UI generator: auto|anthropic|openai|ollama|google|openrouter|openai-compatible|sampling|offline (default auto: a provider whose API key is set, else offline)")
	fl.StringVar(&f.model, "model", "", "LLM model name")
	fl.BoolVar(&f.noCache, "no-cache", false, "do not read cached UIs")
	fl.BoolVar(&f.persistCache, "persist-cache", true, "keep generated UIs under DIR/cache across restarts")
	fl.BoolVar(&f.debug, "debug", false, "also log to stderr, at debug level; write each LLM prompt and answer (redacted) under DIR/debug")
	fl.StringVar(&f.uiMetadata, "ui-metadata", "", "add UI metadata to tools: always|auto|never (default always; auto = only for hosts that advertise MCP Apps)")
	fl.StringVar(&f.upstreamURL, "upstream-url", "", "wrap an MCP server at this URL (streamable HTTP; SSE with --upstream-transport sse)")
	fl.StringVar(&f.upstreamTransport, "upstream-transport", "", "http|sse (with --upstream-url)")
	fl.StringArrayVar(&f.headers, "header", nil, "HTTP header for the upstream, 'K: V' (repeatable)")
	fl.DurationVar(&f.refreshInterval, "refresh-interval", 0, "also re-fetch the upstream's tools this often (e.g. 5m; 0 = only on list_changed and _ui_refresh_tools)")
}

// fileConfig is genui.json.
type fileConfig struct {
	Dir        string     `json:"dir"`
	LLM        llmSetting `json:"llm"`
	Model      string     `json:"model"`
	UIMetadata string     `json:"uiMetadata"`
	Generation struct {
		FirstRead     string `json:"firstRead"`     // background (default) | wait
		Budget        string `json:"budget"`        // e.g. "90s"
		WaitBudget    string `json:"waitBudget"`    // e.g. "15s"
		Retries       *int   `json:"retries"`       // default 2
		MaxConcurrent int    `json:"maxConcurrent"` // default 2
		PromptsDir    string `json:"promptsDir"`
	} `json:"generation"`
	Upstream struct {
		Command   []string          `json:"command"`
		URL       string            `json:"url"`
		Transport string            `json:"transport"`
		Headers   map[string]string `json:"headers"`
		Env       map[string]string `json:"env"`
	} `json:"upstream"`
}

// llmSetting is genui.json's "llm": a provider name, or an object.
type llmSetting struct {
	Provider    string   `json:"provider"`
	Model       string   `json:"model"`
	BaseURL     string   `json:"baseUrl"`
	MaxTokens   int      `json:"maxTokens"`
	Temperature *float64 `json:"temperature"`
}

func (l *llmSetting) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &l.Provider); err == nil {
		return nil
	}
	type plain llmSetting
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	var p plain
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("llm: want a provider name or {provider, model, baseUrl, maxTokens, temperature}: %w", err)
	}
	*l = llmSetting(p)
	return nil
}

func loadConfig(path string, explicit bool) (*fileConfig, error) {
	var fc fileConfig
	b, err := os.ReadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, os.ErrNotExist) {
			return &fc, nil
		}
		return nil, fmt.Errorf("config: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return &fc, nil
}

// firstNonEmpty implements flags > environment > config file > default.
func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// resolved is everything needed to build an engine.
type resolved struct {
	dir        string
	llm        string
	model      string
	uiMetadata string
	noCache    bool
	persist    bool
	gen        gen.Config // the LLM generator (Provider offline: none)
	refresh    time.Duration
	upstream   upstream.Config
	logger     *slog.Logger
	logFile    *os.File
}

// resolve applies flags > environment > config file > defaults. args are
// the command's positional arguments and dash is the index of the first one
// after "--" (cobra's ArgsLenAtDash; -1 without "--").
func (f *commonFlags) resolve(args []string, dash int) (*resolved, error) {
	if n := dash; n >= 0 {
		if n > 0 {
			return nil, fmt.Errorf("unexpected arguments before --: %v", args[:n])
		}
		f.upstreamCmd = args[n:]
	} else if len(args) > 0 {
		return nil, fmt.Errorf("unexpected arguments %v (put the upstream command after --)", args)
	}
	cfgPath, explicit := f.configFile, true
	if cfgPath == "" {
		cfgPath, explicit = "genui.json", false
	}
	fc, err := loadConfig(cfgPath, explicit)
	if err != nil {
		return nil, err
	}
	r := &resolved{
		dir:        firstNonEmpty(f.dir, os.Getenv("GENUI_DIR"), fc.Dir, ".ui"),
		llm:        firstNonEmpty(f.llm, os.Getenv("GENUI_LLM"), fc.LLM.Provider, "auto"),
		model:      firstNonEmpty(f.model, os.Getenv("GENUI_MODEL"), fc.LLM.Model, fc.Model),
		uiMetadata: firstNonEmpty(f.uiMetadata, os.Getenv("GENUI_UI_METADATA"), fc.UIMetadata, host.UIMetaAlways),
		noCache:    f.noCache,
		persist:    f.persistCache,
		refresh:    f.refreshInterval,
	}
	switch r.uiMetadata {
	case host.UIMetaAlways, host.UIMetaAuto, host.UIMetaNever:
	default:
		return nil, fmt.Errorf("--ui-metadata must be always, auto or never, not %q", r.uiMetadata)
	}
	gc := gen.Config{Provider: r.llm, Model: r.model, BaseURL: fc.LLM.BaseURL, MaxTokens: fc.LLM.MaxTokens,
		Temperature: fc.LLM.Temperature, FirstRead: fc.Generation.FirstRead, MaxConcurrent: fc.Generation.MaxConcurrent,
		PromptsDir: fc.Generation.PromptsDir}
	if fc.Generation.Retries != nil {
		gc.Retries = *fc.Generation.Retries
		if gc.Retries == 0 {
			gc.Retries = -1 // none
		}
	}
	for _, d := range []struct {
		v   string
		dst *time.Duration
	}{{fc.Generation.Budget, &gc.Budget}, {fc.Generation.WaitBudget, &gc.WaitBudget}} {
		if d.v == "" {
			continue
		}
		if *d.dst, err = time.ParseDuration(d.v); err != nil || *d.dst <= 0 {
			return nil, fmt.Errorf("generation budget %q: want a duration such as 90s", d.v)
		}
	}
	if r.gen, err = gen.FromEnv(gc, os.Getenv); err != nil {
		return nil, err
	}
	if f.debug {
		r.gen.DebugDir = filepath.Join(r.dir, "debug")
	}

	up := upstream.Config{}
	headers := map[string]string{}
	for k, v := range fc.Upstream.Headers {
		headers[k] = v
	}
	for _, h := range f.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--header %q: want 'Key: Value'", h)
		}
		headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	url := firstNonEmpty(f.upstreamURL, fc.Upstream.URL)
	command := f.upstreamCmd
	if len(command) == 0 && url == "" {
		command = fc.Upstream.Command
	}
	switch {
	case len(command) > 0 && f.upstreamURL != "":
		return nil, errors.New("give either an upstream command after -- or --upstream-url, not both")
	case len(command) > 0:
		up.Transport, up.Command, up.Args = "stdio", command[0], command[1:]
		for k, v := range fc.Upstream.Env {
			up.Env = append(up.Env, k+"="+v)
		}
	case url != "":
		t := firstNonEmpty(f.upstreamTransport, fc.Upstream.Transport, "http")
		if t != "http" && t != "sse" {
			return nil, fmt.Errorf("--upstream-transport must be http or sse, not %q", t)
		}
		up.Transport, up.URL, up.Headers = t, url, headers
	default:
		up.Transport, up.InProcess = "inprocess", demo.ServeStdio
	}
	if err := os.MkdirAll(filepath.Join(r.dir, "log"), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", r.dir, err)
	}
	lf, err := os.OpenFile(filepath.Join(r.dir, "log", "genui.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open log: %w", err)
	}
	var w io.Writer = lf
	level := slog.LevelInfo
	if f.debug {
		w, level = io.MultiWriter(lf, os.Stderr), slog.LevelDebug
	}
	r.logFile = lf
	r.logger = slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
	r.gen.Logger = r.logger
	r.upstream = up
	return r, nil
}

func (r *resolved) close() {
	if r.logFile != nil {
		_ = r.logFile.Close()
	}
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "genui",
		Short:         "Give any MCP tool server interactive UIs (MCP Apps)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(os.Stderr) // help and usage never touch stdout (stdio MCP)
	root.AddCommand(newMCPCmd(), newServeCmd(), newDemoServerCmd(), newVersionCmd(), newPreviewCmd(), newExportCmd(), newInstallCmd(), newTUICmd())
	return root
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print genui's version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(os.Stdout, "genui v%s\n", engine.Version)
		},
	}
}

func newDemoServerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo-server",
		Short: "Run the built-in demo upstream as a plain stdio MCP server (no UI metadata)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return demo.ServeStdio(ctx, os.Stdin, os.Stdout)
		},
	}
}

// engineOptions maps resolved configuration onto the engine's options.
func (r *resolved) engineOptions() (engine.Options, error) {
	g, err := r.generator()
	if err != nil {
		return engine.Options{}, err
	}
	return engine.Options{Upstream: r.upstream, Dir: r.dir, PersistCache: r.persist,
		NoCache: r.noCache, RefreshInterval: r.refresh, Logger: r.logger, Generator: g,
		MaxConcurrentGenerations: r.gen.MaxConcurrent}, nil
}

// generator builds the LLM generator, or nil for the offline one.
func (r *resolved) generator() (gen.Generator, error) {
	if r.gen.Provider == gen.ProviderOffline {
		return nil, nil
	}
	l, err := gen.New(r.gen)
	if err != nil {
		return nil, err
	}
	r.logger.Info("UI generation with an LLM", "provider", l.Name(), "model", l.Model(), "firstRead", l.FirstRead(),
		"budget", l.Budget(false).String(), "prompts", l.PromptVersion())
	return l, nil
}

// newApp builds the engine, its MCP host and the side server.
func (r *resolved) newApp(uiPort, apiPort int) (*app.App, error) {
	eo, err := r.engineOptions()
	if err != nil {
		return nil, err
	}
	return app.New(app.Options{Engine: eo, UIMetadata: r.uiMetadata,
		UIPort: uiPort, APIPort: apiPort, AutoInstall: true})
}

// signalContext ends on SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func newMCPCmd() *cobra.Command {
	var f commonFlags
	cmd := &cobra.Command{
		Use:   "mcp [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Serve genui as a stdio MCP server (for Claude Code and other hosts)",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := f.resolve(args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer r.close()
			a, err := r.newApp(0, 0)
			if err != nil {
				return err
			}
			ctx, stop := signalContext()
			defer stop()
			// stdin closing means the host is gone: shut everything down.
			return a.Run(ctx, a.ServeStdio(os.Stdin, os.Stdout))
		},
	}
	f.register(cmd)
	return cmd
}

func newServeCmd() *cobra.Command {
	var f commonFlags
	var port, mcpPort int
	cmd := &cobra.Command{
		Use:   "serve [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Serve genui over HTTP (streamable HTTP at /mcp, legacy SSE at /sse + /message)",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := f.resolve(args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer r.close()
			a, err := r.newApp(port, mcpPort)
			if err != nil {
				return err
			}
			ctx, stop := signalContext()
			defer stop()
			return a.Run(ctx, nil, a.ServeBanner(os.Stderr, filepath.Join(r.dir, "log", "genui.log")))
		},
	}
	f.register(cmd)
	cmd.Flags().IntVar(&port, "port", 0, "UI origin port (0 = random)")
	cmd.Flags().IntVar(&mcpPort, "mcp-port", 0, "MCP/API port (0 = random)")
	return cmd
}
