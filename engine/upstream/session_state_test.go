package upstream

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRestartKeepsTheHostsSessionState: what the host set on the upstream's
// session (its log level, its resource subscriptions, through either
// request path) is told again to the process that replaces it, in order and
// without the subscription it dropped, before the new process serves a
// call; a server that never got them is told nothing.
func TestRestartKeepsTheHostsSessionState(t *testing.T) {
	stderr := &syncBuffer{}
	c := New(stdioConfig(t, "raw", stderr))
	runClient(t, c)
	waitReady(t, c, 20*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	restart := func(why string) string {
		t.Helper()
		mark := len(stderr.String())
		if err := c.Restart(ctx, why); err != nil {
			t.Fatal(err)
		}
		if got := mustCall(t, c, "echo", map[string]any{"text": "after"}); !strings.Contains(got, "ok") {
			t.Fatalf("call after the restart: %q", got)
		}
		// The child's stderr is read apart from its answers: wait for the
		// call's line, which it wrote after everything before it.
		waitFor(t, 20*time.Second, "the new process to log the call", func() bool {
			return strings.Contains(stderr.String()[mark:], "RAW call echo")
		})
		return stderr.String()[mark:]
	}
	if got := restart("nothing set yet"); strings.Contains(got, "RAW session") {
		t.Fatalf("a server nobody set anything on was told:\n%s", got)
	}

	for _, r := range []struct{ method, params string }{
		{"logging/setLevel", `{"level":"info"}`},
		{"resources/subscribe", `{"uri":"file:///a"}`},
		{"resources/subscribe", `{"uri":"file:///b"}`},
		{"logging/setLevel", `{"level":"debug"}`},
		{"resources/unsubscribe", `{"uri":"file:///a"}`},
	} {
		if _, err := c.Request(ctx, r.method, []byte(r.params)); err != nil {
			t.Fatalf("%s: %v", r.method, err)
		}
	}
	fast := make(answerCh, 1)
	if _, err := c.Go("resources/subscribe", []byte(`{"uri":"file:///c"}`), fast); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-fast:
		if a.Err != nil || len(a.Error) > 0 {
			t.Fatalf("fast-path subscribe: %v %s", a.Err, a.Error)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the fast-path subscribe was not answered within 20 s")
	}

	// The old process's own lines first (its stderr lags its answers).
	waitFor(t, 20*time.Second, "the old process to log the last subscription", func() bool {
		return strings.Contains(stderr.String(), `RAW session resources/subscribe {"uri":"file:///c"}`)
	})
	got := restart("server.js changed")
	var told []string
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "RAW session ") || strings.HasPrefix(l, "RAW call ") {
			told = append(told, strings.TrimPrefix(l, "RAW "))
		}
	}
	want := []string{
		`session logging/setLevel {"level":"debug"}`,
		`session resources/subscribe {"uri":"file:///b"}`,
		`session resources/subscribe {"uri":"file:///c"}`,
	}
	if len(told) < len(want)+1 || strings.Join(told[:len(want)], "\n") != strings.Join(want, "\n") || !strings.HasPrefix(told[len(want)], "call echo") {
		t.Fatalf("the new process was told, before the call:\n%s\nwant:\n%s\nthen the call", strings.Join(told, "\n"), strings.Join(want, "\n"))
	}
}
