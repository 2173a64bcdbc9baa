package host

import (
	"net/http"
	"net/url"
	"strings"
)

// CORS for the MCP endpoints. A browser host is a page on its own loopback
// origin (the ext-apps basic-host serves itself on one port and its sandbox
// proxy on another) that speaks streamable HTTP to /mcp with fetch(): every
// POST is preflighted (Content-Type application/json, Mcp-* headers) and the
// page must be able to read Mcp-Session-Id. Only loopback origins and
// Options.AllowedOrigins get CORS headers; any other origin is refused
// before this (Origins.Guard), and a handler registered without that guard
// still never grants one.

// corsAllowHeaders are the request headers a browser host may send: the
// transport's own (all revisions) and the 2026-07-28 request metadata.
// Mcp-Param-* headers (tool parameters mirrored by x-mcp-header) are
// allowed by prefix.
var corsAllowHeaders = []string{
	"Content-Type", "Accept", "Authorization", "Last-Event-ID",
	"Mcp-Session-Id", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name",
}

// corsExposeHeaders are the response headers a browser host must read.
const corsExposeHeaders = "Mcp-Session-Id, Mcp-Protocol-Version"

// loopbackOrigin reports whether the Origin header value is an http(s)
// origin on a loopback host ("null", opaque and foreign origins are not).
func loopbackOrigin(origin string) bool {
	if origin == "" || origin == "null" {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return isLoopbackHost(u.Host)
}

// withCORS lets a page of an allowed origin read next's responses.
func (s *Server) withCORS(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Add("Vary", "Origin")
		if o := r.Header.Get("Origin"); o != "" && s.origins.Allows(o) {
			h.Set("Access-Control-Allow-Origin", o)
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		}
		next(w, r)
	}
}

// preflight answers a CORS preflight from an allowed origin with 204 and
// the methods and headers the endpoint accepts; anything else gets 403 and
// no CORS headers, so the browser refuses the real request.
func (s *Server) preflight(w http.ResponseWriter, r *http.Request) {
	o := r.Header.Get("Origin")
	w.Header().Add("Vary", "Origin")
	if o == "" || !s.origins.Allows(o) || r.Header.Get("Access-Control-Request-Method") == "" {
		http.Error(w, "forbidden: CORS is only granted to loopback origins and http.allowedOrigins", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", o)
	h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
	h.Set("Access-Control-Allow-Headers", strings.Join(allowedRequestHeaders(r.Header.Get("Access-Control-Request-Headers")), ", "))
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}

// allowedRequestHeaders is corsAllowHeaders plus the Mcp-Param-* headers the
// preflight asks for (their names come from tool schemas).
func allowedRequestHeaders(requested string) []string {
	out := append([]string(nil), corsAllowHeaders...)
	for _, name := range strings.Split(requested, ",") {
		name = strings.TrimSpace(name)
		if len(name) > len("mcp-param-") && strings.EqualFold(name[:len("mcp-param-")], "mcp-param-") && isToken(name) {
			out = append(out, name)
		}
	}
	return out
}

// isToken reports whether s is an RFC 9110 token (a valid header name).
func isToken(s string) bool {
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.ContainsRune("!#$%&'*+-.^_`|~", c):
		default:
			return false
		}
	}
	return s != ""
}
