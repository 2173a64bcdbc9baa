package host

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// The Origin rule. genui serves loopback only, and a browser page may talk
// to it only from a loopback origin (http or https on localhost, 127.0.0.1,
// ::1 ...): any web site could otherwise drive it from the user's browser,
// directly or by DNS rebinding (the Host check). Hosts whose page runs at
// another origin (a VS Code webview, vscode-webview://...; an Electron
// app://...; a sandboxed frame, "null") are added by http.allowedOrigins.

// Origins is the Origin rule: loopback origins plus the allowed ones. The
// nil *Origins allows loopback origins only.
type Origins struct {
	exact   map[string]bool
	schemes map[string]bool // scheme://* entries: any origin of the scheme
}

// NewOrigins builds the rule from allowed entries: an exact origin
// ("vscode-webview://abc", "http://devbox.lan:3000", "null") or a scheme
// with a wildcard host ("vscode-webview://*"). Entries that are neither
// are left out and returned as the error (config validates them first).
func NewOrigins(allowed []string) (*Origins, error) {
	o := &Origins{exact: map[string]bool{}, schemes: map[string]bool{}}
	var errs []error
	for _, a := range allowed {
		if err := CheckAllowedOrigin(a); err != nil {
			errs = append(errs, err)
			continue
		}
		if scheme, ok := strings.CutSuffix(a, "://*"); ok {
			o.schemes[strings.ToLower(scheme)] = true
			continue
		}
		o.exact[a] = true
	}
	return o, errors.Join(errs...)
}

// CheckAllowedOrigin says why entry cannot be an allowed origin, or nil.
func CheckAllowedOrigin(entry string) error {
	if entry == "null" {
		return nil
	}
	scheme, rest, ok := strings.Cut(entry, "://")
	if !ok || scheme == "" || rest == "" || !isScheme(scheme) {
		return fmt.Errorf("%q is not an origin (scheme://host[:port], scheme://* or null)", entry)
	}
	if rest == "*" {
		if s := strings.ToLower(scheme); s == "http" || s == "https" {
			return fmt.Errorf("%q would let every web site in: name http(s) origins exactly", entry)
		}
		return nil
	}
	if strings.ContainsAny(rest, "/?#*@ \t") {
		return fmt.Errorf("%q is not an origin: no path, query, user or wildcard inside the host", entry)
	}
	return nil
}

func isScheme(s string) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// Allows reports whether a page at origin may use genui: a loopback
// http(s) origin, or an allowed one.
func (o *Origins) Allows(origin string) bool {
	if loopbackOrigin(origin) {
		return true
	}
	if o == nil || origin == "" {
		return false
	}
	if o.exact[origin] {
		return true
	}
	if scheme, rest, ok := strings.Cut(origin, "://"); ok && rest != "" && !strings.ContainsAny(rest, "/?#@") {
		return o.schemes[strings.ToLower(scheme)]
	}
	return false
}

// Guard refuses requests whose Host is not a loopback address (DNS
// rebinding) or whose Origin the rule does not allow, with 403. Requests
// without an Origin (programs: curl, SDK clients, the TUI) pass.
func (o *Origins) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isLoopbackHost(r.Host) {
			http.Error(w, "forbidden: Host must be a loopback address", http.StatusForbidden)
			return
		}
		// "null" is what sandboxed frames and data: URLs of any site send.
		if origin := r.Header.Get("Origin"); origin != "" && !o.Allows(origin) {
			http.Error(w, "forbidden: Origin "+quoteOrigin(origin)+" is not a loopback address; a host page at another origin "+
				"(a webview, an app:// shell) must be added to http.allowedOrigins in genui.json or with --allowed-origins", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// quoteOrigin shows an Origin header in an error, bounded.
func quoteOrigin(o string) string {
	if len(o) > 200 {
		o = o[:200] + "..."
	}
	return fmt.Sprintf("%q", o)
}

// Origins is the server's Origin rule (loopback plus Options.AllowedOrigins),
// for the side server's other endpoints.
func (s *Server) Origins() *Origins { return s.origins }
