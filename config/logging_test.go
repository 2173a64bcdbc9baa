package config

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogRedactsKeys: credential attributes, header maps and key-shaped
// text never reach the log, in JSON or text format; ordinary values do.
func TestLogRedactsKeys(t *testing.T) {
	key := "sk-ant-api03-abcdefghijklmnop"
	for _, format := range []string{"json", "text"} {
		var buf bytes.Buffer
		opts := &slog.HandlerOptions{ReplaceAttr: Redactor([]string{"sessionCookieX"})}
		var h slog.Handler = slog.NewJSONHandler(&buf, opts)
		if format == "text" {
			h = slog.NewTextHandler(&buf, opts)
		}
		log := slog.New(h)
		log.Info("request", "Authorization", "Bearer abcdefghijk123", "apiKey", key, "api_key", key,
			"headers", map[string]string{"Authorization": "Basic dXNlcjpwYXNzd29yZA==", "Accept": "text/html"},
			"header", http.Header{"X-Api-Key": {key}}, "err", errors.New("401 from provider: invalid x-api-key "+key),
			"url", "https://example.com/mcp?api_key=hunter2secret&x=1", "note", "Bearer zyxwvutsrq9876",
			"sessionCookieX", "custom-secret-value", "tool", "get_forecast")
		log.WithGroup("g").Info("grouped", "password", "pw-123456", "token_count", 5)
		out := buf.String()
		for _, secret := range []string{key, "abcdefghijk123", "dXNlcjpwYXNzd29yZA==", "hunter2secret", "zyxwvutsrq9876", "custom-secret-value", "pw-123456"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s log shows %q:\n%s", format, secret, out)
			}
		}
		for _, want := range []string{"get_forecast", "text/html", "x=1", "[REDACTED]", "token_count"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s log lacks %q:\n%s", format, want, out)
			}
		}
	}
}

// TestLoggerFileAndRotation: NewLogger writes DIR/log/genui.log (JSON,
// component-tagged lines at the configured level) and lumberjack rotates it
// by size, keeping maxBackups old files.
func TestLoggerFileAndRotation(t *testing.T) {
	dir := t.TempDir()
	c := Config{Dir: dir, Logging: Logging{Level: "warn", Format: "json", MaxSizeMB: 1, MaxBackups: 2}}
	log, closer, err := NewLogger(c, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	log.Info("below the level")
	glog := log.With("component", ComponentGen)
	line := strings.Repeat("x", 1024)
	for range 3000 { // ~3 MB: at least two rotations
		glog.Warn("filler", "data", line)
	}
	if err := closer.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "log", "genui.log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 1<<20+2048 {
		t.Errorf("genui.log is %d bytes, over maxSizeMB=1", len(b))
	}
	if bytes.Contains(b, []byte("below the level")) || !bytes.Contains(b, []byte(`"component":"gen"`)) {
		t.Errorf("level or component wrong: %.300s", b)
	}
	backups, _ := filepath.Glob(filepath.Join(dir, "log", "genui-*.log"))
	if len(backups) != 2 {
		t.Errorf("%d rotated files, want maxBackups=2: %v", len(backups), backups)
	}
}

// TestRedactStringKeepsProseAfterSchemeWords: a word after "token",
// "bearer" or "basic" is hidden when it looks like a credential, and prose
// ("token expired", "basic authentication") is left as written.
func TestRedactStringKeepsProseAfterSchemeWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"the access token refreshed successfully":                     "the access token refreshed successfully",
		"server needs basic authentication first":                     "server needs basic authentication first",
		"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc":          "Authorization: Bearer " + Redacted,
		"Authorization: token ghp_16C7e42F292c6912E7710c838347Ae178B": "Authorization: token " + Redacted,
		"Authorization: Basic dXNlcjpwYXNzd29yZA":                     "Authorization: Basic " + Redacted,
	} {
		if got := RedactString(in); got != want {
			t.Errorf("RedactString(%q) = %q, want %q", in, got, want)
		}
	}
}
