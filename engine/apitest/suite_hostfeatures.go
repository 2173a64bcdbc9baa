package apitest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// The host features Inspector users reach for, in the host suite (both
// implementations of contract.API, against server-everything): ping, the
// upstream's log level, completion, an elicitation answer checked against
// the requested schema's formats before it is sent.

// testPingLogLevelCompletion: ping measures a round trip; logging/setLevel
// reaches the upstream (it is in what genui sent), an unknown level does
// not; a prompt's arguments complete, the second narrowed by the first.
func testPingLogLevelCompletion(t *testing.T, r *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	p, err := api.Ping(ctx)
	if err != nil || p.RoundTrip <= 0 || p.At.IsZero() {
		t.Fatalf("ping: %+v %v", p, err)
	}
	if err := api.SetLogLevel(ctx, "warning"); err != nil {
		t.Fatalf("logging/setLevel: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(r.Sent(), `"method":"logging/setLevel","params":{"level":"warning"}`) {
		if time.Now().After(deadline) {
			t.Fatalf("logging/setLevel never reached the upstream:\n%s", r.Sent())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := api.SetLogLevel(ctx, "loud"); !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("an unknown level: %v", err)
	}
	c, err := api.Complete(ctx, contract.CompleteRequest{Ref: contract.CompletePrompt, Name: "completable-prompt", Argument: "department", Value: "S"})
	if err != nil || !slices.Equal(c.Values, []string{"Sales", "Support"}) {
		t.Fatalf("department S: %+v %v", c, err)
	}
	c, err = api.Complete(ctx, contract.CompleteRequest{Ref: contract.CompletePrompt, Name: "completable-prompt", Argument: "name",
		Context: map[string]string{"department": "Support"}})
	if err != nil || !slices.Equal(c.Values, []string{"John", "Kim", "Lee"}) {
		t.Fatalf("name in Support: %+v %v", c, err)
	}
	if _, err := api.Complete(ctx, contract.CompleteRequest{Ref: "ref/tool", Name: "x", Argument: "a"}); !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("an unknown ref: %v", err)
	}
}

// testElicitationFormatsChecked: an answer whose email is not an email
// (and whose date and integer break the schema) is refused naming each
// field, and the request still waits; a fitting answer goes through.
func testElicitationFormatsChecked(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	w := watchEvents(t, api)
	ctx := ctxOf(t)
	done := callAsync(ctx, api, contract.CallRequest{Name: "trigger-elicitation-request", CallID: "fmt-1"})
	p := pendingFor(t, w, api, "fmt-1", contract.RequestElicitation)
	bad := contract.ElicitResult(contract.ElicitAccept, map[string]any{"name": "Ada", "email": "not-an-email", "birthdate": "2026-02-30", "integer": 500})
	err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: bad})
	if !isCode(err, contract.CodeInvalidArgument) {
		t.Fatalf("not-an-email was accepted: %v", err)
	}
	for _, f := range []string{"email:", "birthdate:", "integer:"} {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("the refusal does not name %s %v", f, err)
		}
	}
	good := contract.ElicitResult(contract.ElicitAccept, map[string]any{"name": "Ada", "email": "ada@example.com", "birthdate": "1815-12-10", "integer": 50})
	if err := api.AnswerRequest(ctx, contract.Answer{ID: p.ID, Result: good}); err != nil {
		t.Fatalf("a fitting answer: %v", err)
	}
	o := waitCall(t, done)
	if o.err != nil || !strings.Contains(resultText(o.res.Result), "ada@example.com") {
		t.Fatalf("the call: %v %s", o.err, o.res.Result)
	}
}
