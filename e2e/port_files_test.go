package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// TestMCPServesWhenPortFilesCannotBeWritten: a full disk (here a directory
// where DIR/mcp-port goes) must not take `genui mcp` down: the side
// server's files are a warning, the stdio server keeps answering.
func TestMCPServesWhenPortFilesCannotBeWritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ui")
	if err := os.MkdirAll(filepath.Join(dir, "mcp-port"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := genuiMCPIn(t, dir)
	ctx := bounded(t, time.Minute)
	// Past the side server's start: it has warned about the port files.
	warned := func() bool {
		select {
		case <-c.Exited():
			t.Fatalf("genui mcp exited: %v\n%s", c.ExitErr(), tail(c.Stderr(), 2000))
		default:
		}
		return strings.Contains(c.Stderr(), "genui: warning:")
	}
	if !testenv.Until(30*time.Second, warned) {
		t.Fatalf("genui mcp gave no port file warning within 30 s:\n%s", tail(c.Stderr(), 2000))
	}
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatalf("tools/list after the port file failed: %v", err)
	}
	if _, rerr, err := c.Request(ctx, "ping", nil); err != nil || rerr != nil {
		t.Fatalf("ping: %v %v", err, rerr)
	}
}
