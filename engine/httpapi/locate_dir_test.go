package httpapi

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/safefile"
)

// TestLocateDir: a serving genui's DIR names its port, its instance (the
// one its /state reports) and that the lock is held; after it stops the
// lock file is empty and DIR names no genui.
func TestLocateDir(t *testing.T) {
	dir := t.TempDir()
	s, stop := serveInDir(t, dir)
	g, err := LocateDir(dir)
	if err != nil || strconv.Itoa(g.Port) != portOf(s.APIBase()) || g.Instance != engine.InstanceID() || !g.Held {
		t.Fatalf("LocateDir while serving: %+v %v (port %s, instance %s)", g, err, portOf(s.APIBase()), engine.InstanceID())
	}
	stop()
	if g, err := LocateDir(dir); err == nil {
		t.Errorf("LocateDir after the genui stopped: %+v", g)
	}
}

// TestLocateDirRefusesSpecialFiles: a FIFO or a link to /dev/zero in place
// of DIR/mcp-port or DIR/genui.lock is refused at once (a FIFO used to
// leave the TUI on a blank screen, /dev/zero took it to 3.4 GB), as is a
// port file too big to be one.
func TestLocateDirRefusesSpecialFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, dir string)
	}{
		{"mcp-port FIFO", func(t *testing.T, dir string) { mkfifo(t, filepath.Join(dir, "mcp-port")) }},
		{"mcp-port /dev/zero", func(t *testing.T, dir string) { symlink(t, "/dev/zero", filepath.Join(dir, "mcp-port")) }},
		{"mcp-port huge", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "mcp-port"), make([]byte, 1<<20), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"genui.lock FIFO", func(t *testing.T, dir string) {
			writePort(t, dir)
			mkfifo(t, filepath.Join(dir, LockFileName))
		}},
		{"genui.lock /dev/zero", func(t *testing.T, dir string) {
			writePort(t, dir)
			symlink(t, "/dev/zero", filepath.Join(dir, LockFileName))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.make(t, dir)
			done := make(chan error, 1)
			go func() { _, err := LocateDir(dir); done <- err }()
			select {
			case err := <-done:
				var bad *safefile.BadFileError
				if !errors.As(err, &bad) {
					t.Errorf("LocateDir: %v, want a refusal of the file", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("LocateDir did not return within 5 s")
			}
		})
	}
}

func writePort(t *testing.T, dir string) {
	if err := WritePortFile(filepath.Join(dir, "mcp-port"), 4242); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func symlink(t *testing.T, target, p string) {
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}
