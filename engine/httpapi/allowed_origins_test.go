package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/host"
)

// TestAllowedOriginsJoinTheLoopbackRule: http.allowedOrigins adds origins
// to the loopback Origin rule (a VS Code webview, an app:// shell): their
// MCP preflight and initialize are served with a CORS grant, an origin
// matched by a scheme wildcard too; every other non-loopback origin still
// gets 403 and no grant, and the allowed ones still may not change genui's
// state through the API routes (those take genui's own pages and programs
// only).
func TestAllowedOriginsJoinTheLoopbackRule(t *testing.T) {
	p := startPreviewWith(t, demoConfig(), host.Options{AllowedOrigins: []string{"vscode-webview://x", "app://*"}})
	api := p.apiTS.URL
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"webview","version":"1"}}}`
	preflight := []string{"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,mcp-session-id"}
	for _, origin := range []string{"vscode-webview://x", "app://shell", "app://other-window"} {
		code, h, body := do(t, "OPTIONS", api+"/mcp", "", append([]string{"Origin", origin}, preflight...)...)
		if code != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("preflight from allowed %s: %d ACAO %q %s", origin, code, h.Get("Access-Control-Allow-Origin"), body)
		}
		code, h, body = do(t, "POST", api+"/mcp", init, "Origin", origin, "Accept", "application/json, text/event-stream")
		if code != http.StatusOK || h.Get("Mcp-Session-Id") == "" || h.Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("initialize from allowed %s: %d session %q ACAO %q %s", origin, code, h.Get("Mcp-Session-Id"), h.Get("Access-Control-Allow-Origin"), body)
		}
		// The agents' side channel stays genui's own.
		if code, _, body := do(t, "POST", api+"/api/refresh", "", "Origin", origin); code != http.StatusForbidden {
			t.Errorf("POST /api/refresh from %s: %d %s, want 403", origin, code, body)
		}
	}
	for _, origin := range []string{"vscode-webview://y", "http://evil.example", "null", "https://app.example", "vscode-webview://x.evil"} {
		code, h, _ := do(t, "OPTIONS", api+"/mcp", "", append([]string{"Origin", origin}, preflight...)...)
		if code != http.StatusForbidden || h.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight from %s: %d ACAO %q, want 403 and no grant", origin, code, h.Get("Access-Control-Allow-Origin"))
		}
		code, h, body := do(t, "POST", api+"/mcp", init, "Origin", origin)
		if code != http.StatusForbidden || h.Get("Access-Control-Allow-Origin") != "" || !strings.Contains(body, "allowedOrigins") {
			t.Errorf("initialize from %s: %d ACAO %q %q, want 403 naming http.allowedOrigins", origin, code, h.Get("Access-Control-Allow-Origin"), body)
		}
	}
}

// TestOriginRuleWithoutAllowedOrigins: the default rule, for contrast:
// loopback pages only; a webview gets 403 with a message that says how to
// allow it.
func TestOriginRuleWithoutAllowedOrigins(t *testing.T) {
	p := startPreview(t, demoConfig())
	code, _, body := do(t, "POST", p.apiTS.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "Origin", "vscode-webview://x")
	if code != http.StatusForbidden || !strings.Contains(body, "http.allowedOrigins") || !strings.Contains(body, "--allowed-origins") {
		t.Errorf("a webview without allowedOrigins: %d %q, want 403 saying how to allow it", code, body)
	}
}
