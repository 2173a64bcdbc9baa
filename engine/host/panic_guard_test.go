package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// dupMeta is a tools/call whose params carry _meta twice, the second time
// as null: a map decode keeps the null, a struct decode keeps the token.
const dupMeta = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Oslo"},` +
	`"_meta":{"progressToken":1},"_meta":null}}`

// TestDuplicatedMetaIsInvalidParamsOverStdio: the frame that crashed
// `genui mcp` gets -32602 with its id, and the session keeps working.
func TestDuplicatedMetaIsInvalidParamsOverStdio(t *testing.T) {
	h := startHost(t, demoUpstream(), host.UIMetaAlways)
	h.c.initialize(nil)
	ch := make(chan *jsonrpc.Message, 1)
	h.c.mu.Lock()
	h.c.resp["7"] = ch
	h.c.mu.Unlock()
	h.c.send([]byte(dupMeta))
	select {
	case m := <-ch:
		if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
			t.Fatalf("duplicated _meta: got %+v, want -32602", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer to the duplicated _meta request")
	}
	h.c.result("ping", nil, nil)
}

// TestDuplicatedMetaIsInvalidParamsOverHTTP: POST /mcp answers -32602
// (not HTTP 500), and the legacy POST /message (whose request runs on a
// goroutine of its own) answers on the SSE stream instead of taking the
// process down.
func TestDuplicatedMetaIsInvalidParamsOverHTTP(t *testing.T) {
	ts, _ := startHTTPOpts(t, host.Options{})
	sid := initSession(t, ts.URL)
	resp, body := post(t, ts.URL, sid, "application/json", []byte(dupMeta))
	var m jsonrpc.Message
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &m) != nil || m.Error == nil ||
		m.Error.Code != jsonrpc.CodeInvalidParams || string(m.ID) != "7" {
		t.Fatalf("POST /mcp: %d %s, want 200 with -32602 for id 7", resp.StatusCode, body)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/sse", nil)
	req.Header.Set("Accept", "text/event-stream")
	sse, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer sse.Body.Close()
	sc := bufio.NewScanner(sse.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	next := func() string {
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				return d
			}
		}
		t.Fatalf("SSE stream ended: %v", sc.Err())
		return ""
	}
	endpoint := next()
	postMsg := func(frame string) {
		r, err := http.Post(ts.URL+endpoint, "application/json", strings.NewReader(frame))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusAccepted {
			t.Fatalf("POST /message: %d", r.StatusCode)
		}
	}
	postMsg(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	postMsg(dupMeta)
	for {
		line := next()
		var m jsonrpc.Message
		if json.Unmarshal([]byte(line), &m) != nil || string(m.ID) != "7" {
			continue
		}
		if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
			t.Fatalf("legacy /message: %s, want -32602", line)
		}
		break
	}
}
