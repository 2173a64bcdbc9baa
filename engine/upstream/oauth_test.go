package upstream

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// TestTokenFile: the token file is written with mode 0600 (its folder
// 0700), read back by a new store, reports the token expired a fifth of its
// lifetime early (at most refreshAhead), and a damaged file says so and
// starts empty.
func TestTokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auth", "h.json")
	f, err := openTokenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := f.GetToken(ctx); !errors.Is(err, transport.ErrNoToken) {
		t.Fatalf("empty store: %v", err)
	}
	exp := time.Now().Add(10 * time.Second)
	if err := f.SaveToken(ctx, &transport.Token{AccessToken: "at-1", RefreshToken: "rt-1", ExpiresIn: 10, ExpiresAt: exp}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode: %v %v", fi.Mode(), err)
	}
	if di, err := os.Stat(filepath.Dir(path)); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("auth folder mode: %v %v", di.Mode(), err)
	}
	g, err := openTokenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := g.GetToken(ctx)
	if err != nil || tok.AccessToken != "at-1" || tok.RefreshToken != "rt-1" {
		t.Fatalf("read back: %+v %v", tok, err)
	}
	if want := exp.Add(-2 * time.Second); !tok.ExpiresAt.Equal(want) {
		t.Errorf("reported expiry %v, want a fifth of 10 s early (%v)", tok.ExpiresAt, want)
	}
	if err := g.SaveToken(ctx, &transport.Token{AccessToken: "at-2", ExpiresIn: 3600, ExpiresAt: exp}); err != nil {
		t.Fatal(err)
	}
	if tok, _ := g.GetToken(ctx); !tok.ExpiresAt.Equal(exp.Add(-refreshAhead)) {
		t.Errorf("an hour's token reported expiring %v, want %s early", tok.ExpiresAt, refreshAhead)
	}
	if g.expireAccess() {
		t.Errorf("expireAccess without a refresh token reported one")
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := openTokenFile(path)
	if err == nil || !strings.Contains(err.Error(), "unreadable") || !strings.Contains(err.Error(), "sign in again") {
		t.Fatalf("damaged file: %v", err)
	}
	if _, err := h.GetToken(ctx); !errors.Is(err, transport.ErrNoToken) {
		t.Fatalf("damaged file gives a token: %v", err)
	}
}

// TestRedirectHandler: the loopback redirect hands over the code once; an
// authorization server's refusal becomes a refusedError that says what
// to do, and its hostile description is escaped on the page.
func TestRedirectHandler(t *testing.T) {
	got := make(chan callback, 1)
	h := redirectHandler(got)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/callback?code=c1&state=s1", nil))
	if cb := <-got; cb.code != "c1" || cb.state != "s1" || cb.err != nil || rec.Code != 200 || !strings.Contains(rec.Body.String(), "Signed in") {
		t.Fatalf("code: %+v %d %s", cb, rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/callback?code=c2&state=s2", nil))
	select {
	case cb := <-got:
		t.Fatalf("a second redirect was handed over: %+v", cb)
	default:
	}

	got = make(chan callback, 1)
	h = redirectHandler(got)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/callback?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C/script%3E&state=s", nil))
	cb := <-got
	var refused *refusedError
	if !errors.As(cb.err, &refused) || refused.code != "access_denied" {
		t.Fatalf("refusal: %+v", cb)
	}
	if msg := cb.err.Error(); !strings.Contains(msg, "refused the sign-in (access_denied)") || !strings.Contains(msg, "sign in again") {
		t.Errorf("refusal message %q", msg)
	}
	if body := rec.Body.String(); rec.Code != 400 || strings.Contains(body, "<script>") || !strings.Contains(body, "&lt;script&gt;") {
		t.Errorf("refusal page %d: %s", rec.Code, body)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/favicon.ico", nil))
	if rec.Code != 404 {
		t.Errorf("another path: %d", rec.Code)
	}
}

// TestStepRecorderKeepsNoQuery: a recorded step has the URL without its
// query (which may hold a code) and the status.
func TestStepRecorderKeepsNoQuery(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) }))
	defer srv.Close()
	a := newAuthFlow(OAuth{TokenFile: filepath.Join(t.TempDir(), "a.json")}, srv.URL+"/mcp", slog.New(slog.DiscardHandler))
	req, _ := http.NewRequestWithContext(withStep(context.Background(), "token exchange"), http.MethodPost, srv.URL+"/token?code=secret-code", nil)
	resp, err := a.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	st := a.snapshot()
	if len(st.Steps) != 1 || st.Steps[0].Step != "token exchange" || st.Steps[0].Status != 201 || st.Steps[0].URL != srv.URL+"/token" {
		t.Fatalf("steps %+v", st.Steps)
	}
}

// TestRedirectListensBelowEphemeralPorts: the loopback redirect's port is
// chosen below the kernel's ephemeral range, where an outgoing connection
// cannot take it before the next sign-in reuses the registration.
func TestRedirectListensBelowEphemeralPorts(t *testing.T) {
	t.Parallel()
	var lc net.ListenConfig
	for range 5 {
		ln, err := listenRedirect(t.Context(), &lc)
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		if port < redirectPortLow || port > redirectPortHigh {
			t.Fatalf("redirect port %d outside %d-%d", port, redirectPortLow, redirectPortHigh)
		}
	}
}
