package app

import (
	"slices"
	"testing"
	"time"

	"github.com/genui-dev/genui/config"
)

// TestHostSettingsReachTheHost: the MCP server's limits (mcp.*) and the
// allowed origins (http.allowedOrigins) reach host.Options.
func TestHostSettingsReachTheHost(t *testing.T) {
	s, err := ConfigureInput(nil, config.Input{File: writeConfig(t, `{"dir": "`+t.TempDir()+`",
	  "http": {"allowedOrigins": ["http://devbox.lan:3000"]},
	  "mcp": {"toolsPageSize": 50, "sessions": {"max": 7, "evictIdle": "90s"},
	          "listen": {"maxStreams": 3, "maxSubscriptions": 4, "stallTimeout": "2s"}}}`), LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ao, err := s.AppOptions()
	if err != nil {
		t.Fatal(err)
	}
	h := ao.Host
	if h.ToolsPageSize != 50 || h.MaxSessions != 7 || h.SessionEvictIdle != 90*time.Second ||
		h.MaxListens != 3 || h.MaxListenSubscriptions != 4 || h.ListenStallTimeout != 2*time.Second ||
		!slices.Equal(h.AllowedOrigins, []string{"http://devbox.lan:3000"}) {
		t.Errorf("host.Options %+v", h)
	}
}
