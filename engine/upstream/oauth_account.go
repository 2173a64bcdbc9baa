package upstream

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"unicode"
)

// Who the user is signed in as (contract.AuthState.Account), read from what
// the token response says, without a network call: the OIDC id_token's
// claims, else those of an access token shaped as a JWT, else nothing. The
// signature is not checked: the name is only shown (the upstream checks
// the token), never used to decide anything. The claims are hostile input:
// a name is cut to maxAccountRunes and loses its control and format
// characters.

const (
	// maxJWTBytes bounds a token decoded for its claims; a longer one is
	// left alone (no name).
	maxJWTBytes = 16 << 10
	// maxTokenResponseScan bounds the token response read for its
	// id_token; a longer one passes through unread.
	maxTokenResponseScan = 64 << 10
	// maxAccountRunes bounds the name shown.
	maxAccountRunes = 64
)

// accountClaims are the names looked at, in this order.
var accountClaims = []string{"preferred_username", "email", "name", "sub"}

// jwtAccount is the name a JWT's payload gives (see accountClaims), "" when
// tok is no JWT (an opaque token, an encrypted one) or names nobody.
func jwtAccount(tok string) string {
	if len(tok) > maxJWTBytes {
		return ""
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return "" // opaque, or a JWE (five parts) genui cannot read
	}
	var header struct {
		Alg string `json:"alg"`
	}
	if b, err := decodeJWTPart(parts[0]); err != nil || json.Unmarshal(b, &header) != nil || header.Alg == "" {
		return ""
	}
	b, err := decodeJWTPart(parts[1])
	if err != nil {
		return ""
	}
	var claims map[string]json.RawMessage
	if json.Unmarshal(b, &claims) != nil {
		return ""
	}
	for _, name := range accountClaims {
		var v string
		if raw, ok := claims[name]; !ok || json.Unmarshal(raw, &v) != nil {
			continue // absent, or not a string
		}
		if v = cleanAccount(v); v != "" {
			return v
		}
	}
	return ""
}

// decodeJWTPart decodes a JWT segment (base64url, padding tolerated).
func decodeJWTPart(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// cleanAccount makes a claim fit to show: valid UTF-8, no control or
// format characters (no escape sequences, no bidi overrides), spaces
// collapsed, at most maxAccountRunes runes.
func cleanAccount(s string) string {
	kept := make([]rune, 0, maxAccountRunes+1)
	space := false
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case unicode.IsSpace(r):
			space = len(kept) > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			continue
		}
		if space {
			kept, space = append(kept, ' '), false
		}
		if kept = append(kept, r); len(kept) > maxAccountRunes {
			// More follows than fits: the last place says so.
			return string(kept[:maxAccountRunes-1]) + "…"
		}
	}
	return string(kept)
}

// tokenResponseAccount is the name the id_token of a token response (the
// JSON body of a token endpoint's answer) gives, "" without one.
func tokenResponseAccount(body []byte) string {
	var resp struct {
		IDToken string `json:"id_token"`
	}
	if json.Unmarshal(body, &resp) != nil {
		return ""
	}
	return jwtAccount(resp.IDToken)
}

// peekTokenResponse reads a successful token response's id_token for its
// name and puts the body back whole for the OAuth handler. It keeps no
// part of the body: only the name.
func peekTokenResponse(resp *http.Response) string {
	if resp.StatusCode/100 != 2 || resp.Body == nil {
		return ""
	}
	buf, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenResponseScan+1))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(buf), resp.Body), resp.Body}
	if err != nil || len(buf) > maxTokenResponseScan {
		return ""
	}
	return tokenResponseAccount(buf)
}
