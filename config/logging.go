package config

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/natefinch/lumberjack.v2"
)

// Log components: every logger genui hands out carries component=NAME.
const (
	ComponentUpstream = "upstream"
	ComponentHost     = "host"
	ComponentGen      = "gen"
	ComponentCache    = "cache"
	ComponentHTTPAPI  = "httpapi"
	ComponentTUI      = "tui"
)

// LogFile is the log file of a configuration: logging.file, else
// DIR/log/genui.log.
func LogFile(c Config) string {
	if c.Logging.File != "" {
		return c.Logging.File
	}
	return filepath.Join(c.Dir, "log", "genui.log")
}

// NewLogger builds the slog logger for c: JSON or text, at c's level
// (debug when debug is set), to LogFile(c) rotated by size (lumberjack:
// logging.maxSizeMB, logging.maxBackups), and also to stderr when it is not
// nil. Secrets are redacted (see Redactor). Close the returned closer when
// done.
func NewLogger(c Config, debug bool, stderr io.Writer) (*slog.Logger, io.Closer, error) {
	lj := &lumberjack.Logger{Filename: LogFile(c), MaxSize: c.Logging.MaxSizeMB, MaxBackups: c.Logging.MaxBackups}
	// Open now, so a log that cannot be written fails the start, not the
	// first line.
	if _, err := lj.Write(nil); err != nil {
		return nil, nil, fmt.Errorf("open log %s: %w", LogFile(c), err)
	}
	var w io.Writer = lj
	if stderr != nil {
		w = io.MultiWriter(lj, stderr)
	}
	level := slog.LevelInfo
	if err := level.UnmarshalText([]byte(c.Logging.Level)); err != nil && c.Logging.Level != "" {
		return nil, nil, fmt.Errorf("logging.level %q: %w", c.Logging.Level, err)
	}
	if debug {
		level = slog.LevelDebug
	}
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: LogReplacer(c)}
	var h slog.Handler
	if c.Logging.Format == "text" {
		h = slog.NewTextHandler(w, opts)
	} else {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(h), lj, nil
}

// Redacted replaces a secret in logs and in `genui config show`.
const Redacted = "[REDACTED]"

// secretKeys are attribute names whose values are always redacted
// (compared lower-case without '-' and '_').
var secretKeys = []string{"authorization", "proxyauthorization", "apikey", "xapikey", "accesstoken",
	"refreshtoken", "idtoken", "secret", "clientsecret", "password", "passwd", "cookie", "setcookie", "bearer"}

func normKey(k string) string {
	return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(k))
}

// Redactor is a slog ReplaceAttr that hides secrets: attributes named like
// a credential (authorization, apiKey, token, password, ... plus extra),
// header maps' Authorization and key entries, and anything in a string that
// looks like a provider key or a bearer token.
func Redactor(extra []string) func(groups []string, a slog.Attr) slog.Attr {
	keys := map[string]bool{}
	for _, k := range secretKeys {
		keys[k] = true
	}
	for _, k := range extra {
		keys[normKey(k)] = true
	}
	return func(_ []string, a slog.Attr) slog.Attr {
		if keys[normKey(a.Key)] {
			if a.Value.Kind() == slog.KindString && a.Value.String() == "" {
				return a
			}
			return slog.String(a.Key, Redacted)
		}
		switch a.Value.Kind() {
		case slog.KindString:
			if s := a.Value.String(); s != "" {
				if r := RedactString(s); r != s {
					return slog.String(a.Key, r)
				}
			}
		case slog.KindAny:
			switch v := a.Value.Any().(type) {
			case error:
				if r := RedactString(v.Error()); r != v.Error() {
					return slog.String(a.Key, r)
				}
			case map[string]string:
				return slog.Any(a.Key, redactMap(v, keys))
			case http.Header:
				m := map[string]string{}
				for k, vs := range v {
					m[k] = strings.Join(vs, ", ")
				}
				return slog.Any(a.Key, redactMap(m, keys))
			case []string:
				out := make([]string, len(v))
				for i, s := range v {
					out[i] = RedactString(s)
				}
				return slog.Any(a.Key, out)
			}
		}
		return a
	}
}

// LogReplacer is the slog ReplaceAttr of genui's log: Redactor (credential
// attributes, bearer tokens, key shapes, logging.redact) and then
// Secrets.Redact (${env:VAR} values) over every string a record carries.
// The engine applies it to the records it publishes to watchers too.
func LogReplacer(c Config) func(groups []string, a slog.Attr) slog.Attr {
	return c.Secrets.hidingIn(Redactor(c.Logging.Redact))
}

// hidingIn runs Redact over every string a log line carries (its message
// included) after replace.
func (s *Secrets) hidingIn(replace func([]string, slog.Attr) slog.Attr) func([]string, slog.Attr) slog.Attr {
	if s.Empty() {
		return replace
	}
	return func(groups []string, a slog.Attr) slog.Attr {
		a = replace(groups, a)
		switch a.Value.Kind() {
		case slog.KindString:
			if str := a.Value.String(); str != "" {
				if r := s.Redact(str); r != str {
					return slog.String(a.Key, r)
				}
			}
		case slog.KindAny:
			switch v := a.Value.Any().(type) {
			case error:
				if str := v.Error(); s.Redact(str) != str {
					return slog.String(a.Key, s.Redact(str))
				}
			case fmt.Stringer:
				if str := v.String(); s.Redact(str) != str {
					return slog.String(a.Key, s.Redact(str))
				}
			case []string:
				out := make([]string, len(v))
				for i, x := range v {
					out[i] = s.Redact(x)
				}
				return slog.Any(a.Key, out)
			case map[string]string:
				out := make(map[string]string, len(v))
				for k, x := range v {
					out[k] = s.Redact(x)
				}
				return slog.Any(a.Key, out)
			case json.RawMessage:
				if str := string(v); s.Redact(str) != str {
					return slog.String(a.Key, s.Redact(str))
				}
			}
		}
		return a
	}
}

func redactMap(m map[string]string, keys map[string]bool) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if keys[normKey(k)] || secretName(k) {
			out[k] = Redacted
		} else {
			out[k] = RedactString(v)
		}
	}
	return out
}

var (
	// Provider key shapes (Anthropic, OpenAI, OpenRouter, Google).
	reKeyShape = regexp.MustCompile(`\b(?:sk-(?:ant-|or-|proj-)?[A-Za-z0-9_\-]{12,}|AIza[0-9A-Za-z_\-]{20,})`)
	// Authorization schemes followed by a credential.
	// The credential must look like one (credentialLike): "token expired"
	// and "basic authentication" are prose.
	reBearer = regexp.MustCompile(`(?i)\b(bearer|basic|token)(\s+)([A-Za-z0-9._~+/=\-_]{8,})`)
	// key=value pairs in URLs and messages.
	reKeyParam = regexp.MustCompile(`(?i)\b(api[_-]?key|access[_-]?token|token|secret|password)=([^&\s"']+)`)
)

// RedactString hides key-shaped substrings, bearer credentials and
// key=value parameters in s.
func RedactString(s string) string {
	s = reKeyShape.ReplaceAllString(s, Redacted)
	s = replaceSubmatchFunc(reBearer, s, func(m []string) string {
		if !credentialLike(m[3]) {
			return m[0]
		}
		return m[1] + m[2] + Redacted
	})
	return reKeyParam.ReplaceAllString(s, "$1="+Redacted)
}

// replaceSubmatchFunc is regexp's ReplaceAllStringFunc with the match's
// groups handed to repl.
func replaceSubmatchFunc(re *regexp.Regexp, s string, repl func([]string) string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range idx {
		groups := make([]string, len(loc)/2)
		for i := range groups {
			if loc[2*i] >= 0 {
				groups[i] = s[loc[2*i]:loc[2*i+1]]
			}
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(repl(groups))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// credentialLike reports whether a word after an authorization scheme
// looks like a credential rather than prose: it holds a digit, a symbol
// of the token alphabet, or a capital letter after its first.
func credentialLike(v string) bool {
	for i, r := range v {
		switch {
		case r >= '0' && r <= '9', strings.ContainsRune("._~+/=-_", r):
			return true
		case i > 0 && r >= 'A' && r <= 'Z':
			return true
		}
	}
	return false
}
