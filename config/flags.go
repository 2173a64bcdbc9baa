package config

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/pflag"
)

// Flags are the command-line flags every engine-running command shares.
// Register them on a command's flag set; Resolve then reads the ones the
// user set (a flag left at its default never hides the environment or the
// file).
type Flags struct {
	// ConfigFile is --config.
	ConfigFile string
	// NoCache (--no-cache) serves no cached UI generated before this run.
	NoCache bool
	// Debug (--debug) logs at debug level, also to stderr (the TUI's
	// launcher turns stderr off), serves UIs with readable sources, and
	// writes LLM prompts and answers (redacted) under DIR/debug.
	Debug bool

	fs *pflag.FlagSet
	// Flag targets; Load reads the values through fs so that only flags
	// the user set count.
	dir, llm, model, uiMetadata, upstreamURL, upstreamTransport string
	capabilities                                                string
	logLevel, logFormat                                         string
	headers, allowedOrigins, watch                              []string
	persist                                                     bool
	refresh                                                     time.Duration
	uiPort, mcpPort                                             int
}

// Register adds the common flags (config, dir, llm, model, cache, debug,
// UI metadata, upstream, logging, refresh) to fs.
func (f *Flags) Register(fs *pflag.FlagSet) {
	f.RegisterDir(fs)
	fs.StringVar(&f.llm, "llm", "", "UI generator: auto|anthropic|openai|ollama|google|openrouter|openai-compatible|sampling|offline (default auto: a provider whose API key is set, else offline)")
	fs.StringVar(&f.model, "model", "", "LLM model name")
	fs.BoolVar(&f.NoCache, "no-cache", false, "do not read cached UIs")
	fs.BoolVar(&f.persist, "persist-cache", true, "keep generated UIs under DIR/cache across restarts (cache.persist)")
	fs.BoolVar(&f.Debug, "debug", false, "log at debug level, also to stderr (not in the TUI, which owns the screen); serve UIs with readable, unminified, unpacked code; write each LLM prompt and answer (redacted) under DIR/debug")
	fs.StringVar(&f.uiMetadata, "ui-metadata", "", "add UI metadata to tools: always|auto|never (default always; auto = only for hosts that advertise MCP Apps)")
	fs.StringVar(&f.upstreamURL, "upstream-url", "", "wrap an MCP server at this URL (streamable HTTP; SSE with --upstream-transport sse)")
	fs.StringVar(&f.upstreamTransport, "upstream-transport", "", "http|sse (with --upstream-url)")
	fs.StringArrayVar(&f.headers, "header", nil, "HTTP header for the upstream, 'K: V' (repeatable)")
	fs.StringArrayVar(&f.watch, "watch", nil, "restart the stdio upstream when these files change: a file, a folder or a glob such as 'src/**/*.ts' (repeatable; upstream.watch in genui.json adds ignore, debounce and a build command)")
	fs.DurationVar(&f.refresh, "refresh-interval", 0, "also re-fetch the upstream's tools this often (e.g. 5m; 0 = only on list_changed and _ui_refresh_tools)")
	fs.StringVar(&f.logLevel, "log-level", "", "debug|info|warn|error (default info)")
	fs.StringVar(&f.logFormat, "log-format", "", "json|text (default json)")
	fs.StringSliceVar(&f.allowedOrigins, "allowed-origins", nil, "browser origins served besides loopback pages, e.g. vscode-webview://* or app://shell (repeatable or comma-separated; http.allowedOrigins)")
}

// serverOnlyFlags mean something only to a genui that serves hosts and
// runs on (mcp, serve, tui, preview): not to one that writes pages and
// exits (export) or replays calls (check).
var serverOnlyFlags = []string{"watch", "refresh-interval", "allowed-origins", "ui-metadata"}

// generationFlags choose and cache the UI generator: nothing to `genui
// check`, which calls tools and makes no UI.
var generationFlags = []string{"llm", "model", "no-cache", "persist-cache"}

// RegisterExport adds the common flags that mean something to `genui
// export` (no server: no watch, refresh, origins or UI metadata).
func (f *Flags) RegisterExport(fs *pflag.FlagSet) { f.registerExcept(fs, serverOnlyFlags) }

// RegisterCheck adds the common flags that mean something to `genui
// check` (the upstream, the logs, config and dir: it makes no UI).
func (f *Flags) RegisterCheck(fs *pflag.FlagSet) {
	f.registerExcept(fs, append(slices.Clone(serverOnlyFlags), generationFlags...))
}

// registerExcept is Register without the flags named in skip, so a
// command's help lists only what it uses (a flag added to Register shows
// everywhere unless skipped here).
func (f *Flags) registerExcept(fs *pflag.FlagSet, skip []string) {
	all := pflag.NewFlagSet("", pflag.ContinueOnError)
	f.Register(all)
	all.VisitAll(func(fl *pflag.Flag) {
		if !slices.Contains(skip, fl.Name) {
			fs.AddFlag(fl)
		}
	})
	f.fs = fs
}

// RegisterDir adds only --config and --dir (genui install, genui config).
func (f *Flags) RegisterDir(fs *pflag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.ConfigFile, "config", "", "config file (default ./genui.json when present)")
	fs.StringVar(&f.dir, "dir", "", "folder genui keeps its files in (default .ui)")
}

// RegisterPorts adds --port and --mcp-port (serve, tui).
func (f *Flags) RegisterPorts(fs *pflag.FlagSet) {
	fs.IntVar(&f.uiPort, "port", 0, "UI origin port (0 = random; http.uiPort)")
	fs.IntVar(&f.mcpPort, "mcp-port", 0, "MCP/API port (0 = random; http.mcpPort)")
}

// RegisterCapabilities adds --capabilities (mcp, serve, tui: the commands
// that serve MCP hosts or answer the upstream's requests themselves).
func (f *Flags) RegisterCapabilities(fs *pflag.FlagSet, def string) {
	fs.StringVar(&f.capabilities, "capabilities", "", "whose client capabilities the upstream is told of: host (the MCP host's, so the server behaves as behind it directly) or workbench (sampling and elicitation answered in genui's TUI and preview) (default "+def+"; upstream.capabilities)")
}

// flagSet is the registered flag set (nil before Register).
func (f *Flags) flagSet() *pflag.FlagSet {
	if f == nil {
		return nil
	}
	return f.fs
}

// SplitCommand checks a command's positional arguments: only an upstream
// command line after "--" is allowed. dash is cobra's ArgsLenAtDash (-1
// without "--").
func SplitCommand(args []string, dash int) ([]string, error) {
	switch {
	case dash > 0:
		return nil, fmt.Errorf("unexpected arguments before --: %v", args[:dash])
	case dash == 0:
		return args, nil
	case len(args) > 0:
		return nil, fmt.Errorf("unexpected arguments %v (put the upstream command after --)", args)
	}
	return nil, nil
}

// SplitTool is SplitCommand for commands that take one TOOL argument
// before "--" (genui preview TOOL [-- UPSTREAM...]).
func SplitTool(args []string, dash int) (tool string, command []string, err error) {
	if dash == 0 || (dash < 0 && len(args) == 0) {
		return "", nil, errors.New("preview needs a TOOL name")
	}
	if dash > 1 || (dash < 0 && len(args) > 1) {
		end := len(args)
		if dash > 0 {
			end = dash
		}
		return "", nil, fmt.Errorf("unexpected arguments %v (put the upstream command after --)", args[1:end])
	}
	if dash == 1 {
		command = args[1:]
	}
	return args[0], command, nil
}

// Input is what Load reads for these flags and an upstream command line.
func (f *Flags) Input(command []string) Input {
	return Input{File: f.configFile(), Flags: f.flagSet(), Command: command}
}

// FileArg picks the file `genui config validate` checks: the argument,
// else --config, else DefaultFile.
func FileArg(args []string, flag string) string {
	switch {
	case len(args) > 0:
		return args[0]
	case flag != "":
		return flag
	}
	return DefaultFile
}
