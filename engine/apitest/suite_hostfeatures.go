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
	t.Logf("ping round trip %s", p.RoundTrip)
}

// testSignInNotForStdio: a stdio upstream has no OAuth sign-in: SignIn
// and SignOut say so (CodeUnavailable) and the state shows no auth. (The
// sign-in itself runs against a real OAuth-protected server in
// e2e/oauth_test.go.)
func testSignInNotForStdio(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	if _, err := api.SignIn(ctx); !isCode(err, contract.CodeUnavailable) || !strings.Contains(err.Error(), "not an http or sse server") {
		t.Fatalf("sign in to a stdio upstream: %v", err)
	}
	if _, err := api.SignOut(ctx); !isCode(err, contract.CodeUnavailable) {
		t.Fatalf("sign out of a stdio upstream: %v", err)
	}
	st, err := api.State(ctx)
	if err != nil || st.Upstream.Auth != nil {
		t.Fatalf("state of a stdio upstream: auth %+v, %v", st.Upstream.Auth, err)
	}
}

// testLintEverything: the linter over server-everything's tools and a
// recorded call of its one tool with an outputSchema: the result is
// checked (and fits), the tools are counted.
func testLintEverything(t *testing.T, _ *HostRig, api contract.API, _ Everything) {
	ctx := ctxOf(t)
	if _, err := api.CallTool(ctx, contract.CallRequest{Name: "get-structured-content", Arguments: []byte(`{"location":"Chicago"}`)}); err != nil {
		t.Fatal(err)
	}
	tools, err := api.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var rep contract.LintReport
	deadline := time.Now().Add(10 * time.Second)
	for rep.Results == 0 { // the history records the call in the background
		if rep, err = api.Lint(ctx); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recorded result was not checked: %+v", rep)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if rep.Tools != len(tools) {
		t.Fatalf("linted %d tools of %d", rep.Tools, len(tools))
	}
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Rule, "structured-content") || f.Rule == "tool-name-chars" {
			t.Errorf("server-everything's %s: %+v", f.Tool, f)
		}
	}
	t.Logf("server-everything: %d tools, %d results, %d errors, %d warnings", rep.Tools, rep.Results, rep.Errors, rep.Warnings)
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
