package httpapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serveYielding runs a yielding Serve (the in-process TUI's) in dir until
// the returned stop is called.
func serveYielding(t *testing.T, dir string) (*Server, func()) {
	t.Helper()
	return serveWith(t, dir, true)
}

func portOf(base string) string { return base[strings.LastIndex(base, ":")+1:] }

// TestYieldingPortFilesTakenOverByALaterGenui: the in-process TUI writes
// the port number only; a genui started later on DIR (Claude Code's genui
// mcp) takes the files over, and the TUI's exit leaves them alone.
func TestYieldingPortFilesTakenOverByALaterGenui(t *testing.T) {
	dir := t.TempDir()
	tuiSide, stopTUI := serveYielding(t, dir)
	b, err := os.ReadFile(filepath.Join(dir, "mcp-port"))
	if err != nil || string(b) != portOf(tuiSide.APIBase())+"\n" {
		t.Fatalf("yielding mcp-port = %q, %v; want the port only (%s)", b, err, portOf(tuiSide.APIBase()))
	}
	later, stopLater := serveInDir(t, dir)
	if err := later.PortConflict(); err != nil {
		t.Fatalf("the later genui reports a conflict with a yielding owner: %v", err)
	}
	want := portOf(later.APIBase()) + "\n"
	b, err = os.ReadFile(filepath.Join(dir, "mcp-port"))
	if err != nil || string(b) != want {
		t.Fatalf("after a later genui started: mcp-port = %q, %v; want %q", b, err, want)
	}
	stopTUI()
	if b, err := os.ReadFile(filepath.Join(dir, "mcp-port")); err != nil || string(b) != want {
		t.Fatalf("the yielding server's exit touched the later genui's mcp-port: %q, %v", b, err)
	}
	stopLater()

	// Alone, a yielding server removes its own files on exit.
	dir2 := t.TempDir()
	_, stop := serveYielding(t, dir2)
	stop()
	for _, f := range []string{"ui-port", "mcp-port"} {
		if _, err := os.Stat(filepath.Join(dir2, f)); !os.IsNotExist(err) {
			t.Errorf("%s left behind by a yielding server: %v", f, err)
		}
	}
}
