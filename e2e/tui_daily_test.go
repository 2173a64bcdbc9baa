package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// The workbench for daily use, driven in tmux as a person would, on npm's
// real servers: paste, $EDITOR, search, the palette, ctrl+c, p without a
// browser, the hint line at 80x24 (server-filesystem); a cancellation seen
// in Traffic with its request ids (server-everything under genui mcp, the
// TUI attached).

// startTUIEnv is startTUI with more environment for the program.
func startTUIEnv(t *testing.T, w, h int, workdir string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	x := &tmuxTerm{t: t, tmux: testenv.RequireTmux(t), sock: filepath.Join(t.TempDir(), "tmux.sock"),
		exitFile: filepath.Join(t.TempDir(), "exit")}
	quoted := []string{shq(testenv.GenuiBinary(t))}
	for _, a := range args {
		quoted = append(quoted, shq(a))
	}
	script := fmt.Sprintf("%s 2>%s; echo $? > %s", strings.Join(quoted, " "), shq(x.exitFile+".stderr"), shq(x.exitFile))
	cmd := exec.Command(x.tmux, "-u", "-S", x.sock, "-f", "/dev/null", "new-session", "-d", "-s", "tui",
		"-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-c", workdir, "sh", "-c", script)
	cmd.Env = append(append(testenv.OfflineEnv(), "TERM=xterm-256color", "LANG=C.UTF-8"), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		_ = exec.Command(x.tmux, "-S", x.sock, "kill-server").Run()
		if b, _ := os.ReadFile(x.exitFile + ".stderr"); strings.Contains(string(b), "WARNING: DATA RACE") {
			t.Errorf("genui tui reported a data race:\n%s", b)
		}
	})
	return x
}

// paste pastes s as the terminal would (bracketed paste: the program asked
// for it). The caller waits for what the paste shows.
func (x *tmuxTerm) paste(s string) {
	x.t.Helper()
	if out, err := exec.Command(x.tmux, "-S", x.sock, "set-buffer", "-b", "t", "--", s).CombinedOutput(); err != nil {
		x.t.Fatalf("set-buffer: %v %s", err, out)
	}
	if out, err := exec.Command(x.tmux, "-S", x.sock, "paste-buffer", "-p", "-b", "t", "-t", "tui").CombinedOutput(); err != nil {
		x.t.Fatalf("paste-buffer: %v %s", err, out)
	}
}

// resize makes the pane w×h.
func (x *tmuxTerm) resize(w, h int) {
	x.t.Helper()
	if out, err := exec.Command(x.tmux, "-S", x.sock, "resize-window", "-t", "tui", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)).CombinedOutput(); err != nil {
		x.t.Fatalf("resize-window: %v %s", err, out)
	}
}

// lastLine is the screen's last line.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestTUIDailyUseOnServerFilesystem(t *testing.T) {
	entry := testenv.NPMBin(t, filesystemPkg, "")
	node := testenv.NodePath(t)
	work := t.TempDir()
	root := filepath.Join(work, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	dir := filepath.Join(work, "ui")
	// No browser on this machine: xdg-open exits 3 as it does on a server.
	// The editor is a script that writes what GENUI_TEST_EDIT says.
	bin := filepath.Join(work, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"xdg-open":  "#!/bin/sh\nexit 3\n",
		"editor.sh": "#!/bin/sh\nprintf '%s\\n' \"$GENUI_TEST_EDIT\" > \"$1\"\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "VISUAL=" + filepath.Join(bin, "editor.sh"),
		"GENUI_TEST_EDIT=written by the editor"}
	x := startTUIEnv(t, 120, 40, work, env, "tui", "--dir", dir, "--", node, entry, root)
	x.waitFor("server-filesystem's tools", 90*time.Second, contains("write_file", "read_text_file", "? help"))

	// Paste two lines into write_file's content: both reach the server and
	// the disk.
	target := filepath.Join(root, "pasted.txt")
	x.keys("/")
	x.text("write_file")
	x.keys("Enter")
	x.waitFor("write_file selected", 10*time.Second, contains("› write_file"))
	x.keys("c")
	x.waitFor("the form", 10*time.Second, contains("path*", "content*"))
	x.text(target)
	x.keys("Tab")
	// Pasted once the content field has the focus (a paste that arrives
	// while the path is still being typed lands in the path).
	x.waitFor("the content field focused", 30*time.Second, contains("› content*"))
	x.paste("line one\nline two")
	x.waitFor("both pasted lines in the form", 30*time.Second, contains("line one", "line two"))
	x.keys("C-s")
	x.waitFor("the call's result", 30*time.Second, contains("Result", "Successfully wrote"))
	if b, err := os.ReadFile(target); err != nil || string(b) != "line one\nline two" {
		t.Fatalf("on disk after the paste: %q, %v", b, err)
	}

	// The arguments as sent: Traffic, searched, opened.
	x.toList()
	x.keys("6", "l", "/")
	x.text("pasted.txt")
	x.keys("Enter")
	x.waitFor("the answer found (the newest match)", 10*time.Second, contains("/ pasted.txt  2/2"))
	// The request, opened whole. The first enter's detail below the row
	// already shows the frame, so the wait names the viewer's title: the
	// second enter must have been read before toList sends its next key.
	x.keys("N", "Enter", "Enter")
	x.waitFor("the request frame with both lines, in the viewer", 10*time.Second,
		contains("Traffic · genui->upstream request tools/call write_file — esc closes", `"content": "line one\nline two"`))
	x.toList()

	// $EDITOR hands the content field to a script; what it wrote is sent.
	x.keys("3", "l", "Enter") // the form comes back on the field last used: content
	x.waitFor("the form on content", 10*time.Second, contains("› content*"))
	x.keys("C-e")
	x.waitFor("the editor's text in the form", 20*time.Second, contains("written by the editor"))
	x.keys("C-s")
	x.waitFor("the second call", 30*time.Second, contains(`arguments {"content":"written`, "Successfully wrote"))
	var onDisk []byte
	if !testenv.Until(10*time.Second, func() bool {
		onDisk, _ = os.ReadFile(target)
		return string(onDisk) == "written by the editor"
	}) {
		t.Fatalf("on disk after $EDITOR: %q", onDisk)
	}

	// ctrl+c leaves the form without quitting.
	x.keys("C-c")
	x.waitFor("the form left, the program still up", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "enter or c: fill in the arguments") && strings.Contains(s, "? help")
	})

	// The upstream's stderr, searched in the Log.
	x.keys("7", "l", "/")
	x.text("Secure MCP Filesystem")
	x.keys("Enter")
	x.waitFor("the search in the Log", 10*time.Second, contains("/ secure mcp filesystem", "1/1"))
	x.toList()

	// The palette runs an action.
	x.keys(":")
	x.text("refresh tools")
	x.keys("Enter")
	x.waitFor("the palette's action", 20*time.Second, contains("tools refreshed"))

	// p without a browser shows the URL.
	x.keys("p")
	s := x.waitFor("the preview URL", 20*time.Second, contains("no browser opened", "copied the URL:"))
	port, _ := os.ReadFile(filepath.Join(dir, "mcp-port"))
	if want := "http://127.0.0.1:" + strings.TrimSpace(string(port)) + "/preview/write_file"; !strings.Contains(s, want) {
		t.Fatalf("the status line does not show %s:\n%s", want, s)
	}

	// At 80x24 the hint line still offers help.
	x.resize(80, 24)
	x.waitFor("the hint line at 80x24", 10*time.Second, func(s string) bool {
		return strings.Contains(lastLine(s), "? help") && strings.Contains(lastLine(s), "q quit")
	})

	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
}

// TestTUITrafficShowsACancellation: a host (this test, over stdio to genui
// mcp) starts a long call and cancels it; the attached workbench's Traffic
// shows the host's notifications/cancelled and the one genui sent
// upstream, each with the id of the request it cancels.
func TestTUITrafficShowsACancellation(t *testing.T) {
	c, dir := genuiMCP(t, append([]string{"--"}, everythingCmd(t)...)...)
	ctx := bounded(t, 3*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	if _, rerr, err := c.Request(ctx, "tools/list", map[string]any{}); err != nil || rerr != nil {
		t.Fatalf("tools/list: %v %v", err, rerr)
	}
	x := startTUI(t, 160, 40, t.TempDir(), "tui", "--attach", "--dir", dir)
	x.waitFor("the attached workbench", 60*time.Second, contains("attached", "trigger-long-running-operation"))

	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "cancel-me", "method": "tools/call",
		"params": map[string]any{"name": "trigger-long-running-operation", "arguments": map[string]any{"duration": 30, "steps": 30}}})
	if err := c.WriteLine(call); err != nil {
		t.Fatal(err)
	}
	x.keys("6")
	x.waitFor("the call upstream", 20*time.Second, contains("→up   req  tools/call trigger-long-running-operation"))
	if err := c.Notify("notifications/cancelled", map[string]any{"requestId": "cancel-me", "reason": "changed my mind"}); err != nil {
		t.Fatal(err)
	}
	x.keys("l", "/")
	x.text("notifications/cancelled")
	x.keys("Enter")
	s := x.waitFor("both cancellations", 20*time.Second, contains("host→ note notifications/cancelled trigger-long-running-operation",
		"→up   note notifications/cancelled trigger-long-running-operation (request ", "/2 · n next"))
	// Each names the request it cancels: the host's "cancel-me", and the id
	// genui gave the call upstream. The first match is the host's.
	if strings.Contains(s, "2/2 · n next") {
		x.keys("n")
	}
	x.keys("Enter")
	x.waitFor("the host's cancellation, opened", 10*time.Second, contains("host->genui notification notifications/cancelled",
		`(request "cancel-me")`, `"requestId": "cancel-me"`))
	x.keys("Escape") // the viewer closes (the help bar stays the pane's)
	x.waitFor("the viewer closed", 10*time.Second, func(s string) bool { return !strings.Contains(s, `"requestId": "cancel-me"`) })
	x.keys("n", "Enter")
	x.waitFor("genui's cancellation, opened", 10*time.Second, contains("genui->upstream notification notifications/cancelled", `"requestId": `))
}
