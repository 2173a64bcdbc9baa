package refine

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesFifoAndDevZero: refinements.json as a FIFO or a symlink
// to /dev/zero neither hangs Open nor eats memory: it is moved aside like
// a corrupt file and the store starts empty (and saves a real file).
func TestOpenRefusesFifoAndDevZero(t *testing.T) {
	for name, mk := range map[string]func(string) error{
		"fifo":     func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"dev zero": func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "refinements.json")
			if err := mk(path); err != nil {
				t.Fatal(err)
			}
			done := make(chan *Store, 1)
			go func() {
				s, err := Open(path, nil)
				if err != nil {
					t.Error(err)
				}
				done <- s
			}()
			var s *Store
			select {
			case s = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Open did not return within 10 s")
			}
			if s == nil {
				return
			}
			if len(s.All()) != 0 {
				t.Fatalf("store not empty: %v", s.All())
			}
			mustAdd(t, s, "tool", "dark theme")
			if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("refinements.json after a save: %v %v", fi, err)
			}
			moved, _ := filepath.Glob(path + ".corrupt-*")
			if len(moved) != 1 {
				t.Fatalf("the special file was not moved aside: %v", moved)
			}
		})
	}
}
