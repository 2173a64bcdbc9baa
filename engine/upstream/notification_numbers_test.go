package upstream

// Review tests: each pins a defect found in a review of the proxy core.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// TestIncomingNotificationNumbersExact: the package promises raw
// passthrough, but incoming notifications used to be decoded by mcp-go into
// map[string]any (float64 numbers) and re-encoded, so integers above 2^53 in
// progress tokens, logging data or resource metadata changed value. A
// progress token that changes value no longer matches the host's request.
func TestIncomingNotificationNumbersExact(t *testing.T) {
	const raw = `{"progressToken":9007199254740993,"progress":1,"total":2,"message":"m"}`
	c := New(Config{
		InProcess: func(ctx context.Context, r io.Reader, w io.Writer) error {
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				m, err := jsonrpc.Parse(sc.Bytes())
				if err != nil || !m.IsRequest() {
					continue
				}
				switch m.Method {
				case "initialize":
					_, _ = w.Write(append(jsonrpc.NewResult(m.ID, json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"n","version":"1"}}`)), '\n'))
				default:
					_, _ = w.Write(append(jsonrpc.NewNotification("notifications/progress", json.RawMessage(raw)), '\n'))
					_, _ = w.Write(append(jsonrpc.NewResult(m.ID, json.RawMessage(`{}`)), '\n'))
				}
			}
			return sc.Err()
		},
		Logger: testLogger(t),
	})
	var got notes
	c.SetNotificationHandler(got.handle)
	runClient(t, c)
	waitReady(t, c, 5*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.Request(ctx, "tools/call", json.RawMessage(`{"name":"x"}`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "the progress notification", func() bool { return len(got.byMethod("notifications/progress")) == 1 })
	params := string(got.byMethod("notifications/progress")[0].params)
	if !strings.Contains(params, `"progressToken":9007199254740993`) {
		t.Fatalf("progress params arrived as %s, want the token 9007199254740993 unchanged (sent %s)", params, raw)
	}
}
