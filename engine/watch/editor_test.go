package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// An editor's save, as vim, emacs, JetBrains and atomic writers do it
// (swap, backup, lock and probe files; a temporary written then renamed
// over the file), reports the saved file only; a touch (only the mtime
// changes) is a change; a chmod is not.
func TestEditorSavesReportOnlyTheFileAndTouchCounts(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "src")
	write(t, filepath.Join(src, "index.ts"), "export {}")
	ch := make(chan []string, 10)
	start(t, Options{Root: root, Paths: []string{"."}, Debounce: 150 * time.Millisecond}, func(files []string) { ch <- files })

	for _, name := range []string{".index.ts.swp", "index.ts.swp", ".index.ts.swx", "index.ts~", "4913", ".#index.ts", "#index.ts#",
		"index.ts___jb_tmp___", "index.ts___jb_old___", ".goutputstream-AB12CD", "index.ts.kate-swp"} {
		write(t, filepath.Join(src, name), "x")
	}
	for _, tmp := range []string{"index.ts.tmp", "index.ts.tmp.4242"} {
		write(t, filepath.Join(src, tmp), "export const a = 1")
		if err := os.Rename(filepath.Join(src, tmp), filepath.Join(src, "index.ts")); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{".index.ts.swp", "index.ts.swp", "index.ts~", "4913", "index.ts___jb_old___"} {
		_ = os.Remove(filepath.Join(src, name))
	}
	if got := next(t, ch); !slices.Equal(got, []string{"src/index.ts"}) {
		t.Fatalf("an editor's save reported %v, want [src/index.ts]", got)
	}

	// chmod: not a change (the mtime stays).
	if err := os.Chmod(filepath.Join(src, "index.ts"), 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-ch:
		t.Fatalf("a chmod reported %v", got)
	case <-time.After(500 * time.Millisecond):
	}
	// touch: the mtime is now.
	now := time.Now()
	if err := os.Chtimes(filepath.Join(src, "index.ts"), now, now); err != nil {
		t.Fatal(err)
	}
	if got := next(t, ch); !slices.Equal(got, []string{"src/index.ts"}) {
		t.Fatalf("a touch reported %v", got)
	}
}
