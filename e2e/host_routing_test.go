package e2e_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// genuiMCPWithHost starts `genui mcp -- server-everything` whose stdio host
// declares caps and answers the upstream's requests with h; it returns the
// client and an API client of its side server.
func genuiMCPWithHost(t *testing.T, caps string, h mcptest.RequestHandler, flags ...string) (*mcptest.Client, *apiclient.Client) {
	t.Helper()
	bin := testenv.GenuiBinary(t)
	dir := filepath.Join(t.TempDir(), "ui")
	args := append(append(append([]string{"mcp", "--dir", dir}, flags...), "--"), everythingCmd(t)...)
	c := session(t, exec.Command(bin, args...), mcptest.WithRequestHandler(h))
	ctx := bounded(t, 30*time.Second)
	if _, err := c.Initialize(ctx, protocol, json.RawMessage(caps)); err != nil {
		t.Fatal(err)
	}
	return c, apiclient.New(waitAPIBase(t, dir), nil)
}

// heldElicitingHost answers a stdio host's requests: ping, an empty roots
// list, and elicitation/create with the name "Host Hopper" once release is
// closed (each elicitation's params go to asked first).
func heldElicitingHost(asked chan<- json.RawMessage, release <-chan struct{}) mcptest.RequestHandler {
	return func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
		switch method {
		case "ping":
			return json.RawMessage(`{}`), nil
		case "roots/list":
			return json.RawMessage(`{"roots":[]}`), nil
		case "elicitation/create":
			asked <- params
			select {
			case <-release:
			case <-ctx.Done():
			}
			return json.RawMessage(`{"action":"accept","content":{"name":"Host Hopper"}}`), nil
		}
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "test host does not handle %s", method)
	}
}

// hostAnswer is a stdio host's tools/call outcome (an RPC error as err).
type hostAnswer struct {
	res json.RawMessage
	err error
}

// callInBackground makes the stdio host c call tool (no arguments) and
// delivers the outcome on the returned channel.
func callInBackground(ctx context.Context, c *mcptest.Client, tool string) <-chan hostAnswer {
	done := make(chan hostAnswer, 1)
	go func() {
		res, rerr, err := c.Request(ctx, "tools/call", map[string]any{"name": tool, "arguments": map[string]any{}})
		if err == nil && rerr != nil {
			err = rerr
		}
		done <- hostAnswer{res, err}
	}()
	return done
}

// TestElicitationGoesToTheCallsOwnHost: a stdio host that declared
// elicitation gets the upstream's elicitation for its own call, while the
// elicitation of a call made through the HTTP API at the same time becomes
// a request awaiting an answer from genui's surfaces; each answer reaches
// its own call.
func TestElicitationGoesToTheCallsOwnHost(t *testing.T) {
	hostAsked := make(chan json.RawMessage, 4)
	release := make(chan struct{})
	c, api := genuiMCPWithHost(t, `{"roots":{},"elicitation":{"form":{}}}`, heldElicitingHost(hostAsked, release))
	ctx := bounded(t, 90*time.Second)
	evs, err := api.Subscribe(ctx) // a surface is open
	if err != nil {
		t.Fatal(err)
	}

	hostDone := callInBackground(ctx, c, "trigger-elicitation-request")
	select {
	case <-hostAsked:
	case <-time.After(30 * time.Second):
		t.Fatal("the host never got the elicitation of its own call")
	}

	apiDone := make(chan error, 1)
	var apiRes contract.CallResult
	go func() {
		var err error
		apiRes, err = api.CallTool(ctx, contract.CallRequest{Name: "trigger-elicitation-request", CallID: "api-call", Source: contract.SourceAPI})
		apiDone <- err
	}()
	var pending *contract.PendingRequest
	for pending == nil {
		select {
		case ev, ok := <-evs:
			if !ok {
				t.Fatal("event stream closed")
			}
			if p, ok := ev.Detail.(*contract.PendingRequest); ok {
				pending = p
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the API call's elicitation never became a pending request")
		}
	}
	if pending.CallID != "api-call" || pending.Source != contract.SourceAPI || pending.Kind != contract.RequestElicitation {
		t.Fatalf("pending request %+v, want the API call's elicitation", pending)
	}
	select {
	case p := <-hostAsked:
		t.Fatalf("the host got a second elicitation (the API call's): %s", p)
	default:
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: pending.ID, Source: contract.SourceAPI,
		Result: contract.ElicitResult(contract.ElicitAccept, map[string]any{"name": "Surface Sam"})}); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-apiDone; err != nil {
		t.Fatal(err)
	}
	if text := string(apiRes.Result); !strings.Contains(text, "Name: Surface Sam") || strings.Contains(text, "Host Hopper") {
		t.Fatalf("the API call's result: %s", text)
	}
	var ha hostAnswer
	select {
	case ha = <-hostDone:
	case <-time.After(30 * time.Second):
		t.Fatal("the host's call did not finish")
	}
	if ha.err != nil || !strings.Contains(string(ha.res), "Name: Host Hopper") || strings.Contains(string(ha.res), "Surface Sam") {
		t.Fatalf("the host's call: %s %v", ha.res, ha.err)
	}
}

// TestHostWithoutTheCapabilityLeavesItToTheSurfaces: with
// --capabilities workbench, a stdio host that did not declare elicitation
// still sees the tool (genui declares elicitation upstream, since its
// surfaces can answer); the elicitation of that host's call fails at once
// while no surface is open, and goes to genui's surfaces while one is. In
// the default (host) mode the host sees the server as it would directly:
// without the tool.
func TestHostWithoutTheCapabilityLeavesItToTheSurfaces(t *testing.T) {
	noRequests := func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
		if method == "ping" {
			return json.RawMessage(`{}`), nil
		}
		t.Errorf("the host got %s although it declared no capabilities", method)
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "no")
	}
	ctx := bounded(t, 90*time.Second)
	hostMode, _ := genuiMCPWithHost(t, `{}`, noRequests)
	if res, rerr, err := hostMode.Request(ctx, "tools/list", map[string]any{}); err != nil || rerr != nil || strings.Contains(string(res), "trigger-elicitation-request") {
		t.Fatalf("in host mode a host without elicitation is offered trigger-elicitation-request (or no list): %v %v", rerr, err)
	}
	c, api := genuiMCPWithHost(t, `{}`, noRequests, "--capabilities", "workbench")
	call := func() (json.RawMessage, error) {
		res, rerr, err := c.Request(ctx, "tools/call", map[string]any{"name": "trigger-elicitation-request", "arguments": map[string]any{}})
		if err == nil && rerr != nil {
			err = rerr
		}
		return res, err
	}
	// The refusal names the missing capability: a call left waiting for a
	// surface would end with a timeout instead.
	res, err := call()
	if err != nil || !strings.Contains(string(res), "did not declare the elicitation capability") {
		t.Fatalf("with no surface open: %s %v, want the host's refusal", res, err)
	}

	evs, err := api.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan json.RawMessage, 1)
	go func() { r, _ := call(); done <- r }()
	var p *contract.PendingRequest
	for p == nil {
		select {
		case ev := <-evs:
			p, _ = ev.Detail.(*contract.PendingRequest)
		case <-time.After(30 * time.Second):
			t.Fatal("no pending request for the host's call")
		}
	}
	if p.Source != contract.SourceMCP || p.CallID != "" {
		t.Fatalf("pending %+v: want a host's call", p)
	}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: contract.ElicitResult(contract.ElicitDecline, nil)}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if !strings.Contains(string(r), "declined") {
			t.Fatalf("the host's call after a surface declined: %s", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the host's call did not finish")
	}
}
