package upstream

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// answerCh is a jsonrpc.Waiter on a channel.
type answerCh chan jsonrpc.Answer

func (a answerCh) Answered(ans jsonrpc.Answer) { a <- ans }

// Restart starts the new upstream before it stops the old one: calls in
// flight end at once with a clear error, the next call reaches the new
// process, and a new upstream that does not start leaves the old one
// serving.
func TestRestartReplacesUpstream(t *testing.T) {
	broken := filepath.Join(t.TempDir(), "broken")
	stderr := &syncBuffer{}
	cfg := stdioConfig(t, "mcp", stderr, "UPSTREAM_TEST_BROKEN_IF="+broken)
	cfg.BackoffMin, cfg.BackoffMax = time.Hour, time.Hour // only Restart can bring it back within the test
	c := New(cfg)
	runClient(t, c)
	waitReady(t, c, 20*time.Second)
	before := c.State()
	if before.Generation != 1 || before.PID == 0 {
		t.Fatalf("first connection: %+v", before)
	}

	// A call in flight on each path: the general one and the fast path.
	slow := make(chan error, 1)
	go func() {
		_, err := callTool(context.Background(), c, "slow", map[string]any{"ms": 20000}, nil)
		slow <- err
	}()
	fast := make(answerCh, 1)
	if _, err := c.Go("tools/call", []byte(`{"name":"slow","arguments":{"ms":20000}}`), fast); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "both calls to reach the server", func() bool { return strings.Count(stderr.String(), "slow: start") == 2 })

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Restart(ctx, "server.js changed"); err != nil {
		t.Fatal(err)
	}
	after := c.State()
	if after.PID == before.PID || after.Generation != 2 || !after.Connected || after.Restarts != before.Restarts+1 {
		t.Fatalf("after the restart: %+v (before %+v)", after, before)
	}
	for _, got := range []error{waitErr(t, slow), waitAnswer(t, fast)} {
		if je := asRPCError(t, got); je.Code != jsonrpc.CodeUpstreamUnavailable ||
			!strings.Contains(je.Message, "upstream restarted (server.js changed) while handling tools/call") {
			t.Errorf("in-flight call: %v", got)
		}
	}
	waitFor(t, 10*time.Second, "the old process to exit", func() bool { return processGone(before.PID) })
	if got := mustCall(t, c, "echo", map[string]any{"text": "hi"}); got != "echo: hi" {
		t.Fatalf("after restart: %q", got)
	}

	// A new upstream that fails to start: the old one keeps serving.
	if err := os.WriteFile(broken, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := c.Restart(ctx, "server.js changed again")
	if err == nil || !strings.Contains(err.Error(), "did not start") || !strings.Contains(err.Error(), "exit status 1") {
		t.Fatalf("broken restart: %v", err)
	}
	if st := c.State(); st.PID != after.PID || st.Generation != 2 || !st.Connected {
		t.Fatalf("the old upstream was replaced: %+v", st)
	}
	if got := mustCall(t, c, "echo", map[string]any{"text": "still"}); got != "echo: still" {
		t.Fatalf("old upstream: %q", got)
	}

	// The upstream crashed and waits out a long backoff: a restart (the
	// fix is in) connects now.
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	_, _ = callTool(ctx, c, "crash", nil, nil)
	waitFor(t, 10*time.Second, "the crash", func() bool { return !c.State().Connected })
	if err := c.Restart(ctx, "fixed"); err != nil {
		t.Fatal(err)
	}
	if st := c.State(); !st.Connected || st.Generation != 3 {
		t.Fatalf("after a restart of a crashed upstream: %+v", st)
	}
}

func TestRestartRefusesNetworkUpstreams(t *testing.T) {
	c := New(Config{Transport: TransportHTTP, URL: "http://127.0.0.1:1/mcp"})
	if err := c.Restart(context.Background(), "x"); !errors.Is(err, ErrNoRestart) {
		t.Fatalf("http restart: %v", err)
	}
}

func waitErr(t *testing.T, ch chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("the in-flight call did not end within 5 s of the restart")
	}
	return nil
}

func waitAnswer(t *testing.T, ch answerCh) error {
	t.Helper()
	select {
	case a := <-ch:
		if a.Err == nil {
			return errors.New("answered: " + string(a.Result) + string(a.Error))
		}
		return a.Err
	case <-time.After(5 * time.Second):
		t.Fatal("the in-flight fast-path call did not end within 5 s of the restart")
	}
	return nil
}
