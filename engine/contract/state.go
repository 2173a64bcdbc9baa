package contract

import (
	"encoding/json"
	"fmt"
	"time"
)

// State is a snapshot of the engine: what /state serves, what
// ui://genui/state embeds, what _ui_status and _ui_list report and what the
// TUI's header and tool list show. It carries no secrets.
type State struct {
	// Instance is a random id of this genui process; DIR/genui.lock names
	// it too. A workbench re-attaches only to the instance it watched, or
	// to the one that took DIR's lock over (a restarted genui), never to
	// another process that took the old port.
	Instance  string `json:"instance"`
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Dir       string `json:"dir"`
	Generator string `json:"generator"`
	// GeneratorSource, when set, says the generator's settings were taken
	// from variables other tools set too ("ANTHROPIC_API_KEY from the
	// environment"): llm.fromEnvironment false (or --llm offline) stops it.
	GeneratorSource string        `json:"generatorSource,omitempty"`
	Upstream        UpstreamState `json:"upstream"`
	// URLs are where this genui listens (set by the HTTP side server).
	URLs URLs `json:"urls"`
	// PortConflict says another live genui owns DIR's port files.
	PortConflict string                  `json:"portConflict,omitempty"`
	Sessions     []SessionInfo           `json:"sessions"`
	Tools        []ToolStatus            `json:"tools"`
	Cache        CacheStats              `json:"cache"`
	Generation   GenerationState         `json:"generation"`
	Refinements  map[string][]Refinement `json:"refinements"`
	// Events is the /wait queue: pending events and whether an agent polls.
	Events QueueStats `json:"events"`
	// History is the call history; Watch the watch on the upstream's files.
	History HistoryStats `json:"history"`
	Watch   WatchState   `json:"watch"`
	// Roots are the roots genui itself answers the upstream's roots/list
	// with (config roots; none: a host's roots, if any, are relayed).
	Roots []Root `json:"roots,omitempty"`
}

// UpstreamState is the upstream connection's state.
type UpstreamState struct {
	Transport string `json:"transport"`
	// Target is the command line (stdio), the URL (http/sse) or "in-process".
	Target    string `json:"target"`
	Connected bool   `json:"connected"`
	// Restarts counts connection attempts after the first one.
	Restarts int `json:"restarts"`
	// Generation counts the connections made: 1 for the first, one more
	// for every restart or reconnect (a call's HistoryEntry.Generation).
	Generation int    `json:"generation"`
	LastError  string `json:"lastError,omitempty"`
	// PID of the stdio child, 0 otherwise.
	PID             int             `json:"pid,omitempty"`
	ServerInfo      json.RawMessage `json:"serverInfo,omitempty"`
	ProtocolVersion string          `json:"protocolVersion,omitempty"`
	// ClientCapabilities are what genui declared in its initialize: the
	// host's or the workbench's (upstream.capabilities).
	ClientCapabilities json.RawMessage `json:"clientCapabilities,omitempty"`
	// ServerCapabilities and Instructions are the upstream's, from its
	// initialize result, as it sent them.
	ServerCapabilities json.RawMessage `json:"serverCapabilities,omitempty"`
	Instructions       string          `json:"instructions,omitempty"`
	// Since is when Connected last changed.
	Since time.Time `json:"since"`
	// Auth is the OAuth sign-in to an http or sse upstream (nil: genui
	// signs in to none, e.g. a stdio upstream). It never holds a token.
	Auth *AuthState `json:"auth,omitempty"`
}

// Auth statuses (AuthState.Status).
const (
	AuthNone      = "none"       // no token yet and none needed so far
	AuthSignedIn  = "signed-in"  // a token is stored (refreshed before it expires)
	AuthNeeded    = "needed"     // the upstream answered 401: sign-in is needed
	AuthSigningIn = "signing-in" // waiting for the browser at AuthorizationURL
	AuthRefused   = "refused"    // the authorization server refused; sign in again
	AuthFailed    = "failed"     // discovery, registration or the token exchange failed
	AuthSignedOut = "signed-out" // the user signed out; sign in again to connect
)

// AuthState is the OAuth 2.1 sign-in to the upstream, like an auth
// debugger shows it: where it stands, what the token allows and until
// when, and the last discovery, registration and token steps with their
// HTTP status. It carries no token and no client secret.
type AuthState struct {
	Status string `json:"status"`
	// Message says what happened or what to do ("open the URL to sign in").
	Message string `json:"message,omitempty"`
	// AuthorizationURL is where the browser signs in while Status is
	// signing-in (it carries the PKCE challenge, never a secret).
	AuthorizationURL string `json:"authorizationUrl,omitempty"`
	// Issuer is the authorization server; ClientID the client genui signs
	// in as (registered dynamically unless configured).
	Issuer     string `json:"issuer,omitempty"`
	ClientID   string `json:"clientId,omitempty"`
	Registered bool   `json:"registered,omitempty"`
	// Account is who the user is signed in as, as the token response says
	// (the OIDC id_token's preferred_username, email, name or sub, else
	// the same claims of an access token shaped as a JWT; their signature
	// unchecked: it is only shown); empty when the tokens are opaque. At
	// most 64 characters, without control characters.
	Account string `json:"account,omitempty"`
	// Scopes the token was granted; ExpiresAt when the access token ends
	// (genui refreshes it before).
	Scopes       []string  `json:"scopes,omitempty"`
	ExpiresAt    time.Time `json:"expiresAt,omitzero"`
	RefreshToken bool      `json:"refreshToken,omitempty"`
	Refreshes    int       `json:"refreshes,omitempty"`
	// Steps are the last HTTP steps of discovery, registration and token
	// exchange or refresh, oldest first.
	Steps []AuthStep `json:"steps,omitempty"`
}

// AuthStep is one HTTP request of the sign-in.
type AuthStep struct {
	At time.Time `json:"at"`
	// Step is "protected resource metadata", "authorization server
	// metadata", "client registration", "token exchange" or "token refresh".
	Step   string `json:"step"`
	Method string `json:"method"`
	// URL without its query.
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
}

// URLs are where the running genui listens ("" when it runs no side server).
type URLs struct {
	API   string `json:"api,omitempty"`
	UI    string `json:"ui,omitempty"`
	MCP   string `json:"mcp,omitempty"`
	SSE   string `json:"sse,omitempty"`
	Wait  string `json:"wait,omitempty"`
	State string `json:"state,omitempty"`
}

// SessionInfo is one connected MCP host session.
type SessionInfo struct {
	ID         string          `json:"id"`
	Transport  string          `json:"transport,omitempty"`
	Protocol   string          `json:"protocol"`
	ClientInfo json.RawMessage `json:"clientInfo,omitempty"`
	UICapable  bool            `json:"uiCapable"`
	InFlight   int             `json:"inFlight"`
}

// CacheStats describes the UI cache.
type CacheStats struct {
	Entries   int     `json:"entries"`
	Bytes     int64   `json:"bytes"`
	Hits      int64   `json:"hits"`
	Misses    int64   `json:"misses"`
	HitRate   float64 `json:"hitRate"`
	Evictions int64   `json:"evictions"`
}

// QueueStats describes the /wait queue.
type QueueStats struct {
	// Pending is what the next Wait would return, the dropped marker included.
	Pending int `json:"pending"`
	// Pushed, Delivered and Dropped count pushed events (never the marker):
	// Pushed == Delivered + Dropped + pending pushed events.
	Pushed    int64 `json:"pushed"`
	Delivered int64 `json:"delivered"`
	Dropped   int64 `json:"dropped"`
	// Pollers is the number of Wait calls blocked right now.
	Pollers int `json:"pollers"`
	// LastPollReturned is when a Wait last returned (zero if never);
	// SinceLastPoll is the time since then, rounded, or "" if never.
	LastPollReturned time.Time `json:"lastPollReturned,omitzero"`
	SinceLastPoll    string    `json:"sinceLastPoll,omitempty"`
}

// GenerationState describes the generation queue.
type GenerationState struct {
	Running []string `json:"running"`
	Limit   int      `json:"limit"`
	// LLM is the latest LLM generation per tool (progress, chain, errors).
	LLM map[string]GenerationStatus `json:"llm,omitempty"`
}

// Generation states in GenerationStatus.State.
const (
	GenRunning = "running"
	GenDone    = "done"
	GenFailed  = "failed"
)

// GenerationStatus is the latest LLM generation of one tool, for /state,
// _ui_status, _ui_inspect and the TUI.
type GenerationStatus struct {
	// Key is the cache key the generation is for.
	Key      string    `json:"key"`
	State    string    `json:"state"` // GenRunning, GenDone, GenFailed
	Provider string    `json:"provider"`
	Started  time.Time `json:"started"`
	// Bytes streamed so far (running) or of the answer (done).
	Bytes     int   `json:"bytes"`
	ElapsedMS int64 `json:"elapsedMs"`
	Attempts  int   `json:"attempts,omitempty"`
	// Error is the provider error when the model gave no usable page.
	Error          *GenerationError `json:"error,omitempty"`
	Chain          []ChainStep      `json:"chain,omitempty"`
	FallbackReason string           `json:"fallbackReason,omitempty"`
	// RetryAt is when a read may try a failed key again (zero: only after
	// a change).
	RetryAt time.Time `json:"retryAt,omitempty"`
}

// GenerationError is an LLM provider's failure, classified.
type GenerationError struct {
	// Class is TIMEOUT, RATE_LIMIT, AUTH, ... (engine/gen's error classes).
	Class     string `json:"class"`
	Retryable bool   `json:"retryable"`
	// Status is the HTTP status (0 when there was none).
	Status int `json:"status,omitempty"`
	// RetryAfter is what the provider asked us to wait, 0 when it did not say.
	RetryAfter time.Duration `json:"retryAfter,omitempty"`
	Message    string        `json:"message"`
}

func (e *GenerationError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Class, e.Status, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Class, e.Message)
}
