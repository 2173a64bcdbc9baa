// Package cache holds generated UIs in a size-bounded LRU, optionally
// persisted one file per key under a directory, plus the hashing that builds
// cache keys (tool identity, generation config, refinements).
package cache

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Defaults for the zero values in Options.
const (
	DefaultMaxEntries    = 100
	DefaultMaxEntryBytes = 500 << 10 // 500 KB
	DefaultMaxTotalBytes = 50 << 20  // 50 MB
)

// ErrTooLarge is returned (wrapped) by Put for an entry over MaxEntryBytes.
var ErrTooLarge = errors.New("cache entry too large")

// Entry is one cached UI.
type Entry struct {
	Key  Key             `json:"key"`
	Tool string          `json:"tool"`
	HTML string          `json:"html"`
	Meta contract.UIMeta `json:"meta"`
}

// size is what an entry counts against the byte limits: its strings.
func (e *Entry) size() int64 {
	n := len(e.Key) + len(e.Tool) + len(e.HTML) + len(e.Meta.Provider) + len(e.Meta.Model) +
		len(e.Meta.UIType) + len(e.Meta.FallbackReason) + len(e.Meta.RequestID)
	for _, w := range e.Meta.Warnings {
		n += len(w)
	}
	for _, st := range e.Meta.Chain {
		n += len(st.Stage) + len(st.Reason)
	}
	return int64(n)
}

// clone returns a copy that shares no mutable memory with e.
func (e Entry) clone() Entry {
	e.Meta.Warnings = slices.Clone(e.Meta.Warnings)
	e.Meta.Chain = slices.Clone(e.Meta.Chain)
	return e
}

// Options configures a Cache. Zero values take the defaults.
type Options struct {
	MaxEntries    int
	MaxEntryBytes int64
	MaxTotalBytes int64
	// Dir persists entries as Dir/<key>.json; "" keeps them in memory only.
	Dir    string
	Logger *slog.Logger
}

// Cache is a thread-safe LRU of generated UIs bounded by entry count and
// total bytes. Entries evicted or deleted are removed from disk as well.
type Cache struct {
	opts Options
	log  *slog.Logger

	// diskMu serializes mutations (Put, Delete, DeleteTool) so that file
	// writes and removals happen in the same order as the memory changes,
	// without holding mu (which Get needs) during disk I/O.
	diskMu sync.Mutex

	mu        sync.Mutex
	lru       *simplelru.LRU[Key, Entry]
	bytes     int64
	hits      int64
	misses    int64
	evictions int64
}

// New builds a cache. With opts.Dir set it creates the directory, removes
// temp files left by interrupted writes (once older than a minute) and loads
// the persisted entries (oldest first, so the newest are most recently
// used); unreadable, foreign or wrong-version files are skipped with a
// warning.
func New(opts Options) (*Cache, error) {
	if opts.MaxEntries == 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	if opts.MaxEntryBytes == 0 {
		opts.MaxEntryBytes = DefaultMaxEntryBytes
	}
	if opts.MaxTotalBytes == 0 {
		opts.MaxTotalBytes = DefaultMaxTotalBytes
	}
	switch {
	case opts.MaxEntries < 0:
		return nil, fmt.Errorf("cache: MaxEntries must be positive, got %d", opts.MaxEntries)
	case opts.MaxEntryBytes < 0:
		return nil, fmt.Errorf("cache: MaxEntryBytes must be positive, got %d", opts.MaxEntryBytes)
	case opts.MaxTotalBytes < 0:
		return nil, fmt.Errorf("cache: MaxTotalBytes must be positive, got %d", opts.MaxTotalBytes)
	case opts.MaxEntryBytes > opts.MaxTotalBytes:
		return nil, fmt.Errorf("cache: MaxEntryBytes (%d) exceeds MaxTotalBytes (%d)", opts.MaxEntryBytes, opts.MaxTotalBytes)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	lru, err := simplelru.NewLRU[Key, Entry](opts.MaxEntries, nil)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	c := &Cache{opts: opts, log: opts.Logger.With("component", "cache"), lru: lru}
	if opts.Dir != "" {
		if err := c.load(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Get returns the entry for k and marks it most recently used.
func (c *Cache) Get(k Key) (Entry, bool) {
	c.mu.Lock()
	e, ok := c.lru.Get(k)
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	c.mu.Unlock()
	if !ok {
		return Entry{}, false
	}
	return e.clone(), true
}

// Peek returns the entry for k without counting a hit or miss and without
// changing its recency: for status displays, which must not skew the stats
// or the eviction order.
func (c *Cache) Peek(k Key) (Entry, bool) {
	c.mu.Lock()
	e, ok := c.lru.Peek(k)
	c.mu.Unlock()
	if !ok {
		return Entry{}, false
	}
	return e.clone(), true
}

// Put stores e (replacing any entry with the same key), evicting least
// recently used entries until the limits hold. An entry over MaxEntryBytes
// or with a malformed key is refused with an error and not stored. With Dir
// set the entry is written atomically; if that write fails the entry is still
// served from memory and the error is returned.
func (c *Cache) Put(e Entry) error {
	if !validKey(e.Key) {
		return fmt.Errorf("cache: invalid key %q (want 64 lowercase hex digits from MakeKey)", e.Key)
	}
	if e.Tool == "" {
		return errors.New("cache: entry has no tool name")
	}
	e = e.clone()
	e.Meta.CacheVersion = FormatVersion
	if n := e.size(); n > c.opts.MaxEntryBytes {
		return fmt.Errorf("cache: entry for tool %q is %d bytes, limit %d: %w", e.Tool, n, c.opts.MaxEntryBytes, ErrTooLarge)
	}

	c.diskMu.Lock()
	defer c.diskMu.Unlock()
	evicted := c.add(e)
	if c.opts.Dir == "" {
		return nil
	}
	var err error
	if werr := c.writeEntry(e); werr != nil {
		err = fmt.Errorf("cache: persist entry for tool %q: %w", e.Tool, werr)
		c.log.Warn("cache write failed", "tool", e.Tool, "key", string(e.Key), "err", werr)
	}
	c.removeFiles(evicted)
	return err
}

// add inserts e into memory and returns the keys evicted to make room.
func (c *Cache) add(e Entry) []Key {
	c.mu.Lock()
	defer c.mu.Unlock()
	var evicted []Key
	if old, ok := c.lru.Peek(e.Key); ok {
		c.bytes -= old.size()
	} else if c.lru.Len() >= c.opts.MaxEntries {
		evicted = append(evicted, c.evictOldest())
	}
	c.lru.Add(e.Key, e)
	c.bytes += e.size()
	for c.bytes > c.opts.MaxTotalBytes && c.lru.Len() > 1 {
		evicted = append(evicted, c.evictOldest())
	}
	return evicted
}

// evictOldest drops the least recently used entry; mu must be held.
func (c *Cache) evictOldest() Key {
	k, old, _ := c.lru.RemoveOldest()
	c.bytes -= old.size()
	c.evictions++
	c.log.Debug("cache evict", "tool", old.Tool, "key", string(k))
	return k
}

// Delete removes the entry for k, from memory and disk. A malformed key
// (not from MakeKey) matches nothing and never touches the file system.
func (c *Cache) Delete(k Key) {
	if !validKey(k) {
		return
	}
	c.diskMu.Lock()
	defer c.diskMu.Unlock()
	c.mu.Lock()
	if old, ok := c.lru.Peek(k); ok {
		c.lru.Remove(k)
		c.bytes -= old.size()
	}
	c.mu.Unlock()
	c.removeFiles([]Key{k})
}

// NewestOfTool returns the most recently used entry of the named tool under
// another key than except (an earlier setup's UI, a page from before a
// refinement or of an earlier page format) that match accepts, without
// counting a use.
func (c *Cache) NewestOfTool(tool string, except Key, match func(contract.UIMeta) bool) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := c.lru.Keys() // oldest first
	for i := len(keys) - 1; i >= 0; i-- {
		if e, ok := c.lru.Peek(keys[i]); ok && e.Tool == tool && keys[i] != except && match(e.Meta) {
			return e.clone(), true
		}
	}
	return Entry{}, false
}

// DeleteTool removes every entry of the named tool and returns how many
// there were.
func (c *Cache) DeleteTool(tool string) int {
	c.diskMu.Lock()
	defer c.diskMu.Unlock()
	var gone []Key
	c.mu.Lock()
	for _, k := range c.lru.Keys() {
		if e, _ := c.lru.Peek(k); e.Tool == tool {
			c.lru.Remove(k)
			c.bytes -= e.size()
			gone = append(gone, k)
		}
	}
	c.mu.Unlock()
	c.removeFiles(gone)
	return len(gone)
}

// Stats returns a snapshot of the counters.
func (c *Cache) Stats() contract.CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := contract.CacheStats{Entries: c.lru.Len(), Bytes: c.bytes, Hits: c.hits, Misses: c.misses, Evictions: c.evictions}
	if total := s.Hits + s.Misses; total > 0 {
		s.HitRate = float64(s.Hits) / float64(total)
	}
	return s
}
