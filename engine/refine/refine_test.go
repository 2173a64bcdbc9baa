package refine

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	return s
}

func mustAdd(t *testing.T, s *Store, tool, feedback string) {
	t.Helper()
	if _, err := s.Add(tool, feedback, "test"); err != nil {
		t.Fatalf("Add(%q, %q): %v", tool, feedback, err)
	}
}

func feedbacks(h []contract.Refinement) []string {
	var out []string
	for _, r := range h {
		out = append(out, r.Feedback)
	}
	return out
}

func TestHash(t *testing.T) {
	tests := []struct {
		name     string
		a, b     []string // feedback added to tool "x" in two fresh stores
		wantSame bool
	}{
		{"both empty", nil, nil, true},
		{"same list", []string{"bigger", "blue"}, []string{"bigger", "blue"}, true},
		{"whitespace trimmed", []string{"bigger"}, []string{"  bigger\n"}, true},
		{"order matters", []string{"bigger", "blue"}, []string{"blue", "bigger"}, false},
		{"one more", []string{"bigger"}, []string{"bigger", "blue"}, false},
		{"different text", []string{"bigger"}, []string{"smaller"}, false},
		{"boundaries", []string{"ab", "c"}, []string{"a", "bc"}, false},
		{"empty vs some", nil, []string{"bigger"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sa, sb := open(t, ""), open(t, "")
			for _, f := range tt.a {
				mustAdd(t, sa, "x", f)
			}
			for _, f := range tt.b {
				mustAdd(t, sb, "x", f)
			}
			ha, hb := sa.Hash("x"), sb.Hash("x")
			if (ha == "") != (len(tt.a) == 0) || (hb == "") != (len(tt.b) == 0) {
				t.Fatalf("Hash empty-ness wrong: %q %q", ha, hb)
			}
			if (ha == hb) != tt.wantSame {
				t.Errorf("hashes equal = %v, want %v", ha == hb, tt.wantSame)
			}
			if sa.Hash("other") != "" {
				t.Error("tool without refinements has a hash")
			}
		})
	}
}

func TestAddRejectsBadInput(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "refinements.json"))
	tests := []struct{ name, tool, feedback string }{
		{"empty tool", "", "bigger"},
		{"empty feedback", "x", ""},
		{"blank feedback", "x", " \n\t "},
		{"too long", "x", strings.Repeat("a", MaxFeedbackBytes+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if h, err := s.Add(tt.tool, tt.feedback, "test"); err == nil {
				t.Errorf("Add succeeded with history %v", h)
			}
		})
	}
	if len(s.All()) != 0 {
		t.Errorf("rejected input was stored: %v", s.All())
	}
}

func TestHistoryClearRetain(t *testing.T) {
	s := open(t, "")
	mustAdd(t, s, "a", "one")
	h, err := s.Add("a", "two", "tui")
	if err != nil {
		t.Fatal(err)
	}
	if got := feedbacks(h); !slices.Equal(got, []string{"one", "two"}) || h[1].Source != "tui" || h[1].Time.IsZero() {
		t.Fatalf("Add returned %+v", h)
	}
	h[0].Feedback = "mutated"
	if s.History("a")[0].Feedback != "one" {
		t.Error("mutating a returned history changed the store")
	}
	mustAdd(t, s, "b", "x")
	mustAdd(t, s, "c", "y")
	removed, err := s.Retain([]string{"a", "zzz"})
	if err != nil || !slices.Equal(removed, []string{"b", "c"}) {
		t.Errorf("Retain = %v, %v; want [b c]", removed, err)
	}
	if removed, _ := s.Retain([]string{"a"}); removed != nil {
		t.Errorf("second Retain removed %v", removed)
	}
	if err := s.Clear("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Clear("never-there"); err != nil {
		t.Fatal(err)
	}
	if s.History("a") != nil || len(s.All()) != 0 {
		t.Errorf("store not empty: %v", s.All())
	}
}

func TestPersistAcrossOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "refinements.json")
	s := open(t, path)
	mustAdd(t, s, "weather", "show a chart")
	mustAdd(t, s, "weather", "use celsius")
	mustAdd(t, s, "table", "zebra rows")
	mustAdd(t, s, "gone", "x")
	if _, err := s.Retain([]string{"weather", "table"}); err != nil {
		t.Fatal(err)
	}
	want := s.All()

	s2 := open(t, path)
	got := s2.All()
	if len(got) != len(want) {
		t.Fatalf("reopened tools %v, want %v", got, want)
	}
	for tool, wh := range want {
		gh := got[tool]
		if len(gh) != len(wh) {
			t.Fatalf("%s: %v, want %v", tool, gh, wh)
		}
		for i := range wh {
			if gh[i].Feedback != wh[i].Feedback || gh[i].Source != wh[i].Source || !gh[i].Time.Equal(wh[i].Time) {
				t.Errorf("%s[%d] = %+v, want %+v", tool, i, gh[i], wh[i])
			}
		}
	}
	if s2.Hash("weather") != s.Hash("weather") {
		t.Error("hash changed across Open")
	}
	if err := s2.Clear("weather"); err != nil {
		t.Fatal(err)
	}
	if h := open(t, path).History("weather"); h != nil {
		t.Errorf("cleared history came back: %v", h)
	}
	// No temp files left behind by successful writes (the lock file stays:
	// removing it would race with another process taking it).
	var names []string
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"refinements.json", "refinements.json.lock"}) {
		t.Errorf("dir holds %v, want refinements.json and its lock file", names)
	}
}

func TestCorruptFile(t *testing.T) {
	tests := []struct{ name, content string }{
		{"garbage", "\x00\xffnot json"},
		{"truncated", `{"version":1,"tools":{"a":[{"feedback":"x","ti`},
		{"empty", ""},
		{"other version", `{"version":99,"tools":{"a":[{"feedback":"x"}]}}`},
		{"no version", `{"tools":{"a":[{"feedback":"x"}]}}`},
		{"wrong shape", `{"version":1,"tools":["a","b"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "refinements.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			// A quarantined file from an earlier run must not be overwritten.
			now := time.Now().Unix()
			for _, ts := range []int64{now, now + 1} {
				if err := os.WriteFile(fmt.Sprintf("%s.corrupt-%d", path, ts), []byte("older"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var logs bytes.Buffer
			s, err := Open(path, slog.New(slog.NewTextHandler(&logs, nil)))
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if len(s.All()) != 0 {
				t.Errorf("store not empty: %v", s.All())
			}
			if !strings.Contains(logs.String(), "level=WARN") {
				t.Errorf("no warning logged: %s", logs.String())
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("corrupt file still at %s", path)
			}
			matches, _ := filepath.Glob(path + ".corrupt-*")
			var kept int
			for _, m := range matches {
				b, _ := os.ReadFile(m)
				switch string(b) {
				case tt.content:
					kept++
				case "older":
				default:
					t.Errorf("%s holds %q", m, b)
				}
			}
			if kept != 1 || len(matches) != 3 {
				t.Errorf("quarantine files %v: corrupt content kept %d times, want 1 (and 2 older files)", matches, kept)
			}
			mustAdd(t, s, "a", "fresh start")
			if h := open(t, path).History("a"); len(h) != 1 {
				t.Errorf("after recovery reopened history = %v", h)
			}
		})
	}
}

func TestInterruptedWrite(t *testing.T) {
	tests := []struct {
		name     string
		age      time.Duration
		wantGone bool
	}{
		{"stale temp removed", 2 * staleTempAge, true},
		{"fresh temp kept", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "refinements.json")
			mustAdd(t, open(t, path), "a", "first")
			// A write that died between creating the temp file and the rename.
			stray := filepath.Join(dir, ".refinements.json.tmp-999")
			if err := os.WriteFile(stray, []byte(`{"version":1,"tools":{"a":[{"feedback":"sec`), 0o600); err != nil {
				t.Fatal(err)
			}
			mt := time.Now().Add(-tt.age)
			if err := os.Chtimes(stray, mt, mt); err != nil {
				t.Fatal(err)
			}
			s := open(t, path)
			if got := feedbacks(s.History("a")); !slices.Equal(got, []string{"first"}) {
				t.Errorf("history = %v, want the previous file's [first]", got)
			}
			if _, err := os.Stat(stray); os.IsNotExist(err) != tt.wantGone {
				t.Errorf("stray removed = %v, want %v", os.IsNotExist(err), tt.wantGone)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	// A directory where the file should be cannot be read: a clear error, not a silent empty store.
	if _, err := Open(dir, nil); err == nil {
		t.Error("Open of a directory succeeded")
	}
}

func TestSaveFailureKeepsMemory(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "notadir")
	s := open(t, filepath.Join(blocker, "refinements.json"))
	// Put a file where the directory would be created, so the save fails
	// (works for root too, unlike removing write permission).
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := s.Add("a", "x", "")
	if err == nil {
		t.Error("Add succeeded although the file cannot be written")
	}
	if len(h) != 1 || len(s.History("a")) != 1 {
		t.Errorf("history after failed save = %v / %v, want the new entry in memory", h, s.History("a"))
	}
}

func TestConcurrentAdds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "refinements.json")
	s := open(t, path)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				if _, err := s.Add(fmt.Sprintf("tool%d", g%3), fmt.Sprintf("g%d-%d", g, i), "test"); err != nil {
					t.Error(err)
				}
				s.Hash("tool0")
				s.All()
			}
		})
	}
	wg.Wait()
	var n int
	for _, h := range open(t, path).All() {
		n += len(h)
	}
	if n != 160 {
		t.Errorf("reopened store has %d refinements, want 160", n)
	}
}
