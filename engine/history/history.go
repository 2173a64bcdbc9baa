// Package history is genui's call history: every tool call through genui
// (a host's, the TUI's, the preview's, the HTTP API's, a check's) with its
// arguments, result, error, duration, source and upstream generation,
// appended to DIR/history as JSON lines.
//
// Recording never slows a call: callers hand a CallRecord to a bounded
// queue (Record never blocks; when the writer falls behind the call is
// dropped and counted, with a warning in the log at most every 10 s), and
// one writer goroutine encodes it, appends it to the current segment file
// and indexes it in memory. The history is bounded by entries and bytes:
// it is kept in up to four segment files (calls-<first id>.jsonl) plus the
// one being written, and the oldest segment is deleted when the whole
// exceeds a limit, so older entries go first and at least three quarters
// of the limit stay. It survives restarts (IDs continue), skips a torn
// last line, and only one genui writes a folder's history (a lock file):
// another one keeps its calls in memory only and says so (Stats.Shared).
package history

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gofrs/flock"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/safefile"
)

// Defaults of Options.
const (
	DefaultMaxEntries    = 1000
	DefaultMaxBytes      = 16 << 20
	DefaultMaxValueBytes = 64 << 10
	defaultQueue         = 1024
	// segments is how many full segments the limits are split into.
	segments = 4
	// MaxID bounds entry IDs: segment files are named by their first ID
	// in twelve digits (so they sort in order), and an ID read from a
	// file beyond it (a damaged or planted file) would make the next IDs
	// overflow. At one call a millisecond it lasts thirty years.
	MaxID = 999_999_999_999
)

// Options configure a Store.
type Options struct {
	// Dir is where the segment files go ("" keeps the history in memory).
	Dir string
	// Disabled records nothing (history.enabled false).
	Disabled bool
	// MaxEntries and MaxBytes bound the whole history; MaxValueBytes one
	// call's arguments and one call's result (longer ones are cut and
	// marked truncated, with their size).
	MaxEntries    int
	MaxBytes      int64
	MaxValueBytes int
	// ExcludeArguments and ExcludeResults are tool names or path.Match
	// globs whose arguments (results) are never written.
	ExcludeArguments, ExcludeResults []string
	// Redact (history.redact) hides values of arguments and results
	// before an entry is written: key names matched at any depth, or
	// paths from "arguments." or "result." (see redactor).
	Redact []string
	// QueueSize bounds the calls waiting for the writer (default 1024).
	QueueSize int
	Logger    *slog.Logger
	// OnWrite, when set, is called by the writer after each entry (the
	// engine publishes nothing per call; tests use it).
	OnWrite func(id int64)
}

// Store is the call history. Its methods are safe for concurrent use.
type Store struct {
	opts               Options
	log                *slog.Logger
	segEntries         int
	segBytes           int64
	queue              chan item
	dropped, unwarned  atomic.Int64
	lastWarn           atomic.Int64
	stop, done         chan struct{}
	closeOnce          sync.Once
	policyMu           sync.RWMutex
	policies           map[string]contract.HistoryPolicy
	lock               *flock.Flock
	shared             string
	scratch            []byte // the writer's line buffer
	arena              []byte // where the writer keeps lines (keep)
	names              map[string]string
	mu                 sync.RWMutex
	entries            []stored // oldest first
	bytes              int64
	nextID             int64
	segs               []*segment // oldest first; the last may be open
	cur                *os.File   // the open segment (nil: none yet)
	writeErr           string
	skippedOnLoad      int
	excludeA, excludeR []string
	redact             *redactor
}

// item is one call waiting for the writer; done (surface calls) gets its
// ID.
type item struct {
	rec  *contract.CallRecord
	done chan int64
}

// stored is one entry in memory: its line, and what lists filter on.
type stored struct {
	id           int64
	seg          int64 // first ID of its segment
	tool, source string
	failed       bool
	line         []byte
}

type segment struct {
	first   int64
	path    string
	entries int
	bytes   int64
}

// Open loads the history under opts.Dir (creating it) and starts the
// writer. Close stops it.
func Open(opts Options) (*Store, error) {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxValueBytes <= 0 {
		opts.MaxValueBytes = DefaultMaxValueBytes
	}
	// One entry must fit in a segment many times over.
	opts.MaxValueBytes = int(min(int64(opts.MaxValueBytes), max(opts.MaxBytes/(4*segments), 256)))
	if opts.QueueSize <= 0 {
		opts.QueueSize = defaultQueue
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	for _, p := range append(append([]string(nil), opts.ExcludeArguments...), opts.ExcludeResults...) {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("history: tool pattern %q: %w", p, err)
		}
	}
	red, err := newRedactor(opts.Redact)
	if err != nil {
		return nil, err
	}
	s := &Store{opts: opts, redact: red, log: opts.Logger.With("component", "history"),
		segEntries: max(1, (opts.MaxEntries+segments-1)/segments), segBytes: max(1, opts.MaxBytes/segments),
		queue: make(chan item, opts.QueueSize), stop: make(chan struct{}), done: make(chan struct{}),
		policies: map[string]contract.HistoryPolicy{}, nextID: 1,
		excludeA: opts.ExcludeArguments, excludeR: opts.ExcludeResults}
	if opts.Dir != "" && !opts.Disabled {
		if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		// Calls hold what tools were given and answered: only the user
		// reads them (a folder made before this was 0755, its files 0644).
		private(s.log, opts.Dir, 0o700)
		s.lock = flock.New(filepath.Join(opts.Dir, "lock"))
		ok, err := s.lock.TryLock()
		private(s.log, s.lock.Path(), 0o600)
		switch {
		case err != nil:
			s.shared = fmt.Sprintf("cannot lock %s (%v): this genui keeps its calls in memory", s.lock.Path(), err)
			s.lock = nil
		case !ok:
			s.shared = "another genui writes " + opts.Dir + ": this one keeps its calls in memory"
			s.lock = nil
		}
		if err := s.load(); err != nil {
			s.Close()
			return nil, err
		}
		if s.shared != "" {
			s.log.Warn("call history shared", "reason", s.shared)
		}
	}
	go s.writer()
	return s, nil
}

// writes reports whether entries go to files.
func (s *Store) writes() bool { return s.opts.Dir != "" && s.shared == "" && !s.opts.Disabled }

// load reads the segment files, oldest first, skipping lines it cannot
// read (a torn last line after a crash), and applies the limits.
func (s *Store) load() error {
	names, err := filepath.Glob(filepath.Join(s.opts.Dir, "calls-*.jsonl"))
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	sort.Strings(names) // fixed-width first IDs sort in order
	for _, name := range names {
		first, ok := segmentFirst(name)
		if !ok {
			s.log.Warn("call history: skipping a file whose name is not a segment's", "file", name)
			continue
		}
		data, err := safefile.Read(name, s.opts.MaxBytes*2+1<<20)
		if err != nil {
			s.log.Warn("call history: skipping a segment it cannot read", "file", name, "err", err)
			continue
		}
		private(s.log, name, 0o600)
		seg := &segment{first: first, path: name}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			st, ok := parseStored(line)
			if !ok {
				s.skippedOnLoad++
				continue
			}
			if st.id < s.nextID || st.id > MaxID {
				if s.skippedOnLoad++; s.skippedOnLoad > 10 { // the total follows
					continue
				}
				s.log.Warn("call history: refusing an entry whose id is out of order or out of range",
					"file", name, "id", st.id, "want", fmt.Sprintf("%d to %d", s.nextID, int64(MaxID)))
				continue
			}
			st.seg = first
			st.line = append(st.line, '\n')
			s.entries = append(s.entries, st)
			s.nextID = st.id + 1
			seg.entries++
			seg.bytes += int64(len(st.line))
			s.bytes += int64(len(st.line))
		}
		s.segs = append(s.segs, seg)
	}
	if s.skippedOnLoad > 0 {
		s.log.Warn("call history: skipped lines it could not read", "lines", s.skippedOnLoad)
	}
	s.enforce()
	return nil
}

// private takes group and other permissions off name, saying in the log
// when it cannot.
func private(log *slog.Logger, name string, mode os.FileMode) {
	fi, err := os.Stat(name)
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return
	}
	if err := os.Chmod(name, mode); err != nil {
		log.Warn("call history: cannot make a file private", "file", name, "err", err)
	}
}

func segmentFirst(name string) (int64, bool) {
	base := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(name), "calls-"), ".jsonl")
	n, err := strconv.ParseInt(base, 10, 64)
	return n, err == nil && n > 0 && n <= MaxID
}

// parseStored reads what the index keeps of a line.
func parseStored(line []byte) (stored, bool) {
	var h struct {
		ID      int64  `json:"id"`
		Tool    string `json:"tool"`
		Source  string `json:"source"`
		IsError bool   `json:"isError"`
		Error   string `json:"error"`
	}
	if err := json.Unmarshal(line, &h); err != nil || h.ID <= 0 {
		return stored{}, false
	}
	return stored{id: h.ID, tool: h.Tool, source: h.Source, failed: h.IsError || h.Error != "", line: bytes.Clone(line)}, true
}

// Policy is what the history keeps of tool's calls (the engine adds the
// generation). It does not keep tool (a caller may pass a view of a buffer
// it reuses).
func (s *Store) Policy(tool string) contract.HistoryPolicy {
	if s == nil || s.opts.Disabled {
		return contract.HistoryPolicy{}
	}
	s.policyMu.RLock()
	p, ok := s.policies[tool]
	s.policyMu.RUnlock()
	if ok {
		return p
	}
	p = contract.HistoryPolicy{Record: true, Arguments: s.opts.MaxValueBytes, Result: s.opts.MaxValueBytes,
		ExcludeArguments: matchAny(s.excludeA, tool), ExcludeResult: matchAny(s.excludeR, tool)}
	if p.ExcludeArguments {
		p.Arguments = 0
	}
	if p.ExcludeResult {
		p.Result = 0
	}
	s.policyMu.Lock()
	if len(s.policies) < 10000 { // tool names come from the upstream: bounded
		s.policies[strings.Clone(tool)] = p // tool may be a view of a reused buffer
	}
	s.policyMu.Unlock()
	return p
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok || p == name {
			return true
		}
	}
	return false
}

// Record hands a finished call to the writer without waiting: when the
// queue is full the call is dropped and counted. The store owns rec.
func (s *Store) Record(rec *contract.CallRecord) {
	if s == nil || s.opts.Disabled {
		release(rec)
		return
	}
	select {
	case s.queue <- item{rec: rec}:
	default:
		s.droppedOne()
		release(rec)
	}
}

// release hands rec's memory back to its owner.
func release(rec *contract.CallRecord) {
	if rec.Owner != nil {
		rec.Owner.Recorded()
	}
}

// RecordWait records a call and waits (bounded by ctx and 2 s) until it
// is written, returning its ID (0 when it was not recorded).
func (s *Store) RecordWait(ctx context.Context, rec *contract.CallRecord) int64 {
	if s == nil || s.opts.Disabled {
		release(rec)
		return 0
	}
	it := item{rec: rec, done: make(chan int64, 1)}
	t := time.NewTimer(2 * time.Second)
	defer t.Stop()
	select {
	case s.queue <- it:
	case <-ctx.Done():
		s.droppedOne()
		release(rec)
		return 0
	case <-t.C:
		s.droppedOne()
		release(rec)
		return 0
	case <-s.stop:
		release(rec)
		return 0
	}
	select {
	case id := <-it.done:
		return id
	case <-ctx.Done():
	case <-t.C:
	}
	return 0
}

func (s *Store) droppedOne() {
	s.dropped.Add(1)
	n := s.unwarned.Add(1)
	now := time.Now().UnixNano()
	last := s.lastWarn.Load()
	if now-last >= int64(10*time.Second) && s.lastWarn.CompareAndSwap(last, now) {
		s.unwarned.Add(-n)
		s.log.Warn("call history fell behind; calls not recorded", "dropped", n, "total", s.dropped.Load())
	}
}

// writer encodes and stores queued calls until Close, then drains the
// queue.
func (s *Store) writer() {
	defer close(s.done)
	for {
		select {
		case it := <-s.queue:
			s.write(it)
		case <-s.stop:
			for {
				select {
				case it := <-s.queue:
					s.write(it)
				default:
					return
				}
			}
		}
	}
}

func (s *Store) write(it item) {
	s.mu.Lock()
	if s.nextID > MaxID {
		s.mu.Unlock()
		s.droppedOne()
		release(it.rec)
		if it.done != nil {
			it.done <- 0
		}
		return
	}
	id := s.nextID
	s.nextID++
	line, failed := s.encode(s.scratch[:0], id, it.rec)
	line = append(line, '\n')
	s.scratch = line
	st := stored{id: id, tool: s.intern(it.rec.Tool), source: s.intern(it.rec.Source), failed: failed, line: s.keep(line)}
	release(it.rec) // nothing of it is used below
	if s.writes() {
		if err := s.appendLine(&st); err != nil && s.writeErr != err.Error() {
			s.writeErr = err.Error()
			s.log.Error("call history: writing failed; keeping calls in memory", "err", err)
		}
	}
	if st.seg == 0 {
		st.seg = s.memSegment(id, int64(len(st.line)))
	}
	s.entries = append(s.entries, st)
	s.bytes += int64(len(st.line))
	s.enforce()
	s.mu.Unlock()
	if it.done != nil {
		it.done <- id
	}
	if s.opts.OnWrite != nil {
		s.opts.OnWrite(id)
	}
}

// arenaChunk is the size of the blocks the writer keeps lines in: one
// allocation per block, not per entry. A line longer than a quarter of it
// gets its own.
const arenaChunk = 64 << 10

// keep returns a copy of line the index keeps, carved from the current
// block (lines are never changed, so they can share one; a block stays
// in memory until its last entry is dropped, one block per segment
// boundary at most beyond the bounds).
func (s *Store) keep(line []byte) []byte {
	if len(line) > arenaChunk/4 {
		return bytes.Clone(line)
	}
	if cap(s.arena)-len(s.arena) < len(line) {
		s.arena = make([]byte, 0, arenaChunk)
	}
	start := len(s.arena)
	s.arena = append(s.arena, line...)
	return s.arena[start:len(s.arena):len(s.arena)]
}

// intern returns name as a string the index may keep: a record's Tool
// may point into its owner's reused buffer. Tool names come from the
// upstream, so the table is bounded (past it, names are copied).
func (s *Store) intern(name string) string {
	if v, ok := s.names[name]; ok {
		return v
	}
	v := strings.Clone(name)
	if s.names == nil {
		s.names = map[string]string{}
	}
	if len(s.names) < 10000 {
		s.names[v] = v
	}
	return v
}

// memSegment places an entry that is not in a file (memory only, or a
// failed write) in a segment of the index all the same, so the limits
// apply the same way.
func (s *Store) memSegment(id, size int64) int64 {
	if n := len(s.segs); n > 0 && s.segs[n-1].path == "" && s.segs[n-1].entries < s.segEntries && s.segs[n-1].bytes < s.segBytes {
		seg := s.segs[n-1]
		seg.entries++
		seg.bytes += size
		return seg.first
	}
	s.segs = append(s.segs, &segment{first: id, entries: 1, bytes: size})
	return id
}

// appendLine appends st's line to the open segment, starting a new one
// when it is full.
func (s *Store) appendLine(st *stored) error {
	n := len(s.segs)
	if s.cur == nil || n == 0 || s.segs[n-1].path != s.cur.Name() || s.segs[n-1].entries >= s.segEntries || s.segs[n-1].bytes >= s.segBytes {
		if s.cur != nil {
			_ = s.cur.Close()
			s.cur = nil
		}
		name := filepath.Join(s.opts.Dir, fmt.Sprintf("calls-%012d.jsonl", st.id))
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		s.cur = f
		s.segs = append(s.segs, &segment{first: st.id, path: name})
	}
	seg := s.segs[len(s.segs)-1]
	if _, err := s.cur.Write(st.line); err != nil {
		return err
	}
	st.seg = seg.first
	seg.entries++
	seg.bytes += int64(len(st.line))
	return nil
}

// enforce drops the oldest segments (files and entries) while the history
// exceeds a limit; the newest segment always stays.
func (s *Store) enforce() {
	total := len(s.entries)
	for len(s.segs) > 1 && (total > s.opts.MaxEntries || s.bytes > s.opts.MaxBytes) {
		old := s.segs[0]
		s.segs = s.segs[1:]
		n := 0
		for n < len(s.entries) && s.entries[n].seg == old.first {
			s.bytes -= int64(len(s.entries[n].line))
			n++
		}
		s.entries = append([]stored(nil), s.entries[n:]...)
		total = len(s.entries)
		if old.path != "" {
			if err := os.Remove(old.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				s.log.Warn("call history: removing an old segment failed", "file", old.path, "err", err)
			}
		}
	}
}

// encode appends rec as entry id's JSON line to b; failed says whether the
// call failed or its result is an error.
func (s *Store) encode(b []byte, id int64, rec *contract.CallRecord) ([]byte, bool) {
	p := s.Policy(rec.Tool)
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"time":"`...)
	b = rec.Start.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","tool":`...)
	b = appendString(b, rec.Tool)
	b = append(b, `,"source":`...)
	b = appendString(b, rec.Source)
	if rec.Session != "" {
		b = append(b, `,"session":`...)
		b = appendString(b, rec.Session)
	}
	b = append(b, `,"generation":`...)
	b = strconv.AppendInt(b, int64(rec.Generation), 10)
	b = s.appendValue(b, "arguments", rec.Arguments, rec.ArgumentsSize, p.ExcludeArguments)
	isError := rec.IsError
	if rec.Error == "" {
		b = s.appendValue(b, "result", rec.Result, rec.ResultSize, p.ExcludeResult)
		if len(rec.Result) == rec.ResultSize && len(rec.Result) > 0 {
			isError = string(bytes.TrimSpace(jsonrpc.Member(rec.Result, "isError"))) == "true"
		}
	}
	if isError {
		b = append(b, `,"isError":true`...)
	}
	if rec.Error != "" {
		b = append(b, `,"error":`...)
		b = appendString(b, rec.Error)
	}
	b = append(b, `,"duration":`...)
	b = strconv.AppendInt(b, int64(rec.Duration), 10)
	b = append(b, '}')
	return b, isError || rec.Error != ""
}

// appendValue appends a recorded value: whole (valid JSON within the
// bound), excluded, or truncated to its start (as text); what
// history.redact names is hidden first (a start that holds a key it
// names is not kept).
func (s *Store) appendValue(b []byte, name string, v []byte, size int, excluded bool) []byte {
	bound := s.opts.MaxValueBytes
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `Size":`...)
	b = strconv.AppendInt(b, int64(max(size, len(v))), 10)
	switch {
	case excluded:
		b = append(b, `,"`...)
		b = append(b, name...)
		return append(b, `Omitted":"excluded"`...)
	case len(v) == 0 && size == 0:
		return b
	case len(v) == size && len(v) <= bound && jsonrpc.Valid(v):
		v, redacted := s.redact.redact(name, v)
		if redacted {
			b = append(b, `,"`...)
			b = append(b, name...)
			b = append(b, `Redacted":true`...)
		}
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":`...)
		return appendCompact(b, v)
	}
	cut := v[:min(len(v), bound)]
	for len(cut) > 0 && !utf8.Valid(cut[max(0, len(cut)-3):]) { // do not split a character
		cut = cut[:len(cut)-1]
	}
	if s.redact.prefixHolds(cut) {
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `Redacted":true,"`...)
		b = append(b, name...)
		return append(b, `Omitted":"truncated"`...)
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `Omitted":"truncated","`...)
	b = append(b, name...)
	b = append(b, `Prefix":`...)
	return appendString(b, string(cut))
}

// appendCompact appends JSON v on one line (a line-delimited file: an
// upstream's pretty-printed result keeps its content, not its newlines).
func appendCompact(b, v []byte) []byte {
	if bytes.IndexByte(v, '\n') < 0 && bytes.IndexByte(v, '\r') < 0 {
		return append(b, v...)
	}
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, v); err != nil {
		return appendString(b, string(v))
	}
	return buf.Bytes()
}

// appendString appends s as a JSON string (invalid UTF-8 becomes U+FFFD).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// Get returns entry id whole.
func (s *Store) Get(id int64) (contract.HistoryEntry, bool) {
	s.mu.RLock()
	i := sort.Search(len(s.entries), func(i int) bool { return s.entries[i].id >= id })
	var line []byte
	if i < len(s.entries) && s.entries[i].id == id {
		line = s.entries[i].line
	}
	s.mu.RUnlock()
	if line == nil {
		return contract.HistoryEntry{}, false
	}
	var e contract.HistoryEntry
	if err := json.Unmarshal(line, &e); err != nil {
		return contract.HistoryEntry{}, false
	}
	e.Summary = Summary(e)
	return e, true
}

// List returns a page of entries matching q, newest first, without their
// results (Listed set, Summary filled), and how many match in all.
func (s *Store) List(q contract.HistoryQuery) ([]contract.HistoryEntry, int) {
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, 1000)
	var lines [][]byte
	matching := 0
	s.mu.RLock()
	for i := len(s.entries) - 1; i >= 0; i-- {
		st := &s.entries[i]
		if (q.Tool != "" && st.tool != q.Tool) || (q.Source != "" && st.source != q.Source) || (q.Errors && !st.failed) {
			continue
		}
		if q.Before > 0 && st.id >= q.Before {
			continue
		}
		matching++
		if len(lines) < limit {
			lines = append(lines, st.line)
		}
	}
	s.mu.RUnlock()
	out := make([]contract.HistoryEntry, 0, len(lines))
	for _, l := range lines {
		var e contract.HistoryEntry
		if json.Unmarshal(l, &e) != nil {
			continue
		}
		e.Summary = Summary(e)
		e.Result, e.ResultPrefix, e.Listed = nil, "", true
		out = append(out, e)
	}
	return out, matching
}

// Last returns the newest entry of tool (false when there is none).
func (s *Store) Last(tool string) (contract.HistoryEntry, bool) {
	s.mu.RLock()
	var line []byte
	for i := len(s.entries) - 1; i >= 0 && line == nil; i-- {
		if s.entries[i].tool == tool {
			line = s.entries[i].line
		}
	}
	s.mu.RUnlock()
	var e contract.HistoryEntry
	if line == nil || json.Unmarshal(line, &e) != nil {
		return e, false
	}
	return e, true
}

// Stats describes the history.
func (s *Store) Stats() contract.HistoryStats {
	if s == nil {
		return contract.HistoryStats{}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := contract.HistoryStats{Enabled: !s.opts.Disabled, Entries: len(s.entries), Bytes: s.bytes,
		MaxEntries: s.opts.MaxEntries, MaxBytes: s.opts.MaxBytes, Dropped: s.dropped.Load(), Shared: s.shared}
	if s.writes() {
		st.Dir = s.opts.Dir
	}
	if n := len(s.entries); n > 0 {
		st.LastID = s.entries[n-1].id
	}
	return st
}

// Close stops the writer (writing what is queued) and closes the files.
func (s *Store) Close() {
	if s == nil {
		return
	}
	s.closeOnce.Do(func() {
		close(s.stop)
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			s.log.Warn("call history writer did not stop within 5 s")
		}
		s.mu.Lock()
		if s.cur != nil {
			_ = s.cur.Close()
			s.cur = nil
		}
		s.mu.Unlock()
		if s.lock != nil {
			_ = s.lock.Unlock()
		}
	})
}

// Summary is a one-line preview of a call's outcome: its error, the start
// of its first text content, or of its structured content.
func Summary(e contract.HistoryEntry) string {
	clip := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		if utf8.RuneCountInString(s) > 120 {
			r := []rune(s)
			s = string(r[:120]) + "…"
		}
		return s
	}
	switch {
	case e.Error != "":
		return clip(e.Error)
	case e.ResultOmitted == contract.OmittedExcluded:
		return "(result not recorded: history.excludeResults)"
	case e.ResultOmitted == contract.OmittedTruncated:
		return clip(fmt.Sprintf("(%d bytes) %s", e.ResultSize, e.ResultPrefix))
	}
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Structured json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(e.Result, &r) != nil {
		return clip(string(e.Result))
	}
	for _, c := range r.Content {
		if c.Type == "text" && strings.TrimSpace(c.Text) != "" {
			return clip(c.Text)
		}
	}
	if len(r.Structured) > 0 {
		return clip(string(r.Structured))
	}
	if len(r.Content) > 0 {
		return fmt.Sprintf("(%d %s content item(s))", len(r.Content), r.Content[0].Type)
	}
	return clip(string(e.Result))
}
