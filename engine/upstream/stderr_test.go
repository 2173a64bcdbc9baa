package upstream

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExitReasonQuotesStderr: a stdio server that writes a line to stderr
// and exits 1 before answering initialize fails its connection with its
// exit status and that line, whether genui started it ahead (Start) or
// itself, so whoever shows the reason shows why it would not start.
func TestExitReasonQuotesStderr(t *testing.T) {
	for _, ahead := range []bool{false, true} {
		t.Run(fmt.Sprintf("ahead=%v", ahead), func(t *testing.T) {
			broken := filepath.Join(t.TempDir(), "broken")
			if err := os.WriteFile(broken, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			cfg := stdioConfig(t, "mcp", nil, "UPSTREAM_TEST_BROKEN_IF="+broken)
			cfg.BackoffMin, cfg.BackoffMax = time.Minute, time.Minute // one attempt
			if ahead {
				st, err := Start(cfg)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Started = st
			}
			c := New(cfg)
			runClient(t, c)
			waitFor(t, 20*time.Second, "the connection's error", func() bool { return c.State().LastError != "" })
			got := c.State().LastError
			if !strings.HasPrefix(got, "upstream exited (exit status 1)") || !strings.Contains(got, "server.js:3 SyntaxError: Unexpected token") {
				t.Fatalf("LastError %q, want the exit status first, then the server's stderr line", got)
			}
		})
	}
}

// TestStderrTailKeepsTheLastLinesClipped: the tail keeps the last lines,
// each cut at tailLineBytes, a partial last line included, blank ones
// left out.
func TestStderrTailKeepsTheLastLinesClipped(t *testing.T) {
	var tail stderrTail
	for i := range tailLines + 3 {
		fmt.Fprintf(&tail, "line %d\r\n\n", i)
	}
	_, _ = tail.Write([]byte(strings.Repeat("x", tailLineBytes+10) + "\nlast, no newline"))
	got := tail.Lines()
	if len(got) != tailLines {
		t.Fatalf("kept %d lines, want %d: %q", len(got), tailLines, got)
	}
	if got[len(got)-1] != "last, no newline" || got[len(got)-2] != strings.Repeat("x", tailLineBytes)+"…" {
		t.Fatalf("last lines %q", got[len(got)-2:])
	}
	if got[0] != fmt.Sprintf("line %d", tailLines+3-(tailLines-2)) {
		t.Fatalf("first kept line %q", got[0])
	}
}
