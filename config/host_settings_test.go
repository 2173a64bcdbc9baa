package config

import (
	"errors"
	"strings"
	"testing"
)

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
