package host_test

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
)

// callTool posts a tools/call in session sid and returns the status and
// body.
func callTool(t *testing.T, base, sid string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_current_weather","arguments":{"location":"Oslo"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, readAll(t, resp)
}

// tryInitialize posts an initialize and returns the session id, the status
// and the body.
func tryInitialize(t *testing.T, hc *http.Client, base string) (string, int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := hc.Do(req)
	if err != nil {
		return "", 0, err.Error()
	}
	body := readAll(t, resp)
	return resp.Header.Get("Mcp-Session-Id"), resp.StatusCode, body
}

// TestSessionFloodKeepsActiveClient is the review's attack: 3,000
// initialize requests (no stream, never used again) against the default
// limits. A client that called a tool before the flood keeps its session
// (its next call works), the session map never passes the cap, and the
// flood never locks new clients out: every initialize is admitted (the
// sessions nobody used after their initialize make room, oldest first),
// and a new client that arrives while the flood goes on, or after it,
// initializes and calls a tool at once.
func TestSessionFloodKeepsActiveClient(t *testing.T) {
	ts, srv := startHTTPOpts(t, host.Options{}) // defaults: 1000 sessions, evict after 5 min idle
	client := initSession(t, ts.URL)
	if code, body := callTool(t, ts.URL, client); code != http.StatusOK || !strings.Contains(body, "Oslo") {
		t.Fatalf("the client's first call: %d %s", code, body)
	}

	const flood = 3000
	var ok, refused, answered atomic.Int64
	halfway := make(chan struct{})
	var wg sync.WaitGroup
	jobs := make(chan int)
	tr := &http.Transport{MaxIdleConnsPerHost: 16}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(
					`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood-`+strconv.Itoa(i)+`","version":"1"}}}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := hc.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				body := readAll(t, resp)
				if resp.StatusCode == http.StatusOK {
					ok.Add(1)
				} else if refused.Add(1) == 1 {
					t.Errorf("flood initialize %d: %d %s", i, resp.StatusCode, body)
				}
				if answered.Add(1) == flood/2 {
					close(halfway)
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := 0; i < flood; i++ {
			jobs <- i
		}
	}()
	select {
	case <-halfway:
	case <-time.After(2 * time.Minute):
		t.Fatal("half the flood not answered within 2 minutes")
	}
	// The flood goes on meanwhile (the test fails, not stops, until it
	// has ended).
	during, code, body := tryInitialize(t, hc, ts.URL)
	if code != http.StatusOK {
		t.Errorf("a client arriving during the flood: initialize got %d %s", code, body)
	} else if code, body := callTool(t, ts.URL, during); code != http.StatusOK || !strings.Contains(body, "Oslo") {
		t.Errorf("a client arriving during the flood: its call got %d %s", code, body)
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	if code, body := callTool(t, ts.URL, client); code != http.StatusOK || !strings.Contains(body, "Oslo") {
		t.Fatalf("after %d initializes the active client's call got %d %s; want its session kept", flood, code, body)
	}
	if n := len(srv.Sessions()); n > 1000 {
		t.Errorf("%d sessions after the flood, cap 1000", n)
	}
	if ok.Load() != flood {
		t.Errorf("flood: %d of %d initializes admitted, %d refused; want all admitted (unused sessions make room)", ok.Load(), flood, refused.Load())
	}
	after := initSession(t, ts.URL)
	if code, body := callTool(t, ts.URL, after); code != http.StatusOK || !strings.Contains(body, "Oslo") {
		t.Errorf("a client arriving after the flood: its call got %d %s", code, body)
	}
	if code, body := callTool(t, ts.URL, during); code != http.StatusOK {
		t.Errorf("the client that arrived during the flood, after it: %d %s", code, body)
	}
}

// TestSessionEvictedOnlyAfterIdleBound: at the cap, with every session
// used after its initialize, a new session evicts the least recently used
// session idle longer than SessionEvictIdle; one used within it is kept,
// and when every session was used within it the new one is refused with
// 503, a Retry-After and a message that says why.
func TestSessionEvictedOnlyAfterIdleBound(t *testing.T) {
	const bound = 300 * time.Millisecond
	ts, srv := startHTTPOpts(t, host.Options{MaxSessions: 2, SessionEvictIdle: bound})
	old := initSession(t, ts.URL)
	if code, body := callTool(t, ts.URL, old); code != http.StatusOK {
		t.Fatalf("call: %d %s", code, body)
	}
	recent := initSession(t, ts.URL)
	time.Sleep(bound + 100*time.Millisecond)
	if code, body := callTool(t, ts.URL, recent); code != http.StatusOK {
		t.Fatalf("call: %d %s", code, body)
	}
	third := initSession(t, ts.URL) // evicts old: idle past the bound
	if code, body := callTool(t, ts.URL, third); code != http.StatusOK {
		t.Fatalf("call: %d %s", code, body)
	}
	if _, ok := srv.Session(old); ok {
		t.Error("the session idle past the bound was not evicted")
	}
	for _, sid := range []string{recent, third} {
		if _, ok := srv.Session(sid); !ok {
			t.Errorf("session %s evicted within the idle bound", sid)
		}
	}
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize with every session active within the bound: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if !strings.Contains(body, "too many MCP sessions") || !strings.Contains(body, "mcp.sessions") {
		t.Errorf("503 body %q does not say why and which setting", body)
	}
}

// TestSessionsNeverUsedAreEvictedFirst: at the cap a new session evicts
// the oldest session that made no request after its initialize (a
// notifications/initialized is not one) at once, whatever
// SessionEvictIdle; a session that made a request within it is kept.
func TestSessionsNeverUsedAreEvictedFirst(t *testing.T) {
	ts, srv := startHTTPOpts(t, host.Options{MaxSessions: 2, SessionEvictIdle: time.Hour})
	unused := initSession(t, ts.URL)
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", unused)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %s", resp.StatusCode, body)
	}
	used := initSession(t, ts.URL)
	if code, body := callTool(t, ts.URL, used); code != http.StatusOK {
		t.Fatalf("call: %d %s", code, body)
	}
	third := initSession(t, ts.URL)
	fourth := initSession(t, ts.URL)
	for sid, want := range map[string]bool{unused: false, used: true, third: false, fourth: true} {
		if _, ok := srv.Session(sid); ok != want {
			t.Errorf("session %s present %v, want %v", sid, ok, want)
		}
	}
	if code, body := callTool(t, ts.URL, used); code != http.StatusOK {
		t.Errorf("the used session's call after two evictions: %d %s", code, body)
	}
}
