package upstream

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/mark3labs/mcp-go/client/transport"
)

// OAuth lets genui sign in to an http or sse upstream protected by the MCP
// authorization spec (OAuth 2.1): on a 401 it discovers the protected
// resource and authorization server metadata, registers a client
// dynamically (unless ClientID is set), runs the authorization code flow
// with PKCE through the browser to a loopback redirect, keeps the tokens in
// TokenFile and refreshes them before they expire and on a 401. The
// protocol is mcp-go's OAuthHandler; this side keeps the state, the file
// and the redirect listener.
type OAuth struct {
	// ClientID and ClientSecret of a client registered beforehand; empty:
	// dynamic client registration.
	ClientID, ClientSecret string
	// Scopes asked for; none: the server's default.
	Scopes []string
	// RedirectPort is the loopback port of the redirect URI
	// (http://127.0.0.1:PORT/callback); 0: a free one (a configured client
	// needs the port it was registered with).
	RedirectPort int
	// TokenFile keeps the client and its tokens (mode 0600).
	TokenFile string
	// OpenBrowser opens the authorization URL; nil, or an error: the URL is
	// only shown (State().Auth.AuthorizationURL, the log).
	OpenBrowser func(url string) error
	// SignInTimeout bounds the wait for the browser; default 10 minutes.
	SignInTimeout time.Duration
}

// maxAuthSteps bounds AuthState.Steps.
const maxAuthSteps = 16

// authFlow is a Client's sign-in: it outlives connections.
type authFlow struct {
	cfg     OAuth
	baseURL string // the upstream's URL, the resource
	log     *slog.Logger
	store   *tokenFile
	client  *http.Client // records the steps
	// publish hands a new AuthState to the client's state; kick makes Run
	// connect now.
	publish func(contract.AuthState)
	kick    func()

	// pubMu keeps the state's publications in the order of its changes.
	pubMu sync.Mutex
	mu    sync.Mutex
	// base is Run's context: sign-ins live in it.
	base    context.Context
	handler *transport.OAuthHandler // nil until a client is known
	state   contract.AuthState
	// challenge is the last 401's WWW-Authenticate (resource_metadata).
	challenge []string
	cancel    context.CancelFunc // ends the sign-in in progress
	// signIns counts the sign-ins started; one that is no longer the last
	// (a new one, a sign-out) reports nothing.
	signIns int
	// running: a sign-in is in progress (a 401 then starts none of its
	// own); done is closed when the last one started has ended (its
	// redirect listener closed), which the next one waits for.
	running bool
	done    chan struct{}
	// tokenAnswer is what the last token response said of the account,
	// until the handler saves its token.
	tokenAnswer tokenAnswer
}

// tokenAnswer is a successful token response as far as the account goes:
// its step ("token exchange", "token refresh") and the name its id_token
// gives ("" without one).
type tokenAnswer struct{ step, idAccount string }

func newAuthFlow(cfg OAuth, baseURL string, log *slog.Logger) *authFlow {
	if cfg.SignInTimeout <= 0 {
		cfg.SignInTimeout = 10 * time.Minute
	}
	a := &authFlow{cfg: cfg, baseURL: baseURL, log: log, publish: func(contract.AuthState) {}, kick: func() {}}
	a.client = &http.Client{Timeout: 30 * time.Second, Transport: stepRecorder{a, http.DefaultTransport}}
	a.state.Status = contract.AuthNone
	store, err := openTokenFile(cfg.TokenFile)
	if err != nil {
		log.Warn("upstream sign-in", "err", err)
	}
	a.store = store
	store.saved, store.account = a.tokenSaved, a.account
	rec := store.record()
	a.state.ClientID, a.state.Registered = a.clientID(rec), rec.Registered
	if rec.Token != nil {
		a.state.Status = contract.AuthSignedIn
		a.fillToken(rec.Token)
		a.state.Account = rec.Account
	}
	return a
}

// clientID is the client genui signs in as: the configured one, else the
// registered one.
func (a *authFlow) clientID(rec authRecord) string {
	if a.cfg.ClientID != "" {
		return a.cfg.ClientID
	}
	return rec.ClientID
}

func (a *authFlow) snapshot() contract.AuthState {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.state
	s.Scopes = append([]string(nil), s.Scopes...)
	s.Steps = append([]contract.AuthStep(nil), s.Steps...)
	return s
}

// change updates the state and publishes it; publications follow the
// order of the changes (an older state never lands last).
func (a *authFlow) change(f func(s *contract.AuthState)) {
	a.pubMu.Lock()
	defer a.pubMu.Unlock()
	a.mu.Lock()
	f(&a.state)
	a.mu.Unlock()
	a.publish(a.snapshot())
}

func (a *authFlow) fillToken(t *transport.Token) {
	a.state.ExpiresAt = t.ExpiresAt
	a.state.RefreshToken = t.RefreshToken != ""
	a.state.Scopes = strings.Fields(t.Scope)
}

// tokenSaved follows a token the handler saved (exchange or refresh).
func (a *authFlow) tokenSaved(t *transport.Token, account string) {
	a.change(func(s *contract.AuthState) {
		if s.Status == contract.AuthSignedIn {
			s.Refreshes++
			s.Message = "token refreshed"
		}
		a.fillToken(t)
		s.Account = account
	})
}

// account is who the token being saved names: the id_token of its
// response, else (a refresh) the name the sign-in found, else the claims
// of the access token if it is a JWT.
func (a *authFlow) account(t *transport.Token, previous string) string {
	a.mu.Lock()
	answer := a.tokenAnswer
	a.tokenAnswer = tokenAnswer{}
	a.mu.Unlock()
	switch {
	case answer.idAccount != "":
		return answer.idAccount
	case answer.step == "token refresh" && previous != "":
		return previous
	}
	return jwtAccount(t.AccessToken)
}

// newHandler builds mcp-go's OAuth handler for the stored (or configured)
// client and redirect URI.
func (a *authFlow) newHandler(rec authRecord, redirectURI string) *transport.OAuthHandler {
	cfg := transport.OAuthConfig{
		ClientID:                rec.ClientID,
		ClientSecret:            rec.ClientSecret,
		TokenEndpointAuthMethod: rec.AuthMethod,
		RedirectURI:             redirectURI,
		Scopes:                  a.cfg.Scopes,
		TokenStore:              a.store.view(),
		PKCEEnabled:             true,
		HTTPClient:              a.client,
	}
	if a.cfg.ClientID != "" {
		cfg.ClientID, cfg.ClientSecret, cfg.TokenEndpointAuthMethod = a.cfg.ClientID, a.cfg.ClientSecret, ""
	}
	h := transport.NewOAuthHandler(cfg)
	h.SetBaseURL(a.baseURL)
	if u := sameOrigin(rec.ResourceMetadata, a.baseURL); u != "" {
		h.SetProtectedResourceMetadataURL(u)
	}
	return h
}

// current is the handler requests take their token from, nil before any
// client is known.
func (a *authFlow) current() *transport.OAuthHandler {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.handler == nil {
		rec := a.store.record()
		if rec.Token == nil || a.clientID(rec) == "" {
			return nil
		}
		a.handler = a.newHandler(rec, rec.RedirectURI)
	}
	return a.handler
}

// header is the transports' header func: the access token, refreshed
// first when it is about to expire. Without one the request goes out
// bare and the upstream's 401 starts a sign-in.
func (a *authFlow) header(ctx context.Context) map[string]string {
	h := a.current()
	if h == nil {
		return nil
	}
	v, err := h.GetAuthorizationHeader(withStep(ctx, "token refresh"))
	if err != nil {
		if !errors.Is(err, transport.ErrOAuthAuthorizationRequired) && ctx.Err() == nil {
			a.log.Warn("upstream sign-in: no access token", "err", err)
		}
		return nil
	}
	return map[string]string{"Authorization": v}
}

// unauthorizedError reports whether err is the upstream's 401.
func unauthorizedError(err error) bool {
	return errors.Is(err, transport.ErrAuthorizationRequired) || errors.Is(err, transport.ErrOAuthAuthorizationRequired) ||
		errors.Is(err, transport.ErrUnauthorized)
}

// refreshAfter401 refreshes the access token the upstream refused; it
// reports whether there is a new one to try.
func (a *authFlow) refreshAfter401(ctx context.Context) bool {
	h := a.current()
	if h == nil || !a.store.expireAccess() {
		return false
	}
	_, err := h.GetAuthorizationHeader(withStep(ctx, "token refresh"))
	return err == nil
}

// blocked reports whether Run should wait for a sign-in instead of
// reconnecting on its own.
func (a *authFlow) blocked() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch a.state.Status {
	case contract.AuthNeeded, contract.AuthSigningIn, contract.AuthRefused, contract.AuthFailed, contract.AuthSignedOut:
		return true
	}
	return false
}

// unauthorized follows a 401 the upstream sent though genui had no usable
// token: the sign-in starts, unless one is in progress, or the user signed
// out or the last one was refused or failed: then it waits for SignIn.
// Many requests refused at once start one sign-in.
func (a *authFlow) unauthorized() {
	if a.beginSignIn(true) {
		return
	}
	a.mu.Lock()
	st := a.state.Status
	a.mu.Unlock()
	switch st {
	case contract.AuthSignedOut, contract.AuthRefused, contract.AuthFailed:
		a.change(func(s *contract.AuthState) {
			if s.Message == "" {
				s.Message = "the upstream needs sign-in"
			}
		})
	}
}

// startSignIn runs a sign-in in the background (one at a time: a new one
// ends the one in progress).
func (a *authFlow) startSignIn() { a.beginSignIn(false) }

// signInTakeover bounds the wait of a new sign-in for the one it replaced
// to end (its listener closed, its exchange given up).
const signInTakeover = 5 * time.Second

// beginSignIn starts a sign-in; auto (a 401) starts one only when none is
// in progress and the user has not signed out and the last one was not
// refused or did not fail, checked and started under one lock. It reports
// whether a sign-in is in progress (auto: already, or started now).
func (a *authFlow) beginSignIn(auto bool) bool {
	a.mu.Lock()
	if auto {
		if a.running {
			a.mu.Unlock()
			return true
		}
		switch a.state.Status {
		case contract.AuthSignedOut, contract.AuthRefused, contract.AuthFailed:
			a.mu.Unlock()
			return false
		}
	}
	base := a.base
	if base == nil {
		base = context.Background()
	}
	sctx, cancel := context.WithTimeout(base, a.cfg.SignInTimeout)
	if a.cancel != nil {
		a.cancel()
	}
	a.cancel = cancel
	a.signIns++
	n := a.signIns
	prev, done := a.done, make(chan struct{})
	a.done, a.running = done, true
	a.mu.Unlock()
	a.change(func(s *contract.AuthState) {
		s.Status, s.Message, s.AuthorizationURL = contract.AuthNeeded, "the upstream needs sign-in: discovering its authorization server", ""
		s.Account = ""
	})
	go func() {
		defer close(done)
		defer cancel()
		if prev != nil {
			// The one replaced ends at its context's cancel; its redirect
			// port is free once it has.
			select {
			case <-prev:
			case <-time.After(signInTakeover):
			}
		}
		err := a.signIn(sctx)
		a.mu.Lock()
		current := a.signIns == n
		if current {
			a.running = false
		}
		a.mu.Unlock()
		if !current {
			return // replaced by a new sign-in, or a sign-out
		}
		if err == nil {
			a.kick()
			return
		}
		a.log.Warn("upstream sign-in failed", "err", err)
		a.change(func(s *contract.AuthState) {
			var refused *refusedError
			if errors.As(err, &refused) {
				s.Status = contract.AuthRefused
			} else {
				s.Status = contract.AuthFailed
			}
			s.Message, s.AuthorizationURL = shownMessage(err.Error()), ""
		})
	}()
	return true
}

// cleanLine is text from the authorization server or the browser (an
// error's description, a body quoted in an error) as one line that is safe
// to print on a terminal: line breaks and tabs become spaces, other control
// and format characters (escape sequences, bidi overrides) are dropped.
func cleanLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// maxAuthMessage bounds the auth state's message; the whole one is in the
// log (an authorization server's error body can be long).
const maxAuthMessage = 2048

func shownMessage(msg string) string {
	msg = cleanLine(msg)
	if len(msg) <= maxAuthMessage {
		return msg
	}
	cut := maxAuthMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + fmt.Sprintf("… (%d bytes more: the whole message is in genui's log)", len(msg)-cut)
}

// refusedError is the authorization server's refusal at the redirect.
type refusedError struct{ code, description string }

func (e *refusedError) Error() string {
	msg := "the authorization server refused the sign-in (" + e.code + ")"
	if e.description != "" {
		msg += ": " + e.description
	}
	return msg + "; sign in again from the palette or the API (signIn)"
}

// The loopback redirect listens on a port below the kernel's ephemeral
// range (Linux hands out 32768-60999 to outgoing connections), so that the
// port registered with the authorization server is still free at the next
// sign-in: one an outgoing connection had landed on would force a new
// client registration. A few random tries, then any free port.
const redirectPortLow, redirectPortHigh = 20000, 32767

func listenRedirect(ctx context.Context, lc *net.ListenConfig) (net.Listener, error) {
	for range 8 {
		p := redirectPortLow + rand.IntN(redirectPortHigh-redirectPortLow+1)
		if ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p))); err == nil {
			return ln, nil
		}
	}
	return lc.Listen(ctx, "tcp", "127.0.0.1:0")
}

// callback is what the loopback redirect brought.
type callback struct {
	code, state string
	err         error
}

// signIn is one authorization code flow with PKCE.
func (a *authFlow) signIn(ctx context.Context) error {
	rec := a.store.record()
	port := a.cfg.RedirectPort
	if port == 0 && rec.Registered && a.cfg.ClientID == "" {
		if u, err := url.Parse(rec.RedirectURI); err == nil {
			port, _ = strconv.Atoi(u.Port())
		}
	}
	var lc net.ListenConfig
	var ln net.Listener
	var err error
	if port != 0 {
		ln, err = lc.Listen(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	}
	if port == 0 || err != nil && a.cfg.RedirectPort == 0 {
		// None registered yet, or the port registered last time is taken:
		// register anew on a port of our own.
		ln, err = listenRedirect(ctx, &lc)
	}
	if err != nil {
		return fmt.Errorf("sign-in: listen for the redirect: %w", err)
	}
	defer ln.Close()
	redirect := "http://" + ln.Addr().String() + "/callback"
	if rec.RedirectURI != redirect && rec.Registered && a.cfg.ClientID == "" {
		rec = authRecord{} // registered for another redirect URI
	}
	a.mu.Lock()
	challenge := a.challenge
	a.mu.Unlock()
	h := a.newHandler(rec, redirect)
	if len(challenge) > 0 {
		h.HandleUnauthorizedResponse(&http.Response{Header: http.Header{"Www-Authenticate": challenge}})
	}
	meta, err := h.GetServerMetadata(ctx)
	if err != nil {
		return fmt.Errorf("sign-in: discovery failed: %w", err)
	}
	a.change(func(s *contract.AuthState) { s.Issuer = meta.Issuer })
	if a.clientID(rec) == "" {
		if meta.RegistrationEndpoint == "" {
			return errors.New("sign-in: the authorization server offers no dynamic client registration; set upstream.oauth.clientId (and clientSecret) to a client registered there")
		}
		if err := h.RegisterClient(withStep(ctx, "client registration"), "genui"); err != nil {
			return fmt.Errorf("sign-in: client registration failed: %w", err)
		}
		rec = authRecord{ClientID: h.GetClientID(), ClientSecret: h.GetClientSecret(), AuthMethod: h.GetTokenEndpointAuthMethod(),
			RedirectURI: redirect, Registered: true}
		a.change(func(s *contract.AuthState) { s.ClientID, s.Registered = rec.ClientID, true })
	}
	verifier, err := transport.GenerateCodeVerifier()
	if err != nil {
		return err
	}
	state, err := transport.GenerateState()
	if err != nil {
		return err
	}
	authURL, err := h.GetAuthorizationURL(ctx, state, transport.GenerateCodeChallenge(verifier))
	if err != nil {
		return fmt.Errorf("sign-in: %w", err)
	}
	got := make(chan callback, 1)
	srv := &http.Server{Handler: redirectHandler(got, state), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	a.change(func(s *contract.AuthState) {
		s.Status, s.AuthorizationURL = contract.AuthSigningIn, authURL
		s.Message = "open the authorization URL in a browser to sign in"
	})
	a.log.Info("upstream sign-in: waiting for the browser", "authorizationUrl", authURL)
	if a.cfg.OpenBrowser != nil {
		if err := a.cfg.OpenBrowser(authURL); err != nil {
			a.log.Info("upstream sign-in: no browser opened; open the URL yourself", "err", err)
		}
	}
	var cb callback
	select {
	case cb = <-got:
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("sign-in: no answer from the browser within %s; sign in again", a.cfg.SignInTimeout)
		}
		return ctx.Err()
	}
	if cb.err != nil {
		return cb.err
	}
	if err := h.ProcessAuthorizationResponse(withStep(ctx, "token exchange"), cb.code, cb.state, verifier); err != nil {
		return fmt.Errorf("sign-in: exchanging the authorization code failed: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err // signed out, or replaced, during the exchange
	}
	rec.ResourceMetadata = sameOrigin(resourceMetadataURL(challenge), a.baseURL)
	if err := a.store.update(func(r *authRecord) {
		r.ClientID, r.ClientSecret, r.AuthMethod, r.RedirectURI, r.Registered = rec.ClientID, rec.ClientSecret, rec.AuthMethod, rec.RedirectURI, rec.Registered
		if a.cfg.ClientID != "" {
			r.ClientID, r.ClientSecret = "", "" // configured, not kept here
		}
		r.ResourceMetadata = rec.ResourceMetadata
	}); err != nil {
		return err
	}
	a.mu.Lock()
	a.handler = h
	a.mu.Unlock()
	a.change(func(s *contract.AuthState) {
		s.Status, s.Message, s.AuthorizationURL = contract.AuthSignedIn, "signed in", ""
	})
	a.log.Info("upstream sign-in done", "issuer", meta.Issuer, "clientId", a.clientID(rec))
	return nil
}

// resourceMetadataURL is the resource_metadata parameter a 401's
// WWW-Authenticate named, if any (kept so a restarted genui discovers the
// same way): a parameter at its own place, not the same letters inside
// another's quoted value (an error_description).
func resourceMetadataURL(challenge []string) string {
	const param = "resource_metadata="
	for _, c := range challenge {
		inQuote := false
		for i := 0; i < len(c); i++ {
			switch {
			case c[i] == '\\' && inQuote:
				i++
				continue
			case c[i] == '"':
				inQuote = !inQuote
				continue
			}
			if inQuote || !strings.HasPrefix(c[i:], param) || i > 0 && c[i-1] != ' ' && c[i-1] != ',' {
				continue
			}
			v := c[i+len(param):]
			if strings.HasPrefix(v, `"`) {
				if end := strings.IndexByte(v[1:], '"'); end >= 0 {
					return v[1 : 1+end]
				}
				return ""
			}
			if end := strings.IndexAny(v, ", "); end >= 0 {
				v = v[:end]
			}
			return v
		}
	}
	return ""
}

// sameOrigin is u when it has the scheme and host of base, else "": where
// the upstream points discovery is only followed on its own origin (as
// mcp-go checks a 401's; a URL kept from an older file or another origin
// would send the refresh token and client secret elsewhere).
func sameOrigin(u, base string) string {
	pu, err1 := url.Parse(u)
	pb, err2 := url.Parse(base)
	if u == "" || err1 != nil || err2 != nil || !strings.EqualFold(pu.Scheme, pb.Scheme) || !strings.EqualFold(pu.Host, pb.Host) {
		return ""
	}
	return u
}

// redirectHandler answers the browser at the loopback redirect and hands
// the code (or the refusal) of this sign-in (its state) over, once. A
// request with another state (a page probing local ports, an old tab) is
// answered and ignored: it neither ends nor refuses the sign-in.
func redirectHandler(got chan<- callback, state string) http.Handler {
	var once sync.Once
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if q.Get("state") != state {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, "<!doctype html><title>genui: not this sign-in</title><h1 id=result>Not the sign-in genui is waiting for</h1><p>This answer belongs to another sign-in (its state differs); genui keeps waiting for the one it started.</p>")
			return
		}
		cb := callback{code: q.Get("code"), state: q.Get("state")}
		switch {
		case q.Get("error") != "":
			cb.err = &refusedError{code: q.Get("error"), description: q.Get("error_description")}
		case cb.code == "":
			cb.err = errors.New("sign-in: the redirect brought no authorization code")
		}
		if cb.err != nil {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, "<!doctype html><title>genui: sign-in refused</title><h1 id=result>Sign-in refused</h1><p>%s</p>", html.EscapeString(cb.err.Error()))
		} else {
			fmt.Fprint(w, "<!doctype html><title>genui: signed in</title><h1 id=result>Signed in</h1><p>genui has the authorization; you can close this tab.</p>")
		}
		once.Do(func() { got <- cb })
	})
}

// signOut forgets the tokens (the client registration stays) and stops a
// sign-in in progress.
func (a *authFlow) signOut() error {
	a.mu.Lock()
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
	}
	a.signIns++
	a.running = false
	a.handler = nil
	a.mu.Unlock()
	err := a.store.forget()
	a.change(func(s *contract.AuthState) {
		s.Status, s.Message, s.AuthorizationURL = contract.AuthSignedOut, "signed out; sign in again to use the upstream", ""
		s.ExpiresAt, s.Scopes, s.RefreshToken, s.Account = time.Time{}, nil, false, ""
	})
	return err
}

// stepKey carries the name of the sign-in step a request belongs to.
type stepKey struct{}

func withStep(ctx context.Context, step string) context.Context {
	return context.WithValue(ctx, stepKey{}, step)
}

// stepRecorder is the OAuth handler's HTTP transport: it adds each request
// (method, URL without query, status) to the auth state's steps. Of a
// successful token response it reads the id_token's account name
// (peekTokenResponse) and puts the body back whole; it keeps no token or
// code.
type stepRecorder struct {
	a    *authFlow
	next http.RoundTripper
}

func (r stepRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	step, _ := req.Context().Value(stepKey{}).(string)
	switch p := req.URL.Path; {
	case strings.Contains(p, "/.well-known/oauth-protected-resource"):
		step = "protected resource metadata"
	case strings.Contains(p, "/.well-known/oauth-authorization-server"), strings.Contains(p, "/.well-known/openid-configuration"):
		step = "authorization server metadata"
	case step == "":
		step = "token"
	}
	u := *req.URL
	u.RawQuery, u.Fragment, u.User = "", "", nil
	rec := contract.AuthStep{At: time.Now(), Step: step, Method: req.Method, URL: u.String()}
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		rec.Error = shownMessage(err.Error())
	} else {
		// mcp-go reads these bodies whole: metadata, registration and token
		// answers are small, a hostile server's are cut off with an error.
		resp.Body = capBody(resp.Body, maxAuthBody)
		rec.Status = resp.StatusCode
		if req.Method == http.MethodPost && (step == "token exchange" || step == "token refresh" || step == "token") && resp.StatusCode/100 == 2 {
			answer := tokenAnswer{step: step, idAccount: peekTokenResponse(resp)}
			r.a.mu.Lock()
			r.a.tokenAnswer = answer
			r.a.mu.Unlock()
		}
	}
	r.a.change(func(s *contract.AuthState) {
		s.Steps = append(s.Steps, rec)
		if len(s.Steps) > maxAuthSteps {
			s.Steps = s.Steps[len(s.Steps)-maxAuthSteps:]
		}
	})
	return resp, err
}

// maxAuthBody bounds a body of the sign-in's HTTP answers (discovery,
// registration, tokens).
const maxAuthBody = 1 << 20

// capBody is body that fails with a clear error past limit bytes.
func capBody(body io.ReadCloser, limit int64) io.ReadCloser {
	if body == nil {
		return nil
	}
	return &cappedBody{ReadCloser: body, limit: limit, left: limit}
}

type cappedBody struct {
	io.ReadCloser
	limit, left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly the limit from a longer one.
		var one [1]byte
		if n, _ := b.ReadCloser.Read(one[:]); n > 0 {
			return 0, fmt.Errorf("the authorization server's answer is longer than %d bytes", b.limit)
		}
		return b.ReadCloser.Read(p)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// challengeRecorder wraps the MCP transports' HTTP client: it keeps the
// WWW-Authenticate of a 401 (the resource_metadata discovery starts from).
type challengeRecorder struct {
	a    *authFlow
	next http.RoundTripper
}

func (r challengeRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		if v := resp.Header.Values("WWW-Authenticate"); len(v) > 0 {
			r.a.mu.Lock()
			r.a.challenge = append([]string(nil), v...)
			r.a.mu.Unlock()
		}
	}
	return resp, err
}
