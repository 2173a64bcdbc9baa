package e2e_test

import (
	"encoding/json"
	"os/exec"
	"testing"
	"time"
)

// TestFirstInitializeCarriesUpstreamCapabilities: the very first initialize
// sent to `genui mcp -- <server-everything>` (sent the moment genui starts,
// while node is still booting the upstream) must list the upstream's
// prompts, logging and completions capabilities and its instructions, as
// server-everything's own answer does. Capability-respecting clients (the
// MCP Inspector) otherwise show no prompts and refuse logging/setLevel.
func TestFirstInitializeCarriesUpstreamCapabilities(t *testing.T) {
	ctx := bounded(t, 2*time.Minute)
	cmd := everythingCmd(t)
	direct := session(t, exec.Command(cmd[0], cmd[1:]...), hostHandler())
	raw, err := direct.Initialize(ctx, protocol, hostCaps)
	if err != nil {
		t.Fatalf("server-everything initialize: %v", err)
	}
	var want struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
		Instructions string                     `json:"instructions"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"prompts", "logging", "completions"} {
		if _, ok := want.Capabilities[c]; !ok {
			t.Fatalf("server-everything no longer advertises %s; this test would prove nothing: %s", c, raw)
		}
	}
	if want.Instructions == "" {
		t.Fatalf("server-everything no longer sends instructions: %s", raw)
	}

	c, _ := genuiMCP(t, append([]string{"--"}, cmd...)...)
	raw, err = c.Initialize(ctx, protocol, hostCaps)
	if err != nil {
		t.Fatalf("genui initialize: %v", err)
	}
	var got struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
		Instructions string                     `json:"instructions"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	for name := range want.Capabilities {
		if _, ok := got.Capabilities[name]; !ok {
			t.Errorf("genui's first initialize lacks the upstream's %s capability: %s", name, raw)
		}
	}
	if got.Instructions != want.Instructions {
		t.Errorf("instructions: genui %q, upstream %q", got.Instructions, want.Instructions)
	}
	// And the capabilities are real: logging/setLevel and a prompt work.
	if _, rpcErr, err := c.Request(ctx, "logging/setLevel", map[string]any{"level": "debug"}); err != nil || rpcErr != nil {
		t.Errorf("logging/setLevel: %v %v", rpcErr, err)
	}
	res, rpcErr, err := c.Request(ctx, "prompts/list", map[string]any{})
	if err != nil || rpcErr != nil || len(res) < 20 {
		t.Errorf("prompts/list: %s %v %v", res, rpcErr, err)
	}
}
