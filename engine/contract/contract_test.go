package contract_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// TestStatusTableInverts: the side server (HTTPStatus) and its client
// (CodeOf) use one table, so every code survives the trip through its HTTP
// status, and no two codes share a status.
func TestStatusTableInverts(t *testing.T) {
	codes := contract.ErrorCodes()
	if len(codes) < 7 {
		t.Fatalf("only %d error codes", len(codes))
	}
	seen := map[int]contract.ErrorCode{}
	for _, c := range codes {
		st := contract.HTTPStatus(c)
		if st < 400 || st > 599 {
			t.Errorf("%s -> %d: not an error status", c, st)
		}
		if other, dup := seen[st]; dup {
			t.Errorf("%s and %s share status %d", c, other, st)
		}
		seen[st] = c
		if back := contract.CodeOf(st); back != c {
			t.Errorf("CodeOf(HTTPStatus(%s)) = %s (status %d)", c, back, st)
		}
	}
	for st, c := range seen {
		if contract.HTTPStatus(contract.CodeOf(st)) != st {
			t.Errorf("HTTPStatus(CodeOf(%d)) != %d (%s)", st, st, c)
		}
	}
	// Statuses outside the table: a client error stays a client error.
	for st, want := range map[int]contract.ErrorCode{
		http.StatusRequestEntityTooLarge: contract.CodeInvalidArgument,
		http.StatusTeapot:                contract.CodeInvalidArgument,
		599:                              contract.CodeInternal,
	} {
		if got := contract.CodeOf(st); got != want {
			t.Errorf("CodeOf(%d) = %s, want %s", st, got, want)
		}
	}
	if got := contract.HTTPStatus("no_such_code"); got != http.StatusInternalServerError {
		t.Errorf("unknown code -> %d, want 500", got)
	}
}

func TestErrorMatching(t *testing.T) {
	err := error(contract.Errorf(contract.CodeUnknownTool, "unknown tool %q", "x"))
	if !errors.Is(err, contract.ErrUnknownTool) || errors.Is(err, contract.ErrUpstreamUnavailable) {
		t.Errorf("errors.Is does not match on the code: %v", err)
	}
	if c := contract.AsError(plainError{}).Code; c != contract.CodeInternal {
		t.Errorf("plain error classified %s", c)
	}
	b, _ := json.Marshal(contract.Errorf(contract.CodeTimeout, "slow"))
	if string(b) != `{"code":"timeout","error":"slow"}` {
		t.Errorf("error body %s", b)
	}
}

type plainError struct{}

func (plainError) Error() string { return "not a deadline" }

func TestUIURIRoundTrip(t *testing.T) {
	for _, name := range []string{"get_forecast", "a b", "x/y", "ünï"} {
		got, ok := contract.ToolFromURI(contract.UIURI(name))
		if !ok || got != name {
			t.Errorf("ToolFromURI(UIURI(%q)) = %q, %v", name, got, ok)
		}
	}
	if _, ok := contract.ToolFromURI("file:///x"); ok {
		t.Error("non-ui URI accepted")
	}
}

// TestEventEnvelopeRoundTrip: every kind's detail decodes back to its
// type; an unknown kind keeps the envelope.
func TestEventEnvelopeRoundTrip(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, ev := range []contract.Event{
		{Seq: 1, Time: now, Kind: contract.EventToolsChanged, Detail: &contract.ToolsChanged{Diff: contract.ToolDiff{Added: []string{"a"}}}},
		{Seq: 2, Time: now, Kind: contract.EventGenerationFinished, Tool: "t", Detail: &contract.GenerationFinished{UIType: "llm",
			Chain: []contract.ChainStep{{Stage: "generated", OK: true}}}},
		{Seq: 3, Time: now, Kind: contract.EventUpstreamDown, Detail: &contract.UpstreamChanged{Upstream: contract.UpstreamState{Target: "x"}}},
		{Seq: 4, Time: now, Kind: contract.EventQueued, Detail: &contract.Queued{Event: contract.QueuedEvent{Seq: 9, Type: "t"}}},
		{Seq: 5, Time: now, Kind: contract.EventLog, Detail: &contract.LogRecord{Level: "INFO", Message: "m"}},
	} {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var got contract.Event
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		b2, _ := json.Marshal(got)
		if string(b) != string(b2) {
			t.Errorf("round trip\n got %s\nwant %s", b2, b)
		}
	}
	var ev contract.Event
	if err := json.Unmarshal([]byte(`{"seq":1,"kind":"from-the-future","detail":{"x":1}}`), &ev); err != nil || ev.Detail != nil || ev.Kind != "from-the-future" {
		t.Errorf("unknown kind: %+v, %v", ev, err)
	}
}
