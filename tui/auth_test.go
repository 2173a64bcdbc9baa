package tui

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

func (s *hostStub) SignIn(ctx context.Context) (contract.AuthState, error) {
	return contract.AuthState{Status: contract.AuthNeeded}, s.record("SignIn")
}

func (s *hostStub) SignOut(ctx context.Context) (contract.AuthState, error) {
	return contract.AuthState{Status: contract.AuthSignedOut}, s.record("SignOut")
}

// TestUpstreamSignIn: an upstream waiting for its OAuth sign-in shows the
// authorization URL under the header; the palette offers sign in, sign out
// and the details, which show the client, scopes, expiry and the last
// steps with their HTTP status; signed in, the header says as whom (the
// name cleaned and cut) and how long the token has left, and so do the
// details.
func TestUpstreamSignIn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hs := newHostStub()
		now := time.Now()
		authURL := "http://127.0.0.1:4000/authorize?client_id=c-1&code_challenge=xyz&code_challenge_method=S256"
		hs.state.Upstream = contract.UpstreamState{Transport: "http", Target: "http://127.0.0.1:4000/mcp", LastError: "the upstream needs sign-in (HTTP 401)",
			Auth: &contract.AuthState{Status: contract.AuthSigningIn, AuthorizationURL: authURL, Issuer: "http://127.0.0.1:4000/", ClientID: "c-1", Registered: true,
				Steps: []contract.AuthStep{
					{At: now, Step: "protected resource metadata", Method: "GET", URL: "http://127.0.0.1:4000/.well-known/oauth-protected-resource/mcp", Status: 200},
					{At: now, Step: "client registration", Method: "POST", URL: "http://127.0.0.1:4000/register", Status: 201},
				}}}
		d := newDriver(t, hs.stubAPI, func(o *Options) { o.API = hs })
		defer d.finish()
		defer hs.stopAll()

		mustContain(t, d.screen(), "🔑 sign in to the upstream: open this URL in a browser", " "+authURL, "signing-in")

		d.key(":")
		d.typeText("sign in")
		mustContain(t, d.screen(), "upstream: sign in (OAuth, in the browser)")
		d.key("enter")
		synctest_wait(d)
		if c := hs.called("SignIn"); len(c) != 1 {
			t.Fatalf("the palette's sign in: %v", c)
		}
		mustContain(t, d.m.status, "sign-in started")

		d.key(":")
		d.typeText("sign-in details")
		d.key("enter")
		synctest_wait(d)
		mustContain(t, d.screen(), "Upstream sign-in (OAuth)", "c-1 (registered dynamically)",
			"200  protected resource metadata", "201  client registration           POST http://127.0.0.1")
		d.key("esc")

		d.key(":")
		d.typeText("sign out")
		d.key("enter")
		synctest_wait(d)
		if c := hs.called("SignOut"); len(c) != 1 {
			t.Fatalf("the palette's sign out: %v", c)
		}
		mustContain(t, d.m.status, "signed out of the upstream")

		// Signed in: no attention line; the header tells the time left.
		hs.mu.Lock()
		hs.state.Upstream.Connected, hs.state.Upstream.LastError, hs.state.Upstream.Target = true, "", "http://h/mcp"
		hs.state.Upstream.Auth = &contract.AuthState{Status: contract.AuthSignedIn, ExpiresAt: d.m.now().Add(90 * time.Second), Scopes: []string{"mcp:tools"}}
		st := hs.state
		hs.mu.Unlock()
		d.send(stateMsg{gen: d.m.subGen, st: st})
		synctest_wait(d)
		s := d.screen()
		mustContain(t, s, "signed in (1m30s left)")
		mustNotContain(t, s, "🔑", "signed in as")

		// The tokens name the user: the header and the details say so.
		hs.mu.Lock()
		hs.state.Upstream.Auth = &contract.AuthState{Status: contract.AuthSignedIn, Account: "ada@example.com", ExpiresAt: d.m.now().Add(90 * time.Second)}
		st = hs.state
		hs.mu.Unlock()
		d.send(stateMsg{gen: d.m.subGen, st: st})
		synctest_wait(d)
		mustContain(t, d.screen(), "signed in as ada@example.com (1m") // cut at 100 cells
		d.key(":")
		d.typeText("sign-in details")
		d.key("enter")
		synctest_wait(d)
		// The header's and the dialog's.
		if s := d.screen(); strings.Count(s, "signed in as ada@example.com") != 2 {
			t.Errorf("the sign-in details do not name the account:\n%s", s)
		}
		d.key("esc")

		// A long upstream URL gives up its middle; the sign-in word stays whole.
		hs.mu.Lock()
		hs.state.Upstream.Target = "https://mcp.internal.example.com/tenants/acme-corporation/workspaces/production/servers/inventory/mcp"
		st = hs.state
		hs.mu.Unlock()
		d.send(stateMsg{gen: d.m.subGen, st: st})
		d.send(tea.WindowSizeMsg{Width: 140, Height: 30})
		synctest_wait(d)
		mustContain(t, d.screen(), "signed in as ada@example.com (1m30s left)", "https://mcp.", "…", "inventory/mcp")
		// Too narrow for both: the upstream keeps its ends, the rest is cut.
		d.send(tea.WindowSizeMsg{Width: 100, Height: 30})
		synctest_wait(d)
		mustContain(t, d.screen(), "upstream ● https:/…", "/mcp · signed in as ada")
	})
}

// TestAuthSummaryAccount: the header's word on the sign-in names the
// account, cleaned of control characters and cut to maxHeaderAccount
// cells; without a name it says "signed in" as before.
func TestAuthSummaryAccount(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		a    contract.AuthState
		want string
	}{
		{contract.AuthState{Status: contract.AuthSignedIn}, "signed in"},
		{contract.AuthState{Status: contract.AuthSignedIn, Account: "ada"}, "signed in as ada"},
		{contract.AuthState{Status: contract.AuthSignedIn, Account: "ada", ExpiresAt: now.Add(time.Minute)}, "signed in as ada (1m0s left)"},
		{contract.AuthState{Status: contract.AuthSignedIn, Account: "a\x1b[2Jda"}, "signed in as a·[2Jda"},
		{contract.AuthState{Status: contract.AuthSignedIn, Account: strings.Repeat("x", 60)}, "signed in as " + strings.Repeat("x", maxHeaderAccount-1) + "…"},
		{contract.AuthState{Status: contract.AuthNeeded, Account: "ada"}, "needed"},
	} {
		if got := authSummary(&c.a, now); got != c.want {
			t.Errorf("authSummary(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
}
