package e2e_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// genui tui as a complete MCP host, driven in tmux on npm's server-everything
// over stdio (in-process: genui answers the upstream's requests through the
// workbench): elicitation (form and URL), sampling by hand and drafted by
// genui's LLM (an Anthropic stand-in through genui's real client), progress
// and cancel, a task-required tool, resource links and a blob saved.

// selectTool filters the tool list down to name and selects it (no dialog
// may be open: esc would answer it).
func (x *tmuxTerm) selectTool(name string) {
	x.t.Helper()
	x.toList()
	x.keys("/")
	x.waitFor("the filter line", 10*time.Second, contains("enter keep filter"))
	x.keys("C-u")
	x.text(name)
	x.keys("Enter")
	x.waitFor("the tool "+name+" selected", 10*time.Second, contains("› "+name))
}

// toList leaves the pane for the tool list (esc until the help bar is the
// list's): each esc is read before the next key is sent, so no esc and key
// pair reads as alt+key.
func (x *tmuxTerm) toList() {
	x.t.Helper()
	for range 4 {
		switch ll := lastLine(x.screen()); {
		case strings.HasPrefix(ll, " / filter"):
			return
		case strings.HasPrefix(ll, " / search"):
			// A pane has the focus and no input: h goes to the list
			// (no esc, which a loaded machine may read with the next key).
			x.keys("h")
			x.waitFor("the tool list focused", 10*time.Second, func(s string) bool { return strings.HasPrefix(lastLine(s), " / filter") })
			return
		}
		x.esc()
	}
	x.waitFor("the tool list focused", 10*time.Second, func(s string) bool { return strings.HasPrefix(lastLine(s), " / filter") })
}

// esc sends esc and waits until it took effect (the help bar changed: a
// form left, a dialog closed, the focus moved; or a search line went), so
// the next key is not read with it as alt+key.
func (x *tmuxTerm) esc() {
	x.t.Helper()
	before := x.screen()
	x.keys("Escape")
	x.waitFor("esc to take effect", 10*time.Second, func(s string) bool {
		return lastLine(s) != lastLine(before) || strings.Count(s, "esc clears") < strings.Count(before, "esc clears")
	})
}

// noBrowser is a PATH folder whose xdg-open fails as it does on a server.
func noBrowser(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + bin + ":" + os.Getenv("PATH")
}

// TestTUIAnswersTheUpstreamsRequests: the upstream's elicitation form is
// answered (the tool's result shows the values), a URL elicitation shows
// its whole URL and is accepted, a sampling request is answered by hand,
// and another with genui's LLM's draft, shown before it is sent.
func TestTUIAnswersTheUpstreamsRequests(t *testing.T) {
	t.Parallel()
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: "Drafted by the stand-in: four."})
	work := t.TempDir()
	env := []string{noBrowser(t), "ANTHROPIC_API_KEY=" + llmtest.TestKey, "ANTHROPIC_BASE_URL=" + srv.URL}
	args := append([]string{"tui", "--dir", filepath.Join(work, "ui"), "--llm", "anthropic", "--model", "claude-test", "--"}, everythingCmd(t)...)
	x := startTUIEnv(t, 140, 45, work, env, args...)
	x.waitFor("server-everything's tools", 90*time.Second, contains("trigger-elicitation-request", "trigger-sampling-request", "simulate-research-query"))

	// Elicitation, form mode: the schema's fields, name typed, accepted.
	x.selectTool("trigger-elicitation-request")
	x.keys("c", "Enter")
	x.waitFor("the elicitation dialog", 30*time.Second, contains("The upstream asks for input (elicitation)",
		"Please provide inputs for the following fields:", "name*", "Your full, legal name", "ctrl+n declines"))
	x.text("Ada Lovelace")
	x.keys("Tab", "Space", "C-s")
	x.waitFor("the answered values in the tool's result", 30*time.Second,
		contains("User provided the requested information!", "- Name: Ada Lovelace", "- Agreed to terms: true"))

	// Elicitation, URL mode: the whole URL, o falls back to copying it
	// without a browser, enter says it is done.
	url := "https://example.com/genui-e2e/authorize?state=" + strings.Repeat("0123456789", 14) + "&end=LASTPART"
	x.selectTool("trigger-url-elicitation")
	x.keys("c")
	// Typed only once the form has the focus (keys sent earlier would reach
	// the tool list), sent only once the field holds the whole URL.
	x.waitFor("the call form", 30*time.Second, contains("› url*", "The URL the user should open"))
	x.text(url)
	x.waitFor("the URL typed in", 30*time.Second, contains("&end=LASTPART"))
	x.keys("Enter")
	x.waitFor("the URL elicitation dialog", 30*time.Second, contains("The upstream asks you to open a URL (elicitation)",
		"https://example.com/genui-e2e/authorize?state=0123456789", "LASTPART", "o open"))
	x.keys("o")
	x.waitFor("the URL copied instead of opened", 10*time.Second, contains("no browser opened"))
	x.keys("Enter")
	x.waitFor("the URL elicitation accepted", 30*time.Second, contains("User completed the URL elicitation flow."))

	// Sampling, answered by hand.
	x.selectTool("trigger-sampling-request")
	x.keys("c")
	x.text("What is 2+2?")
	x.keys("C-s") // prompt is a text area: enter is a new line
	x.waitFor("the sampling dialog", 30*time.Second, contains("The upstream asks for a model's answer (sampling)",
		"Messages", "What is 2+2?", "max tokens 100", "ctrl+g drafts"))
	x.text("Four, typed by hand.")
	x.keys("C-s")
	x.waitFor("the hand-typed answer in the tool's result", 30*time.Second,
		contains("LLM sampling result", "Four, typed by hand.", "genui-tui (answered by hand)"))

	// Sampling, drafted by genui's LLM: the draft shows before it is sent.
	before := srv.Count()
	x.keys("C-s") // the form is still open: call again
	x.waitFor("the second sampling dialog", 30*time.Second, contains("(sampling)", "What is 2+2?"))
	x.keys("C-g")
	x.waitFor("the draft, for editing", 30*time.Second, contains("Drafted by the stand-in: four.", "the draft of anthropic"))
	if srv.Count() <= before {
		t.Fatal("ctrl+g did not ask the provider")
	}
	if u := srv.Requests()[srv.Count()-1].User(); !strings.Contains(u, "What is 2+2?") {
		t.Errorf("the provider was not given the request's messages: %q", u)
	}
	x.keys("C-s")
	x.waitFor("the drafted answer in the tool's result", 30*time.Second, contains("LLM sampling result", "Drafted by the stand-in: four."))
	x.toList()
	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
}

// TestTUIProgressCancelTasksAndResources: the long-running operation shows
// at least three distinct progress steps, ctrl+x cancels it mid-way (the
// result says cancelled before the operation's end, and Traffic shows the
// notifications/cancelled genui sent upstream); simulate-research-query
// (taskSupport "required") runs as a task to its report; get-resource-links'
// links open with o: the blob is saved with its bytes, the text one read;
// a resource subscribed to in the Resources pane is marked when the server
// says it changed; a resource template and a prompt are filled in and read.
func TestTUIProgressCancelTasksAndResources(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	args := append([]string{"tui", "--dir", filepath.Join(work, "ui"), "--"}, everythingCmd(t)...)
	x := startTUIEnv(t, 140, 45, work, nil, args...)
	x.waitFor("server-everything's tools", 90*time.Second, contains("trigger-long-running-operation", "simulate-research-query"))

	x.selectTool("trigger-long-running-operation")
	x.keys("c")
	x.text("60")
	x.keys("Tab")
	x.text("60")
	x.keys("Enter")
	step := regexp.MustCompile(`(\d+)/60 \(\d+%\)`)
	seen := map[string]bool{}
	x.waitFor("three distinct progress steps", 60*time.Second, func(s string) bool {
		for _, m := range step.FindAllStringSubmatch(s, -1) {
			seen[m[1]] = true
		}
		return len(seen) >= 3
	})
	x.keys("C-x")
	s := x.waitFor("the cancelled result", 30*time.Second, contains("⊘ cancelled", "progress step(s)"))
	m := regexp.MustCompile(`at (\d+)/60 after`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no progress in the cancelled result:\n%s", s)
	}
	if n, _ := strconv.Atoi(m[1]); n >= 60 {
		t.Fatalf("the call ended at %d/60: not cancelled mid-way", n)
	}
	if strings.Contains(s, "Long running operation completed") {
		t.Fatalf("the operation's own result arrived:\n%s", s)
	}
	x.esc()
	x.keys("6", "l", "/")
	x.text("notifications/cancelled")
	x.keys("Enter")
	x.waitFor("genui's notifications/cancelled upstream in Traffic", 20*time.Second,
		contains("→up   note notifications/cancelled trigger-long-running-ope"))

	// A task-required tool, run to its result.
	x.selectTool("simulate-research-query")
	x.keys("c")
	x.text("genui")
	x.keys("Enter")
	x.waitFor("the research report", 90*time.Second, contains("Research Report: genui"))

	// Resource links: o picks one; the blob is saved with its bytes.
	x.selectTool("get-resource-links")
	x.keys("c", "Tab")
	x.text("2")
	x.keys("Enter")
	x.waitFor("the links in the result", 30*time.Second, contains("resource_link demo://resource/dynamic/blob/1  (o opens it)"))
	x.esc()
	x.keys("o")
	x.waitFor("the link picker", 10*time.Second, contains("Open a resource of the result", "link demo://resource/dynamic/text/2"))
	x.keys("Enter")
	s = x.waitFor("the blob in the viewer", 30*time.Second, contains("Resource demo://resource/dynamic/blob/1", "s saves it to a file"))
	sm := regexp.MustCompile(`blob, (\d+) bytes`).FindStringSubmatch(s)
	if sm == nil {
		t.Fatalf("no blob size shown:\n%s", s)
	}
	out := filepath.Join(work, "saved", "blob-1.bin")
	x.keys("s")
	x.waitFor("the save dialog", 10*time.Second, contains("Save the blob", "save to: "))
	x.keys("C-u")
	x.text(out)
	x.keys("Enter")
	x.waitFor("the blob saved", 20*time.Second, contains("saved "+sm[1]+" bytes to "+out))
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "Resource 1: This is a base64 blob created at ") || strconv.Itoa(len(b)) != sm[1] {
		t.Fatalf("saved %q (%d bytes), the viewer said %s bytes", b, len(b), sm[1])
	}
	if base64.StdEncoding.EncodeToString(b) == "" {
		t.Fatal("empty blob")
	}
	x.esc()
	x.keys("o")
	x.waitFor("the link picker again", 10*time.Second, contains("Open a resource of the result"))
	x.keys("Down", "Enter")
	x.waitFor("the text resource read", 30*time.Second, contains("Resource demo://resource/dynamic/text/2", "Resource 2: This is a plaintext resource"))
	x.esc()

	// Subscribed to a resource, the server's resources/updated marks its row.
	x.toList()
	x.keys("9")
	x.waitFor("the Resources pane", 30*time.Second, contains("Roots", "Resources (7)", "architecture.md", "Resource templates (2)"))
	x.keys("l", "s")
	x.waitFor("the subscription", 20*time.Second, contains("● subscribed"))
	x.selectTool("toggle-subscriber-updates")
	x.keys("c", "Enter")
	x.waitFor("the updates started", 30*time.Second, contains("Started simulated resource updated notifications"))
	x.toList()
	x.keys("9")
	x.waitFor("the row marked updated", 30*time.Second, contains("● subscribed", "↻ updated"))
	// A resource template filled in and read; a prompt's arguments filled
	// in and its messages shown.
	x.keys("l")
	x.paneRow("Dynamic Text Resource")
	x.keys("Enter")
	x.waitFor("the template's arguments", 10*time.Second, contains("Read Dynamic Text Resource", "resourceId*"))
	x.text("3")
	x.keys("Enter")
	x.waitFor("the templated resource read", 30*time.Second, contains("Resource demo://resource/dynamic/text/3", "Resource 3: This is a plaintext resource"))
	x.esc()
	x.toList()
	x.keys("0")
	x.waitFor("the Prompts pane", 30*time.Second, contains("Prompts (", "args-prompt"))
	x.keys("l")
	x.paneRow("args-prompt")
	x.keys("Enter")
	x.waitFor("the prompt's arguments", 10*time.Second, contains("Get prompt args-prompt", "city*", "state"))
	x.text("Lisbon")
	x.keys("Enter")
	x.waitFor("the prompt's messages", 30*time.Second, contains("Prompt args-prompt", "[0] user", "What's weather in Lisbon?"))
	x.esc()
	x.toList()
	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
}

// paneRow moves the focused pane's cursor to the row that starts with
// name: home, then down one row at a time, each move waited for by the
// cursor's line on the screen (a row's text may change meanwhile: a
// subscribed resource's update mark), bounded.
func (x *tmuxTerm) paneRow(name string) {
	x.t.Helper()
	cursor := func(s string) (int, string) {
		for i, l := range strings.Split(s, "\n") {
			if _, after, ok := strings.Cut(l, "││› "); ok {
				return i, after
			}
		}
		return -1, ""
	}
	x.keys("Home")
	x.waitFor("the cursor on the first row", 10*time.Second, func(s string) bool {
		i, _ := cursor(s)
		return i >= 0 && !strings.Contains(strings.Split(s, "\n")[i-1], "││  ")
	})
	for range 30 {
		pos, cur := cursor(x.screen())
		if strings.HasPrefix(cur, name) {
			return
		}
		x.keys("Down")
		x.waitFor("the cursor to move", 10*time.Second, func(s string) bool { p, _ := cursor(s); return p != pos })
	}
	x.t.Fatalf("no row %s in the pane:\n%s", name, x.screen())
}

// TestAttachedTUIAnswersItsCallsRequests: the workbench attached to a
// `genui mcp` whose stdio host declared elicitation. Both call
// trigger-elicitation-request at once: the host's elicitation goes to the
// host (held there while the TUI's call runs), the TUI's reaches the TUI
// over the HTTP event stream and never the host; each answer reaches its
// own call's result.
func TestAttachedTUIAnswersItsCallsRequests(t *testing.T) {
	t.Parallel()
	hostAsked := make(chan json.RawMessage, 4)
	release := make(chan struct{})
	var releaseOnce sync.Once
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) })
	dir := filepath.Join(t.TempDir(), "ui")
	c := session(t, exec.Command(testenv.GenuiBinary(t), append([]string{"mcp", "--dir", dir, "--"}, everythingCmd(t)...)...),
		mcptest.WithRequestHandler(heldElicitingHost(hostAsked, release)))
	ctx := bounded(t, 3*time.Minute)
	if _, err := c.Initialize(ctx, protocol, json.RawMessage(`{"roots":{},"elicitation":{"form":{}}}`)); err != nil {
		t.Fatal(err)
	}
	if _, rerr, err := c.Request(ctx, "tools/list", map[string]any{}); err != nil || rerr != nil {
		t.Fatalf("tools/list: %v %v", err, rerr)
	}
	x := startTUI(t, 140, 45, t.TempDir(), "tui", "--attach", "--dir", dir)
	x.waitFor("the attached workbench", 60*time.Second, contains("attached", "trigger-elicitation-request"))

	// The host's own call: its elicitation reaches the host, which holds
	// its answer until the TUI's call is done.
	hostDone := callInBackground(ctx, c, "trigger-elicitation-request")
	select {
	case <-hostAsked:
	case <-ctx.Done():
		t.Fatal("the host never got the elicitation of its own call")
	}

	x.selectTool("trigger-elicitation-request")
	x.keys("c", "Enter")
	x.waitFor("the elicitation dialog", 30*time.Second, contains("The upstream asks for input (elicitation)", "during a call of trigger-elicitation-request (tui)"))
	x.text("Grace Hopper")
	x.keys("C-s")
	x.waitFor("the answered value in the tool's result", 30*time.Second, contains("- Name: Grace Hopper"))
	select {
	case p := <-hostAsked:
		t.Fatalf("the host got a second elicitation (the TUI call's): %s", p)
	default:
	}
	releaseOnce.Do(func() { close(release) })
	var ha hostAnswer
	select {
	case ha = <-hostDone:
	case <-ctx.Done():
		t.Fatal("the host's call did not finish")
	}
	if ha.err != nil || !strings.Contains(string(ha.res), "Name: Host Hopper") || strings.Contains(string(ha.res), "Grace Hopper") {
		t.Fatalf("the host's call: %s %v", ha.res, ha.err)
	}
	if s := x.screen(); strings.Contains(s, "Host Hopper") {
		t.Fatalf("the host's answer shows in the TUI's result:\n%s", s)
	}
	x.toList()
	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
}
