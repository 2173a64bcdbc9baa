package cache

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// testKey returns a deterministic valid key for a small integer.
func testKey(i int) Key { return MakeKey(fmt.Sprintf("tool%d", i), "", "", "") }

// entry builds an entry whose size() is exactly n bytes (n >= key+tool).
func entry(tool string, k Key, n int) Entry {
	e := Entry{Key: k, Tool: tool}
	e.HTML = strings.Repeat("x", n-int(e.size()))
	return e
}

func newCache(t *testing.T, opts Options) *Cache {
	t.Helper()
	c, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// bufLogger captures log output so tests can assert on warnings.
func bufLogger() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), &buf
}

func TestGetHitMiss(t *testing.T) {
	c := newCache(t, Options{})
	k := testKey(1)
	if _, ok := c.Get(k); ok {
		t.Fatal("hit on empty cache")
	}
	want := Entry{Key: k, Tool: "weather", HTML: "<p>hi</p>", Meta: contract.UIMeta{Model: "m", Warnings: []string{"w"}}}
	if err := c.Put(want); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get(k)
	if !ok || got.HTML != want.HTML || got.Tool != "weather" || got.Meta.Model != "m" {
		t.Fatalf("Get = %+v, %v", got, ok)
	}
	if got.Meta.CacheVersion != FormatVersion {
		t.Errorf("CacheVersion = %d, want %d", got.Meta.CacheVersion, FormatVersion)
	}
	got.Meta.Warnings[0] = "mutated"
	if again, _ := c.Get(k); again.Meta.Warnings[0] != "w" {
		t.Error("mutating a returned entry changed the cache")
	}
	if _, ok := c.Get(testKey(2)); ok {
		t.Error("hit for a key never stored")
	}
	s := c.Stats()
	if s.Entries != 1 || s.Hits != 2 || s.Misses != 2 || s.HitRate != 0.5 || s.Bytes != want.size() {
		t.Errorf("Stats = %+v", s)
	}
}

func TestEviction(t *testing.T) {
	tests := []struct {
		name          string
		opts          Options
		sizes         []int // sizes of entries 0..n-1, put in order
		touch         []int // entries read (made recent) just before the last put
		wantPresent   []int
		wantEvictions int64
	}{
		{
			name:          "by count",
			opts:          Options{MaxEntries: 3},
			sizes:         []int{100, 100, 100, 100, 100},
			wantPresent:   []int{2, 3, 4},
			wantEvictions: 2,
		},
		{
			name:          "by bytes",
			opts:          Options{MaxEntryBytes: 400, MaxTotalBytes: 1000},
			sizes:         []int{300, 300, 300, 300},
			wantPresent:   []int{1, 2, 3},
			wantEvictions: 1,
		},
		{
			name:          "big entry evicts several",
			opts:          Options{MaxEntryBytes: 1000, MaxTotalBytes: 1000},
			sizes:         []int{200, 200, 200, 200, 900},
			wantPresent:   []int{4},
			wantEvictions: 4,
		},
		{
			name:          "by count respects recency",
			opts:          Options{MaxEntries: 3},
			sizes:         []int{100, 100, 100, 100},
			touch:         []int{0},
			wantPresent:   []int{0, 2, 3},
			wantEvictions: 1,
		},
		{
			name:          "by bytes respects recency",
			opts:          Options{MaxEntryBytes: 400, MaxTotalBytes: 1000},
			sizes:         []int{300, 300, 300, 300},
			touch:         []int{0},
			wantPresent:   []int{0, 2, 3},
			wantEvictions: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Dir = t.TempDir()
			c := newCache(t, opts)
			for i, n := range tt.sizes {
				if i == len(tt.sizes)-1 {
					for _, j := range tt.touch {
						if _, ok := c.Get(testKey(j)); !ok {
							t.Fatalf("entry %d missing before touch", j)
						}
					}
				}
				if err := c.Put(entry("t", testKey(i), n)); err != nil {
					t.Fatalf("Put %d: %v", i, err)
				}
			}
			var want int64
			for i := range tt.sizes {
				_, ok := c.Get(testKey(i))
				_, ferr := os.Stat(filepath.Join(opts.Dir, string(testKey(i))+".json"))
				if wantOK := contains(tt.wantPresent, i); ok != wantOK {
					t.Errorf("entry %d present = %v, want %v", i, ok, wantOK)
				} else if (ferr == nil) != wantOK {
					t.Errorf("entry %d file present = %v, want %v (%v)", i, ferr == nil, wantOK, ferr)
				}
				if ok {
					want += int64(tt.sizes[i])
				}
			}
			s := c.Stats()
			if s.Bytes != want || s.Entries != len(tt.wantPresent) || s.Evictions != tt.wantEvictions {
				t.Errorf("Stats = %+v, want bytes %d entries %d evictions %d", s, want, len(tt.wantPresent), tt.wantEvictions)
			}
		})
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestPutRefused(t *testing.T) {
	dir := t.TempDir()
	c := newCache(t, Options{MaxEntryBytes: 500, MaxTotalBytes: 1000, Dir: dir})
	tests := []struct {
		name   string
		e      Entry
		wantIs error
	}{
		{"too large", entry("t", testKey(1), 501), ErrTooLarge},
		{"bad key", Entry{Key: "../../etc/passwd", Tool: "t", HTML: "x"}, nil},
		{"upper-case key", Entry{Key: Key(strings.ToUpper(string(testKey(1)))), Tool: "t", HTML: "x"}, nil},
		{"no tool", Entry{Key: testKey(1), HTML: "x"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Put(tt.e)
			if err == nil {
				t.Fatal("Put succeeded, want error")
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v is not %v", err, tt.wantIs)
			}
			if _, ok := c.Get(tt.e.Key); ok {
				t.Error("refused entry was stored")
			}
		})
	}
	if err := c.Put(entry("t", testKey(1), 500)); err != nil {
		t.Errorf("entry of exactly the limit refused: %v", err)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Errorf("dir has %d files, want 1", len(files))
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{
		{MaxEntries: -1},
		{MaxEntryBytes: -1},
		{MaxTotalBytes: -5},
		{MaxEntryBytes: 2000, MaxTotalBytes: 1000},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) succeeded, want error", o)
		}
	}
}

func TestReplaceAndDelete(t *testing.T) {
	dir := t.TempDir()
	c := newCache(t, Options{Dir: dir})
	k1, k2, k3 := testKey(1), testKey(2), testKey(3)
	for _, e := range []Entry{entry("a", k1, 100), entry("a", k2, 100), entry("b", k3, 100), entry("a", k1, 250)} {
		if err := c.Put(e); err != nil {
			t.Fatal(err)
		}
	}
	if s := c.Stats(); s.Entries != 3 || s.Bytes != 450 {
		t.Fatalf("after replace Stats = %+v, want 3 entries 450 bytes", s)
	}
	if n := c.DeleteTool("a"); n != 2 {
		t.Errorf("DeleteTool = %d, want 2", n)
	}
	if n := c.DeleteTool("a"); n != 0 {
		t.Errorf("second DeleteTool = %d, want 0", n)
	}
	c.Delete(k3)
	c.Delete(k3) // deleting twice is harmless
	outside := filepath.Join(filepath.Dir(dir), "victim.json")
	if err := os.WriteFile(outside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.Delete(Key("../victim"))
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("Delete with a traversal key removed a file outside the cache dir: %v", err)
	}
	if s := c.Stats(); s.Entries != 0 || s.Bytes != 0 || s.Evictions != 0 {
		t.Errorf("Stats = %+v, want empty, no evictions", s)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("files left after delete: %v", files)
	}
}

func TestPersistRoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := newCache(t, Options{Dir: dir})
	want := Entry{Key: testKey(1), Tool: "weather", HTML: "<script>if (a < b && c > d) {}</script>\n\"é\"", Meta: contract.UIMeta{
		GeneratedAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Duration: 1500 * time.Millisecond,
		Provider: "offline", Model: "none", InputTokens: 10, OutputTokens: 20, UIType: "form",
		FallbackReason: "no llm", Warnings: []string{"a", "b"}, RequestID: "r1",
	}}
	if err := c.Put(want); err != nil {
		t.Fatal(err)
	}
	c2 := newCache(t, Options{Dir: dir})
	got, ok := c2.Get(want.Key)
	if !ok {
		t.Fatal("miss after reopen")
	}
	want.Meta.CacheVersion = FormatVersion
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if !bytes.Equal(wj, gj) || !got.Meta.GeneratedAt.Equal(want.Meta.GeneratedAt) {
		t.Errorf("reloaded entry differs:\n got %s\nwant %s", gj, wj)
	}
	if s := c2.Stats(); s.Entries != 1 || s.Bytes != want.size() {
		t.Errorf("Stats after reload = %+v", s)
	}
}

func TestLoadEnforcesLimitsNewestWins(t *testing.T) {
	dir := t.TempDir()
	c := newCache(t, Options{Dir: dir})
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5 {
		e := entry("t", testKey(i), 100)
		e.Meta.GeneratedAt = base.Add(time.Duration(i) * time.Minute)
		if err := c.Put(e); err != nil {
			t.Fatal(err)
		}
	}
	c2 := newCache(t, Options{Dir: dir, MaxEntries: 3})
	for i := range 5 {
		_, ok := c2.Get(testKey(i))
		if want := i >= 2; ok != want {
			t.Errorf("entry %d present = %v, want %v", i, ok, want)
		}
	}
	if files, _ := os.ReadDir(dir); len(files) != 3 {
		t.Errorf("%d files on disk after reload with MaxEntries 3, want 3", len(files))
	}
	// An entry now over the size limit is dropped at load.
	c3 := newCache(t, Options{Dir: dir, MaxEntryBytes: 50, MaxTotalBytes: 1000})
	if s := c3.Stats(); s.Entries != 0 {
		t.Errorf("Stats = %+v, want no entries over the limit", s)
	}
}

func TestLoadSkipsBadFiles(t *testing.T) {
	good := entry("good", testKey(100), 200)
	goodJSON, err := json.Marshal(fileEntry{Version: FormatVersion, Entry: good})
	if err != nil {
		t.Fatal(err)
	}
	other := testKey(7)
	mk := func(v int, k Key, tool string) string {
		b, _ := json.Marshal(fileEntry{Version: v, Entry: Entry{Key: k, Tool: tool, HTML: "<p>x</p>"}})
		return string(b)
	}
	tests := []struct {
		name, file, content string
		wantWarn            bool
	}{
		{"truncated", string(other) + ".json", mk(FormatVersion, other, "t")[:40], true},
		{"garbage", string(other) + ".json", "\x00\xff not json at all", true},
		{"empty", string(other) + ".json", "", true},
		{"different version", string(other) + ".json", mk(FormatVersion+1, other, "t"), true},
		{"no version", string(other) + ".json", `{"key":"` + string(other) + `","tool":"t","html":"x"}`, true},
		{"key does not match name", string(other) + ".json", mk(FormatVersion, testKey(8), "t"), true},
		{"foreign name", "notes.json", mk(FormatVersion, other, "t"), true},
		{"json array", string(other) + ".json", `[1,2,3]`, true},
		{"unrelated file", "README.txt", "hello", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, string(good.Key)+".json"), goodJSON, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			logger, logs := bufLogger()
			c, err := New(Options{Dir: dir, Logger: logger})
			if err != nil {
				t.Fatalf("New failed on a bad file: %v", err)
			}
			if _, ok := c.Get(good.Key); !ok {
				t.Error("good entry not loaded next to a bad file")
			}
			if _, ok := c.Get(other); ok {
				t.Error("bad file was loaded")
			}
			if s := c.Stats(); s.Entries != 1 {
				t.Errorf("Entries = %d, want 1", s.Entries)
			}
			if gotWarn := strings.Contains(logs.String(), "level=WARN"); gotWarn != tt.wantWarn {
				t.Errorf("warning logged = %v, want %v; logs:\n%s", gotWarn, tt.wantWarn, logs)
			}
			if _, err := os.Stat(filepath.Join(dir, tt.file)); err != nil {
				t.Errorf("skipped file was removed: %v", err)
			}
		})
	}
}

func TestInterruptedWrite(t *testing.T) {
	k := testKey(1)
	v2, _ := json.Marshal(fileEntry{Version: FormatVersion, Entry: Entry{Key: k, Tool: "t", HTML: "v2"}})
	old := time.Now().Add(-2 * staleTempAge)
	tests := []struct {
		name, temp string
		mtime      time.Time // zero: just written (maybe another process's write in flight)
		wantGone   bool
	}{
		{"partial temp", string(v2[:len(v2)/2]), old, true},
		{"complete temp never renamed", string(v2), old, true},
		{"empty temp", "", old, true},
		{"fresh temp is ignored but kept", string(v2), time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			c := newCache(t, Options{Dir: dir})
			if err := c.Put(Entry{Key: k, Tool: "t", HTML: "v1"}); err != nil {
				t.Fatal(err)
			}
			// What renameio's temp file would be if we died before the rename.
			stray := filepath.Join(dir, "."+string(k)+tempMarker+"123456")
			if err := os.WriteFile(stray, []byte(tt.temp), 0o600); err != nil {
				t.Fatal(err)
			}
			if !tt.mtime.IsZero() {
				if err := os.Chtimes(stray, tt.mtime, tt.mtime); err != nil {
					t.Fatal(err)
				}
			}
			c2 := newCache(t, Options{Dir: dir})
			got, ok := c2.Get(k)
			if !ok || got.HTML != "v1" {
				t.Fatalf("Get after interrupted write = %q, %v; want previous version v1", got.HTML, ok)
			}
			if _, err := os.Stat(stray); os.IsNotExist(err) != tt.wantGone {
				t.Errorf("stray temp file removed = %v, want %v", os.IsNotExist(err), tt.wantGone)
			}
			// A later Put still works and wins.
			if err := c2.Put(Entry{Key: k, Tool: "t", HTML: "v3"}); err != nil {
				t.Fatal(err)
			}
			if got, _ := newCache(t, Options{Dir: dir}).Get(k); got.HTML != "v3" {
				t.Errorf("after new Put reload = %q, want v3", got.HTML)
			}
		})
	}
}

func TestPutPersistFailureStillServes(t *testing.T) {
	dir := t.TempDir()
	c := newCache(t, Options{Dir: dir})
	// Replace the cache dir by a regular file so every write fails (this
	// works for root too, unlike removing write permission).
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	k := testKey(1)
	if err := c.Put(Entry{Key: k, Tool: "t", HTML: "x"}); err == nil {
		t.Error("Put succeeded although the dir is a file")
	}
	if _, ok := c.Get(k); !ok {
		t.Error("entry not served from memory after a failed write")
	}
}

func TestConcurrentUse(t *testing.T) {
	c := newCache(t, Options{Dir: t.TempDir(), MaxEntries: 20, MaxEntryBytes: 1000, MaxTotalBytes: 8000})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				k := testKey((g*7 + i) % 40)
				switch i % 5 {
				case 0, 1:
					if err := c.Put(entry(fmt.Sprintf("tool%d", i%3), k, 200+i%700)); err != nil {
						t.Error(err)
					}
				case 2, 3:
					c.Get(k)
				case 4:
					if i%2 == 0 {
						c.Delete(k)
					} else {
						c.DeleteTool("tool1")
					}
				}
			}
		})
	}
	wg.Wait()
	s := c.Stats()
	var sum int64
	c.mu.Lock()
	for _, e := range c.lru.Values() {
		sum += e.size()
	}
	c.mu.Unlock()
	if s.Bytes != sum || s.Bytes > 8000 || s.Entries > 20 {
		t.Errorf("inconsistent after concurrent use: %+v, sum of sizes %d", s, sum)
	}
	files, _ := os.ReadDir(c.opts.Dir)
	if len(files) != s.Entries {
		t.Errorf("%d files on disk, %d entries in memory", len(files), s.Entries)
	}
}

// BenchmarkGet measures a cache hit and, in the same run, a plain map lookup
// of the same keys; "x-map" is the ratio cache/map.
func BenchmarkGet(b *testing.B) {
	const n = 100
	c, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	keys := make([]Key, n)
	m := make(map[Key]Entry, n)
	for i := range keys {
		keys[i] = testKey(i)
		e := Entry{Key: keys[i], Tool: "t", HTML: strings.Repeat("x", 4096), Meta: contract.UIMeta{Warnings: []string{"w"}}}
		if err := c.Put(e); err != nil {
			b.Fatal(err)
		}
		m[keys[i]] = e
	}

	start := time.Now()
	var sink int
	for i := 0; i < b.N; i++ {
		e := m[keys[i%n]]
		sink += len(e.HTML)
	}
	mapNs := float64(time.Since(start).Nanoseconds()) / float64(b.N)

	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, ok := c.Get(keys[i%n])
		if !ok {
			b.Fatal("miss")
		}
		sink += len(e.HTML)
	}
	b.StopTimer()
	cacheNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(mapNs, "map-ns/op")
	if mapNs > 0 {
		b.ReportMetric(cacheNs/mapNs, "x-map")
	}
	if sink == 0 {
		b.Fatal("nothing read")
	}
}

func TestPeekLeavesStatsAndOrder(t *testing.T) {
	c, err := New(Options{MaxEntries: 2})
	if err != nil {
		t.Fatal(err)
	}
	k1, k2, k3 := MakeKey("a", "1", "", ""), MakeKey("b", "1", "", ""), MakeKey("c", "1", "", "")
	for _, k := range []Key{k1, k2} {
		if err := c.Put(Entry{Key: k, Tool: string(k[:4]), HTML: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.Peek(k1); !ok {
		t.Fatal("Peek missed a present entry")
	}
	if _, ok := c.Peek(k3); ok {
		t.Fatal("Peek found an absent entry")
	}
	if st := c.Stats(); st.Hits != 0 || st.Misses != 0 {
		t.Fatalf("Peek changed stats: %+v", st)
	}
	// k1 is still the least recently used: adding k3 evicts it.
	if err := c.Put(Entry{Key: k3, Tool: "c", HTML: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Peek(k1); ok {
		t.Fatal("Peek refreshed recency: k1 survived eviction")
	}
}

// TestNewestOfTool: the newest entry of a tool under another key that the
// match accepts, without counting a use or moving it in the LRU order.
func TestNewestOfTool(t *testing.T) {
	c := newCache(t, Options{})
	put := func(i int, tool, uiType string) {
		if err := c.Put(Entry{Key: testKey(i), Tool: tool, HTML: "<p>" + uiType + "</p>", Meta: contract.UIMeta{UIType: uiType}}); err != nil {
			t.Fatal(err)
		}
	}
	put(1, "weather", "llm")
	put(2, "weather", "offline-rich")
	put(3, "other", "llm")
	put(4, "weather", "llm-spec")
	llm := func(m contract.UIMeta) bool { return m.UIType == "llm" || m.UIType == "llm-spec" }
	if e, ok := c.NewestOfTool("weather", testKey(9), llm); !ok || e.Key != testKey(4) {
		t.Errorf("newest = %v %v, want key 4", e.Key, ok)
	}
	if e, ok := c.NewestOfTool("weather", testKey(4), llm); !ok || e.Key != testKey(1) {
		t.Errorf("newest besides 4 = %v %v, want key 1 (2 is not an LLM page)", e.Key, ok)
	}
	if _, ok := c.NewestOfTool("weather", testKey(9), func(m contract.UIMeta) bool { return m.UIType == "emergency" }); ok {
		t.Error("found an entry the match refuses")
	}
	if s := c.Stats(); s.Hits != 0 || s.Misses != 0 {
		t.Errorf("lookups counted: %+v", s)
	}
}
