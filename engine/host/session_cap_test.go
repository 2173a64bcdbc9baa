package host_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
)

// TestHTTPSessionsAreCapped: past MaxSessions, a new initialize evicts the
// least recently used session that is idle (no stream, nothing in flight)
// past SessionEvictIdle (here at once) before its idle time is up; when
// every session is busy it is refused with a clear error and a
// Retry-After instead of growing without bound.
func TestHTTPSessionsAreCapped(t *testing.T) {
	ts, srv := startHTTPOpts(t, host.Options{MaxSessions: 3, SessionEvictIdle: time.Nanosecond})
	first := initSession(t, ts.URL)
	second := initSession(t, ts.URL)
	third := initSession(t, ts.URL)
	fourth := initSession(t, ts.URL) // evicts the oldest idle one
	if _, ok := srv.Session(first); ok {
		t.Fatal("the oldest idle session was not evicted")
	}
	for _, sid := range []string{second, third, fourth} {
		if _, ok := srv.Session(sid); !ok {
			t.Fatalf("session %s evicted, want only the oldest", sid)
		}
	}
	// Busy sessions (an open GET stream each) are never evicted.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, sid := range []string{second, third, fourth} {
		openStream(t, ctx, ts.URL, sid)
	}
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "busy") || resp.Header.Get("Retry-After") != "5" || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("initialize past the cap with every session busy: %d %s", resp.StatusCode, body)
	}
	if n := len(srv.Sessions()); n != 3 {
		t.Fatalf("%d sessions, want 3", n)
	}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}
