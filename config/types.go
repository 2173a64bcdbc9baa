package config

import (
	"encoding/json"
	"fmt"
	"time"
)

// Config is the effective configuration, every layer merged and validated.
// Its JSON form is genui.json's canonical form.
type Config struct {
	Dir         string      `json:"dir"`
	UIMetadata  string      `json:"uiMetadata"`
	Upstream    Upstream    `json:"upstream"`
	LLM         LLM         `json:"llm"`
	Cache       Cache       `json:"cache"`
	Generation  Generation  `json:"generation"`
	Logging     Logging     `json:"logging"`
	ToolRefresh ToolRefresh `json:"toolRefresh"`
	HTTP        HTTP        `json:"http"`
	MCP         MCP         `json:"mcp"`
	// Roots answer the upstream's roots/list when no host does: folders
	// (relative to the working directory) or file:// URIs. Unset or []:
	// none (genui declares the roots capability only when it has some, or
	// when its host does).
	Roots []string `json:"roots,omitempty"`
	// AnswerTimeout bounds how long the upstream's elicitation and sampling
	// requests wait for an answer from genui's own surfaces.
	AnswerTimeout Duration `json:"answerTimeout"`
	History       History  `json:"history"`
	Checks        Checks   `json:"checks"`
	// Secrets hides what the configuration must never print (values of
	// ${env:VAR} and of secret keys) in anything genui prints about the
	// upstream: its Redact is the one function every such surface uses.
	Secrets *Secrets `json:"-"`
}

// Upstream is the wrapped MCP server: Command (stdio) or URL (http/sse);
// neither means the built-in demo.
type Upstream struct {
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	URL       string            `json:"url,omitempty"`
	Transport string            `json:"transport,omitempty"`
	// Capabilities is whose client capabilities the upstream is told of:
	// "host" (its host's, the default of genui mcp) or "workbench" (what
	// genui's own TUI and preview answer, the default of serve and tui).
	Capabilities string            `json:"capabilities,omitempty"`
	Headers      map[string]string `json:"headers,omitempty"`
	Reconnect    Reconnect         `json:"reconnect"`
	Watch        Watch             `json:"watch"`
	OAuth        OAuth             `json:"oauth"`
}

// OAuth is the sign-in to an http or sse upstream that answers 401.
type OAuth struct {
	// ClientID and ClientSecret of a client registered beforehand (none:
	// dynamic client registration).
	ClientID     string   `json:"clientId,omitempty"`
	ClientSecret string   `json:"clientSecret,omitempty"`
	Scopes       []string `json:"scopes,omitempty"`
	// RedirectPort is the loopback redirect's port (0: a free one in 20000-32767, reused for later sign-ins).
	RedirectPort int `json:"redirectPort"`
}

// Watch restarts a stdio upstream when its files change (--watch).
type Watch struct {
	// Paths are files, folders or globs; none: no watch.
	Paths  []string `json:"paths,omitempty"`
	Ignore []string `json:"ignore,omitempty"`
	// Debounce is the quiet time before a restart.
	Debounce Duration `json:"debounce"`
	// Build runs (through the shell) before each restart; a failing build
	// keeps the old upstream. BuildTimeout bounds it.
	Build        string   `json:"build,omitempty"`
	BuildTimeout Duration `json:"buildTimeout"`
}

// History is the call history under DIR/history.
type History struct {
	Enabled          bool     `json:"enabled"`
	MaxEntries       int      `json:"maxEntries"`
	MaxBytes         int64    `json:"maxBytes"`
	MaxValueBytes    int      `json:"maxValueBytes"`
	ExcludeArguments []string `json:"excludeArguments,omitempty"`
	ExcludeResults   []string `json:"excludeResults,omitempty"`
	// Redact hides values before a call is written: key names matched at
	// any depth of arguments and results, or paths from "arguments." or
	// "result." (globs, case-insensitive, '_' and '-' ignored).
	Redact []string `json:"redact"`
}

// Checks are pinned calls, replayed by genui check.
type Checks struct {
	Directory string   `json:"directory"`
	Timeout   Duration `json:"timeout"`
}

// Reconnect bounds the restart/reconnect delay (doubling from Min to Max).
type Reconnect struct {
	Min Duration `json:"min"`
	Max Duration `json:"max"`
}

// LLM is the UI generator.
type LLM struct {
	Provider    string   `json:"provider"`
	Model       string   `json:"model,omitempty"`
	BaseURL     string   `json:"baseUrl,omitempty"`
	MaxTokens   int      `json:"maxTokens"`
	Temperature *float64 `json:"temperature,omitempty"`
	APIKey      string   `json:"apiKey,omitempty"`
	// FromEnvironment lets genui take a provider's API key and base URL
	// from the provider's own variables (ANTHROPIC_API_KEY, ...), which
	// other tools (Claude Code) set too; false: only what genui is given.
	FromEnvironment bool `json:"fromEnvironment"`
}

// Cache is the UI cache.
type Cache struct {
	Persist       bool   `json:"persist"`
	Directory     string `json:"directory,omitempty"`
	MaxEntries    int    `json:"maxEntries"`
	MaxEntryBytes int64  `json:"maxEntryBytes"`
	MaxTotalBytes int64  `json:"maxTotalBytes"`
}

// Generation is how and when UIs are generated.
type Generation struct {
	// Mode is what an LLM writes: "spec" (a view specification the
	// trusted renderers draw) or "html" (a whole page with its own script).
	Mode string `json:"mode"`
	// HTMLTools are tools (names or globs) that get the html mode whatever
	// Mode says.
	HTMLTools        []string `json:"htmlTools,omitempty"`
	FirstRead        string   `json:"firstRead"`
	Budget           Duration `json:"budget"`
	WaitBudget       Duration `json:"waitBudget"`
	Timeout          Duration `json:"timeout"`
	Retries          int      `json:"retries"`
	MaxConcurrent    int      `json:"maxConcurrent"`
	PromptsDirectory string   `json:"promptsDirectory,omitempty"`
	DefaultTheme     string   `json:"defaultTheme"`
	EnabledTools     []string `json:"enabledTools,omitempty"`
	DisabledTools    []string `json:"disabledTools,omitempty"`
}

// Logging is where logs go and what they keep back.
type Logging struct {
	Level      string   `json:"level"`
	Format     string   `json:"format"`
	File       string   `json:"file,omitempty"`
	MaxSizeMB  int      `json:"maxSizeMB"`
	MaxBackups int      `json:"maxBackups"`
	Redact     []string `json:"redact,omitempty"`
}

// ToolRefresh re-fetches the upstream's tools periodically.
type ToolRefresh struct {
	Interval Duration `json:"interval"`
	// Backoff is the longest wait after failures (0 = 8 intervals).
	Backoff Duration `json:"backoff,omitempty"`
}

// HTTP is the side server's ports (the host is always loopback) and the
// browser origins served besides loopback pages.
type HTTP struct {
	UIPort         int      `json:"uiPort"`
	MCPPort        int      `json:"mcpPort"`
	Host           string   `json:"host"`
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
}

// MCP is the MCP server genui presents to hosts: its limits.
type MCP struct {
	ToolsPageSize int         `json:"toolsPageSize"`
	Sessions      MCPSessions `json:"sessions"`
	Listen        MCPListen   `json:"listen"`
}

// MCPSessions bounds HTTP sessions.
type MCPSessions struct {
	Max       int      `json:"max"`
	EvictIdle Duration `json:"evictIdle"`
}

// MCPListen bounds subscriptions/listen streams.
type MCPListen struct {
	MaxStreams       int      `json:"maxStreams"`
	MaxSubscriptions int      `json:"maxSubscriptions"`
	StallTimeout     Duration `json:"stallTimeout"`
}

// Duration is a time.Duration written as a Go duration string ("90s").
type Duration time.Duration

// D is the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a duration string such as 90s")
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration such as 90s", s)
	}
	*d = Duration(v)
	return nil
}
