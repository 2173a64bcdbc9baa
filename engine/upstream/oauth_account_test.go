package upstream

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client/transport"
)

// testJWT is an unsigned-looking JWT with these claims (the signature is
// never checked: only shown).
func testJWT(t *testing.T, claims map[string]any) string {
	t.Helper()
	b, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc(b) + "." + enc([]byte("not-a-real-signature"))
}

// TestJWTAccount: the name a JWT's claims give, in the order
// preferred_username, email, name, sub; nothing from an opaque token, a
// malformed or encrypted one, or claims that are not strings; a huge claim
// cut to maxAccountRunes, control and format characters (an escape
// sequence, a bidi override) removed.
func TestJWTAccount(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	for _, c := range []struct {
		name, tok, want string
	}{
		{"preferred_username first", testJWT(t, map[string]any{"sub": "u-1", "name": "Ada L", "email": "ada@example.com", "preferred_username": "ada"}), "ada"},
		{"then email", testJWT(t, map[string]any{"sub": "u-1", "name": "Ada L", "email": "ada@example.com"}), "ada@example.com"},
		{"then name", testJWT(t, map[string]any{"sub": "u-1", "name": "Ada  L"}), "Ada L"},
		{"then sub", testJWT(t, map[string]any{"sub": "u-1", "preferred_username": 42}), "u-1"},
		{"a blank claim is skipped", testJWT(t, map[string]any{"sub": "u-1", "preferred_username": " \t\x1b "}), "u-1"},
		{"padded segments", base64.URLEncoding.EncodeToString([]byte(`{"alg":"RS256"}`)) + "." + base64.URLEncoding.EncodeToString([]byte(`{"sub":"u-2"}`)) + ".sig", "u-2"},
		{"no names", testJWT(t, map[string]any{"aud": "x"}), ""},
		{"opaque token", "2b7e1516-28ae-d2a6-abf7-158809cf4f3c", ""},
		{"empty", "", ""},
		{"two parts", enc([]byte(`{"alg":"none"}`)) + "." + enc([]byte(`{"sub":"u"}`)), ""},
		{"JWE (five parts)", "a.b.c.d.e", ""},
		{"payload not base64", enc([]byte(`{"alg":"RS256"}`)) + ".%%%." + "sig", ""},
		{"payload not JSON", enc([]byte(`{"alg":"RS256"}`)) + "." + enc([]byte("sub=u")) + ".sig", ""},
		{"payload an array", enc([]byte(`{"alg":"RS256"}`)) + "." + enc([]byte(`["u"]`)) + ".sig", ""},
		{"header not JSON", "abc." + enc([]byte(`{"sub":"u"}`)) + ".sig", ""},
		{"dots in an opaque token", "v1.abc.def", ""},
		{"escape sequences and bidi override", testJWT(t, map[string]any{"preferred_username": "\x1b[31mev\u202eil\x07\r\nuser\x00\u200b"}), "[31mevil user"},
		{"too long to decode", testJWT(t, map[string]any{"sub": "u", "pad": strings.Repeat("x", maxJWTBytes)}), ""},
	} {
		if got := jwtAccount(c.tok); got != c.want {
			t.Errorf("%s: jwtAccount = %q, want %q", c.name, got, c.want)
		}
	}

	huge := jwtAccount(testJWT(t, map[string]any{"preferred_username": strings.Repeat("é", 5000)}))
	if n := utf8.RuneCountInString(huge); n != maxAccountRunes || !strings.HasSuffix(huge, "…") || !strings.HasPrefix(huge, "éé") {
		t.Errorf("a huge claim gives %d runes (%q…), want %d ending in …", n, huge[:min(len(huge), 20)], maxAccountRunes)
	}
	if got := jwtAccount(testJWT(t, map[string]any{"sub": strings.Repeat("a", maxAccountRunes)})); got != strings.Repeat("a", maxAccountRunes) {
		t.Errorf("a claim of exactly %d runes was cut: %q", maxAccountRunes, got)
	}
	if got := cleanAccount("bad \xff utf8"); !utf8.ValidString(got) || got != "bad \uFFFD utf8" {
		t.Errorf("invalid UTF-8 gives %q", got)
	}
}

// TestTokenResponseAccount: the account is read from a token response's
// id_token, else (an exchange) from a JWT access token, a refresh without
// an id_token keeps the name the sign-in found, and an opaque exchange
// names nobody. The body reaches the OAuth handler whole, however long.
func TestTokenResponseAccount(t *testing.T) {
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	a := newAuthFlow(OAuth{TokenFile: filepath.Join(t.TempDir(), "a.json")}, srv.URL+"/mcp", slog.New(slog.DiscardHandler))
	exchange := func(step string, resp map[string]any) string {
		t.Helper()
		var err error
		if body, err = json.Marshal(resp); err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequestWithContext(withStep(context.Background(), step), http.MethodPost, srv.URL+"/token", nil)
		r, err := a.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil || string(got) != string(body) {
			t.Fatalf("the handler got %d bytes (%v), want the %d of the response", len(got), err, len(body))
		}
		var tok transport.Token
		if err := json.Unmarshal(got, &tok); err != nil {
			t.Fatal(err)
		}
		if err := a.store.SaveToken(context.Background(), &tok); err != nil {
			t.Fatal(err)
		}
		return a.snapshot().Account
	}
	at := testJWT(t, map[string]any{"sub": "user-1842"})
	if got := exchange("token exchange", map[string]any{"access_token": at, "id_token": testJWT(t, map[string]any{"sub": "user-1842", "preferred_username": "ada"})}); got != "ada" {
		t.Errorf("exchange with an id_token: account %q, want ada", got)
	}
	if got := a.store.record().Account; got != "ada" {
		t.Errorf("the token file keeps account %q, want ada", got)
	}
	if got := exchange("token refresh", map[string]any{"access_token": at}); got != "ada" {
		t.Errorf("refresh without an id_token: account %q, want the sign-in's ada", got)
	}
	if got := exchange("token exchange", map[string]any{"access_token": at}); got != "user-1842" {
		t.Errorf("exchange with a JWT access token: account %q, want user-1842", got)
	}
	if got := exchange("token exchange", map[string]any{"access_token": "opaque-1", "id_token": "not.a.jwt"}); got != "" {
		t.Errorf("exchange with opaque tokens: account %q, want none", got)
	}
	if got := exchange("token exchange", map[string]any{"access_token": "opaque-2", "pad": strings.Repeat("x", maxTokenResponseScan), "id_token": testJWT(t, map[string]any{"sub": "u"})}); got != "" {
		t.Errorf("a response longer than the scan bound: account %q, want none (and the body whole)", got)
	}
	st := a.snapshot()
	if strings.Contains(st.Account, "opaque") {
		t.Errorf("the account shows a token: %q", st.Account)
	}
	if err := a.signOut(); err != nil {
		t.Fatal(err)
	}
	if st := a.snapshot(); st.Account != "" || a.store.record().Account != "" {
		t.Errorf("sign-out keeps the account: %q / %q", st.Account, a.store.record().Account)
	}
}
