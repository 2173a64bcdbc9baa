package upstream

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/internal/testenv"
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
// to do, and its hostile description is escaped on the page; an answer
// with another state (a page probing local ports) is ignored, code or
// refusal, and the real one still comes through.
func TestRedirectHandler(t *testing.T) {
	got := make(chan callback, 1)
	h := redirectHandler(got, "s1")
	for _, q := range []string{"code=evil&state=other", "error=access_denied", "code=evil"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/callback?"+q, nil))
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), "Not the sign-in") {
			t.Errorf("%s: %d %s", q, rec.Code, rec.Body)
		}
		select {
		case cb := <-got:
			t.Fatalf("%s was handed over: %+v", q, cb)
		default:
		}
	}
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
	h = redirectHandler(got, "s")
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

// TestResourceMetadataKeptOnlyOnTheUpstreamsOrigin: the resource_metadata
// a 401 names is read as a parameter (not the same letters inside an
// error_description) and kept, and used, only on the upstream's own
// origin: one on another would send the refresh token and client secret
// there.
func TestResourceMetadataKeptOnlyOnTheUpstreamsOrigin(t *testing.T) {
	const base = "https://mcp.example.com/mcp"
	for _, tt := range []struct{ challenge, want string }{
		{`Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"`, "https://mcp.example.com/.well-known/oauth-protected-resource"},
		{`Bearer error="invalid_token", resource_metadata=https://mcp.example.com/prm`, "https://mcp.example.com/prm"},
		{`Bearer resource_metadata="https://evil.example/prm"`, ""},
		{`Bearer resource_metadata="http://mcp.example.com/prm"`, ""},
		{`Bearer error_description="see resource_metadata=https://mcp.example.com/x"`, ""},
		{`Bearer error_description="a \"quoted\" resource_metadata=https://mcp.example.com/x", resource_metadata="https://mcp.example.com/real"`, "https://mcp.example.com/real"},
		{`Bearer realm="x"`, ""},
	} {
		if got := sameOrigin(resourceMetadataURL([]string{tt.challenge}), base); got != tt.want {
			t.Errorf("%s: kept %q, want %q", tt.challenge, got, tt.want)
		}
	}
	// A file of an older genui that kept another origin's URL: discovery
	// does not go there.
	var evilHits atomic.Int32
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { evilHits.Add(1); http.NotFound(w, r) }))
	defer evil.Close()
	up := httptest.NewServer(http.NotFoundHandler())
	defer up.Close()
	a := newAuthFlow(OAuth{TokenFile: filepath.Join(t.TempDir(), "a.json")}, up.URL+"/mcp", slog.New(slog.DiscardHandler))
	h := a.newHandler(authRecord{ClientID: "c", ResourceMetadata: evil.URL + "/prm"}, "http://127.0.0.1:1/callback")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = h.GetServerMetadata(ctx)
	if n := evilHits.Load(); n != 0 {
		t.Errorf("discovery asked another origin %d times", n)
	}
}

// TestAuthAnswersAreCapped: an answer of the sign-in's HTTP (discovery,
// registration, tokens) longer than maxAuthBody fails with a clear error
// instead of being read whole; one of exactly the limit reads whole. A
// long error is cut in the auth state with the rest in the log.
func TestAuthAnswersAreCapped(t *testing.T) {
	size := maxAuthBody
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat("x", size)))
	}))
	defer srv.Close()
	a := newAuthFlow(OAuth{TokenFile: filepath.Join(t.TempDir(), "a.json")}, srv.URL+"/mcp", slog.New(slog.DiscardHandler))
	read := func() (int, error) {
		resp, err := a.client.Get(srv.URL + "/.well-known/oauth-authorization-server")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return len(b), err
	}
	if n, err := read(); err != nil || n != size {
		t.Fatalf("an answer of the limit: %d bytes, %v", n, err)
	}
	size = maxAuthBody + 10
	if n, err := read(); err == nil || !strings.Contains(err.Error(), "longer than") || n > maxAuthBody {
		t.Fatalf("an answer past the limit: %d bytes, %v", n, err)
	}
	long := strings.Repeat("é", maxAuthMessage)
	if m := shownMessage(long); len(m) > maxAuthMessage+100 || !utf8.ValidString(m) || !strings.Contains(m, "in genui's log") {
		t.Errorf("a long message shown as %d bytes: %q", len(m), m[len(m)-80:])
	}
	if m := shownMessage("short"); m != "short" {
		t.Errorf("a short message changed: %q", m)
	}
}

// TestManyRefusalsStartOneSignIn: requests refused at once (each a 401)
// start one sign-in, not one each (each would listen for the redirect and
// open the browser); a sign-in started by the user replaces it once the
// old one has let its redirect port go.
func TestManyRefusalsStartOneSignIn(t *testing.T) {
	// The authorization server never answers discovery within the test:
	// the sign-in stays in progress.
	hold := make(chan struct{})
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		select {
		case <-hold:
		case <-r.Context().Done():
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	defer close(hold)
	a := newAuthFlow(OAuth{TokenFile: filepath.Join(t.TempDir(), "a.json"), RedirectPort: freeLoopbackPort(t)}, srv.URL+"/mcp", slog.New(slog.DiscardHandler))
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() { defer wg.Done(); a.unauthorized() }()
	}
	wg.Wait()
	a.mu.Lock()
	n, done := a.signIns, a.done
	a.mu.Unlock()
	if n != 1 {
		t.Fatalf("20 refusals at once started %d sign-ins, want 1", n)
	}
	// The first is at discovery (past its listen), then the user signs in
	// again: the first ends, and the second listens on the same configured
	// port and gets to discovery (it failed "address already in use").
	if !testenvUntil(10*time.Second, func() bool { return asked.Load() >= 1 }) {
		t.Fatal("the first sign-in did not get to discovery")
	}
	before := asked.Load()
	a.startSignIn()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the replaced sign-in did not end within 10 s")
	}
	if !testenvUntil(10*time.Second, func() bool { return asked.Load() > before || a.snapshot().Status == contract.AuthFailed }) {
		t.Fatalf("the second sign-in did not get to discovery: %+v", a.snapshot())
	}
	if st := a.snapshot(); st.Status == contract.AuthFailed {
		t.Fatalf("the second sign-in failed: %s", st.Message)
	}
	_ = a.signOut()
}

// TestRefreshAfterSignOutIsNotKept: a token a handler saves after the
// user signed out (a refresh that was in flight) is dropped, so a restart
// does not come up signed in again; a handler made after the sign-out
// saves as usual.
func TestRefreshAfterSignOutIsNotKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.json")
	a := newAuthFlow(OAuth{TokenFile: path}, "https://mcp.example.com/mcp", slog.New(slog.DiscardHandler))
	ctx := context.Background()
	old := a.store.view()
	if err := old.SaveToken(ctx, &transport.Token{AccessToken: "at-1", RefreshToken: "rt-1", ExpiresIn: 60, ExpiresAt: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if err := a.signOut(); err != nil {
		t.Fatal(err)
	}
	if err := old.SaveToken(ctx, &transport.Token{AccessToken: "at-2", RefreshToken: "rt-2", ExpiresIn: 60, ExpiresAt: time.Now().Add(time.Minute)}); err == nil {
		t.Errorf("a save from before the sign-out was taken")
	}
	if g, _ := openTokenFile(path); g.record().Token != nil {
		t.Fatalf("the file holds a token after the sign-out: %+v", g.record().Token)
	}
	if err := a.store.view().SaveToken(ctx, &transport.Token{AccessToken: "at-3", ExpiresIn: 60, ExpiresAt: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if g, _ := openTokenFile(path); g.record().Token == nil || g.record().Token.AccessToken != "at-3" {
		t.Fatalf("a sign-in after the sign-out was not kept: %+v", g.record().Token)
	}
}

// TestHostileExpiresIn: an expires_in so large that the handler's expiry
// overflowed into the past is kept as a bounded lifetime from now, so the
// token is not refreshed before every request.
func TestHostileExpiresIn(t *testing.T) {
	f, err := openTokenFile(filepath.Join(t.TempDir(), "a.json"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	huge := int64(1e12)
	overflowed := time.Now().Add(time.Duration(huge) * time.Second) // wraps
	if err := f.SaveToken(ctx, &transport.Token{AccessToken: "at", ExpiresIn: huge, ExpiresAt: overflowed}); err != nil {
		t.Fatal(err)
	}
	tok, err := f.GetToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tok.IsExpired() || !tok.ExpiresAt.After(time.Now().Add(300*24*time.Hour)) {
		t.Errorf("a huge expires_in reads as expiring at %v", tok.ExpiresAt)
	}
}

func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func testenvUntil(d time.Duration, cond func() bool) bool {
	return testenv.Until(d, cond)
}

// TestSignInTextIsSafeToPrint: an authorization server's refusal or error
// body reaches the state (and `genui serve`'s banner, the TUI) as one line
// without escape sequences or bidi overrides; a secret of the
// configuration in a message or a step's error is hidden in State(), and
// the authorization URL is left whole to be opened.
func TestSignInTextIsSafeToPrint(t *testing.T) {
	hostile := "access denied\x1b]0;pwned\x07\x1b[2J\u202eevil\nsecond line\tend"
	got := shownMessage((&refusedError{code: "access_denied", description: hostile}).Error())
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\n", "\t"} {
		if strings.Contains(got, bad) {
			t.Errorf("the message keeps %q: %q", bad, got)
		}
	}
	if !strings.Contains(got, "access denied]0;pwned[2Jevil second line end") {
		t.Errorf("the message lost its words: %q", got)
	}
	hide := func(s string) string { return strings.ReplaceAll(s, "SECRET-1", "<from ${env:T}>") }
	c := New(Config{URL: "http://127.0.0.1:1/mcp?key=SECRET-1", Transport: TransportHTTP, Logger: slog.New(slog.DiscardHandler), Redact: hide})
	auth := &contract.AuthState{Status: contract.AuthFailed, Message: "failed for http://127.0.0.1:1/mcp?key=SECRET-1",
		AuthorizationURL: "http://127.0.0.1:1/authorize?client_id=SECRET-1",
		Steps:            []contract.AuthStep{{Error: "Get http://127.0.0.1:1/?key=SECRET-1: refused"}}}
	st := c.shown(contract.UpstreamState{Auth: auth})
	if strings.Contains(st.Auth.Message+st.Auth.Steps[0].Error, "SECRET-1") {
		t.Errorf("State shows the secret: %+v", st.Auth)
	}
	if st.Auth.AuthorizationURL != auth.AuthorizationURL || !strings.Contains(auth.Message, "SECRET-1") {
		t.Errorf("the authorization URL changed (%q) or the flow's own state was redacted in place", st.Auth.AuthorizationURL)
	}
}
