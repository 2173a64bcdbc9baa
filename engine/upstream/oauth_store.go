package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// authRecord is what DIR keeps per upstream (OAuth.TokenFile, mode 0600):
// the client genui registered (or was configured with) and its token.
type authRecord struct {
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
	AuthMethod   string `json:"tokenEndpointAuthMethod,omitempty"`
	// RedirectURI is the loopback URI the client was registered with.
	RedirectURI string `json:"redirectUri,omitempty"`
	// Registered: the client came from dynamic registration.
	Registered bool `json:"registered,omitempty"`
	// ResourceMetadata is the protected resource metadata URL discovery used.
	ResourceMetadata string           `json:"resourceMetadata,omitempty"`
	Token            *transport.Token `json:"token,omitempty"`
	// Account is who the token was issued to (contract.AuthState.Account).
	Account string `json:"account,omitempty"`
}

// tokenFile is the TokenStore mcp-go's OAuth handler reads and writes: one
// JSON file, written whole (temporary file, then rename) with mode 0600.
// GetToken reports a token as expired a little before it is (a fifth of
// its lifetime, at most refreshAhead), so the handler refreshes it before
// the upstream refuses it.
type tokenFile struct {
	path string
	// account names who a token being saved was issued to, given the name
	// kept so far; nil: nobody.
	account func(t *transport.Token, previous string) string
	// saved is called after SaveToken (the auth state shows the token's
	// scopes, expiry and account).
	saved func(t *transport.Token, account string)

	mu  sync.Mutex
	rec authRecord
	// gen counts the sign-outs: a handler's view saves only in the
	// generation it was made in (a refresh that ends after a sign-out
	// does not sign the user in again).
	gen int
}

// storeView is the TokenStore one OAuth handler uses: tokenFile in the
// generation the handler was made in.
type storeView struct {
	f   *tokenFile
	gen int
}

// view is a TokenStore for a new handler.
func (f *tokenFile) view() storeView {
	f.mu.Lock()
	defer f.mu.Unlock()
	return storeView{f, f.gen}
}

// GetToken implements transport.TokenStore.
func (v storeView) GetToken(ctx context.Context) (*transport.Token, error) { return v.f.GetToken(ctx) }

// SaveToken implements transport.TokenStore: a token from before a
// sign-out is dropped.
func (v storeView) SaveToken(ctx context.Context, t *transport.Token) error {
	return v.f.saveToken(ctx, t, v.gen)
}

// forget drops the token and its account (sign-out; the client
// registration stays) and ends the generation of the handlers made so far.
func (f *tokenFile) forget() error {
	return f.update(func(r *authRecord) {
		r.Token, r.Account = nil, ""
		f.gen++
	})
}

// refreshAhead bounds how long before its expiry a token is refreshed.
const refreshAhead = time.Minute

func openTokenFile(path string) (*tokenFile, error) {
	f := &tokenFile{path: path}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return f, nil
	case err != nil:
		return f, fmt.Errorf("read the upstream's sign-in: %w", err)
	}
	if err := json.Unmarshal(b, &f.rec); err != nil {
		// A damaged file only costs a sign-in; say so, start afresh.
		return f, fmt.Errorf("the upstream's sign-in in %s is unreadable (%v); sign in again", path, err)
	}
	return f, nil
}

func (f *tokenFile) record() authRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rec
}

// update changes the record and writes it.
func (f *tokenFile) update(change func(*authRecord)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(&f.rec)
	return f.writeLocked()
}

func (f *tokenFile) writeLocked() error {
	b, err := json.MarshalIndent(f.rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return fmt.Errorf("save the upstream's sign-in: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.path), ".auth-*")
	if err != nil {
		return fmt.Errorf("save the upstream's sign-in: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save the upstream's sign-in: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save the upstream's sign-in: %w", err)
	}
	// On disk before the rename: a crash leaves the old file or the new
	// one, never an empty one (a rotated refresh token would be lost).
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save the upstream's sign-in: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save the upstream's sign-in: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.path); err != nil {
		return fmt.Errorf("save the upstream's sign-in: %w", err)
	}
	if d, err := os.Open(filepath.Dir(f.path)); err == nil {
		_ = d.Sync() // the rename itself
		d.Close()
	}
	return nil
}

// GetToken implements transport.TokenStore.
func (f *tokenFile) GetToken(ctx context.Context) (*transport.Token, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.rec.Token == nil || (f.rec.Token.AccessToken == "" && f.rec.Token.RefreshToken == "") {
		return nil, transport.ErrNoToken
	}
	t := *f.rec.Token
	if !t.ExpiresAt.IsZero() {
		ahead := time.Duration(min(max(t.ExpiresIn, 0), maxTokenLifetime)) * time.Second / 5
		t.ExpiresAt = t.ExpiresAt.Add(-min(ahead, refreshAhead))
	}
	return &t, nil
}

// maxTokenLifetime bounds a token's expires_in (seconds): a hostile value
// would overflow the expiry into the past, and the handler would refresh
// before every request.
const maxTokenLifetime = 366 * 24 * 3600

// SaveToken implements transport.TokenStore.
func (f *tokenFile) SaveToken(ctx context.Context, t *transport.Token) error {
	return f.saveToken(ctx, t, -1)
}

// saveToken saves t unless gen (>= 0) is no longer the store's generation.
func (f *tokenFile) saveToken(ctx context.Context, t *transport.Token, gen int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	saved := *t
	if saved.ExpiresIn > maxTokenLifetime || saved.ExpiresIn > 0 && !saved.ExpiresAt.After(time.Now().Add(-time.Minute)) {
		saved.ExpiresIn = min(saved.ExpiresIn, maxTokenLifetime)
		saved.ExpiresAt = time.Now().Add(time.Duration(saved.ExpiresIn) * time.Second)
	}
	account := ""
	if f.account != nil {
		// Outside f.mu: account takes the auth flow's lock, which is held
		// while f.mu is taken elsewhere.
		account = f.account(&saved, f.record().Account)
	}
	stale := false
	if err := f.update(func(r *authRecord) {
		if stale = gen >= 0 && gen != f.gen; !stale {
			r.Token, r.Account = &saved, account
		}
	}); err != nil {
		return err
	}
	if stale {
		return errors.New("signed out while the token was fetched: it is not kept")
	}
	if f.saved != nil {
		f.saved(&saved, account)
	}
	return nil
}

// expireAccess marks the access token spent (the upstream refused it), so
// the next request refreshes it. It reports whether there is a refresh
// token to do that with.
func (f *tokenFile) expireAccess() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.rec.Token == nil || f.rec.Token.RefreshToken == "" {
		return false
	}
	t := *f.rec.Token
	t.ExpiresAt = time.Now().Add(-time.Second)
	f.rec.Token = &t
	return true
}
