package e2e_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// startGenuiServe runs `genui serve ARGS...` in workdir with extra
// environment entries; the test's cleanup stops it if it still runs.
func startGenuiServe(t *testing.T, workdir string, env []string, args ...string) *groupProc {
	t.Helper()
	cmd := exec.Command(testenv.GenuiBinary(t), append([]string{"serve"}, args...)...)
	cmd.Env = append(testenv.OfflineEnv(), env...)
	cmd.Dir = workdir
	p := startGroup(t, cmd, "genui serve")
	t.Cleanup(func() {
		p.kill(syscall.SIGTERM)
		if t.Failed() {
			t.Logf("genui serve %v output:\n%s", args, tail(p.out.String(), 4096))
		}
	})
	return p
}

// waitState waits until base's /state answers and contains want.
func waitState(t *testing.T, base, want string) {
	t.Helper()
	var last string
	shows := func() bool {
		resp, err := http.Get(base + "/state")
		if err != nil {
			return false
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		last = string(b)
		return resp.StatusCode == http.StatusOK && strings.Contains(last, want)
	}
	if !testenv.Until(60*time.Second, shows) {
		t.Fatalf("%s/state never showed %q; last: %.300s", base, want, last)
	}
}

// TestTUIAttachesOnlyToItsOwnGenui is the review's attack on an attached
// workbench: the genui it shows (on DIR one) is killed, and another genui,
// serving another DIR with other tools, takes the same port. The TUI says
// the genui on one is gone and never shows the stranger's tools (the
// review saw them within 8 s). A genui then started again on one, on
// another port, is followed.
func TestTUIAttachesOnlyToItsOwnGenui(t *testing.T) {
	work := t.TempDir()
	port := freePort(t)
	first := startGenuiServe(t, work, nil, "--dir", "one", "--mcp-port", fmt.Sprint(port))
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	if got := waitAPIBase(t, filepath.Join(work, "one")); got != base {
		t.Fatalf("one/mcp-port names %s, want %s", got, base)
	}
	waitState(t, base, `"get_forecast"`)

	x := startTUI(t, 120, 40, work, "tui", "--attach", "--dir", "one")
	x.waitFor("the attached workbench", 60*time.Second, contains("attached", "Tools 8/8", "get_forecast", "MCP "+base+"/mcp"))

	// The served genui dies hard (its port and lock files stay behind)
	// and a stranger binds its port, serving DIR two with other tools.
	first.kill(syscall.SIGKILL)
	var stranger *groupProc
	deadline := time.Now().Add(30 * time.Second)
	for {
		stranger = startGenuiServe(t, work, []string{manyToolsEnv + "=stranger_:3"},
			"--dir", "two", "--mcp-port", fmt.Sprint(port), "--", os.Args[0])
		select {
		case <-stranger.exited: // the port was not free yet
			portFree := func() bool {
				ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
				if err == nil {
					ln.Close()
				}
				return err == nil
			}
			if time.Now().After(deadline) || !testenv.Until(time.Until(deadline), portFree) {
				t.Fatalf("the stranger could not take port %d: %s", port, stranger.out.String())
			}
			continue
		case <-time.After(2 * time.Second):
		}
		break
	}
	waitState(t, base, `"stranger_000001"`)
	strangerUp := time.Now()

	x.waitFor("the TUI saying its genui is gone", 20*time.Second, contains("the genui on one is gone"))
	var screen string
	showsStranger := func() bool { screen = x.screen(); return strings.Contains(screen, "stranger_") }
	if testenv.Until(12*time.Second-time.Since(strangerUp), showsStranger) {
		t.Fatalf("the TUI shows the stranger's tools:\n%s", screen)
	}
	if s := x.screen(); !strings.Contains(s, "get_forecast") {
		t.Errorf("the TUI dropped the tools it showed:\n%s", s)
	}

	// genui starts again on one (another port): the workbench follows it.
	stranger.kill(syscall.SIGTERM)
	startGenuiServe(t, work, nil, "--dir", "one")
	var again string
	newPort := func() bool {
		if b, err := os.ReadFile(filepath.Join(work, "one", "mcp-port")); err == nil {
			if f := strings.Fields(string(b)); len(f) > 0 {
				again = "http://127.0.0.1:" + f[0]
			}
		}
		return again != "" && again != base
	}
	if !testenv.Until(60*time.Second, newPort) {
		t.Fatal("the restarted genui wrote no new one/mcp-port")
	}
	x.waitFor("the workbench following the restarted genui", 30*time.Second, contains("reconnected to "+again, "MCP "+again+"/mcp", "get_forecast"))
	if s := x.screen(); strings.Contains(s, "stranger_") || strings.Contains(s, "is gone") {
		t.Errorf("after following the restarted genui:\n%s", s)
	}
}

// TestTUIRefusesSpecialPortFiles: DIR/mcp-port as a FIFO (which left the
// TUI on a blank screen) or a link to /dev/zero (which took it to 3.4 GB in
// 3 s) is refused at once: `genui tui --attach` fails naming the file.
func TestTUIRefusesSpecialPortFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(p string) error
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"dev-zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			dir := filepath.Join(work, "ui")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(filepath.Join(dir, "mcp-port")); err != nil {
				t.Fatal(err)
			}
			bin := testenv.GenuiBinary(t) // built before the clock starts
			ctx := bounded(t, 20*time.Second)
			cmd := exec.CommandContext(ctx, bin, "tui", "--attach", "--dir", dir)
			cmd.Env = testenv.OfflineEnv()
			cmd.Dir = work
			var errb bytes.Buffer
			cmd.Stderr = &errb
			start := time.Now()
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("genui tui --attach with a %s as DIR/mcp-port did not return within 20 s", tc.name)
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || !strings.Contains(errb.String(), "not a regular file") || !strings.Contains(errb.String(), "mcp-port") {
				t.Errorf("genui tui --attach with a %s as DIR/mcp-port: %v, stderr %q; want a failure naming the file", tc.name, err, errb.String())
			}
			t.Logf("refused in %s: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(errb.String()))
		})
	}
}
