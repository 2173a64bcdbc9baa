package e2e_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// TestHostFeaturesAgainstEverything: the host features Inspector users
// reach for, through the HTTP API a TUI attaches with, against
// server-everything: ping with its round trip, logging/setLevel (a level
// outside the spec's is refused before it is sent), completion of a
// prompt's arguments (the second narrowed by the first), and an
// elicitation answer checked against the requested schema's formats
// before it is sent: not-an-email is refused with the field named, the
// request stays pending, and a fitting answer goes through.
func TestHostFeaturesAgainstEverything(t *testing.T) {
	_, api := genuiMCPWithHost(t, `{"elicitation":{"form":{}}}`, func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
		if method == "ping" {
			return json.RawMessage(`{}`), nil
		}
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "test host does not handle %s", method)
	})
	ctx := bounded(t, 120*time.Second)

	p, err := api.Ping(ctx)
	if err != nil || p.RoundTrip <= 0 || p.RoundTrip > 30*time.Second {
		t.Fatalf("ping: %+v %v", p, err)
	}

	if err := api.SetLogLevel(ctx, "error"); err != nil {
		t.Fatalf("logging/setLevel: %v", err)
	}
	if err := api.SetLogLevel(ctx, "loud"); codeOf(err) != contract.CodeInvalidArgument {
		t.Fatalf("an unknown level: %v, want invalid_argument", err)
	}

	c, err := api.Complete(ctx, contract.CompleteRequest{Ref: contract.CompletePrompt, Name: "completable-prompt", Argument: "department", Value: "S"})
	if err != nil || !slices.Equal(c.Values, []string{"Sales", "Support"}) {
		t.Fatalf("completion of department S: %+v %v", c, err)
	}
	c, err = api.Complete(ctx, contract.CompleteRequest{Ref: contract.CompletePrompt, Name: "completable-prompt", Argument: "name", Value: "",
		Context: map[string]string{"department": "Engineering"}})
	if err != nil || !slices.Equal(c.Values, []string{"Alice", "Bob", "Charlie"}) {
		t.Fatalf("completion of name in Engineering: %+v %v", c, err)
	}

	evs, err := api.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var res contract.CallResult
	go func() {
		var err error
		res, err = api.CallTool(ctx, contract.CallRequest{Name: "trigger-elicitation-request", CallID: "formats", Source: contract.SourceAPI})
		done <- err
	}()
	var pending *contract.PendingRequest
	for pending == nil {
		select {
		case ev, ok := <-evs:
			if !ok {
				t.Fatal("event stream closed")
			}
			pending, _ = ev.Detail.(*contract.PendingRequest)
		case <-time.After(30 * time.Second):
			t.Fatal("no pending elicitation")
		}
	}
	bad := map[string]any{"name": "Ada", "email": "not-an-email", "birthdate": "2026-13-45", "integer": 0}
	err = api.AnswerRequest(ctx, contract.Answer{ID: pending.ID, Result: contract.ElicitResult(contract.ElicitAccept, bad)})
	if codeOf(err) != contract.CodeInvalidArgument {
		t.Fatalf("not-an-email was accepted: %v", err)
	}
	for _, field := range []string{"email", "birthdate", "integer"} {
		if !strings.Contains(err.Error(), field+":") {
			t.Errorf("the refusal does not name %s: %v", field, err)
		}
	}
	if still, err := api.PendingRequests(ctx); err != nil || len(still) != 1 || still[0].ID != pending.ID {
		t.Fatalf("after a refused answer the request should still be pending: %+v %v", still, err)
	}
	good := map[string]any{"name": "Ada", "email": "ada@example.com", "birthdate": "1815-12-10", "integer": 7}
	if err := api.AnswerRequest(ctx, contract.Answer{ID: pending.ID, Result: contract.ElicitResult(contract.ElicitAccept, good)}); err != nil {
		t.Fatalf("a fitting answer: %v", err)
	}
	select {
	case err := <-done:
		if err != nil || !strings.Contains(string(res.Result), "ada@example.com") {
			t.Fatalf("the call after the answer: %s %v", res.Result, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call did not finish after the answer")
	}
}

// codeOf is err's contract code ("" for nil).
func codeOf(err error) contract.ErrorCode {
	if err == nil {
		return ""
	}
	return contract.AsError(err).Code
}
