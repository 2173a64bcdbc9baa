package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/internal/browsertest"
)

// demoRPC sends one JSON-RPC request to a fresh demo server in-process and
// returns the result.
func demoRPC(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	srv := demo.NewServer()
	p, _ := json.Marshal(params)
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, p)
	resp := srv.HandleMessage(context.Background(), json.RawMessage(req))
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  any             `json:"error"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Error != nil {
		t.Fatalf("demo %s: %s", method, b)
	}
	return out.Result
}

// TestDemoToolUIInBrowser runs the offline UI of the demo's real
// get_forecast tool (its tools/list entry, as genui generates it) under the
// minimal host page: handshake, a real demo result rendered, and a form
// submit that reaches the host as a tools/call with typed arguments.
func TestDemoToolUIInBrowser(t *testing.T) {
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(demoRPC(t, "tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	var tool Tool
	for _, d := range list.Tools {
		if d.Name == "get_forecast" {
			tool = Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema}
		}
	}
	if tool.Name == "" {
		t.Fatal("demo has no get_forecast")
	}
	f, ui := newFixture(t)
	ui.add(t, tool)
	f.open("get_forecast") // waits for the ui/initialize handshake

	// A real demo result, delivered as the host would, renders.
	oslo := demoRPC(t, "tools/call", map[string]any{"name": "get_forecast", "arguments": map[string]any{"location": "Oslo", "days": 2}})
	f.eval(fmt.Sprintf(`(bridge.sendToolInput({location: "Oslo", days: 2}), bridge.sendToolResult(%s), true)`, oslo), nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").textContent.includes("2026-01-16")`)

	// Submit the form: typed arguments reach the host; the host answers with
	// the demo's real result for exactly those arguments.
	paris := demoRPC(t, "tools/call", map[string]any{"name": "get_forecast", "arguments": map[string]any{"location": "Paris", "days": 3}})
	f.eval(fmt.Sprintf(`window.replies.push(%s)`, paris), nil)
	browsertest.FrameType(t, f.ctx, "#ui", "#f-location", "Paris")
	browsertest.FrameType(t, f.ctx, "#ui", "#f-days", "3")
	browsertest.FrameClick(t, f.ctx, "#ui", "#submit")
	f.poll(`window.calls.length === 1`)
	var calls []struct {
		Name      string                     `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	f.eval("window.calls", &calls)
	if calls[0].Name != "get_forecast" || string(calls[0].Arguments["location"]) != `"Paris"` || string(calls[0].Arguments["days"]) != `3` {
		t.Fatalf("tools/call = %+v, want get_forecast {location:\"Paris\", days:3 (a number)}", calls[0])
	}
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").textContent.includes("Paris")`)
}
