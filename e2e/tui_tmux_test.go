package e2e_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// tmuxTerm is the real genui binary running `genui tui` in a tmux pane of a
// private tmux server: keys go in with send-keys, the screen comes out with
// capture-pane, exactly as a person would see it.
type tmuxTerm struct {
	t        *testing.T
	tmux     string
	sock     string
	exitFile string
}

// startTUI runs `genui ARGS...` in a w×h tmux pane in workdir. When the
// program ends its exit status is written to a file (exitCode reads it).
func startTUI(t *testing.T, w, h int, workdir string, args ...string) *tmuxTerm {
	t.Helper()
	x := &tmuxTerm{t: t, tmux: testenv.RequireTmux(t), sock: filepath.Join(t.TempDir(), "tmux.sock"),
		exitFile: filepath.Join(t.TempDir(), "exit")}
	bin := testenv.GenuiBinary(t)
	quoted := []string{shq(bin)}
	for _, a := range args {
		quoted = append(quoted, shq(a))
	}
	script := fmt.Sprintf("%s 2>%s; echo $? > %s", strings.Join(quoted, " "), shq(x.exitFile+".stderr"), shq(x.exitFile))
	cmd := exec.Command(x.tmux, "-u", "-S", x.sock, "-f", "/dev/null", "new-session", "-d", "-s", "tui",
		"-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-c", workdir, "sh", "-c", script)
	// The tmux server keeps the environment of the client that starts it.
	cmd.Env = append(testenv.OfflineEnv(), "TERM=xterm-256color", "LANG=C.UTF-8")
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

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// screen is the pane's text now ("" once the program and its pane are gone).
func (x *tmuxTerm) screen() string {
	out, err := exec.Command(x.tmux, "-S", x.sock, "capture-pane", "-p", "-t", "tui").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// waitFor polls the screen until cond holds, failing after d.
func (x *tmuxTerm) waitFor(what string, d time.Duration, cond func(string) bool) string {
	x.t.Helper()
	var s string
	if testenv.Until(d, func() bool { s = x.screen(); return cond(s) }) {
		return s
	}
	x.t.Fatalf("waiting %s for %s; the screen is:\n%s%s", d, what, s, x.goroutines())
	return ""
}

// goroutines asks the program in the pane for its goroutines (SIGQUIT makes
// a Go program print them to stderr and exit) and returns what it printed,
// so a wait that failed because the program stalled says where.
func (x *tmuxTerm) goroutines() string {
	out, err := exec.Command(x.tmux, "-S", x.sock, "display-message", "-p", "-t", "tui", "#{pane_pid}").Output()
	if err != nil {
		return ""
	}
	// The pane runs sh -c, whose child is genui.
	for _, pid := range childPIDs(strings.TrimSpace(string(out))) {
		_ = syscall.Kill(pid, syscall.SIGQUIT)
	}
	testenv.Until(5*time.Second, x.exited)
	b, _ := os.ReadFile(x.exitFile + ".stderr")
	if len(b) == 0 {
		return ""
	}
	return "\nthe program's stderr after SIGQUIT:\n" + string(b)
}

// childPIDs lists the processes whose parent is ppid (from /proc).
func childPIDs(ppid string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*/status")
	var pids []int
	for _, st := range dirs {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(b)) {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "PPid:" && f[1] == ppid {
				if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(st))); err == nil {
					pids = append(pids, pid)
				}
			}
		}
	}
	return pids
}

// keys sends tmux key names (Enter, Escape, Down, ...) one by one, with a
// pause so an Escape is never read as Alt with the next key.
func (x *tmuxTerm) keys(keys ...string) {
	x.t.Helper()
	for _, k := range keys {
		if out, err := exec.Command(x.tmux, "-S", x.sock, "send-keys", "-t", "tui", k).CombinedOutput(); err != nil {
			x.t.Fatalf("send-keys %s: %v %s", k, err, out)
		}
		time.Sleep(60 * time.Millisecond)
	}
}

// text types s literally.
func (x *tmuxTerm) text(s string) {
	x.t.Helper()
	if out, err := exec.Command(x.tmux, "-S", x.sock, "send-keys", "-t", "tui", "-l", s).CombinedOutput(); err != nil {
		x.t.Fatalf("send-keys -l: %v %s", err, out)
	}
	time.Sleep(60 * time.Millisecond)
}

// exited reports whether the program has ended (the pane's shell wrote
// its exit status).
func (x *tmuxTerm) exited() bool {
	b, err := os.ReadFile(x.exitFile)
	return err == nil && len(b) > 0
}

// exitCode waits (bounded) for the program to end and returns its status.
func (x *tmuxTerm) exitCode(d time.Duration) string {
	x.t.Helper()
	if testenv.Until(d, x.exited) {
		b, _ := os.ReadFile(x.exitFile)
		return strings.TrimSpace(string(b))
	}
	stderr, _ := os.ReadFile(x.exitFile + ".stderr")
	x.t.Fatalf("genui tui did not exit within %s; stderr: %s; screen:\n%s", d, stderr, x.screen())
	return ""
}

func contains(subs ...string) func(string) bool {
	return func(s string) bool {
		for _, x := range subs {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	}
}

// TestTUIInTmux drives the real binary at 100x30 on the built-in demo:
// the tools and the help bar show, / filters, 4 shows Events, q exits 0
// and removes the port files the in-process side server wrote.
func TestTUIInTmux(t *testing.T) {
	work := t.TempDir()
	dir := filepath.Join(work, "ui")
	x := startTUI(t, 100, 30, work, "tui", "--dir", dir)
	s := x.waitFor("the demo's tools and the help bar", 60*time.Second,
		contains("Tools 8/8", "get_forecast", "run_battery", "in-process", "/ filter", "1-9, 0 panes", "? help"))
	for _, f := range []string{"mcp-port", "ui-port"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("%s not written while the TUI runs: %v\n%s", f, err, s)
		}
	}
	if lines := strings.Split(strings.TrimRight(s, "\n"), "\n"); len(lines) != 30 {
		t.Errorf("the screen has %d lines, want 30", len(lines))
	}

	x.keys("/")
	x.text("forecast")
	x.waitFor("the filtered list", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "Tools 1/8") && strings.Contains(s, "› get_forecast") && !strings.Contains(s, "run_battery")
	})
	x.keys("Enter", "4")
	x.waitFor("the Events pane", 10*time.Second, contains("Events", "/wait queue and engine", "upstream-up"))

	// ] and [ step through the panes (every pane, past the tenth too); the
	// palette shows any pane by name.
	x.keys("]")
	x.waitFor("] to the Variables pane", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "─ Variables ") && !strings.Contains(s, "/wait queue and engine")
	})
	x.keys("[")
	x.waitFor("[ back to the Events pane", 10*time.Second, contains("/wait queue and engine"))
	x.keys(":")
	x.text("pane history")
	x.waitFor("the palette's History pane entry", 10*time.Second, contains("show History pane"))
	x.keys("Enter")
	x.waitFor("the History pane from the palette", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "─ History · ") && !strings.Contains(s, "show History pane")
	})

	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
	for _, f := range []string{"mcp-port", "ui-port"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s still there after quitting: %v", f, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "log", "genui.log")); err != nil || len(b) == 0 {
		t.Errorf("nothing in DIR/log/genui.log: %v", err)
	}
}

// TestTUIAttachFailsClearly: --attach with nothing running says so.
func TestTUIAttachFailsClearly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ui")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testenv.GenuiBinary(t), "tui", "--attach", "--dir", dir)
	cmd.Env = testenv.OfflineEnv()
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--attach: no genui is running in "+dir) {
		t.Fatalf("genui tui --attach with nothing running: %v\n%s", err, out)
	}
}

// TestTUIShowsWhyTheUpstreamDidNotStart: a server that writes a long
// line to stderr and exits 1: the TUI (80x24) shows the exit and that
// line on screen, wrapped under the header, not a status line cut at the
// edge or only the Log pane.
func TestTUIShowsWhyTheUpstreamDidNotStart(t *testing.T) {
	work := t.TempDir()
	const line = "SyntaxError: Unexpected token 'export' in /srv/project/server.js at line 3 column 1 while loading the module graph"
	x := startTUI(t, 80, 24, work, "tui", "--dir", filepath.Join(work, "ui"), "--", "sh", "-c", `echo "`+line+`" >&2; exit 1`)
	joined := func(s string) string {
		var b strings.Builder
		for _, l := range strings.Split(s, "\n") {
			b.WriteString(strings.TrimSpace(l))
			b.WriteByte(' ')
		}
		return b.String()
	}
	s := x.waitFor("the exit and the server's stderr line on screen", 60*time.Second, func(s string) bool {
		j := joined(s)
		return strings.Contains(j, "upstream down: upstream exited (exit status 1)") && strings.Contains(j, line)
	})
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, line) {
			t.Fatalf("a line of %d cells shows unwrapped on an 80-column screen:\n%s", len(line), s)
		}
	}
	x.keys("q")
	if code := x.exitCode(30 * time.Second); code != "0" {
		t.Fatalf("genui tui exited %s", code)
	}
}
