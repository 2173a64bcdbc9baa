// Package registry is the engine's tool registry: the upstream's tools as
// genui holds them (raw JSON exactly as sent, plus what genui derived), in
// upstream order, replaced as a whole by each refresh. It has its own lock;
// refreshes are serialised so the last one applied is the last one fetched.
package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Options configure a Registry.
type Options struct {
	// EnabledTools, when not empty, are the only tools that get a
	// generated UI; DisabledTools never get one. Names or path.Match globs.
	EnabledTools, DisabledTools []string
	// LastError says why the upstream is not connected (for WaitReady's
	// error when its context ends first); nil means nothing to say.
	LastError func() string
	Logger    *slog.Logger
}

// Registry holds the upstream's tools. Its methods are safe for concurrent
// use.
type Registry struct {
	opts Options

	mu     sync.RWMutex
	tools  []*Tool // upstream order
	byName map[string]*Tool
	err    error
	// fatal: err is an answer from the upstream that no wait will change
	// (an error, an unusable result), not a lost connection.
	fatal bool
	// loadFailed is closed and replaced when a load fails that way, waking
	// WaitReady.
	loadFailed chan struct{}
	loaded     chan struct{} // closed after the first successful load
	// loading is the first load while it runs (WaitTools), nil otherwise;
	// loadStarted is closed and replaced when one starts.
	loading     *Loading
	loadStarted chan struct{}
	loadOnce    sync.Once

	// refreshSem serialises Refresh; refreshQueued coalesces requests
	// for one (tools/list_changed storms).
	refreshSem    chan struct{}
	refreshQueued atomic.Bool
}

// New returns an empty registry; it fails for a malformed tool pattern.
func New(opts Options) (*Registry, error) {
	for _, p := range append(append([]string(nil), opts.EnabledTools...), opts.DisabledTools...) {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("tool pattern %q: %w", p, err)
		}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Registry{opts: opts, byName: map[string]*Tool{}, loaded: make(chan struct{}),
		loadFailed: make(chan struct{}), loadStarted: make(chan struct{}), refreshSem: make(chan struct{}, 1)}, nil
}

// Get looks a tool up by name.
func (r *Registry) Get(name string) (*Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byName[name]
	return t, ok
}

// List returns the tools in upstream order.
func (r *Registry) List() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]*Tool(nil), r.tools...)
}

// Snapshot returns the tools in upstream order without copying the list:
// a refresh replaces the list rather than changing it, so the slice stays
// as it is; callers must not modify it. (tools/list answers one page of
// 1,000 out of maybe 100,000 tools; copying every pointer for each page
// cost more than the page.)
func (r *Registry) Snapshot() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.tools[:len(r.tools):len(r.tools)]
}

// WithUI returns each tool's JSON with genui's UI metadata added.
func (r *Registry) WithUI() []json.RawMessage {
	tools := r.List()
	out := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		raw, err := t.WithUIMeta()
		if err != nil {
			raw = t.Raw
		}
		out = append(out, raw)
	}
	return out
}

// Raw returns each tool's JSON verbatim.
func (r *Registry) Raw() []json.RawMessage {
	tools := r.List()
	out := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		out = append(out, t.Raw)
	}
	return out
}

// WaitReady blocks until the first load succeeded, or ctx ends. When the
// upstream answered tools/list with an error or an unusable result (and no
// load succeeded yet) it fails at once with that reason: waiting would not
// change the answer.
func (r *Registry) WaitReady(ctx context.Context) error {
	for {
		r.mu.RLock()
		err, fatal, failed := r.err, r.fatal, r.loadFailed
		r.mu.RUnlock()
		select {
		case <-r.loaded:
			return nil
		default:
		}
		if fatal && err != nil {
			return fmt.Errorf("upstream not ready: %w", err)
		}
		select {
		case <-r.loaded:
			return nil
		case <-failed:
		case <-ctx.Done():
			r.mu.RLock()
			err := r.err
			r.mu.RUnlock()
			if err != nil {
				return fmt.Errorf("upstream not ready: %w", err)
			}
			last := ""
			if r.opts.LastError != nil {
				last = r.opts.LastError()
			}
			if last == "" {
				return fmt.Errorf("upstream not ready: %w", ctx.Err())
			}
			// The cause first: "context deadline exceeded" says nothing.
			return fmt.Errorf("upstream not ready: %s (stopped waiting: %w)", last, ctx.Err())
		}
	}
}

// QueueRefresh reports whether a refresh should be started for a change
// the upstream announced: false while one is queued that has not fetched
// yet (it covers this change too), so storms cost one running and one
// queued refresh.
func (r *Registry) QueueRefresh() bool { return r.refreshQueued.CompareAndSwap(false, true) }

// Refreshing reports whether a refresh is running or queued (announced by
// QueueRefresh and not yet fetching): false means the list is as the last
// refresh left it, with nothing under way to change it.
func (r *Registry) Refreshing() bool {
	return len(r.refreshSem) > 0 || r.refreshQueued.Load()
}

// Change is what a Refresh did.
type Change struct {
	Diff contract.ToolDiff
	// Tools is the new list, Previous the one it replaced; First is set
	// for the first successful load.
	Tools    []*Tool
	Previous []*Tool
	First    bool
}

// Refresh fetches the tools (fetch returns every page's tools, each a
// valid JSON value: the engine's are slices of frames the upstream link
// validated, and checking 36 MB of them again delayed the first tools/list),
// replaces the list and reports the change. The tools keep the slices
// fetch returns, uncopied (copying 36 MB of tools delayed the first
// tools/list too): fetch hands over memory nobody changes afterwards and
// that holds little besides the tools (the engine compacts a page whose
// answer carries much else). Refreshes run one at a time, in order.
// A failed fetch keeps the old list and is remembered for WaitReady.
func (r *Registry) Refresh(ctx context.Context, fetch func(context.Context) ([]json.RawMessage, error)) (Change, error) {
	return r.RefreshParsed(ctx, func(ctx context.Context) (*Parser, error) {
		raws, err := fetch(ctx)
		if err != nil {
			return nil, err
		}
		p := r.NewParser()
		p.Add(raws)
		return p, nil
	})
}

// RefreshParsed is Refresh with the tools parsed and indexed by the fetch
// (through a Parser, e.g. while their list still streams in: indexing
// 100,000 tools by name after the last byte delayed the first tools/list
// by 9-19 ms).
func (r *Registry) RefreshParsed(ctx context.Context, fetch func(context.Context) (*Parser, error)) (Change, error) {
	select {
	case r.refreshSem <- struct{}{}:
	case <-ctx.Done():
		return Change{}, fmt.Errorf("tools refresh: %w", ctx.Err())
	}
	defer func() { <-r.refreshSem }()
	r.refreshQueued.Store(false) // changes announced from now on need another refresh
	var lg *Loading
	r.mu.Lock()
	if r.tools == nil { // the first load: WaitTools may hand its tools out as they come
		lg = newLoading()
		r.loading = lg
		close(r.loadStarted)
		r.loadStarted = make(chan struct{})
	}
	r.mu.Unlock()
	p, err := fetch(ctx)
	if err != nil {
		r.mu.Lock()
		// The load ends before loadFailed wakes anyone: a WaitTools woken
		// by it must find the load failed (ErrLoadFailed), not merely gone.
		if lg != nil {
			lg.end(nil, err)
		}
		r.err, r.fatal = err, answeredFailure(err)
		if r.fatal {
			close(r.loadFailed)
			r.loadFailed = make(chan struct{})
		}
		r.loading = nil
		r.mu.Unlock()
		return Change{}, err
	}
	next, nextBy := p.tools, p.byName
	if nextBy == nil {
		nextBy = map[string]*Tool{}
	}
	// Only RefreshParsed changes r.byName, one at a time (refreshSem):
	// the diff needs no lock.
	var diff contract.ToolDiff
	if len(r.byName) == 0 {
		diff.Added = make([]string, 0, len(next))
	}
	for _, t := range next {
		old, ok := r.byName[t.Name]
		switch {
		case !ok:
			diff.Added = append(diff.Added, t.Name)
		case !bytes.Equal(old.Raw, t.Raw): // the hash is a function of Raw
			diff.Changed = append(diff.Changed, t.Name)
		default:
			diff.Unchanged = append(diff.Unchanged, t.Name)
		}
	}
	if len(r.byName) > len(next)-len(diff.Changed)-len(diff.Unchanged) {
		for name := range r.byName {
			if _, ok := nextBy[name]; !ok {
				diff.Removed = append(diff.Removed, name)
			}
		}
	}
	r.mu.Lock()
	first, prev := r.tools == nil, r.tools
	r.tools, r.byName, r.err, r.fatal = next, nextBy, nil, false
	r.loading = nil
	r.mu.Unlock()
	sort.Strings(diff.Removed)
	r.loadOnce.Do(func() { close(r.loaded) })
	if lg != nil {
		lg.end(next, nil)
	}
	return Change{Diff: diff, Tools: next, Previous: prev, First: first}, nil
}

// Parser parses tools for RefreshParsed, batch by batch (the engine's
// runs while a tools/list answer streams in), and indexes them by name as
// it goes. A malformed tool is logged and left out; of tools listed twice
// the first is kept. Not safe for concurrent use.
type Parser struct {
	r      *Registry
	tools  []*Tool // in order, each name once
	byName map[string]*Tool
	n      int // raw tools added
}

// NewParser returns a parser for the registry (its logger, its
// enabledTools/disabledTools).
func (r *Registry) NewParser() *Parser { return &Parser{r: r, byName: map[string]*Tool{}} }

// Add parses raws (each a valid JSON value, kept uncopied: Raw is the
// slice given), in order after the ones added before.
func (p *Parser) Add(raws []json.RawMessage) {
	store := make([]Tool, len(raws)) // one allocation for the structs too
	for i, raw := range raws {
		t := &store[i]
		if err := t.parse(raw); err != nil {
			p.r.opts.Logger.Warn("skipping malformed upstream tool", "err", err, "tool", string(raw[:min(len(raw), 200)]))
			continue
		}
		p.keep(t)
	}
	p.n += len(raws)
}

// AddParsed adds tools another parser parsed (the next page of a
// paginated list), in order after the ones added before.
func (p *Parser) AddParsed(tools []*Tool) {
	for _, t := range tools {
		p.keep(t)
	}
	p.n += len(tools)
}

func (p *Parser) keep(t *Tool) {
	if _, dup := p.byName[t.Name]; dup {
		p.r.opts.Logger.Warn("upstream lists a tool twice; keeping the first", "tool", t.Name)
		return
	}
	t.UIDisabled = !p.r.uiEnabled(t.Name)
	p.tools = append(p.tools, t)
	p.byName[t.Name] = t
}

// Added is how many raw tools Add took (malformed ones and duplicates
// included) and AddParsed took.
func (p *Parser) Added() int { return p.n }

// Tools are the tools parsed, in order, each name once.
func (p *Parser) Tools() []*Tool { return p.tools }

// uiEnabled applies EnabledTools and DisabledTools to a tool name.
func (r *Registry) uiEnabled(name string) bool {
	match := func(patterns []string) bool {
		for _, p := range patterns {
			if ok, _ := path.Match(p, name); ok || p == name {
				return true
			}
		}
		return false
	}
	if len(r.opts.EnabledTools) > 0 && !match(r.opts.EnabledTools) {
		return false
	}
	return !match(r.opts.DisabledTools)
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
