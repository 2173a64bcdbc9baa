//go:build unix

package watch

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// recordCounter is a slog handler that counts records by message and keeps
// the "dropped" attribute of the drop summary.
type recordCounter struct {
	mu      sync.Mutex
	records int
	byMsg   map[string]int
	dropped int64
	summary string
}

func (c *recordCounter) Enabled(context.Context, slog.Level) bool { return true }
func (c *recordCounter) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *recordCounter) WithGroup(string) slog.Handler            { return c }
func (c *recordCounter) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.records++
	if c.byMsg == nil {
		c.byMsg = map[string]int{}
	}
	c.byMsg[r.Message]++
	if strings.Contains(r.Message, "lines dropped") {
		c.summary = r.Message
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "dropped" {
				c.dropped = a.Value.Int64()
			}
			return true
		})
	}
	return nil
}

// buildWithin runs Build in the background and fails the test if it has
// not returned within bound.
func buildWithin(t *testing.T, bound time.Duration, command string, timeout time.Duration, log *slog.Logger) BuildResult {
	t.Helper()
	done := make(chan BuildResult, 1)
	go func() { done <- Build(context.Background(), command, t.TempDir(), timeout, log) }()
	select {
	case res := <-done:
		return res
	case <-time.After(bound):
		t.Fatalf("%q (timeout %s) had not returned after %s", command, timeout, bound)
		return BuildResult{}
	}
}

// TestBuildOutputFloodIsBounded: a build printing 100 MB (50 million
// lines) finishes promptly; the log gets a bounded number of lines and one
// saying how many were dropped, the result the last 16 KiB.
func TestBuildOutputFloodIsBounded(t *testing.T) {
	const size, lines = 100_000_000, 50_000_000
	var c recordCounter
	res := buildWithin(t, 90*time.Second, "yes | head -c "+strconv.Itoa(size), 2*time.Minute, slog.New(&c))
	if res.Err != nil || res.ExitCode != 0 {
		t.Fatalf("flooding build: %v (exit %d)", res.Err, res.ExitCode)
	}
	if len(res.Output) > maxOutputTail || !strings.HasSuffix(res.Output, "y\n") || !strings.HasPrefix(res.Output, "y\n") ||
		res.Cut+len(res.Output) != size {
		t.Errorf("result: %d bytes kept (%q...), %d cut; want at most %d, whole lines, adding up to %d",
			len(res.Output), res.Output[:min(len(res.Output), 8)], res.Cut, maxOutputTail, size)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if logged := c.byMsg["y"]; logged < logBurst || logged > maxLoggedLines || int64(logged)+c.dropped != lines {
		t.Errorf("%d output lines logged and %d counted dropped; want %d..%d logged, adding up to %d", logged, c.dropped, logBurst, maxLoggedLines, lines)
	}
	if c.summary != "build output: "+strconv.FormatInt(c.dropped, 10)+" lines dropped" {
		t.Errorf("drop summary %q", c.summary)
	}
	if c.records > maxLoggedLines+5 {
		t.Errorf("%d log records for one build, want at most %d", c.records, maxLoggedLines+5)
	}
}

// TestBuildTimeoutHoldsUnderFlood: a build that prints without end is
// killed at its timeout, also when a process it started left its process
// group and holds the output open (it is not waited for past a bound).
func TestBuildTimeoutHoldsUnderFlood(t *testing.T) {
	var c recordCounter
	res := buildWithin(t, 30*time.Second, "yes", time.Second, slog.New(&c))
	if res.Err == nil || !strings.Contains(res.Err.Error(), "did not finish within 1s") {
		t.Fatalf("endless output: %+v", res.Err)
	}
	c.mu.Lock()
	if c.dropped == 0 || c.records > maxLoggedLines+5 {
		t.Errorf("endless output: %d records, %d dropped", c.records, c.dropped)
	}
	c.mu.Unlock()

	res = buildWithin(t, 30*time.Second, escapedHolder(t)+" & yes", time.Second, nil)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "did not finish within 1s") {
		t.Fatalf("endless output with a process holding it open: %+v", res.Err)
	}
}

// TestBuildDoesNotWaitForAProcessLeftHoldingItsOutput: a build that exits
// 0 but leaves a process (outside its group) holding its output open
// succeeds once it has exited, after a short bound, not when that process
// ends.
func TestBuildDoesNotWaitForAProcessLeftHoldingItsOutput(t *testing.T) {
	res := buildWithin(t, 30*time.Second, escapedHolder(t)+" & echo built", 5*time.Minute, nil)
	if res.Err != nil || res.ExitCode != 0 || !strings.Contains(res.Output, "built\n") {
		t.Fatalf("build leaving a holder behind: %+v", res)
	}
}

// escapedHolder is a shell command that starts a process in a session of
// its own (out of the build's process group, so the build's timeout does
// not kill it) holding the output open for two minutes; the test kills it
// at cleanup.
func escapedHolder(t *testing.T) string {
	t.Helper()
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		testenv.Missingf(t, "setsid (util-linux): %v", err)
	}
	pidFile := filepath.Join(t.TempDir(), "holder.pid")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return setsid + " sh -c 'echo $$ > " + pidFile + "; exec sleep 120'"
}

// BenchmarkBuildOutputFlood measures genui's own CPU (not the build's) for
// a build printing 100 MB of short lines, logged as JSON: "shell-discards"
// is the same build with its output sent to /dev/null by the shell (the
// baseline: starting the build), "logged" reads and logs it.
//
//	go test -run '^$' -bench BuildOutputFlood -benchtime 3x ./engine/watch
func BenchmarkBuildOutputFlood(b *testing.B) {
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	for _, bc := range []struct{ name, command string }{
		{"shell-discards", "yes | head -c 100000000 > /dev/null"},
		{"logged", "yes | head -c 100000000"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			before := selfCPU(b)
			for b.Loop() {
				if res := Build(context.Background(), bc.command, dir, 5*time.Minute, log); res.Err != nil {
					b.Fatal(res.Err)
				}
			}
			b.ReportMetric(float64((selfCPU(b)-before).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// selfCPU is this process's user and system CPU time so far.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
