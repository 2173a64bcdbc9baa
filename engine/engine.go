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
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/checks"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gctarget"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/history"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/metrics"
	"github.com/genui-dev/genui/engine/refine"
	"github.com/genui-dev/genui/engine/registry"
	"github.com/genui-dev/genui/engine/toolchanges"
	"github.com/genui-dev/genui/engine/traffic"
	"github.com/genui-dev/genui/engine/upstream"
)

// Versions of what goes into a UI, part of every cache key.
const (
	PromptVersion   = "1"
	TemplateVersion = "13" // 4: offline pages pack their code (pagepack.Pack); 5: pages carry a CSP meta tag (pagecsp); 6: Cancel, resource links, downloads, annotation badges; 7: offline pages connect before unpacking (shim and connect.js inflated first), page.js a classic script; 8: the packed rest inflated after the first stream is in, the system theme set before the styles, content held out of layout until the handshake, auto-resize after the first result; 9: the packed rest unpacked once the handshake is done, the rows below a long table's box laid out after its first frame; 10: the packed streams read without a Response (no task between the chunks), their parts sliced by length instead of JSON, a task for the host after the handshake, content out of layout (display: none) until the styles are in; 11: offline pages carry their view spec (#view-spec, package viewspec) and the refinements' outcomes (#view-outcomes); cached pages of 10 are regenerated, refinements (stored as text) read again; LLM pages open with genui's guard and bridge (mcpshim.InjectGuarded), no 'strict-dynamic' outside packed pages; 12: one deflate stream for a page's packed parts (the shim's segment cut by a sync flush), the loader minified, the text readers and markdown parser only where a text can reach the view; 13: rich.js and the line readers read through the host (pagepack's deferred block, ui://genui/pack/<hash>), the version followed by their digest
)

// Options configure an Engine.
type Options struct {
	Upstream upstream.Config
	// Dir is where genui keeps its files (ui-port, cache/, refinements.json, log/).
	Dir string
	// Generator makes UIs; nil means the offline generator.
	Generator gen.Generator
	// GeneratorSource says where the generator's settings came from when
	// genui was not given them (gen.Config.Source): State shows it.
	GeneratorSource string
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
	// a page in a browser's developer tools). Per engine: the default
	// offline generator and the engine's own pages (emergency, shim) follow
	// it; a Generator given in Generator renders as it was configured
	// (gen.Config.Pages, gen.NewOfflineWith). It enters the cache key.
	ReadableAssets bool
	// AnswerTimeout bounds how long a request from the upstream waits for
	// an answer from genui's own surfaces (elicitation, sampling; default
	// 5 min); then the upstream gets an error.
	AnswerTimeout time.Duration
	// Roots answer the upstream's roots/list when no host does; none (the
	// default) declares no roots capability of genui's own.
	Roots []contract.Root
	// Surfaces says genui's own surfaces (TUI, preview, HTTP API) run
	// beside the engine and may answer the upstream's elicitation and
	// sampling requests (OwnCapabilities; the MCP host declares them to
	// the upstream only with upstream.capabilities "workbench").
	Surfaces bool
	// History configures the call history (Dir defaults to Dir/history;
	// without a Dir it is kept in memory).
	History history.Options
	// ChecksDir is where pinned calls live (default checks.DefaultDir);
	// CheckTimeout bounds each replayed call (default 1 min).
	ChecksDir    string
	CheckTimeout time.Duration
	// Watch restarts a stdio upstream when its files change.
	Watch WatchOptions
	// Metrics receives genui's Prometheus metrics (nil = none).
	Metrics *metrics.Metrics
	Logger  *slog.Logger
	// LogReplace, when set, rewrites every attribute (the message
	// included) of the log records published to watchers (EventLog: the
	// TUI's Log tab, the API's events), as the log file's handler does
	// (config.LogReplacer: credentials and ${env:VAR} values hidden).
	LogReplace func(groups []string, a slog.Attr) slog.Attr
}

// Engine is genui's core, composed of services that each keep their own
// lock: the event hub, the Relay (the pass-through to the upstream), the
// tool registry, the UI service (cache, refinements, generation
// scheduler) and the surfaces' host side (calls.go, requests.go: calls of
// genui's own surfaces in flight, the upstream's requests awaiting them). Front ends use it through contract.API; the MCP host also
// through Relay, Registry and a few hooks. Create with New, then Run.
type Engine struct {
	opts Options
	log  *slog.Logger
	// roots are the roots genui answers roots/list with (Options.Roots,
	// replaced by SetRoots; requests.go).
	rootsMu sync.Mutex
	roots   []contract.Root
	hub     *eventHub
	pairs   *traffic.Pairs  // pairs traffic answers with their requests
	traffic *traffic.Record // the recent frames, numbered (RecentTraffic)
	relay   *Relay
	tools   *registry.Registry
	ui      *uiService
	fronts  frontEnds
	calls   callRegistry // calls from genui's surfaces in flight (calls.go)
	// pending are the upstream's requests awaiting an answer (requests.go).
	pending pendingSet
	// The develop loop: the call history, the pinned calls (checks) and
	// the watch on the upstream's files.
	history *history.Store
	checks  *checks.Store
	watch   watching
}

// frontEnds is what front ends registered (see SetURLs, SetSessionSource).
type frontEnds struct {
	mu           sync.RWMutex
	urls         contract.URLs
	portConflict string
	sessions     func() []contract.SessionInfo
}

func (f *frontEnds) get() (contract.URLs, string, func() []contract.SessionInfo) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.urls, f.portConflict, f.sessions
}

// New builds an engine; it does not connect yet.
func New(opts Options) (*Engine, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	tee := newLogTee(opts.Logger.Handler(), opts.LogReplace) // watchers see the log (logevents.go)
	opts.Logger = slog.New(tee)
	if opts.GenerationTimeout <= 0 {
		opts.GenerationTimeout = 2 * time.Minute
	}
	if opts.MaxConcurrentGenerations <= 0 {
		opts.MaxConcurrentGenerations = 2
	}
	if opts.Generator == nil {
		opts.Generator = gen.NewOfflineWith(gen.PageOptions{ReadableSources: opts.ReadableAssets})
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
	e := &Engine{opts: opts, log: opts.Logger.With("component", "engine"), hub: newEventHub(), pairs: traffic.NewPairs(),
		roots: append([]contract.Root(nil), opts.Roots...)}
	e.traffic = traffic.NewRecord(e.hub.publishTraffic)
	tee.sink.Store(e.hub)
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
	upCfg := opts.Upstream
	if upCfg.Logger == nil {
		upCfg.Logger = opts.Logger // the upstream package adds component=upstream
	}
	if upCfg.ClientName == "" {
		upCfg.ClientName, upCfg.ClientVersion = "genui", Version
	}
	if len(upCfg.Capabilities) == 0 {
		// Without an MCP host (genui check, export) the upstream is told
		// what genui answers itself; the host replaces this per handshake.
		upCfg.Capabilities = e.OwnCapabilities()
	}
	up := upstream.New(upCfg)
	var err error
	if e.tools, err = registry.New(registry.Options{EnabledTools: opts.EnabledTools, DisabledTools: opts.DisabledTools,
		LastError: func() string { return up.State().LastError }, Logger: e.log}); err != nil {
		return nil, err
	}
	e.ui = &uiService{opts: opts, log: e.log, clog: opts.Logger.With("component", "cache"), met: opts.Metrics,
		hub: e.hub, gen: opts.Generator, sem: semaphore.NewWeighted(int64(opts.MaxConcurrentGenerations)),
		generating: map[string]int{}}
	// The cache adds component=cache to its lines itself.
	if e.ui.cache, err = cache.New(cache.Options{Dir: cacheDir, Logger: opts.Logger, MaxEntries: opts.CacheMaxEntries,
		MaxEntryBytes: opts.CacheMaxEntryBytes, MaxTotalBytes: opts.CacheMaxTotalBytes}); err != nil {
		return nil, fmt.Errorf("open UI cache: %w", err)
	}
	if e.ui.refine, err = refine.Open(refinePath, opts.Logger); err != nil {
		return nil, fmt.Errorf("open refinements: %w", err)
	}
	ho := opts.History
	if ho.Dir == "" && opts.Dir != "" {
		ho.Dir = filepath.Join(opts.Dir, "history")
	}
	if ho.Logger == nil {
		ho.Logger = opts.Logger
	}
	if e.history, err = history.Open(ho); err != nil {
		return nil, fmt.Errorf("open the call history: %w", err)
	}
	e.checks = checks.NewStore(opts.ChecksDir)
	e.relay = &Relay{up: up, met: opts.Metrics, hub: e.hub, upstreamWait: opts.UpstreamWait,
		reconnectWait: opts.ReconnectWait, toolsChanged: e.refreshForListChanged,
		surfaceNotification: e.interceptNotification}
	up.SetNotificationHandler(e.relay.upstreamNotification)
	up.SetRequestHandler(e.onUpstreamRequest)
	up.SetStateHandler(e.onUpstreamState)
	up.SetTracer(upstreamTracer{hub: e.hub, pairs: e.pairs, traffic: e.traffic})
	e.observeMetrics()
	return e, nil
}

// observeMetrics registers what the engine keeps itself (cache counters,
// upstream restarts, the /wait queue) with the metrics registry.
func (e *Engine) observeMetrics() {
	if e.opts.Metrics == nil {
		return
	}
	stats := func(f func(contract.CacheStats) int64) func() float64 {
		return func() float64 { return float64(f(e.ui.cache.Stats())) }
	}
	up := e.relay.up
	e.opts.Metrics.Observe(metrics.Sources{
		CacheHits:        stats(func(s contract.CacheStats) int64 { return s.Hits }),
		CacheMisses:      stats(func(s contract.CacheStats) int64 { return s.Misses }),
		CacheEvictions:   stats(func(s contract.CacheStats) int64 { return s.Evictions }),
		CacheEntries:     stats(func(s contract.CacheStats) int64 { return int64(s.Entries) }),
		CacheBytes:       stats(func(s contract.CacheStats) int64 { return s.Bytes }),
		UpstreamRestarts: func() float64 { return float64(up.State().Restarts) },
		UpstreamConnected: func() float64 {
			if up.State().Connected {
				return 1
			}
			return 0
		},
		WaitPollers: func() float64 { return float64(e.hub.queue.Stats().Pollers) },
		QueueLength: func() float64 { return float64(e.hub.queue.Stats().Pending) },
	})
}

// Run keeps the upstream connected (and, with RefreshInterval, its tools
// fresh) until ctx ends.
func (e *Engine) Run(ctx context.Context) error {
	defer e.history.Close()
	defer e.hub.shutdown()
	defer e.ui.stopGenerations()
	if e.opts.RefreshInterval > 0 {
		go e.refreshLoop(ctx)
	}
	if len(e.opts.Watch.Paths) > 0 {
		// A project with a build step is built before its server first
		// starts (a fresh checkout has nothing built yet).
		e.buildAtStart(ctx)
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			e.runWatch(wctx)
		}()
		defer func() { cancel(); <-done }()
	}
	return e.relay.up.Run(ctx)
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

// Relay is the pass-through to the upstream (the MCP host's).
func (e *Engine) Relay() *Relay { return e.relay }

// Registry is the upstream's tools.
func (e *Engine) Registry() *registry.Registry { return e.tools }

// OnEvent registers a listener that receives every event synchronously and
// reliably (the MCP host uses it to notify sessions). Listeners must not block.
func (e *Engine) OnEvent(f func(contract.Event)) { e.hub.onEvent(f) }

// Streaming reports whether anyone watches events, so producers of
// streaming events (traffic, logs) can skip building them.
func (e *Engine) Streaming() bool { return e.hub.streaming() }

// SetSampler gives the engine the host's MCP sampling
// (sampling/createMessage; the MCP host registers it): `--llm sampling`
// generates through it. It fails with contract.ErrNoSampler when no
// connected host can sample.
func (e *Engine) SetSampler(f func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)) {
	e.ui.setSampler(f)
}

// ObserveResult records a real tools/call result of tool (the newest that
// is not an error) with the call's arguments and duration, which the LLM
// prompt shows so the model knows the data's shape (and that it runs long)
// and the offline generator proposes the view spec from.
func (e *Engine) ObserveResult(tool string, args, result json.RawMessage, took time.Duration) {
	e.ui.observeResult(tool, args, result, took)
}

// WantsExamples reports whether ObserveResult has a use: an LLM generator
// shows it one real result of a tool, the offline generator proposes the
// view spec from it (always, now).
func (e *Engine) WantsExamples() bool { return e.ui.wantsExamples() }

func (e *Engine) onUpstreamState(s contract.UpstreamState) {
	if !s.Connected && s.LastError != "" {
		e.opts.Metrics.UpstreamError("connection")
	}
	if s.Connected {
		// Announced before the tools load starts, so whoever waits for the
		// tools (Registry().WaitReady) finds upstream-up published and queued.
		e.hub.publish(contract.EventUpstreamUp, "", &contract.UpstreamChanged{Upstream: s})
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := e.RefreshTools(ctx); err != nil {
				e.log.Warn("tools/list after connect failed", "err", err)
			}
		}()
		return
	}
	e.hub.publish(contract.EventUpstreamDown, "", &contract.UpstreamChanged{Upstream: s})
}

// refreshForListChanged refreshes the tools after the upstream announced a
// change; a refresh that is queued but has not fetched yet covers it.
func (e *Engine) refreshForListChanged() {
	if !e.tools.QueueRefresh() {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := e.RefreshTools(ctx); err != nil {
			e.log.Warn("refresh after tools/list_changed failed", "err", err)
		}
	}()
}

// RefreshTools fetches the upstream's tools (all pages), replaces the
// registry and reports what changed. Removed tools lose their cache entries
// and refinements.
func (e *Engine) RefreshTools(ctx context.Context) (contract.ToolDiff, error) {
	ch, err := e.tools.RefreshParsed(ctx, e.listAllTools)
	if err != nil {
		return contract.ToolDiff{}, err
	}
	for _, name := range ch.Diff.Removed {
		e.ui.cache.DeleteTool(name)
	}
	if len(ch.Diff.Removed) > 0 {
		names := make([]string, 0, len(ch.Tools))
		for _, t := range ch.Tools {
			names = append(names, t.Name)
		}
		if _, err := e.ui.refine.Retain(names); err != nil {
			e.log.Warn("dropping refinements of removed tools failed", "err", err)
		}
	}
	e.ui.prewarm(ch.Tools)
	returnLoadMemory(ch.Tools)
	if ch.First || ch.Diff.Empty() {
		return ch.Diff, nil
	}
	diff := toolchanges.Describe(ch.Diff, ch.Previous, ch.Tools)
	e.hub.publish(contract.EventToolsChanged, "", &contract.ToolsChanged{Diff: diff})
	return diff, nil
}

// listAllTools fetches every page; a list of one page comes back indexed
// as it was parsed, the pages of a longer one are indexed again in one.
func (e *Engine) listAllTools(ctx context.Context) (*registry.Parser, error) {
	var all *registry.Parser
	var cursor string
	for page := 0; page < 1000; page++ {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		p, next, err := e.listToolsPage(ctx, params)
		if err != nil {
			return nil, err
		}
		switch {
		case page == 0 && next == "":
			return p, nil
		case page == 0:
			all = e.tools.NewParser()
		}
		all.AddParsed(p.Tools())
		if next == "" {
			return all, nil
		}
		cursor = next
	}
	return nil, errors.New("tools/list: more than 1000 pages; giving up")
}

// listToolsPage fetches one tools/list page and parses its tools. A long
// answer's tools are parsed on another goroutine while the answer still
// streams in (upstream.Client.ListTools hands them over as the link finds
// them), so little is left to do after its last byte.
func (e *Engine) listToolsPage(ctx context.Context, params json.RawMessage) (*registry.Parser, string, error) {
	ahead := e.parseAhead(len(params) == 0)
	res, streamed, split, err := e.relay.listTools(ctx, params, ahead.each)
	p := ahead.finish()
	if err != nil {
		return nil, "", fmt.Errorf("tools/list: %w", err)
	}
	tools, next, err := splitToolsPage(res) // split: res has an empty tools array
	if err != nil {
		return nil, "", fmt.Errorf("tools/list: malformed result: %w", err)
	}
	if split && p.Added() == len(streamed) {
		return p, next, nil
	}
	if split {
		tools = streamed // as they lie in the blocks the answer was read into
	} else {
		tools = keptTools(res, tools)
	}
	p = e.tools.NewParser()
	p.Add(tools)
	return p, next, nil
}

// parsing parses the tools a streaming tools/list answer hands over, on
// its own goroutine. The first page's tools are published as they are
// parsed (registry.Parser.Publish): during the first load the MCP host
// answers a host's tools/list page as soon as its tools are in, not after
// the upstream's last byte.
type parsing struct {
	batches chan []json.RawMessage
	quit    chan struct{}
	done    chan struct{}
	p       *registry.Parser
	gc      func() // puts the GC back as it was (loadGC), once a long answer streams
}

func (e *Engine) parseAhead(publish bool) *parsing {
	a := &parsing{batches: make(chan []json.RawMessage, 1024), quit: make(chan struct{}), done: make(chan struct{}),
		p: e.tools.NewParser()}
	take := func(b []json.RawMessage) {
		if b == nil { // another answer starts
			a.p = e.tools.NewParser()
			if publish {
				a.p.Publish()
			}
			return
		}
		if a.gc == nil {
			a.gc = loadGC()
		}
		a.p.Add(b)
		if publish {
			a.p.Publish()
		}
	}
	go func() {
		defer close(a.done)
		for {
			select {
			case b := <-a.batches:
				take(b)
			case <-a.quit: // what was sent before is still taken
				for {
					select {
					case b := <-a.batches:
						take(b)
					default:
						return
					}
				}
			}
		}
	}()
	return a
}

// each is ListTools' hook (on the upstream link's read loop): it waits
// while the parser is behind by a full queue, never after finish.
func (a *parsing) each(batch []json.RawMessage) {
	select {
	case a.batches <- batch:
	case <-a.quit:
	}
}

// finish stops the goroutine once it has parsed what was handed over and
// returns its parser.
func (a *parsing) finish() *registry.Parser {
	close(a.quit)
	<-a.done
	if a.gc != nil {
		a.gc()
	}
	return a.p
}

// loadGCPercent is the GC's target while a long tools/list answer streams
// in: the heap grows from a few MB to the answer's size and more (36 MB of
// tools and their parsed fields for 100,000 tools), and at GOGC's 100 the
// collector ran five times during the transfer, each marking everything
// loaded so far, on the CPU the reading and parsing need. What genui holds
// afterwards is the same (returnLoadMemory collects once the load is done);
// the peak while loading may grow by up to the answer's size.
const loadGCPercent = gctarget.Percent

// loadGC raises the GC's target for a load and returns what puts it back
// when the last raise running ends (package gctarget: a target set higher
// already, GOGC, or the GC turned off, is left alone).
func loadGC() (restore func()) { return gctarget.Raise() }

// keptTools returns a page's tools as the registry keeps them: slices of
// the page's answer res when they are most of it (100,000 tools in one
// 36 MB answer are kept where they arrived, not copied), else one compact
// copy, so that an answer carrying much besides its tools is not held for
// as long as they are.
func keptTools(res json.RawMessage, tools []json.RawMessage) []json.RawMessage {
	n := 0
	for _, t := range tools {
		n += len(t)
	}
	if len(res)-n <= max(len(res)/8, 4<<10) {
		return tools
	}
	buf := make([]byte, 0, n)
	for i, t := range tools {
		start := len(buf)
		buf = append(buf, t...)
		tools[i] = buf[start:len(buf):len(buf)]
	}
	return tools
}

// bigToolList is the size of tool JSON above which a refresh hands the
// memory it used for the upstream's answers back to the OS.
const bigToolList = 16 << 20

// returnLoadMemory: loading a big tool list (100,000 tools are a 36 MB
// answer, read, split and copied once into the registry) leaves that much
// garbage, which the runtime would keep mapped until it needs the room;
// a process that holds 60 MB should not sit at 200 MB for it. One forced
// collection in the background returns it.
func returnLoadMemory(tools []*registry.Tool) {
	n := 0
	for _, t := range tools {
		n += len(t.Raw)
	}
	if n >= bigToolList {
		go debug.FreeOSMemory()
	}
}

// splitToolsPage finds a tools/list result's tools and nextCursor in one
// pass, without copying: each tool is a slice of res (the registry copies
// what it keeps). A 36 MB page of 100,000 tools decoded into
// []json.RawMessage was 100,000 copies to throw away.
func splitToolsPage(res json.RawMessage) (tools []json.RawMessage, next string, err error) {
	var cursorRaw []byte
	found, ok := jsonrpc.ArrayMember(res, "tools", func(v []byte) { tools = append(tools, v) }, func(key, v []byte) {
		if string(key) == "nextCursor" {
			cursorRaw = v
		}
	})
	if !ok {
		if found {
			return nil, "", errors.New("tools is not a JSON array")
		}
		return nil, "", errors.New("not a JSON object with a tools array")
	}
	if len(cursorRaw) > 0 && string(cursorRaw) != "null" {
		if err := json.Unmarshal(cursorRaw, &next); err != nil {
			return nil, "", fmt.Errorf("nextCursor: %w", err)
		}
	}
	return tools, next, nil
}

// WithRequestID returns ctx carrying the id of the MCP/HTTP request whose
// work it is; the engine's and the upstream's log lines and the cache
// metadata carry it.
func WithRequestID(ctx context.Context, id string) context.Context {
	return jsonrpc.WithRequestID(ctx, id)
}
