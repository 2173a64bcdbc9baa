package host_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestCORSForLoopbackBrowserHosts: a web host on another loopback port (the
// ext-apps basic-host layout) must pass the preflight of /mcp, /sse and
// /message, and read Mcp-Session-Id from the initialize response; a foreign
// origin's preflight and request are refused and get no CORS grant.
func TestCORSForLoopbackBrowserHosts(t *testing.T) {
	ts := startHTTP(t)
	const page = "http://localhost:8080"
	do := func(method, path, origin string, hdr map[string]string, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	preflight := map[string]string{
		"Access-Control-Request-Method":  "POST",
		"Access-Control-Request-Headers": "content-type,mcp-protocol-version,mcp-session-id,mcp-method,mcp-name,mcp-param-region",
	}
	for _, path := range []string{"/mcp", "/sse", "/message"} {
		resp := do(http.MethodOptions, path, page, preflight, "")
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("preflight %s from %s: status %d, want 204", path, page, resp.StatusCode)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != page {
			t.Errorf("preflight %s: Access-Control-Allow-Origin %q, want %q", path, got, page)
		}
		allowed := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers"))
		for _, h := range strings.Split(preflight["Access-Control-Request-Headers"], ",") {
			if !strings.Contains(allowed, h) {
				t.Errorf("preflight %s: %s not allowed (%q)", path, h, allowed)
			}
		}
		if m := resp.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(m, "POST") || !strings.Contains(m, "DELETE") {
			t.Errorf("preflight %s: methods %q", path, m)
		}
	}

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`
	resp := do(http.MethodPost, "/mcp", page, map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}, init)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize from %s: %d, session %q", page, resp.StatusCode, resp.Header.Get("Mcp-Session-Id"))
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != page {
		t.Errorf("initialize: Access-Control-Allow-Origin %q, want %q", got, page)
	}
	if exp := resp.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(exp, "Mcp-Session-Id") {
		t.Errorf("initialize: Mcp-Session-Id not exposed (%q)", exp)
	}

	for _, foreign := range []string{"http://evil.example", "null", "http://10.0.0.1:8080"} {
		resp := do(http.MethodOptions, "/mcp", foreign, preflight, "")
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight from %s: %d, ACAO %q; want 403 and no grant", foreign, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
		}
		resp = do(http.MethodPost, "/mcp", foreign, map[string]string{"Content-Type": "application/json"}, init)
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("initialize from %s: %d, ACAO %q; want 403 and no grant", foreign, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	// A same-origin request (no Origin header, e.g. curl or a Node client)
	// works and gets no CORS headers it does not need.
	resp = do(http.MethodPost, "/mcp", "", map[string]string{"Content-Type": "application/json"}, init)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("initialize without Origin: %d, ACAO %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
}
