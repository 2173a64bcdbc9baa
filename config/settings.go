package config

import (
	"strings"
	"unicode"
)

// valueKind is how a setting's value is written and parsed from a flag or an
// environment variable.
type valueKind int

const (
	kString   valueKind = iota
	kEnum               // a string the schema restricts to a set
	kInt                // an integer
	kNumber             // any number
	kBool               // true or false
	kDuration           // a Go duration string ("90s")
	kList               // a list of strings (comma-separated in the environment)
	kMap                // an object of strings (keys are entries: upstream.env, upstream.headers)
)

// setting is one leaf of genui.json. Every leaf the schema knows is here
// (TestSettingsMatchSchema checks), so one loop resolves them all:
// flags > GENUI_* environment > file > defaults.
type setting struct {
	Path string
	Kind valueKind
	// Flag is the command-line flag that sets it ("" = none).
	Flag string
	// Env are the GENUI_* variables that set it, the canonical name first
	// (nil = derived from Path; see envNames); NoEnv = none.
	Env   []string
	NoEnv bool
	// Default is the JSON value used when no layer sets it (nil = unset).
	Default any
	// Noun names an enum's values in errors ("LLM provider").
	Noun string
}

// settings lists every leaf. Paths are the canonical names; legacy names
// (llm as a string, top-level model, generation.promptsDir, upstream.command
// as an array, generation.firstRead "instant") are normalized before
// merging (see normalize).
var settings = []setting{
	{Path: "dir", Kind: kString, Flag: "dir", Default: ".ui"},
	{Path: "uiMetadata", Kind: kEnum, Flag: "ui-metadata", Default: "always"},

	{Path: "upstream.command", Kind: kString, NoEnv: true},
	{Path: "upstream.args", Kind: kList, NoEnv: true},
	{Path: "upstream.env", Kind: kMap, NoEnv: true},
	{Path: "upstream.cwd", Kind: kString},
	{Path: "upstream.url", Kind: kString, Flag: "upstream-url"},
	{Path: "upstream.transport", Kind: kEnum, Flag: "upstream-transport"},
	{Path: "upstream.capabilities", Kind: kEnum, Flag: "capabilities", Noun: "capability mode"},
	{Path: "upstream.headers", Kind: kMap, Flag: "header", NoEnv: true},
	{Path: "upstream.reconnect.min", Kind: kDuration, Default: "1s"},
	{Path: "upstream.reconnect.max", Kind: kDuration, Default: "30s"},
	{Path: "upstream.oauth.clientId", Kind: kString},
	{Path: "upstream.oauth.clientSecret", Kind: kString, NoEnv: true},
	{Path: "upstream.oauth.scopes", Kind: kList},
	{Path: "upstream.oauth.redirectPort", Kind: kInt, Default: 0},
	{Path: "upstream.watch.paths", Kind: kList, Flag: "watch"},
	{Path: "upstream.watch.ignore", Kind: kList},
	{Path: "upstream.watch.debounce", Kind: kDuration, Default: "300ms"},
	{Path: "upstream.watch.build", Kind: kString},
	{Path: "upstream.watch.buildTimeout", Kind: kDuration, Default: "5m"},

	{Path: "llm.provider", Kind: kEnum, Flag: "llm", Env: []string{"GENUI_LLM", "GENUI_LLM_PROVIDER"}, Default: "auto", Noun: "LLM provider"},
	{Path: "llm.model", Kind: kString, Flag: "model", Env: []string{"GENUI_MODEL", "GENUI_LLM_MODEL"}},
	{Path: "llm.baseUrl", Kind: kString},
	{Path: "llm.maxTokens", Kind: kInt, Default: 16000},
	{Path: "llm.temperature", Kind: kNumber},
	{Path: "llm.apiKey", Kind: kString, NoEnv: true},
	{Path: "llm.fromEnvironment", Kind: kBool, Default: true},

	{Path: "cache.persist", Kind: kBool, Flag: "persist-cache", Default: true},
	{Path: "cache.directory", Kind: kString},
	{Path: "cache.maxEntries", Kind: kInt, Default: 100},
	{Path: "cache.maxEntryBytes", Kind: kInt, Default: 512000},
	{Path: "cache.maxTotalBytes", Kind: kInt, Default: 52428800},

	{Path: "generation.mode", Kind: kEnum, Default: "spec", Noun: "generation mode"},
	{Path: "generation.htmlTools", Kind: kList},
	{Path: "generation.firstRead", Kind: kEnum, Default: "background"},
	{Path: "generation.budget", Kind: kDuration, Default: "90s"},
	{Path: "generation.waitBudget", Kind: kDuration, Default: "15s"},
	{Path: "generation.timeout", Kind: kDuration, Default: "2m"},
	{Path: "generation.retries", Kind: kInt, Default: 2},
	{Path: "generation.maxConcurrent", Kind: kInt, Default: 2},
	{Path: "generation.promptsDirectory", Kind: kString},
	{Path: "generation.defaultTheme", Kind: kEnum, Default: "auto"},
	{Path: "generation.enabledTools", Kind: kList},
	{Path: "generation.disabledTools", Kind: kList},

	{Path: "logging.level", Kind: kEnum, Flag: "log-level", Default: "info"},
	{Path: "logging.format", Kind: kEnum, Flag: "log-format", Default: "json"},
	{Path: "logging.file", Kind: kString},
	{Path: "logging.maxSizeMB", Kind: kInt, Default: 10},
	{Path: "logging.maxBackups", Kind: kInt, Default: 3},
	{Path: "logging.redact", Kind: kList},

	{Path: "history.enabled", Kind: kBool, Default: true},
	{Path: "history.maxEntries", Kind: kInt, Default: 1000},
	{Path: "history.maxBytes", Kind: kInt, Default: 16777216},
	{Path: "history.maxValueBytes", Kind: kInt, Default: 65536},
	{Path: "history.excludeArguments", Kind: kList},
	{Path: "history.excludeResults", Kind: kList},
	{Path: "history.redact", Kind: kList, Default: []any{"*token", "*secret*", "*password*", "*apikey*", "authorization"}},

	{Path: "checks.directory", Kind: kString, Default: "genui-checks"},
	{Path: "checks.timeout", Kind: kDuration, Default: "1m"},

	{Path: "toolRefresh.interval", Kind: kDuration, Flag: "refresh-interval", Default: "0s"},
	{Path: "toolRefresh.backoff", Kind: kDuration},

	{Path: "http.uiPort", Kind: kInt, Flag: "port", Default: 0},
	{Path: "http.mcpPort", Kind: kInt, Flag: "mcp-port", Default: 0},
	{Path: "http.host", Kind: kString, NoEnv: true, Default: "127.0.0.1"},
	{Path: "http.allowedOrigins", Kind: kList, Flag: "allowed-origins"},

	{Path: "mcp.toolsPageSize", Kind: kInt, Default: 1000},
	{Path: "mcp.sessions.max", Kind: kInt, Default: 1000},
	{Path: "mcp.sessions.evictIdle", Kind: kDuration, Default: "5m"},
	{Path: "mcp.listen.maxStreams", Kind: kInt, Default: 256},
	{Path: "mcp.listen.maxSubscriptions", Kind: kInt, Default: 1000},
	{Path: "mcp.listen.stallTimeout", Kind: kDuration, Default: "10s"},

	{Path: "roots", Kind: kList},
	{Path: "answerTimeout", Kind: kDuration, Default: "5m"},
}

// lookupSetting returns the setting at path.
func lookupSetting(path string) (setting, bool) {
	for _, s := range settings {
		if s.Path == path {
			return s, true
		}
	}
	return setting{}, false
}

// envNames are the variables that set s, canonical first.
func (s setting) envNames() []string {
	if s.NoEnv {
		return nil
	}
	if s.Env != nil {
		return s.Env
	}
	return []string{EnvName(s.Path)}
}

// EnvName derives a setting's GENUI_* variable from its path:
// llm.baseUrl -> GENUI_LLM_BASE_URL, toolRefresh.interval ->
// GENUI_TOOL_REFRESH_INTERVAL.
func EnvName(path string) string {
	var b strings.Builder
	b.WriteString("GENUI")
	for _, part := range strings.Split(path, ".") {
		b.WriteByte('_')
		prevLower := false
		for _, r := range part {
			if unicode.IsUpper(r) && prevLower {
				b.WriteByte('_')
			}
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// tree helpers: a config document is map[string]any with nested objects.

func splitPath(path string) []string { return strings.Split(path, ".") }

// getPath returns the value at path in tree.
func getPath(tree map[string]any, path string) (any, bool) {
	parts := splitPath(path)
	cur := tree
	for i, p := range parts {
		v, ok := cur[p]
		if !ok {
			return nil, false
		}
		if i == len(parts)-1 {
			return v, true
		}
		if cur, ok = v.(map[string]any); !ok {
			return nil, false
		}
	}
	return nil, false
}

// setPath sets the value at path, creating objects on the way.
func setPath(tree map[string]any, path string, v any) {
	parts := splitPath(path)
	cur := tree
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[parts[len(parts)-1]] = v
}

// deletePath removes the value at path (objects left empty stay).
func deletePath(tree map[string]any, path string) {
	parts := splitPath(path)
	cur := tree
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			return
		}
		cur = next
	}
	delete(cur, parts[len(parts)-1])
}

// knownKeys are the keys the schema allows under an object path ("" = the
// top level), for "did you mean" hints.
func knownKeys(prefix string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, s := range settings {
		rest := s.Path
		if prefix != "" {
			var ok bool
			if rest, ok = strings.CutPrefix(s.Path, prefix+"."); !ok {
				continue
			}
		}
		k, _, _ := strings.Cut(rest, ".")
		add(k)
	}
	if prefix == "" {
		add("$schema")
	}
	return out
}
