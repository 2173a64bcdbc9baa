package upstream

import (
	"strings"
	"testing"
	"time"
)

// TestStartedChildIsTheFirstConnection: a stdio upstream started ahead of
// its Client (Start) is the process the Client's first connection uses,
// its stderr reaches the Client's writer, and a restart starts a new one.
func TestStartedChildIsTheFirstConnection(t *testing.T) {
	t.Parallel()
	stderr := &syncBuffer{}
	cfg := stdioConfig(t, "raw", stderr)
	st, err := Start(cfg)
	if err != nil || st == nil {
		t.Fatalf("Start: %v %v", st, err)
	}
	pid := st.ch.cmd.Process.Pid
	cfg.Started = st
	c := New(cfg)
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	if got := c.State().PID; got != pid {
		t.Fatalf("connected to pid %d, want the started child %d", got, pid)
	}
	mustCall(t, c, "echo", nil)
	waitFor(t, 5*time.Second, "the started child's stderr", func() bool { return strings.Contains(stderr.String(), "RAW initialize") })
	// A second connection starts its own child.
	if err := signalGroup(pid, sigKill); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "a restarted child", func() bool {
		st := c.State()
		return st.Connected && st.PID != pid && st.PID != 0
	})
}

// TestStartedChildStops: a started child no Client took is stopped with
// its process group; Start leaves other transports alone.
func TestStartedChildStops(t *testing.T) {
	t.Parallel()
	st, err := Start(stdioConfig(t, "raw", &syncBuffer{}))
	if err != nil {
		t.Fatal(err)
	}
	pid := st.ch.cmd.Process.Pid
	st.Stop()
	waitFor(t, 5*time.Second, "the child gone", func() bool { return processGone(pid) })
	st.Stop() // twice is harmless
	if st, err := Start(Config{URL: "http://127.0.0.1:1/mcp"}); st != nil || err != nil {
		t.Errorf("Start of an HTTP upstream: %v %v, want nothing", st, err)
	}
	if _, err := Start(Config{Command: "/nonexistent/genui-test-cmd"}); err == nil {
		t.Error("Start of a missing command: no error")
	}
}
