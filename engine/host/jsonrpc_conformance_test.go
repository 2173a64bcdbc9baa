package host_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// conformanceCases are frames JSON-RPC 2.0 says are invalid requests, with
// the error code and the id the answer must carry ("null" when the id was
// not readable).
var conformanceCases = []struct {
	frame, id string
	code      int
}{
	{`{"id":8}`, "8", jsonrpc.CodeInvalidRequest},
	{`{"jsonrpc":"2.0","id":9,"method":""}`, "9", jsonrpc.CodeInvalidRequest},
	{`{"jsonrpc":"2.0","id":10,"method":null}`, "10", jsonrpc.CodeInvalidRequest},
	{`{"jsonrpc":"2.0","id":11,"method":42}`, "11", jsonrpc.CodeInvalidRequest},
	{`{"jsonrpc":"2.0","id":12,"method":"tools/list","params":"x"}`, "12", jsonrpc.CodeInvalidParams},
	{`{"jsonrpc":"2.0","id":13,"method":"notifications/initialized"}`, "13", jsonrpc.CodeInvalidRequest},
	{`{"jsonrpc":"2.0","id":14,"method":"notifications/cancelled","params":{"requestId":1}}`, "14", jsonrpc.CodeInvalidRequest},
	{`{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"x","arguments":{`, "null", jsonrpc.CodeParseError},
	{`17`, "null", jsonrpc.CodeInvalidRequest},
	{`"tools/list"`, "null", jsonrpc.CodeInvalidRequest},
	{`null`, "null", jsonrpc.CodeInvalidRequest},
}

// TestJSONRPCConformanceOverStdio: every invalid request gets an answer
// with the right code and its id; nothing is forwarded as a request.
func TestJSONRPCConformanceOverStdio(t *testing.T) {
	h := startHost(t, demoUpstream(), host.UIMetaAlways)
	h.c.initialize(nil)
	for _, tc := range conformanceCases {
		h.c.mu.Lock()
		before := len(h.c.raw)
		h.c.mu.Unlock()
		h.c.send([]byte(tc.frame))
		got := waitRawLine(t, h.c, before, 5*time.Second)
		var m jsonrpc.Message
		if err := json.Unmarshal([]byte(got), &m); err != nil || m.Error == nil || m.Error.Code != tc.code || string(m.ID) != tc.id {
			t.Errorf("%s: answer %s, want code %d with id %s", tc.frame, got, tc.code, tc.id)
		}
	}
	h.c.result("ping", nil, nil)
}

// waitRawLine waits for the host's next output line after the first n.
func waitRawLine(t *testing.T, c *pipeClient, n int, d time.Duration) string {
	t.Helper()
	deadline := time.After(d)
	for {
		c.mu.Lock()
		if len(c.raw) > n {
			l := c.raw[n]
			c.mu.Unlock()
			return l
		}
		ch := c.change
		c.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no answer within %s", d)
		}
	}
}

// TestJSONRPCConformanceOverHTTP: the same over POST /mcp.
func TestJSONRPCConformanceOverHTTP(t *testing.T) {
	ts, _ := startHTTPOpts(t, host.Options{})
	sid := initSession(t, ts.URL)
	for _, tc := range conformanceCases {
		resp, body := post(t, ts.URL, sid, "application/json", []byte(tc.frame))
		var m jsonrpc.Message
		if err := json.Unmarshal(body, &m); err != nil || m.Error == nil || m.Error.Code != tc.code || string(m.ID) != tc.id {
			t.Errorf("%s: %d %s, want code %d with id %s", tc.frame, resp.StatusCode, strings.TrimSpace(string(body)), tc.code, tc.id)
		}
		if resp.StatusCode == http.StatusOK && m.Error == nil {
			t.Errorf("%s: accepted", tc.frame)
		}
	}
}
