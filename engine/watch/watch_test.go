package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// start runs a watcher over root and returns the reports.
func start(t *testing.T, o Options, fire func(files []string)) *Watcher {
	t.Helper()
	w, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		_ = w.Run(ctx, func(_ context.Context, files []string) { fire(files) })
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return w
}

func next(t *testing.T, ch chan []string) []string {
	t.Helper()
	select {
	case f := <-ch:
		return f
	case <-time.After(10 * time.Second):
		t.Fatal("no change reported within 10 s")
	}
	return nil
}

// settled waits until w has handled its report and takes changes again:
// a report is received inside fire, and changes until Run sees fire return
// are part of that report (dropped), so a write right after next could be
// lost on a loaded machine (CI saw it).
func settled(t *testing.T, w *Watcher) {
	t.Helper()
	if !testenv.Until(10*time.Second, func() bool { return !w.handling.Load() }) {
		t.Fatal("the watcher still handles its report after 10 s")
	}
}

func TestWatchReportsChangesDebounced(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "tools.json"), "{}")
	write(t, filepath.Join(root, "src", "a.go"), "package a")
	write(t, filepath.Join(root, "src", "gen", "z.go"), "package gen")
	ch := make(chan []string, 10)
	w := start(t, Options{Root: root, Paths: []string{"tools.json", "src/**/*.go"}, Ignore: []string{"src/gen/**"}, Debounce: time.Second},
		func(files []string) { ch <- files })
	// A second's debounce: the writes below take ~100 ms on an idle machine,
	// and a loaded one stretched them past a shorter debounce (CI).

	// Left out: not matched, ignored by the user, ignored by default.
	write(t, filepath.Join(root, "src", "notes.txt"), "x")
	write(t, filepath.Join(root, "src", "gen", "z.go"), "package gen // regenerated")
	write(t, filepath.Join(root, "src", ".a.go.swp"), "x")
	write(t, filepath.Join(root, "other.json"), "{}")
	// Reported, once: several writes within the debounce time.
	for i := 0; i < 3; i++ {
		write(t, filepath.Join(root, "tools.json"), `{"v":`+string(rune('0'+i))+`}`)
		time.Sleep(30 * time.Millisecond)
	}
	write(t, filepath.Join(root, "src", "a.go"), "package a // edited")
	if got := next(t, ch); !slices.Equal(got, []string{"src/a.go", "tools.json"}) {
		t.Fatalf("reported %v", got)
	}
	settled(t, w)
	// A folder created after the start is watched too; an editor's save
	// (write a temp file, rename it over) counts.
	write(t, filepath.Join(root, "src", "x", "b.go"), "package x")
	if got := next(t, ch); !slices.Equal(got, []string{"src/x/b.go"}) {
		t.Fatalf("reported %v", got)
	}
	settled(t, w)
	tmp := filepath.Join(root, "tools.json.tmp")
	write(t, tmp, `{"v":"saved"}`)
	if err := os.Rename(tmp, filepath.Join(root, "tools.json")); err != nil {
		t.Fatal(err)
	}
	if got := next(t, ch); !slices.Equal(got, []string{"tools.json"}) {
		t.Fatalf("reported %v", got)
	}
	select {
	case got := <-ch:
		t.Fatalf("an extra report: %v", got)
	case <-time.After(1500 * time.Millisecond):
	}
}

// Changes while a report is handled (the build writes its output, the
// restarting server its caches) are part of it, not a new one.
func TestChangesDuringARestartAreDropped(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "server.js"), "1")
	ch := make(chan []string, 10)
	release := make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	w := start(t, Options{Root: root, Paths: []string{"."}, Debounce: 100 * time.Millisecond}, func(files []string) {
		ch <- files
		<-release
	})
	t.Cleanup(unblock) // before the watcher stops, whatever failed
	write(t, filepath.Join(root, "server.js"), "2")
	if got := next(t, ch); !slices.Equal(got, []string{"server.js"}) {
		t.Fatalf("reported %v", got)
	}
	write(t, filepath.Join(root, "dist", "server.js"), "built")
	if !testenv.Until(10*time.Second, func() bool { return w.Dropped() > 0 }) {
		t.Fatal("the change during the restart was not seen")
	}
	unblock()
	settled(t, w)
	write(t, filepath.Join(root, "server.js"), "3")
	if got := next(t, ch); !slices.Equal(got, []string{"server.js"}) {
		t.Fatalf("reported %v", got)
	}
}

func TestWatchErrors(t *testing.T) {
	root := t.TempDir()
	for _, o := range []Options{
		{Root: root},
		{Root: root, Paths: []string{"missing.js"}},
		{Root: root, Paths: []string{"nodir/**/*.js"}},
		{Root: root, Paths: []string{"."}, Ignore: []string{"a[b"}},
	} {
		if w, err := New(o); err == nil {
			w.fw.Close()
			t.Errorf("New(%+v) accepted", o)
		}
	}
}

func TestBuild(t *testing.T) {
	dir := t.TempDir()
	ok := Build(context.Background(), "echo built; echo to stderr >&2", dir, time.Minute, nil)
	if ok.Err != nil || ok.ExitCode != 0 || !strings.Contains(ok.Output, "built\n") || !strings.Contains(ok.Output, "to stderr") {
		t.Fatalf("ok build: %+v", ok)
	}
	bad := Build(context.Background(), "echo 'server.go:3: syntax error' >&2; exit 3", dir, time.Minute, nil)
	if bad.Err == nil || bad.ExitCode != 3 || !strings.Contains(bad.Err.Error(), "exit status 3") || !strings.Contains(bad.Output, "syntax error") {
		t.Fatalf("failed build: %+v", bad)
	}
	// The command and its background child would run for an hour: only
	// the 300 ms bound (killing the group, not waiting for the child that
	// holds the output open) ends the build before the test's hang bound.
	slowDone := make(chan BuildResult, 1)
	go func() {
		slowDone <- Build(context.Background(), "sleep 3600 & sleep 3600", dir, 300*time.Millisecond, nil)
	}()
	select {
	case slow := <-slowDone:
		if slow.Err == nil || !strings.Contains(slow.Err.Error(), "did not finish within") {
			t.Fatalf("slow build: %+v", slow)
		}
	case <-time.After(time.Minute):
		t.Fatal("a build past its 300 ms bound is still running")
	}
	long := Build(context.Background(), "i=0; while [ $i -lt 3000 ]; do echo line $i; i=$((i+1)); done", dir, time.Minute, nil)
	if long.Err != nil || len(long.Output) > maxOutputTail || long.Cut == 0 || !strings.HasSuffix(long.Output, "line 2999\n") {
		t.Fatalf("long output: %d bytes, cut %d", len(long.Output), long.Cut)
	}
}
