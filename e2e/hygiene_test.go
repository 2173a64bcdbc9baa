package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/mcptest"
)

// TestStdoutHygiene runs a whole `genui mcp` session full of bad input and
// checks that every byte genui wrote on stdout is a JSON-RPC 2.0 frame, that
// each bad input got a clear error, and that the session still works after.
func TestStdoutHygiene(t *testing.T) {
	c, _ := genuiMCP(t)
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, nil); err != nil {
		t.Fatal(err)
	}
	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var weatherSchema json.RawMessage
	for _, tool := range tools {
		if tool.Name == "get_current_weather" {
			weatherSchema = tool.InputSchema
		}
	}
	if weatherSchema == nil {
		t.Fatal("demo has no get_current_weather tool")
	}

	t.Run("malformed JSON gets a parse error with id null", func(t *testing.T) {
		if err := c.WriteLine([]byte(`{"jsonrpc":"2.0","id":1,"method":`)); err != nil {
			t.Fatal(err)
		}
		m := waitResponse(ctx, t, c, "null")
		if m.Error == nil || m.Error.Code != jsonrpc.CodeParseError {
			t.Errorf("response to malformed JSON: %+v, want error %d", m, jsonrpc.CodeParseError)
		}
	})

	t.Run("wrong jsonrpc version gets invalid request", func(t *testing.T) {
		if err := c.WriteLine([]byte(`{"jsonrpc":"1.0","id":"v1","method":"ping"}`)); err != nil {
			t.Fatal(err)
		}
		m := waitResponse(ctx, t, c, `"v1"`)
		if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidRequest {
			t.Errorf("response: %+v, want error %d", m, jsonrpc.CodeInvalidRequest)
		}
	})

	t.Run("unknown method", func(t *testing.T) {
		_, rpcErr, err := c.Request(ctx, "no/such/method", map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		if rpcErr == nil || rpcErr.Code != jsonrpc.CodeMethodNotFound || !strings.Contains(rpcErr.Message, "no/such/method") {
			t.Errorf("unknown method: %v, want code %d naming the method", rpcErr, jsonrpc.CodeMethodNotFound)
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		msg := toolFailure(ctx, t, c, map[string]any{"name": "no_such_tool", "arguments": map[string]any{}})
		if !strings.Contains(msg, "no_such_tool") {
			t.Errorf("error for an unknown tool does not name it: %q", msg)
		}
	})

	t.Run("params of the wrong type", func(t *testing.T) {
		for _, params := range []json.RawMessage{
			json.RawMessage(`"oops"`),
			json.RawMessage(`{"arguments":{}}`), // no name
			json.RawMessage(`{"name":42}`),
		} {
			_, rpcErr, err := c.Request(ctx, "tools/call", params)
			if err != nil {
				t.Fatal(err)
			}
			if rpcErr == nil || rpcErr.Code != jsonrpc.CodeInvalidParams || rpcErr.Message == "" {
				t.Errorf("tools/call %s: %v, want code %d with a message", params, rpcErr, jsonrpc.CodeInvalidParams)
			}
		}
	})

	t.Run("tool error", func(t *testing.T) {
		// Missing the required location: the upstream refuses.
		msg := toolFailure(ctx, t, c, map[string]any{"name": "get_current_weather", "arguments": map[string]any{"units": "kelvin-ish"}})
		if msg == "" {
			t.Error("tool error without a message")
		}
	})

	t.Run("huge request line", func(t *testing.T) {
		big := strings.Repeat("x", 2<<20) // 2 MiB: more than any default line buffer
		id := `"huge"`
		frame := jsonrpc.NewRequest(json.RawMessage(id), "tools/call",
			mustMarshal(map[string]any{"name": "datastore_search", "arguments": map[string]any{"q": big}}))
		if err := c.WriteLine(frame); err != nil {
			t.Fatal(err)
		}
		m := waitResponse(ctx, t, c, id)
		if m.Error != nil && m.Error.Code == jsonrpc.CodeParseError {
			t.Errorf("a valid 2 MiB frame was refused as unparsable: %v", m.Error)
		}
	})

	t.Run("notifications get no response", func(t *testing.T) {
		for _, n := range []string{"notifications/bogus", "notifications/cancelled", "notifications/roots/list_changed"} {
			if err := c.Notify(n, map[string]any{"requestId": 999999}); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("session still works", func(t *testing.T) {
		if _, rpcErr, err := c.Request(ctx, "ping", nil); err != nil || rpcErr != nil {
			t.Fatalf("ping: %v %v", err, rpcErr)
		}
		if _, err := c.ListTools(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := c.CallTool(ctx, "get_current_weather", map[string]any{"location": "Berlin"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if isErrorResult(res) {
			t.Fatalf("get_current_weather failed after the bad input: %s", clip(res))
		}
	})

	// End the session the way a host does: close stdin. genui must exit.
	if err := c.CloseStdin(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Exited():
	case <-ctx.Done():
		t.Error("genui mcp never exited after stdin closed")
	}
	if err := c.CheckStdout(); err != nil {
		t.Errorf("genui stdout is not pure JSON-RPC: %v", err)
	}
	var nullIDs int
	for _, m := range c.Messages() {
		if m.IsResponse() && string(m.ID) == "null" {
			nullIDs++
		}
	}
	if nullIDs != 1 {
		t.Errorf("%d responses with id null, want exactly 1 (the parse error); notifications must not be answered", nullIDs)
	}
}

// TestHugeResultThroughGenui sends a 1 MiB echo through genui to
// server-everything and back: big frames in both directions, stdout intact.
func TestHugeResultThroughGenui(t *testing.T) {
	up := everythingCmd(t)
	c, _ := genuiMCP(t, append([]string{"--"}, up...)...)
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, nil); err != nil {
		t.Fatal(err)
	}
	msg := strings.Repeat("genui ", 1<<20/6)
	res, err := c.CallTool(ctx, "echo", map[string]any{"message": msg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(res, &r); err != nil || len(r.Content) != 1 || r.Content[0].Text != "Echo: "+msg {
		t.Fatalf("1 MiB echo came back wrong (%d bytes of result, err %v)", len(res), err)
	}
	if err := c.CheckStdout(); err != nil {
		t.Errorf("genui stdout is not pure JSON-RPC: %v", err)
	}
}

// waitResponse waits for the response with the given raw id, as long as
// ctx (the test's bound, which only stops a hang: a 2 MiB request under
// -race on a loaded machine takes many seconds).
func waitResponse(ctx context.Context, t *testing.T, c *mcptest.Client, id string) *jsonrpc.Message {
	t.Helper()
	m, err := c.WaitMessage(ctx, func(m *jsonrpc.Message) bool { return m.IsResponse() && string(m.ID) == id })
	if err != nil {
		t.Fatalf("no response with id %s: %v", id, err)
	}
	return m
}

// toolFailure calls tools/call and returns the error text: a JSON-RPC error
// message or the text of an isError result. Success fails the test.
func toolFailure(ctx context.Context, t *testing.T, c *mcptest.Client, params any) string {
	t.Helper()
	res, rpcErr, err := c.Request(ctx, "tools/call", params)
	if err != nil {
		t.Fatal(err)
	}
	if rpcErr != nil {
		return rpcErr.Message
	}
	if !isErrorResult(res) {
		t.Errorf("tools/call %v succeeded, want an error: %s", params, clip(res))
		return ""
	}
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	_ = json.Unmarshal(res, &r)
	var texts []string
	for _, c := range r.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, " ")
}

func isErrorResult(res json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(res, &r) == nil && r.IsError
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprint("marshal: ", err))
	}
	return b
}
