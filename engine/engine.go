// Package engine is genui's core: it holds the upstream connection, the
// upstream's tools exactly as sent, the UIs generated for them, refinements
// and the event queue. Front ends (the MCP host, the HTTP side server, the
// TUI) use it; it never imports a UI toolkit.
package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/events"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/metrics"
	"github.com/genui-dev/genui/engine/refine"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/viewdefs"
)

// Versions of what goes into a UI, part of every cache key.
const (
	PromptVersion   = "1"
	TemplateVersion = "5" // 4: offline pages pack their code (viewdefs.Pack); 5: Cancel, resource links, downloads, annotation badges
)

// Options configure an Engine.
type Options struct {
	Upstream upstream.Config
	// Dir is where genui keeps its files (ui-port, cache/, refinements.json, log/).
	Dir string
	// Generator makes UIs; nil means the offline generator.
	Generator gen.Generator
	// PersistCache keeps generated UIs under Dir/cache across restarts.
	PersistCache bool
	// NoCache disables cache reads (every read regenerates).
	NoCache bool
	// GenerationTimeout bounds one generation (default 2 min).
	GenerationTimeout time.Duration
	// MaxConcurrentGenerations is the global limit (default 2).
	MaxConcurrentGenerations int
	// RefreshInterval, when positive, re-fetches the upstream's tools that
	// often (besides refreshes on tools/list_changed and _ui_refresh_tools);
	// after a failure the wait doubles, up to 8 intervals.
	RefreshInterval time.Duration
	// ToolLookupWait bounds how long a front-end request naming a tool
	// waits for the upstream's first tools/list (default 10 s).
	ToolLookupWait time.Duration
	// UpstreamWait bounds how long a new request waits for a starting
	// upstream (default 15 s); ReconnectWait for one that was connected and
	// is reconnecting (default 3 s), so calls fail fast in a long outage.
	UpstreamWait, ReconnectWait time.Duration
	// RefreshBackoffMax bounds the wait after failed periodic refreshes
	// (the wait doubles from RefreshInterval; default 8 intervals).
	RefreshBackoffMax time.Duration
	// CacheDir is where persisted UIs live (default Dir/cache); the
	// cache limits are cache.Options' (0 = the cache package's defaults).
	CacheDir                               string
	CacheMaxEntries                        int
	CacheMaxEntryBytes, CacheMaxTotalBytes int64
	// DefaultTheme ("light" or "dark"; "" or "auto" = the host's) is the
	// theme generated UIs get unless a refinement asks for another.
	DefaultTheme string
	// EnabledTools, when not empty, are the only tools that get a
	// generated UI; DisabledTools never get one. Both hold names or
	// path.Match globs ("debug_*"). Other tools still pass through.
	EnabledTools, DisabledTools []string
	// ReadableAssets makes generated pages inline the readable JavaScript
	// and CSS sources instead of their minified build (--debug, for reading
	// a page in a browser's developer tools). Process-wide; it enters the
	// cache key.
	ReadableAssets bool
	// AnswerTimeout bounds how long a request from the upstream waits for
	// an answer from genui's own surfaces (elicitation, sampling; default
	// 5 min); then the upstream gets an error.
	AnswerTimeout time.Duration
	// Roots answer the upstream's roots/list when no host does (nil: the
	// working directory; empty: none).
	Roots []contract.Root
	// Surfaces says genui's own surfaces (TUI, preview, HTTP API) run
	// beside the engine and may answer the upstream's elicitation and
	// sampling requests: the upstream is told genui supports them even
	// when the stdio host does not.
	Surfaces bool
	// Metrics receives genui's Prometheus metrics (nil = none).
	Metrics *metrics.Metrics
	Logger  *slog.Logger
}

// UI is one generated UI as served.
type UI struct {
	Tool string
	HTML string
	Key  cache.Key
	Meta contract.UIMeta
	// FromCache is true when the read was served from the cache.
	FromCache bool
}

// Engine is genui's core. Create with New, then Run.
type Engine struct {
	opts   Options
	log    *slog.Logger
	clog   *slog.Logger // component=cache: lookups and stores, by request id
	met    *metrics.Metrics
	up     *upstream.Client
	gen    gen.Generator
	cache  *cache.Cache
	refine *refine.Store
	broker *events.Broker[contract.Event]
	queue  *events.Queue
	// seqMu orders events: Seq is assigned and the event handed to the
	// broker under it.
	seqMu sync.Mutex
	seq   int64

	// Registered by front ends (see SetURLs, SetSessionSource).
	feMu         sync.RWMutex
	urls         contract.URLs
	portConflict string
	sessions     func() []contract.SessionInfo
	sf           singleflight.Group
	sem          *semaphore.Weighted

	mu       sync.RWMutex
	tools    []*Tool // upstream order
	byName   map[string]*Tool
	toolsErr error
	// toolsFatal: toolsErr is an answer from the upstream that no wait
	// will change (an error, an unusable result), not a lost connection.
	toolsFatal bool
	// loadFailed is closed and replaced when a tools load fails that way,
	// waking WaitReady.
	loadFailed chan struct{}
	loaded     chan struct{} // closed after the first successful tools load
	loadOnce   sync.Once
	listeners  []func(contract.Event)

	// refreshSem serialises RefreshTools, so the last refresh applied is
	// the last one fetched; refreshQueued coalesces tools/list_changed.
	refreshSem    chan struct{}
	refreshQueued atomic.Bool

	genMu      sync.Mutex
	generating map[string]int // tool -> generations running
	gs         genState       // LLM generations (generate.go)

	notifMu      sync.RWMutex
	notifHandler func(method string, params json.RawMessage)
	reqHandler   func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	hostCalls    func() int64 // the MCP host's newest call in flight (calls.go)

	calls   callRegistry // calls from genui's surfaces in flight (calls.go)
	callSeq atomic.Int64
	pending pendingSet // requests awaiting an answer (requests.go)
}

// New builds an engine; it does not connect yet.
func New(opts Options) (*Engine, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	tee := newLogTee(opts.Logger.Handler()) // watchers see the log (logevents.go)
	opts.Logger = slog.New(tee)
	if opts.GenerationTimeout <= 0 {
		opts.GenerationTimeout = 2 * time.Minute
	}
	if opts.MaxConcurrentGenerations <= 0 {
		opts.MaxConcurrentGenerations = 2
	}
	if opts.Generator == nil {
		opts.Generator = gen.NewOffline()
	}
	if opts.ToolLookupWait <= 0 {
		opts.ToolLookupWait = defaultToolLookupWait
	}
	if opts.UpstreamWait <= 0 {
		opts.UpstreamWait = defaultUpstreamWait
	}
	if opts.ReconnectWait <= 0 {
		opts.ReconnectWait = defaultReconnectWait
	}
	if opts.AnswerTimeout <= 0 {
		opts.AnswerTimeout = defaultAnswerTimeout
	}
	if opts.Roots == nil {
		opts.Roots = DefaultRoots()
	}
	if opts.ReadableAssets {
		viewdefs.UseReadableSources(true)
		mcpshim.UseReadableSources(true)
	}
	for _, p := range append(append([]string(nil), opts.EnabledTools...), opts.DisabledTools...) {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("tool pattern %q: %w", p, err)
		}
	}
	e := &Engine{
		opts: opts,
		log:  opts.Logger.With("component", "engine"),
		clog: opts.Logger.With("component", "cache"),
		met:  opts.Metrics,
		gen:  opts.Generator,
		broker: events.NewBroker(256, events.WithLagEvent(func(pending int) (string, contract.Event) {
			return string(contract.EventLagged), contract.Event{Time: time.Now(), Kind: contract.EventLagged, Detail: &contract.Lagged{Pending: pending}}
		})),
		queue:  events.NewQueue(1000),
		sem:    semaphore.NewWeighted(int64(opts.MaxConcurrentGenerations)),
		byName: map[string]*Tool{},
		loaded: make(chan struct{}),

		loadFailed: make(chan struct{}),

		refreshSem: make(chan struct{}, 1),

		generating: map[string]int{},
	}
	tee.sink.Store(e)
	e.queue.SetObserver(events.QueueObserver{
		Pushed: func(ev contract.QueuedEvent) { e.publish(contract.EventQueued, ev.Tool, &contract.Queued{Event: ev}) },
		Drained: func(batch []contract.QueuedEvent, pending int) {
			e.publish(contract.EventQueueDrained, "", &contract.QueueDrained{Count: len(batch), LastSeq: batch[len(batch)-1].Seq, Pending: pending})
		},
	})
	cacheDir, refinePath := "", ""
	if opts.Dir != "" {
		if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", opts.Dir, err)
		}
		refinePath = filepath.Join(opts.Dir, "refinements.json")
		if opts.PersistCache {
			cacheDir = filepath.Join(opts.Dir, "cache")
		}
	}
	if opts.PersistCache && opts.CacheDir != "" {
		cacheDir = opts.CacheDir
	}
	var err error
	if e.cache, err = cache.New(cache.Options{Dir: cacheDir, Logger: e.clog, MaxEntries: opts.CacheMaxEntries,
		MaxEntryBytes: opts.CacheMaxEntryBytes, MaxTotalBytes: opts.CacheMaxTotalBytes}); err != nil {
		return nil, fmt.Errorf("open UI cache: %w", err)
	}
	if e.refine, err = refine.Open(refinePath, opts.Logger); err != nil {
		return nil, fmt.Errorf("open refinements: %w", err)
	}
	upCfg := opts.Upstream
	if upCfg.Logger == nil {
		upCfg.Logger = opts.Logger // the upstream package adds component=upstream
	}
	if upCfg.ClientName == "" {
		upCfg.ClientName, upCfg.ClientVersion = "genui", Version
	}
	e.up = upstream.New(upCfg)
	e.up.SetNotificationHandler(e.onUpstreamNotification)
	e.up.SetRequestHandler(e.onUpstreamRequest)
	e.up.SetStateHandler(e.onUpstreamState)
	e.observeMetrics()
	return e, nil
}

// observeMetrics registers what the engine keeps itself (cache counters,
// upstream restarts, the /wait queue) with the metrics registry.
func (e *Engine) observeMetrics() {
	if e.met == nil {
		return
	}
	stats := func(f func(contract.CacheStats) int64) func() float64 {
		return func() float64 { return float64(f(e.cache.Stats())) }
	}
	e.met.Observe(metrics.Sources{
		CacheHits:        stats(func(s contract.CacheStats) int64 { return s.Hits }),
		CacheMisses:      stats(func(s contract.CacheStats) int64 { return s.Misses }),
		CacheEvictions:   stats(func(s contract.CacheStats) int64 { return s.Evictions }),
		CacheEntries:     stats(func(s contract.CacheStats) int64 { return int64(s.Entries) }),
		CacheBytes:       stats(func(s contract.CacheStats) int64 { return s.Bytes }),
		UpstreamRestarts: func() float64 { return float64(e.up.State().Restarts) },
		UpstreamConnected: func() float64 {
			if e.up.State().Connected {
				return 1
			}
			return 0
		},
		WaitPollers: func() float64 { return float64(e.queue.Stats().Pollers) },
		QueueLength: func() float64 { return float64(e.queue.Stats().Pending) },
	})
}

// Run keeps the upstream connected (and, with RefreshInterval, its tools
// fresh) until ctx ends.
func (e *Engine) Run(ctx context.Context) error {
	defer e.broker.Shutdown()
	defer e.stopGenerations()
	if e.opts.RefreshInterval > 0 {
		go e.refreshLoop(ctx)
	}
	return e.up.Run(ctx)
}

func (e *Engine) refreshLoop(ctx context.Context) {
	wait := e.opts.RefreshInterval
	for {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := e.RefreshTools(rctx)
		cancel()
		wait = nextRefreshWait(e.opts.RefreshInterval, e.opts.RefreshBackoffMax, wait, err)
		if err != nil {
			e.log.Warn("periodic tools refresh failed", "err", err, "next", wait)
		}
	}
}

// nextRefreshWait doubles the wait after a failure (at most maxWait,
// default 8 intervals) and returns to the interval after a success.
func nextRefreshWait(interval, maxWait, last time.Duration, err error) time.Duration {
	if err == nil {
		return interval
	}
	if maxWait <= 0 {
		maxWait = 8 * interval
	}
	return max(min(last*2, maxWait), interval)
}

// WaitReady blocks until the upstream is connected and its tools are loaded,
// or ctx ends. When the upstream answered tools/list with an error or an
// unusable result (and no load succeeded yet) it fails at once with that
// reason: waiting would not change the answer.
func (e *Engine) WaitReady(ctx context.Context) error {
	for {
		e.mu.RLock()
		err, fatal, failed := e.toolsErr, e.toolsFatal, e.loadFailed
		e.mu.RUnlock()
		select {
		case <-e.loaded:
			return nil
		default:
		}
		if fatal && err != nil {
			return fmt.Errorf("upstream not ready: %w", err)
		}
		select {
		case <-e.loaded:
			return nil
		case <-failed:
		case <-ctx.Done():
			e.mu.RLock()
			err := e.toolsErr
			e.mu.RUnlock()
			if err != nil {
				return fmt.Errorf("upstream not ready: %w", err)
			}
			return fmt.Errorf("upstream not ready: %w (%s)", ctx.Err(), e.up.State().LastError)
		}
	}
}

// answeredFailure reports whether a failed tools load was the upstream's
// answer (a JSON-RPC error, a result genui cannot use) rather than a lost
// connection or a timeout, which a retry may fix.
func answeredFailure(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je.Code != jsonrpc.CodeUpstreamUnavailable
	}
	return contract.AsError(err).Code != contract.CodeUpstreamUnavailable
}

// Options returns the engine's options.
func (e *Engine) Options() Options { return e.opts }

// OnEvent registers a listener that receives every event synchronously and
// reliably (the MCP host uses it to notify sessions). Listeners must not block.
func (e *Engine) OnEvent(f func(contract.Event)) {
	e.mu.Lock()
	e.listeners = append(e.listeners, f)
	e.mu.Unlock()
}

// SetNotificationHandler receives upstream notifications (after the engine
// has acted on tools/list_changed). Set before Run.
func (e *Engine) SetNotificationHandler(f func(method string, params json.RawMessage)) {
	e.notifMu.Lock()
	e.notifHandler = f
	e.notifMu.Unlock()
}

// SetRequestHandler receives server-to-client requests from the upstream
// (sampling, elicitation, roots) to relay to a host.
func (e *Engine) SetRequestHandler(f func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)) {
	e.notifMu.Lock()
	e.reqHandler = f
	e.notifMu.Unlock()
}

// SetClientCapabilities sets the function the upstream's handshake asks for
// the client capabilities to declare (the MCP host mirrors its host's
// sampling, elicitation and roots); see upstream.Client.SetCapabilities.
func (e *Engine) SetClientCapabilities(f func(ctx context.Context) json.RawMessage) {
	e.up.SetCapabilities(f)
}

// publish numbers an event, tells the synchronous listeners and hands it to
// the broker (streaming kinds may be dropped for slow subscribers, final
// ones never). Engine events agents care about also go to the /wait queue.
func (e *Engine) publish(kind contract.EventKind, tool string, d contract.EventDetail) {
	e.seqMu.Lock()
	e.seq++
	ev := contract.Event{Seq: e.seq, Time: time.Now(), Kind: kind, Tool: tool, Detail: d}
	if kind.IsStreaming() {
		e.broker.Publish(string(kind), ev)
	} else {
		e.broker.PublishFinal(string(kind), ev)
	}
	e.seqMu.Unlock()
	e.mu.RLock()
	ls := append([]func(contract.Event){}, e.listeners...)
	e.mu.RUnlock()
	for _, l := range ls {
		l(ev)
	}
	switch kind {
	case contract.EventGenerationFinished, contract.EventGenerationFailed, contract.EventToolsChanged, contract.EventUpstreamUp, contract.EventUpstreamDown:
		e.queue.Push(contract.SourceEngine, string(kind), tool, d)
	}
}

// Streaming reports whether anyone watches events, so producers of
// streaming events (traffic, logs) can skip building them.
func (e *Engine) Streaming() bool { return e.broker.HasSubscribers() }

// PublishTraffic reports one JSON-RPC message seen by a front end or the
// upstream connection (a streaming event; cheap when nobody watches).
func (e *Engine) PublishTraffic(t contract.Traffic) {
	if !e.broker.HasSubscribers() {
		return
	}
	e.publish(contract.EventTraffic, "", &t)
}

func (e *Engine) onUpstreamState(s contract.UpstreamState) {
	if !s.Connected && s.LastError != "" {
		e.met.UpstreamError("connection")
	}
	if s.Connected {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := e.RefreshTools(ctx); err != nil {
				e.log.Warn("tools/list after connect failed", "err", err)
			}
		}()
		e.publish(contract.EventUpstreamUp, "", &contract.UpstreamChanged{Upstream: s})
		return
	}
	e.publish(contract.EventUpstreamDown, "", &contract.UpstreamChanged{Upstream: s})
}

func (e *Engine) onUpstreamNotification(method string, params json.RawMessage) {
	e.traceUpstreamMessage("notification", method, params)
	if method == "notifications/tools/list_changed" {
		// A refresh that is queued but has not fetched yet covers this
		// change too: storms cost one running and one queued refresh.
		if !e.refreshQueued.CompareAndSwap(false, true) {
			return
		}
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := e.RefreshTools(ctx); err != nil {
				e.log.Warn("refresh after tools/list_changed failed", "err", err)
			}
		}()
		// The host re-announces list changes itself after the refresh.
		return
	}
	if e.interceptNotification(method, params) {
		return // progress or status of a call of genui's own surfaces
	}
	e.notifMu.RLock()
	h := e.notifHandler
	e.notifMu.RUnlock()
	if h != nil {
		h(method, params)
	}
}

// UpstreamTools returns the upstream tools in upstream order.
func (e *Engine) UpstreamTools() []*Tool {
	return e.upstreamTools()
}

func (e *Engine) upstreamTools() []*Tool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return append([]*Tool(nil), e.tools...)
}

// Tool looks a tool up by name.
func (e *Engine) Tool(name string) (*Tool, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	t, ok := e.byName[name]
	return t, ok
}

// ToolsWithUI returns each upstream tool's JSON with UI metadata added.
func (e *Engine) ToolsWithUI() []json.RawMessage {
	tools := e.upstreamTools()
	out := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		raw, err := withUIMeta(t)
		if err != nil {
			raw = t.Raw
		}
		out = append(out, raw)
	}
	return out
}

// ToolsRaw returns each upstream tool's JSON verbatim.
func (e *Engine) ToolsRaw() []json.RawMessage {
	tools := e.upstreamTools()
	out := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		out = append(out, t.Raw)
	}
	return out
}

// RefreshTools fetches the upstream's tools (all pages), replaces the
// registry and reports what changed. Removed tools lose their cache entries
// and refinements.
func (e *Engine) RefreshTools(ctx context.Context) (contract.ToolDiff, error) {
	select {
	case e.refreshSem <- struct{}{}:
	case <-ctx.Done():
		return contract.ToolDiff{}, fmt.Errorf("tools refresh: %w", ctx.Err())
	}
	defer func() { <-e.refreshSem }()
	e.refreshQueued.Store(false) // changes announced from now on need another refresh
	raws, err := e.listAllTools(ctx)
	if err != nil {
		e.mu.Lock()
		e.toolsErr, e.toolsFatal = err, answeredFailure(err)
		if e.toolsFatal {
			close(e.loadFailed)
			e.loadFailed = make(chan struct{})
		}
		e.mu.Unlock()
		return contract.ToolDiff{}, err
	}
	var next []*Tool
	nextBy := map[string]*Tool{}
	for _, raw := range raws {
		t, err := parseTool(raw)
		if err == nil {
			t.UIDisabled = !e.uiEnabled(t.Name)
		}
		if err != nil {
			e.log.Warn("skipping malformed upstream tool", "err", err, "tool", string(truncate(raw, 200)))
			continue
		}
		if _, dup := nextBy[t.Name]; dup {
			e.log.Warn("upstream lists a tool twice; keeping the first", "tool", t.Name)
			continue
		}
		next = append(next, t)
		nextBy[t.Name] = t
	}
	e.mu.Lock()
	var diff contract.ToolDiff
	for _, t := range next {
		old, ok := e.byName[t.Name]
		switch {
		case !ok:
			diff.Added = append(diff.Added, t.Name)
		case old.Hash != t.Hash || string(old.Raw) != string(t.Raw):
			diff.Changed = append(diff.Changed, t.Name)
		default:
			diff.Unchanged = append(diff.Unchanged, t.Name)
		}
	}
	for name := range e.byName {
		if _, ok := nextBy[name]; !ok {
			diff.Removed = append(diff.Removed, name)
		}
	}
	first := e.tools == nil
	e.tools, e.byName, e.toolsErr, e.toolsFatal = next, nextBy, nil, false
	e.mu.Unlock()
	sort.Strings(diff.Removed)
	for _, name := range diff.Removed {
		e.cache.DeleteTool(name)
	}
	if len(diff.Removed) > 0 {
		names := make([]string, 0, len(next))
		for _, t := range next {
			names = append(names, t.Name)
		}
		if _, err := e.refine.Retain(names); err != nil {
			e.log.Warn("dropping refinements of removed tools failed", "err", err)
		}
	}
	e.loadOnce.Do(func() { close(e.loaded) })
	e.prewarm(next)
	if !first && !diff.Empty() {
		e.publish(contract.EventToolsChanged, "", &contract.ToolsChanged{Diff: diff})
	}
	return diff, nil
}

func (e *Engine) listAllTools(ctx context.Context) ([]json.RawMessage, error) {
	var all []json.RawMessage
	var cursor string
	for page := 0; page < 1000; page++ {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		res, err := e.request(ctx, "tools/list", params)
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		var r struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &r); err != nil {
			return nil, fmt.Errorf("tools/list: malformed result: %w", err)
		}
		all = append(all, r.Tools...)
		if r.NextCursor == "" {
			return all, nil
		}
		cursor = r.NextCursor
	}
	return nil, errors.New("tools/list: more than 1000 pages; giving up")
}

func (e *Engine) configHash() string {
	return e.genConfig().Hash()
}

// UIKey is the cache key of a tool's current UI.
func (e *Engine) UIKey(t *Tool) cache.Key {
	h := t.Hash
	if t.Visibility != nil {
		// Who may call the tool shapes its UI (no Run button for model-only).
		h += "|visibility=" + strings.Join(t.Visibility, ",")
	}
	return cache.MakeKey(t.Name, h, e.refine.Hash(t.Name), e.configHash())
}

// WithRequestID returns ctx carrying the id of the MCP/HTTP request whose
// work it is; the engine's and the upstream's log lines and the cache
// metadata carry it.
func WithRequestID(ctx context.Context, id string) context.Context {
	return jsonrpc.WithRequestID(ctx, id)
}

// RequestID returns the request id carried by ctx, or "".
func RequestID(ctx context.Context) string { return jsonrpc.RequestID(ctx) }

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
