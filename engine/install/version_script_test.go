package install_test

// Install's version rules (pre-releases) and the helper script's edge
// cases (JSON quoting, `event` across a restart): each failed before its fix.

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/install"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestPrereleaseVersions: a release replaces its own pre-release (semver:
// 1.2.0-rc.1 < 1.2.0), and pre-releases order numerically.
func TestPrereleaseVersions(t *testing.T) {
	for _, c := range []struct {
		installed, running string
		want               string
	}{
		{"1.2.0-rc.1", "1.2.0", install.ActionUpdated},
		{"1.2.0", "1.2.0-rc.1", install.ActionSkipped},
		{"1.2.0-rc.2", "1.2.0-rc.10", install.ActionUpdated},
		{"1.2.0-rc.10", "1.2.0-rc.2", install.ActionSkipped},
		{"1.2.0-alpha", "1.2.0-beta", install.ActionUpdated},
		{"1.2.0-rc.1", "1.2.0-rc.1", install.ActionSkipped},
		{"1.2.0+build.5", "1.2.0", install.ActionSkipped},
	} {
		dir := filepath.Join(t.TempDir(), ".ui")
		mustInstall(t, install.Options{Dir: dir, Version: c.installed})
		rep := mustInstall(t, install.Options{Dir: dir, Version: c.running})
		for _, f := range rep.Files {
			if f.Action != c.want {
				t.Errorf("%s installed, running %s: %s %s (%s), want %s", c.installed, c.running, filepath.Base(f.Path), f.Action, f.Reason, c.want)
			}
		}
	}
}

// installScript installs into a fresh DIR and returns DIR and the script.
func installScript(t *testing.T) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl not installed")
	}
	dir := filepath.Join(t.TempDir(), ".ui")
	if _, err := install.Install(install.Options{Dir: dir, Version: "0.1.0"}); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, "mcp")
}

// TestScriptJSONQuoting: JSON with spaces, quotes, backslashes and unicode
// reaches genui byte for byte; JSON the shell split into several words is
// refused with a hint to quote it, not sent half.
func TestScriptJSONQuoting(t *testing.T) {
	dir, script := installScript(t)
	fakeGenui(t, dir)
	path := pathWith(t)
	args := `{"city":"São Paulo","note":"it's \"quoted\" \\ and 日本 🙂","n":[1, 2]}`
	out, err := runScript(t, path, script, "", "get_weather", args)
	if want := `{"result":{"tool":"get_weather","args":` + args + `}}`; err != nil || strings.TrimSpace(out) != want {
		t.Errorf("quoted JSON: err=%v\n got %s\nwant %s", err, out, want)
	}
	out, err = runScript(t, path, script, "", "get_weather", `{"city":`, `"New`, `York"}`)
	ee, _ := err.(*exec.ExitError)
	if ee == nil || ee.ExitCode() != 2 || !strings.Contains(out, "quoted argument") || strings.Contains(out, "result") {
		t.Errorf("split JSON: err=%v out=%s, want exit 2 and a quoting hint", err, out)
	}
}

// TestScriptEventSurvivesRestart: `mcp event` keeps waiting while genui
// restarts (its port file is gone for a moment, then names a new port)
// and prints the new genui's events.
func TestScriptEventSurvivesRestart(t *testing.T) {
	dir, script := installScript(t)
	path := pathWith(t)
	portFile := filepath.Join(dir, "mcp-port")

	// The first genui answers empty polls, then "exits".
	var polled atomic.Int64
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		polled.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	writePort := func(ts *httptest.Server) {
		_, port, _ := net.SplitHostPort(ts.Listener.Addr().String())
		if err := os.WriteFile(portFile, []byte(port+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	writePort(first)
	second := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"seq":1,"type":"ui/message","payload":{"text":"after restart"}}]`+"\n")
	}))
	t.Cleanup(second.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "event", "--once")
	cmd.Env = []string{"PATH=" + path, "TMPDIR=" + t.TempDir()}
	var output bytes.Buffer // written until Wait returns
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- cmd.Wait() }()
	// Restart: once the script has polled the old genui, it goes away with
	// its port file; the new one writes its own once the script has
	// waited out two failed attempts (two `sleep 1` children: the
	// unreachable server, then the missing port file).
	if !testenv.Until(20*time.Second, func() bool { return polled.Load() > 0 }) {
		t.Fatal("the script never polled the first genui")
	}
	first.Close()
	os.Remove(portFile)
	naps := map[int]bool{}
	napped := func() bool {
		for _, pid := range sleepChildren(cmd.Process.Pid) {
			naps[pid] = true
		}
		return len(naps) >= 2
	}
	if !testenv.Until(20*time.Second, napped) {
		t.Fatalf("the script did not wait for genui to come back (%d waits seen)", len(naps))
	}
	writePort(second)

	err := <-errc
	if out := output.String(); err != nil || !strings.Contains(out, "after restart") {
		t.Errorf("event across a restart: err=%v out=%q", err, out)
	}
}

// sleepChildren lists the pids of pid's children that run sleep (Linux
// /proc; none elsewhere).
func sleepChildren(pid int) []int {
	files, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, field := range strings.Fields(string(b)) {
			child, err := strconv.Atoi(field)
			if err != nil {
				continue
			}
			if cmdline, _ := os.ReadFile("/proc/" + field + "/cmdline"); strings.HasPrefix(string(cmdline), "sleep\x00") || strings.Contains(string(cmdline), "/sleep\x00") {
				out = append(out, child)
			}
		}
	}
	return out
}
