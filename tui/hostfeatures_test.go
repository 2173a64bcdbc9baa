package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// The host features on hostStub: ping, the upstream's log level,
// completion of a prompt's arguments (department, then name in it, as
// server-everything's completable-prompt answers), the linter.

func (s *hostStub) Ping(ctx context.Context) (contract.PingResult, error) {
	return contract.PingResult{RoundTrip: 3400 * time.Microsecond, At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, s.record("Ping")
}

func (s *hostStub) SetLogLevel(ctx context.Context, level string) error {
	return s.record("SetLogLevel %s", level)
}

func (s *hostStub) Complete(ctx context.Context, req contract.CompleteRequest) (contract.Completion, error) {
	b, _ := json.Marshal(req.Context)
	if err := s.record("Complete %s %s %s=%q %s", req.Ref, req.Name, req.Argument, req.Value, b); err != nil {
		return contract.Completion{}, err
	}
	var all []string
	switch req.Argument {
	case "department":
		all = []string{"Engineering", "Sales", "Marketing", "Support"}
	case "name":
		if req.Context["department"] == "Engineering" {
			all = []string{"Alice", "Bob", "Charlie"}
		}
	}
	out := []string{}
	for _, v := range all {
		if strings.HasPrefix(v, req.Value) {
			out = append(out, v)
		}
	}
	return contract.Completion{Values: out}, nil
}

func (s *hostStub) Lint(ctx context.Context) (contract.LintReport, error) {
	return contract.LintReport{Tools: 2, Results: 1, Errors: 1, Warnings: 1, Findings: []contract.LintFinding{
		{Severity: contract.LintError, Tool: "count", Rule: "structured-content-invalid", Path: "/structuredContent/n", Source: "history #4", Message: "does not fit the outputSchema: got string, want integer"},
		{Severity: contract.LintWarning, Tool: "echo", Rule: "description-missing", Path: "/description", Message: "no description"},
	}}, s.record("Lint")
}

// TestPingLogLevelAndLint: P pings and puts the round trip on the status
// line (the palette offers it too); L in the Log pane steps the upstream's
// level through logging/setLevel and the title says it; V opens the
// linter's findings with tool, rule and path.
func TestPingLogLevelAndLint(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		d.key("P")
		if c := hs.called("Ping"); len(c) != 1 {
			t.Fatalf("P: %v", c)
		}
		mustContain(t, d.m.status, "ping: the upstream answered in 3.4 ms (at 03:04:05)")

		d.key(":")
		d.typeText("ping")
		mustContain(t, d.screen(), "P  ping the upstream (round trip)")
		d.key("enter")
		if c := hs.called("Ping"); len(c) != 2 {
			t.Fatalf("the palette's ping: %v", c)
		}

		d.send(showPaneMsg{tool: d.m.selected(), id: paneLog})
		d.key("L")
		d.key("L")
		if c := hs.called("SetLogLevel"); len(c) != 2 || c[0] != "SetLogLevel debug" || c[1] != "SetLogLevel info" {
			t.Fatalf("L: %v", c)
		}
		mustContain(t, d.screen(), "upstream logs info+")
		hs.fail["SetLogLevel"] = contract.Errorf(contract.CodeUnavailable, "the upstream does not declare the logging capability")
		d.key("L")
		mustContain(t, d.m.status, "logging/setLevel warning: the upstream does not declare the logging capability")
		mustContain(t, d.screen(), "upstream logs info+")

		d.key("V")
		mustContain(t, d.screen(), "lint: 2 tools, 1 recorded results: 1 errors, 1 warnings", "count  structured-content-invalid  history #4 /structuredContent/n",
			"got string, want integer", "echo  description-missing  /description")
	})
}

// TestPromptArgumentCompletion: tab in a prompt's argument dialog asks the
// server to complete the field (the other fields go as context): one
// value fills it, several fill what they share and are listed; a field
// the server has nothing for moves on as tab always did.
func TestPromptArgumentCompletion(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		hs.prompts = []contract.Prompt{{Name: "completable-prompt", Arguments: []contract.PromptArgument{{Name: "department", Required: true}, {Name: "name", Required: true}}}}
		d.send(showPaneMsg{tool: d.m.selected(), id: panePrompts})
		d.key("l")
		d.key("enter")
		mustContain(t, d.screen(), "Get prompt completable-prompt", "tab completes from the server")
		d.typeText("S")
		d.key("tab")
		mustContain(t, d.screen(), "server suggests: Sales, Support")
		d.typeText("a")
		d.key("tab")
		if c := hs.called("Complete"); len(c) != 2 || c[1] != `Complete ref/prompt completable-prompt department="Sa" {}` {
			t.Fatalf("completions asked: %v", c)
		}
		f := find2[*argsDialog](t, d).form
		f.setText(f.field(), "Eng") // Engineering instead
		d.key("tab")
		if got := f.field().text(); got != "Engineering" {
			t.Fatalf("department after tab: %q", got)
		}
		d.key("tab") // complete already: moves to name
		if f.field().name != "name" {
			t.Fatalf("tab on a complete value stays on %s", f.field().name)
		}
		d.key("tab")
		if c := hs.called("Complete"); !strings.Contains(c[len(c)-1], `name="" {"department":"Engineering"}`) {
			t.Fatalf("name's completion without the department as context: %v", c)
		}
		mustContain(t, d.screen(), "server suggests: Alice, Bob, Charlie")
		d.typeText("B")
		d.key("tab")
		if got := f.field().text(); got != "Bob" {
			t.Fatalf("name after tab: %q", got)
		}
		d.key("enter")
		if c := hs.called("GetPrompt"); len(c) != 1 || c[0] != `GetPrompt completable-prompt {"department":"Engineering","name":"Bob"}` {
			t.Fatalf("get prompt: %v", c)
		}
	})
}

func find2[T dialog](t *testing.T, d *driver) T {
	t.Helper()
	x, ok := find[T](&d.m.overlay)
	if !ok {
		t.Fatal("the dialog is not open")
	}
	return x
}

// TestElicitationRefusalShownInTheDialog: an answer the engine refuses
// (a value that does not fit the requested schema) keeps the dialog open,
// says why in it, and marks the field.
func TestElicitationRefusalShownInTheDialog(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		id := startZeta(t, d)
		d.stub.events <- pending("r1", contract.RequestElicitation, "elicitation/create", id, contract.SourceTUI,
			`{"mode":"form","message":"Your email","requestedSchema":{"type":"object","properties":{"email":{"type":"string","format":"email"}},"required":["email"]}}`)
		synctest_wait(d)
		d.typeText("not-an-email")
		hs.fail["AnswerRequest"] = contract.Errorf(contract.CodeInvalidArgument, "the answer does not fit the requested schema: email: 'not-an-email' is not valid email: missing @")
		d.key("enter")
		if _, ok := find[*requestDialog](&d.m.overlay); !ok {
			t.Fatal("the dialog closed on a refused answer")
		}
		mustContain(t, d.screen(), "✗ not sent: the answer does not fit the requested schema", "✗ 'not-an-email' is not valid email: missing @")
		for range len("not-an-email") {
			d.key("backspace")
		}
		d.typeText("ada@example.com")
		d.key("enter")
		if c := hs.called("AnswerRequest"); len(c) != 2 || !strings.Contains(c[1], `"email":"ada@example.com"`) {
			t.Fatalf("answers: %v", c)
		}
		hs.stopAll()
	})
}

// TestSaveResultToAFile: s in the Call pane saves the last result, as
// indented JSON, to the path asked for (prefilled in the export folder).
func TestSaveResultToAFile(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		hs := newHostStub()
		d := newDriver(t, hs.stubAPI, func(o *Options) { o.API = hs; o.ExportDir = dir })
		defer d.finish()
		d.key("c")
		d.typeText("Paris")
		d.key("enter")
		synctest_wait(d)
		d.key("esc")
		d.key("s")
		name := d.m.selected() + "-"
		mustContain(t, d.screen(), "Save the result of "+d.m.selected(), "save to: "+filepath.Join(dir, name))
		d.key("enter")
		synctest_wait(d)
		matches, _ := filepath.Glob(filepath.Join(dir, name+"*.json"))
		if len(matches) != 1 {
			t.Fatalf("files %v (status %q)", matches, d.m.status)
		}
		b, _ := os.ReadFile(matches[0])
		if !json.Valid(b) || !strings.Contains(string(b), "\n  ") {
			t.Fatalf("saved %q", b)
		}
		mustContain(t, d.m.status, "saved ", matches[0])
	})
}

// TestHeaderSaysTheGeneratorsSettingsWereBorrowed: settings taken from
// another tool's variables show next to "gen" in the header; the tool
// list's badge, the Detail pane and _ui_list (contract.UIStatus.Summary)
// read the same state, disabled included.
func TestHeaderSaysTheGeneratorsSettingsWereBorrowed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stub := newStub()
		stub.state.Generator = "anthropic"
		stub.state.GeneratorSource = "ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL from the environment"
		stub.state.Tools[0].UI = contract.UIStatus{State: contract.UIStateDisabled}
		stub.tools[0].ToolStatus = stub.state.Tools[0]
		d := newDriver(t, stub, nil)
		defer d.finish()
		mustContain(t, d.screen(), "gen anthropic ⚠ ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL from env", "⊘ disabled")
		d.send(showPaneMsg{tool: "alpha", id: paneDetail})
		found := false
		for _, l := range strings.Split(d.screen(), "\n") {
			if f := strings.Fields(strings.Trim(l, "│┃ ")); len(f) >= 2 && strings.Contains(l, " state ") {
				found = strings.Contains(l, " state         "+contract.UIStatus{State: contract.UIStateDisabled}.Summary())
			}
		}
		if !found {
			t.Fatalf("the Detail pane's state is not the summary:\n%s", d.screen())
		}
	})
}

// TestNoCompletionWithoutTheCapability: a server whose initialize declares
// no completions capability is not asked: the argument dialog does not
// offer it and tab moves to the next field.
func TestNoCompletionWithoutTheCapability(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		hs.prompts = []contract.Prompt{{Name: "completable-prompt", Arguments: []contract.PromptArgument{{Name: "department", Required: true}, {Name: "name", Required: true}}}}
		hs.mu.Lock()
		hs.state.Upstream.ServerCapabilities = json.RawMessage(`{"prompts":{"listChanged":true}}`)
		st := hs.state
		hs.mu.Unlock()
		d.send(stateMsg{gen: d.m.subGen, st: st})
		d.send(showPaneMsg{tool: d.m.selected(), id: panePrompts})
		d.key("l")
		d.key("enter")
		s := d.screen()
		mustContain(t, s, "Get prompt completable-prompt")
		mustNotContain(t, s, "tab completes from the server")
		d.typeText("S")
		d.key("tab")
		if f := find2[*argsDialog](t, d).form; f.field().name != "name" {
			t.Fatalf("tab stays on %s", f.field().name)
		}
		if c := hs.called("Complete"); len(c) != 0 {
			t.Fatalf("asked a server without completions: %v", c)
		}
	})
}
