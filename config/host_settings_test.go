package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHostSettingsResolve: the MCP server's limits (mcp.*) and the
// allowed origins (http.allowedOrigins, --allowed-origins,
// GENUI_HTTP_ALLOWED_ORIGINS) resolve through every layer, with defaults
// large enough for ordinary use (engine/app's TestHostSettingsReachTheHost
// checks they reach host.Options).
func TestHostSettingsResolve(t *testing.T) {
	r, err := ResolveInput(nil, Input{File: writeConfig(t, `{"dir": "`+t.TempDir()+`"}`), LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	m := r.Config.MCP
	if m.ToolsPageSize != 1000 || m.Sessions.Max != 1000 || m.Sessions.EvictIdle.D() != 5*time.Minute ||
		m.Listen.MaxStreams != 256 || m.Listen.MaxSubscriptions != 1000 || m.Listen.StallTimeout.D() != 10*time.Second ||
		len(r.Config.HTTP.AllowedOrigins) != 0 {
		t.Errorf("defaults: %+v %v", m, r.Config.HTTP.AllowedOrigins)
	}

	f := flagsFor(t, "--allowed-origins", "vscode-webview://*", "--allowed-origins", "app://shell,null")
	r, err = ResolveInput(f, Input{Flags: f.fs, File: writeConfig(t, `{"dir": "`+t.TempDir()+`",
	  "http": {"allowedOrigins": ["http://devbox.lan:3000"]},
	  "mcp": {"toolsPageSize": 50, "sessions": {"max": 7, "evictIdle": "90s"},
	          "listen": {"maxStreams": 3, "maxSubscriptions": 4, "stallTimeout": "2s"}}}`),
		LookupEnv: env{"GENUI_MCP_SESSIONS_MAX": "9"}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	m = r.Config.MCP
	if m.ToolsPageSize != 50 || m.Sessions.Max != 9 || m.Sessions.EvictIdle.D() != 90*time.Second ||
		m.Listen.MaxStreams != 3 || m.Listen.MaxSubscriptions != 4 || m.Listen.StallTimeout.D() != 2*time.Second {
		t.Errorf("set: %+v", m)
	}
	if want := []string{"vscode-webview://*", "app://shell", "null"}; !slices.Equal(r.Config.HTTP.AllowedOrigins, want) {
		t.Errorf("allowed origins %q, want the flag's %q", r.Config.HTTP.AllowedOrigins, want)
	}
	if src := r.Sources["http.allowedOrigins"]; src.Layer != LayerFlag || src.Name != "--allowed-origins" {
		t.Errorf("source of http.allowedOrigins: %v", src)
	}
}

// TestAllowedOriginsValidated: entries that are no origin, or that would
// let any web site in, are refused with the path and the rule.
func TestAllowedOriginsValidated(t *testing.T) {
	for _, tc := range []struct{ entry, want string }{
		{"*", `http.allowedOrigins[0]: must be an origin such as vscode-webview://abc, app://* or http://devbox.lan:3000`},
		{"http://*", "http.allowedOrigins[0]: http://* would let every web site in: name http(s) origins exactly"},
		{"https://*", "http.allowedOrigins[0]: https://* would let every web site in"},
		{"https://example.com/path", "http.allowedOrigins[0]: must be an origin such as"},
		{"vscode-webview", "http.allowedOrigins[0]: must be an origin such as"},
	} {
		_, err := load(t, `{"http": {"allowedOrigins": ["`+tc.entry+`"]}}`, nil)
		var errs *Errors
		if !errors.As(err, &errs) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("allowedOrigins [%q]: %v, want %q", tc.entry, err, tc.want)
		}
	}
	if _, err := load(t, `{"http": {"allowedOrigins": ["vscode-webview://*", "null", "app://main-window", "http://[::1]:9000"]}}`, nil); err != nil {
		t.Errorf("valid origins refused: %v", err)
	}
	for _, tc := range []struct{ file, want string }{
		{`{"mcp": {"toolsPageSize": 0}}`, "mcp.toolsPageSize: must be >= 1"},
		{`{"mcp": {"sessions": {"max": 0}}}`, "mcp.sessions.max: must be >= 1"},
		{`{"mcp": {"sessions": {"evictIdle": "0s"}}}`, "mcp.sessions.evictIdle: must be longer than 0s"},
		{`{"mcp": {"listen": {"maxSubscriptions": -1}}}`, "mcp.listen.maxSubscriptions: must be >= 1"},
		{`{"mcp": {"listen": {"stallTimeout": "0s"}}}`, "mcp.listen.stallTimeout: must be longer than 0s"},
		{`{"mcp": {"listen": {"maxStream": 1}}}`, `mcp.listen.maxStream: unknown key (did you mean "maxStreams"?)`},
	} {
		_, err := load(t, tc.file, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
}
