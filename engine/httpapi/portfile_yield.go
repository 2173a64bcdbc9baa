package httpapi

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Yielding port files. An in-process TUI (Options.YieldPortFiles) writes
// DIR's port files with the port only and no owner, so a genui started
// later on the same DIR (Claude Code launching `genui mcp`, the one the
// agent talks to) takes them over instead of leaving them to the TUI; the
// TUI notices that DIR/mcp-port now names another live genui and offers to
// attach to it. On exit the yielding server removes the files only while
// they still name its own ports.

// writePortOnly writes "PORT\n" atomically.
func writePortOnly(path string, port int) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	_, err = fmt.Fprintf(tmp, "%d\n", port)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// removeIfPort removes path when it still names port and no owner.
func removeIfPort(path string, port int) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	f := strings.Fields(string(b))
	if len(f) == 1 && f[0] == strconv.Itoa(port) {
		_ = os.Remove(path)
	}
}
