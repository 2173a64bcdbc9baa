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

// TestSessionFloodKeepsActiveClient is the review's attack: 3,000
// initialize requests (no stream, never used again) against the default
// limits. A client that called a tool seconds before keeps its session
// (its next call works), the session map never passes the cap, and the
// initializes past the cap are refused with 503, a Retry-After and a
// message that says why, instead of evicting sessions that were active
// within the idle bound.
func TestSessionFloodKeepsActiveClient(t *testing.T) {
	ts, srv := startHTTPOpts(t, host.Options{}) // defaults: 1000 sessions, evict after 5 min idle
	client := initSession(t, ts.URL)
	if code, body := callTool(t, ts.URL, client); code != http.StatusOK || !strings.Contains(body, "Oslo") {
		t.Fatalf("the client's first call: %d %s", code, body)
	}

	const flood = 3000
	var ok, refused atomic.Int64
	var mu sync.Mutex
	var sample *http.Response
	var sampleBody string
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
				switch resp.StatusCode {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusServiceUnavailable:
					if refused.Add(1) == 1 {
						mu.Lock()
						sample, sampleBody = resp, body
						mu.Unlock()
					}
				default:
					t.Errorf("flood initialize %d: %d %s", i, resp.StatusCode, body)
				}
			}
		}()
	}
	for i := 0; i < flood; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	if code, body := callTool(t, ts.URL, client); code != http.StatusOK || !strings.Contains(body, "Oslo") {
		t.Fatalf("after %d initializes the active client's call got %d %s; want its session kept", flood, code, body)
	}
	if n := len(srv.Sessions()); n > 1000 {
		t.Errorf("%d sessions after the flood, cap 1000", n)
	}
	t.Logf("flood: %d sessions created, %d refused", ok.Load(), refused.Load())
	if ok.Load() != 999 || refused.Load() != flood-999 {
		t.Errorf("flood: %d created, %d refused; want 999 (the cap less the client) and the rest refused", ok.Load(), refused.Load())
	}
	if sample == nil {
		t.Fatal("no initialize was refused")
	}
	ra, err := strconv.Atoi(sample.Header.Get("Retry-After"))
	if err != nil || ra < 1 || ra > 300 {
		t.Errorf("503 Retry-After %q, want seconds until an idle session may be evicted (1..300)", sample.Header.Get("Retry-After"))
	}
	if !strings.Contains(sampleBody, "too many MCP sessions") || !strings.Contains(sampleBody, "mcp.sessions") {
		t.Errorf("503 body %q does not say why and which setting", sampleBody)
	}
}

// TestSessionEvictedOnlyAfterIdleBound: at the cap, a new session evicts
// the least recently used session idle longer than SessionEvictIdle; one
// used within it is kept.
func TestSessionEvictedOnlyAfterIdleBound(t *testing.T) {
	const bound = 300 * time.Millisecond
	ts, srv := startHTTPOpts(t, host.Options{MaxSessions: 2, SessionEvictIdle: bound})
	old := initSession(t, ts.URL)
	recent := initSession(t, ts.URL)
	time.Sleep(bound + 100*time.Millisecond)
	if code, body := callTool(t, ts.URL, recent); code != http.StatusOK {
		t.Fatalf("call: %d %s", code, body)
	}
	third := initSession(t, ts.URL) // evicts old: idle past the bound
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
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize with every session active within the bound: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
}
