package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
)

// oauthServer is testdata/oauth_server.mjs: an MCP server behind the
// TypeScript SDK's OAuth authorization server (its stats say what it saw).
type oauthServer struct {
	port int
	out  *syncBuffer
}

func (s *oauthServer) mcpURL() string { return "http://127.0.0.1:" + strconv.Itoa(s.port) + "/mcp" }

// oauthStats is the server's GET /stats.
type oauthStats struct {
	Registrations  int `json:"registrations"`
	Authorizations int `json:"authorizations"`
	Denials        int `json:"denials"`
	CodeExchanges  int `json:"codeExchanges"`
	Refreshes      int `json:"refreshes"`
	PRM            int `json:"prm"`
	ASMetadata     int `json:"asMetadata"`
	RejectedTokens int `json:"rejectedTokens"`
	ToolCalls      int `json:"toolCalls"`
}

func (s *oauthServer) stats(t *testing.T) oauthStats {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(s.port) + "/stats")
	if err != nil {
		t.Fatalf("oauth server stats: %v", err)
	}
	defer resp.Body.Close()
	var st oauthStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatalf("oauth server stats: %v", err)
	}
	return st
}

// startOAuthServer runs testdata/oauth_server.mjs on a free port with
// access tokens that last ttl seconds, until the test ends.
func startOAuthServer(t *testing.T, ttl int) *oauthServer {
	t.Helper()
	nm := filepath.Join(testenv.NPMDir(), "node_modules")
	if _, err := os.Stat(filepath.Join(nm, "@modelcontextprotocol", "sdk", "dist", "esm", "server", "auth", "router.js")); err != nil {
		testenv.Missingf(t, "npm package @modelcontextprotocol/sdk: %v", err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "oauth_server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	cmd := exec.Command(testenv.NodePath(t), script, nm, strconv.Itoa(port), strconv.Itoa(ttl))
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = t.TempDir()
	p := startGroup(t, cmd, "the OAuth test server")
	out := p.out
	t.Cleanup(func() {
		p.kill(syscall.SIGKILL)
		if t.Failed() {
			t.Logf("OAuth test server output:\n%s", tail(out.String(), 4096))
		}
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	if !testenv.Until(30*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatalf("OAuth test server not listening on %s within 30 s:\n%s", addr, out.String())
	}
	return &oauthServer{port: port, out: out}
}

// waitAuth polls /state until cond holds for it (30 s, or bound).
// callWhoami calls the OAuth test server's whoami tool through genui's API
// and returns its result; the tool list may follow the connection by a
// moment, so a refused call is tried again for up to 30 s.
func callWhoami(t *testing.T, api *apiclient.Client, what string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var res contract.CallResult
	var err error
	testenv.Until(30*time.Second, func() bool {
		res, err = api.CallTool(ctx, contract.CallRequest{Name: "whoami"})
		return err == nil
	})
	if err != nil || res.IsError {
		t.Fatalf("%s: whoami through genui: %v %s", what, err, res.Result)
	}
	return string(res.Result)
}

func waitAuth(t *testing.T, api *apiclient.Client, what string, bound time.Duration, cond func(contract.UpstreamState) bool) contract.UpstreamState {
	t.Helper()
	var last contract.UpstreamState
	ok := testenv.Until(bound, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		st, err := api.State(ctx)
		if err != nil {
			return false
		}
		last = st.Upstream
		return cond(last)
	})
	if !ok {
		b, _ := json.MarshalIndent(last, "", "  ")
		t.Fatalf("%s: not within %s; upstream state:\n%s", what, bound, b)
	}
	return last
}

// stepStatus is the HTTP status of the last auth step named step (0: none).
func stepStatus(a *contract.AuthState, step string) int {
	status := 0
	for _, s := range a.Steps {
		if s.Step == step {
			status = s.Status
		}
	}
	return status
}

// TestOAuthUpstreamSignIn: genui serve in front of an MCP server protected
// by OAuth 2.1 (the TypeScript SDK's authorization server, tokens valid 4 s)
// gets its 401, discovers the protected resource and authorization server
// metadata, registers a client dynamically and waits at an authorization
// URL, which /state and the banner show; headless Chromium follows it,
// allows, and lands on genui's loopback redirect; genui exchanges the code
// (PKCE), connects, and a tool call goes through; /state and the attached
// TUI say who the user is signed in as (the id_token's preferred_username;
// the JWT access token names only the subject). Once the token has
// expired the next call refreshes it, still as the same user. The tokens
// are in DIR/auth with mode 0600 (the id_token not even there) and nowhere
// in the log, the output, /state or /variables. A second genui whose
// sign-in the user denies says so clearly and waits.
func TestOAuthUpstreamSignIn(t *testing.T) {
	t.Parallel()
	srv := startOAuthServer(t, 4)
	browser := browsertest.Start(t)
	mcpURL, dir, out := startServeOut(t, []string{noBrowser(t)}, "--upstream-url", srv.mcpURL())
	api := apiclient.New(strings.TrimSuffix(mcpURL, "/mcp"), nil)

	// Discovery and registration, then the URL to sign in at.
	up := waitAuth(t, api, "an authorization URL in /state", 60*time.Second, func(u contract.UpstreamState) bool {
		return u.Auth != nil && u.Auth.Status == contract.AuthSigningIn && u.Auth.AuthorizationURL != ""
	})
	a := up.Auth
	for step, want := range map[string]int{"protected resource metadata": 200, "authorization server metadata": 200, "client registration": 201} {
		if got := stepStatus(a, step); got != want {
			t.Errorf("auth step %q: HTTP %d, want %d (steps %+v)", step, got, want, a.Steps)
		}
	}
	if !a.Registered || a.ClientID == "" || a.Issuer != "http://127.0.0.1:"+strconv.Itoa(srv.port)+"/" {
		t.Errorf("auth state after registration: %+v", a)
	}
	if !strings.Contains(a.AuthorizationURL, "code_challenge_method=S256") || !strings.Contains(a.AuthorizationURL, "client_id="+a.ClientID) {
		t.Errorf("authorization URL without PKCE or the registered client: %s", a.AuthorizationURL)
	}
	if st := srv.stats(t); st.Registrations != 1 || st.PRM == 0 || st.ASMetadata == 0 {
		t.Errorf("server saw %+v, want one registration and both metadata documents fetched", st)
	}
	testenv.Eventually(t, 30*time.Second, "the banner saying sign-in is needed, with the URL", func() bool {
		return strings.Contains(out.String(), "sign in") && strings.Contains(out.String(), a.AuthorizationURL)
	})

	// The browser signs in: consent page, Allow, genui's redirect page.
	browsertest.Run(t, browser, 30*time.Second, chromedp.Navigate(a.AuthorizationURL))
	pollSignInPage(t, browser, `!!document.getElementById("allow")`)
	browsertest.Run(t, browser, 10*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("allow").click()`))
	pollSignInPage(t, browser, `location.host.startsWith("127.0.0.1:") && location.pathname === "/callback" && document.getElementById("result") && document.getElementById("result").textContent === "Signed in"`)

	up = waitAuth(t, api, "signed in and connected", 60*time.Second, func(u contract.UpstreamState) bool {
		return u.Connected && u.Auth != nil && u.Auth.Status == contract.AuthSignedIn
	})
	if got := stepStatus(up.Auth, "token exchange"); got != 200 {
		t.Errorf("token exchange step: HTTP %d, want 200 (steps %+v)", got, up.Auth.Steps)
	}
	if up.Auth.ExpiresAt.IsZero() || !up.Auth.RefreshToken {
		t.Errorf("signed-in state without expiry or refresh token: %+v", up.Auth)
	}
	// The id_token's name (the access token's claims alone give "user-1842").
	const account = "ada.lovelace"
	if up.Auth.Account != account {
		t.Errorf("signed in as %q in /state, want %q (the id_token's preferred_username)", up.Auth.Account, account)
	}

	call := func(what string) string {
		t.Helper()
		return callWhoami(t, api, what)
	}
	if got := call("first call"); !strings.Contains(got, "client "+up.Auth.ClientID) {
		t.Errorf("whoami answered %s, want the registered client %s", got, up.Auth.ClientID)
	}

	// After the access token's expiry the next call refreshes it first.
	expiry := up.Auth.ExpiresAt
	testenv.Eventually(t, 30*time.Second, "the access token to expire", func() bool { return time.Now().After(expiry.Add(500 * time.Millisecond)) })
	if got := call("call after expiry"); !strings.Contains(got, "client "+up.Auth.ClientID) {
		t.Errorf("whoami after expiry answered %s", got)
	}
	up = waitAuth(t, api, "a refresh in the auth state", 30*time.Second, func(u contract.UpstreamState) bool {
		return u.Auth != nil && u.Auth.Refreshes >= 1 && u.Auth.ExpiresAt.After(expiry)
	})
	if got := stepStatus(up.Auth, "token refresh"); got != 200 {
		t.Errorf("token refresh step: HTTP %d, want 200 (steps %+v)", got, up.Auth.Steps)
	}
	if up.Auth.Account != account {
		t.Errorf("after a refresh (no id_token) signed in as %q, want %q still", up.Auth.Account, account)
	}
	if st := srv.stats(t); st.Refreshes < 1 || st.CodeExchanges != 1 || st.ToolCalls < 2 {
		t.Errorf("server saw %+v, want one code exchange, a refresh and two calls", st)
	}

	// The tokens: kept 0600 in DIR/auth, shown nowhere.
	files, _ := filepath.Glob(filepath.Join(dir, "auth", "*.json"))
	if len(files) != 1 {
		t.Fatalf("auth files in %s: %v, want one", dir, files)
	}
	fi, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", files[0], fi.Mode().Perm())
	}
	var rec struct {
		Token struct {
			AccessToken  string `json:"access_token"`
			RefreshToken string `json:"refresh_token"`
		} `json:"token"`
	}
	b, _ := os.ReadFile(files[0])
	if err := json.Unmarshal(b, &rec); err != nil || rec.Token.AccessToken == "" || rec.Token.RefreshToken == "" {
		t.Fatalf("auth file without tokens (%v): %d bytes", err, len(b))
	}
	if strings.Contains(string(b), "id_token") || strings.Count(rec.Token.AccessToken, ".") != 2 {
		t.Errorf("the auth file keeps the id_token, or the access token is not the server's JWT")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stateJSON, _ := json.Marshal(mustState(t, ctx, api))
	vars, err := api.Variables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	varsJSON, _ := json.Marshal(vars)
	traffic, err := api.RecentTraffic(ctx, contract.TrafficQuery{})
	if err != nil {
		t.Fatal(err)
	}
	trafficJSON, _ := json.Marshal(traffic)
	logText, _ := os.ReadFile(filepath.Join(dir, "log", "genui.log"))
	for name, text := range map[string]string{"/state": string(stateJSON), "/variables": string(varsJSON), "the traffic": string(trafficJSON), "genui.log": string(logText), "the serve output": out.String()} {
		for what, tok := range map[string]string{"access token": rec.Token.AccessToken, "refresh token": rec.Token.RefreshToken} {
			if strings.Contains(text, tok) {
				t.Errorf("%s shows the %s", name, what)
			}
		}
	}

	// The workbench attached to it: the sign-in beside the upstream and in
	// its details (from the palette), no token on the screen.
	x := startTUI(t, 160, 45, t.TempDir(), "tui", "--attach", "--dir", dir)
	screens := []string{x.waitFor("the signed-in upstream in the TUI's header", 60*time.Second, contains("attached", "signed in as "+account+" ("))}
	x.keys(":")
	x.text("sign-in details")
	x.keys("Enter")
	screens = append(screens, x.waitFor("the sign-in details", 30*time.Second, contains("Upstream sign-in (OAuth)", "│ signed in as "+account, "registered dynamically", "200  token refresh")))
	for _, screen := range screens {
		if strings.Contains(screen, rec.Token.AccessToken) || strings.Contains(screen, rec.Token.RefreshToken) {
			t.Errorf("the TUI shows a token:\n%s", screen)
		}
	}
	x.esc()

	// The server revokes the access token before it expires: the 401 makes
	// genui refresh it and send the call again.
	refreshes := up.Auth.Refreshes
	resp, err := http.Post("http://127.0.0.1:"+strconv.Itoa(srv.port)+"/revoke-access", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := call("call after the server revoked the token"); !strings.Contains(got, "client "+up.Auth.ClientID) {
		t.Errorf("whoami after revocation answered %s", got)
	}
	up = waitAuth(t, api, "a refresh after the 401", 30*time.Second, func(u contract.UpstreamState) bool {
		return u.Auth != nil && u.Auth.Refreshes > refreshes
	})

	// Sign out: the tokens are gone and genui waits; sign in again from the
	// API: the same registered client, a new code flow.
	if a, err := api.SignOut(ctx); err != nil || a.Status != contract.AuthSignedOut {
		t.Fatalf("sign out: %+v %v", a, err)
	}
	waitAuth(t, api, "disconnected after sign-out", 30*time.Second, func(u contract.UpstreamState) bool { return !u.Connected })
	if b, _ := os.ReadFile(files[0]); strings.Contains(string(b), "access_token") || strings.Contains(string(b), account) {
		t.Errorf("the auth file keeps a token or the account after sign-out")
	}
	if a := mustState(t, ctx, api).Upstream.Auth; a == nil || a.Account != "" {
		t.Errorf("signed out, /state still names the account: %+v", a)
	}
	if _, err := api.SignIn(ctx); err != nil {
		t.Fatalf("sign in: %v", err)
	}
	again := waitAuth(t, api, "a new authorization URL after sign in", 30*time.Second, func(u contract.UpstreamState) bool {
		return u.Auth != nil && u.Auth.Status == contract.AuthSigningIn && u.Auth.AuthorizationURL != "" && u.Auth.AuthorizationURL != a.AuthorizationURL
	})
	browsertest.Run(t, browser, 30*time.Second, chromedp.Navigate(again.Auth.AuthorizationURL))
	pollSignInPage(t, browser, `!!document.getElementById("allow")`)
	browsertest.Run(t, browser, 10*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("allow").click()`))
	pollSignInPage(t, browser, `location.pathname === "/callback" && document.getElementById("result") && document.getElementById("result").textContent === "Signed in"`)
	waitAuth(t, api, "connected again, as the same user", 60*time.Second, func(u contract.UpstreamState) bool {
		return u.Connected && u.Auth != nil && u.Auth.Status == contract.AuthSignedIn && u.Auth.Account == account
	})
	call("call after signing in again")
	// The registration is reused when its redirect port is free again; when
	// another socket took it meanwhile (the port was an ephemeral one, which
	// an outgoing connection can land on), genui registers anew for a new
	// port, as it should.
	wantRegistrations := 1
	if redirectPort(t, again.Auth.AuthorizationURL) != redirectPort(t, a.AuthorizationURL) {
		wantRegistrations++
	} else if again.Auth.ClientID != a.ClientID {
		t.Errorf("signing in again on the registered port registered a new client (%s, was %s)", again.Auth.ClientID, a.ClientID)
	}
	if st := srv.stats(t); st.Registrations != wantRegistrations || st.CodeExchanges != 2 {
		t.Errorf("server saw %+v, want %d registration(s) (the one reused unless its port was taken) and a second code exchange", st, wantRegistrations)
	}

	// The server revokes the refresh token too: the refresh fails, so genui
	// runs the sign-in again by itself.
	signedIn := waitAuth(t, api, "signed in", 10*time.Second, func(u contract.UpstreamState) bool { return u.Auth != nil }).Auth
	resp, err = http.Post("http://127.0.0.1:"+strconv.Itoa(srv.port)+"/revoke-all", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
	_, err = api.CallTool(cctx, contract.CallRequest{Name: "whoami"})
	ccancel()
	if err == nil || !strings.Contains(err.Error(), "sign-in") {
		t.Errorf("a call whose token cannot be refreshed: %v, want an error saying sign-in is needed", err)
	}
	up = waitAuth(t, api, "a new sign-in after the failed refresh", 30*time.Second, func(u contract.UpstreamState) bool {
		return u.Auth != nil && u.Auth.Status == contract.AuthSigningIn && u.Auth.AuthorizationURL != "" && u.Auth.AuthorizationURL != signedIn.AuthorizationURL
	})
	if got := stepStatus(up.Auth, "token refresh"); got != 400 {
		t.Errorf("the failed refresh: HTTP %d, want 400 (steps %+v)", got, up.Auth.Steps)
	}
	browsertest.Run(t, browser, 30*time.Second, chromedp.Navigate(up.Auth.AuthorizationURL))
	pollSignInPage(t, browser, `!!document.getElementById("allow")`)
	browsertest.Run(t, browser, 10*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("allow").click()`))
	waitAuth(t, api, "connected after signing in again", 60*time.Second, func(u contract.UpstreamState) bool {
		return u.Connected && u.Auth != nil && u.Auth.Status == contract.AuthSignedIn
	})
	call("call after the new sign-in")

	// The user denies: a clear refusal, and genui waits for a new sign-in.
	before := srv.stats(t)
	mcp2, _, _ := startServeOut(t, []string{noBrowser(t)}, "--upstream-url", srv.mcpURL())
	api2 := apiclient.New(strings.TrimSuffix(mcp2, "/mcp"), nil)
	up2 := waitAuth(t, api2, "the second genui's authorization URL", 60*time.Second, func(u contract.UpstreamState) bool {
		return u.Auth != nil && u.Auth.AuthorizationURL != ""
	})
	browsertest.Run(t, browser, 30*time.Second, chromedp.Navigate(up2.Auth.AuthorizationURL))
	pollSignInPage(t, browser, `!!document.getElementById("deny")`)
	browsertest.Run(t, browser, 10*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("deny").click()`))
	pollSignInPage(t, browser, `location.pathname === "/callback" && document.getElementById("result") && document.getElementById("result").textContent === "Sign-in refused" && document.body.textContent.includes("access_denied")`)
	up2 = waitAuth(t, api2, "the refusal in /state", 30*time.Second, func(u contract.UpstreamState) bool {
		return u.Auth != nil && u.Auth.Status == contract.AuthRefused
	})
	if m := up2.Auth.Message; !strings.Contains(m, "refused the sign-in (access_denied): the user denied access") || !strings.Contains(m, "sign in again") {
		t.Errorf("refusal message %q does not say what happened and what to do", m)
	}
	if up2.Connected {
		t.Errorf("the second genui is connected though its sign-in was refused")
	}
	if st := srv.stats(t); st.Denials != before.Denials+1 || st.CodeExchanges != before.CodeExchanges || st.Registrations != before.Registrations+1 {
		t.Errorf("server saw %+v (before the second genui %+v), want the second genui's own registration, one denial and no new code exchange", st, before)
	}
	if before.Denials != 0 || before.CodeExchanges != 3 {
		t.Errorf("before the second genui the server saw %+v, want no denial and three code exchanges", before)
	}
}

// redirectPort is the port of the redirect_uri an authorization URL names.
func redirectPort(t *testing.T, authURL string) string {
	t.Helper()
	u, err := url.Parse(authURL)
	if err != nil {
		t.Fatalf("authorization URL %q: %v", authURL, err)
	}
	r, err := url.Parse(u.Query().Get("redirect_uri"))
	if err != nil || r.Port() == "" {
		t.Fatalf("authorization URL %q names no redirect port", authURL)
	}
	return r.Port()
}

// pollSignInPage waits (30 s) until expr is true in the browser's page, across
// the navigations of the sign-in (consent page, redirects).
func pollSignInPage(t *testing.T, browser context.Context, expr string) {
	t.Helper()
	var last string
	if !testenv.Until(30*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(browser, 5*time.Second)
		defer cancel()
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+expr+")"))
		if err != nil {
			return false
		}
		if !ok {
			last, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + " " + document.body.innerText`))
		}
		return ok
	}) {
		t.Fatalf("page: %s not true within 30 s; the page: %s", expr, last)
	}
}

// TestOAuthSSEUpstreamSignIn: the same sign-in to the server's legacy SSE
// endpoint: the 401 of its event stream starts it, the browser allows,
// genui connects and calls, and the call after the token's expiry
// refreshes it. A genui restarted on the same --dir connects with the
// tokens kept there and its banner says as whom it is signed in.
func TestOAuthSSEUpstreamSignIn(t *testing.T) {
	t.Parallel()
	srv := startOAuthServer(t, 4)
	browser := browsertest.Start(t)
	dir := filepath.Join(t.TempDir(), "ui")
	serveArgs := []string{"--upstream-url", "http://127.0.0.1:" + strconv.Itoa(srv.port) + "/sse", "--upstream-transport", "sse"}
	mcpURL, _, stop := startServeDir(t, dir, []string{noBrowser(t)}, serveArgs...)
	api := apiclient.New(strings.TrimSuffix(mcpURL, "/mcp"), nil)
	up := waitAuth(t, api, "an authorization URL in /state", 60*time.Second, func(u contract.UpstreamState) bool {
		return u.Auth != nil && u.Auth.Status == contract.AuthSigningIn && u.Auth.AuthorizationURL != ""
	})
	if got := stepStatus(up.Auth, "protected resource metadata"); got != 200 || !strings.Contains(up.Auth.AuthorizationURL, "resource=http%3A%2F%2F127.0.0.1%3A"+strconv.Itoa(srv.port)+"%2Fsse") {
		t.Errorf("discovery for the SSE resource: HTTP %d, %s", got, up.Auth.AuthorizationURL)
	}
	browsertest.Run(t, browser, 30*time.Second, chromedp.Navigate(up.Auth.AuthorizationURL))
	pollSignInPage(t, browser, `!!document.getElementById("allow")`)
	browsertest.Run(t, browser, 10*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("allow").click()`))
	pollSignInPage(t, browser, `location.pathname === "/callback" && document.getElementById("result") && document.getElementById("result").textContent === "Signed in"`)
	up = waitAuth(t, api, "signed in and connected over SSE", 60*time.Second, func(u contract.UpstreamState) bool {
		return u.Connected && u.Auth != nil && u.Auth.Status == contract.AuthSignedIn
	})
	call := func(what string) {
		t.Helper()
		if got := callWhoami(t, api, what); !strings.Contains(got, "client "+up.Auth.ClientID) {
			t.Fatalf("%s: whoami answered %s, want the registered client %s", what, got, up.Auth.ClientID)
		}
	}
	call("first call")
	expiry := up.Auth.ExpiresAt
	testenv.Eventually(t, 30*time.Second, "the access token to expire", func() bool { return time.Now().After(expiry.Add(500 * time.Millisecond)) })
	call("call after expiry")
	if st := srv.stats(t); st.Refreshes < 1 || st.CodeExchanges != 1 {
		t.Errorf("server saw %+v, want a refresh after the one code exchange", st)
	}

	// Restarted on the same DIR: no new sign-in; the account comes from
	// the token file (the refreshes since brought no id_token).
	stop()
	if err := os.Remove(filepath.Join(dir, "mcp-port")); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	mcpURL, out, _ := startServeDir(t, dir, []string{noBrowser(t)}, serveArgs...)
	api = apiclient.New(strings.TrimSuffix(mcpURL, "/mcp"), nil)
	up = waitAuth(t, api, "the restarted genui connected with the kept tokens", 60*time.Second, func(u contract.UpstreamState) bool {
		return u.Connected && u.Auth != nil && u.Auth.Status == contract.AuthSignedIn
	})
	if up.Auth.Account != "ada.lovelace" {
		t.Errorf("the restarted genui is signed in as %q, want ada.lovelace", up.Auth.Account)
	}
	testenv.Eventually(t, 30*time.Second, "the banner saying as whom genui is signed in", func() bool {
		return strings.Contains(out.String(), "upstream sign-in (OAuth): signed in as ada.lovelace\n")
	})
	call("call after the restart")
	if st := srv.stats(t); st.CodeExchanges != 1 || st.Registrations != 1 {
		t.Errorf("server saw %+v after the restart, want still the one registration and code exchange", st)
	}
}

func mustState(t *testing.T, ctx context.Context, api *apiclient.Client) contract.State {
	t.Helper()
	st, err := api.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// startServeOut is startServeEnv that also hands over the output (stdout
// and stderr: the banner).
func startServeOut(t *testing.T, env []string, extra ...string) (mcpURL, dir string, out *syncBuffer) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "ui")
	mcpURL, out, _ = startServeDir(t, dir, env, extra...)
	return mcpURL, dir, out
}

// startServeDir runs genui serve with --dir dir until stop (or the test's
// end; stop waits for it to exit).
func startServeDir(t *testing.T, dir string, env []string, extra ...string) (mcpURL string, out *syncBuffer, stop func()) {
	t.Helper()
	return startServeAt(t, t.TempDir(), dir, env, extra...)
}
