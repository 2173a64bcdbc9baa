package cache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestLoadSkipsFifoAndDevZero: a FIFO or a symlink to /dev/zero named like
// an entry file in the cache directory is skipped at once; it must neither
// hang startup (a FIFO blocks its reader) nor eat memory (/dev/zero reports
// size 0 and never ends). Good entries still load.
func TestLoadSkipsFifoAndDevZero(t *testing.T) {
	dir := t.TempDir()
	c := newCache(t, Options{Dir: dir})
	good := entry("good", testKey(1), 500)
	if err := c.Put(good); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, string(testKey(2))+".json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, string(testKey(3))+".json")); err != nil {
		t.Fatal(err)
	}
	log, buf := bufLogger()
	done := make(chan *Cache, 1)
	go func() {
		c2, err := New(Options{Dir: dir, Logger: log})
		if err != nil {
			t.Error(err)
		}
		done <- c2
	}()
	select {
	case c2 := <-done:
		if c2 == nil {
			return
		}
		if _, ok := c2.Get(good.Key); !ok || c2.Stats().Entries != 1 {
			t.Fatalf("good entry not loaded: %+v", c2.Stats())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("loading a cache directory with a FIFO and /dev/zero did not finish within 10 s")
	}
	if n := bytesContaining(buf.String(), "not a regular file"); n != 2 {
		t.Errorf("want 2 warnings about non-regular files, log:\n%s", buf.String())
	}
}

func bytesContaining(s, sub string) int {
	n := 0
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			n++
		}
	}
	return n
}
