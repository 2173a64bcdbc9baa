package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/genui-dev/genui/internal/testenv"
)

// TestStdinCloseShutsDownUpstreamGroup: when the host closes genui
// mcp's stdin, genui exits and the upstream's whole process group (here a
// grandchild `sleep` that never reads stdin) is gone. With a call in
// flight to an upstream frozen with SIGSTOP (which can never answer), genui
// still exits: its shutdown bounds (5 s for in-flight requests, the 2 s
// SIGTERM grace, the side server's 3 s) end the wait. The test's own
// bound only stops a hang; how long the exit takes is no claim of a test
// (it logs it).
func TestStdinCloseShutsDownUpstreamGroup(t *testing.T) {
	for _, tc := range []struct {
		name     string
		inFlight bool
	}{
		{"idle", false},
		{"call in flight", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := testenv.GenuiBinary(t)
			sh, err := exec.LookPath("sh")
			if err != nil {
				testenv.Missingf(t, "sh not found")
			}
			c, _ := genuiMCP(t, "--", sh, "-c", "sleep 300 & exec "+strconv.Quote(bin)+" demo-server")
			ctx := bounded(t, time.Minute)
			if _, err := c.Initialize(ctx, protocol, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := c.ListTools(ctx); err != nil {
				t.Fatal(err)
			}
			child := waitDemoChild(ctx, t, c.Pid(), 0)
			pgid, err := syscall.Getpgid(child)
			if err != nil || pgid != child {
				t.Fatalf("upstream %d is not a process group leader (pgid %d, %v)", child, pgid, err)
			}
			if len(children(child)) == 0 {
				t.Fatalf("the upstream's grandchild sleep is not running (children of %d: none)", child)
			}
			if tc.inFlight {
				if err := syscall.Kill(child, syscall.SIGSTOP); err != nil {
					t.Fatal(err)
				}
				testenv.Eventually(t, 30*time.Second, "the upstream stopped", func() bool { return procState(child) == "T" })
				answered := make(chan string, 1)
				go func() {
					res, rpcErr, err := c.Request(ctx, "tools/call", map[string]any{"name": "run_battery", "arguments": map[string]any{"cells": 2}})
					answered <- fmt.Sprintf("result %.300s, error %v, %v", res, rpcErr, err)
				}()
				// In flight: genui wrote the call to the frozen upstream's stdin.
				if !testenv.Until(30*time.Second, func() bool { return unreadStdin(t, child) > 0 }) {
					// What genui did with it instead (CI saw this once).
					select {
					case a := <-answered:
						t.Fatalf("the call never reached the frozen upstream's stdin; genui answered it: %s\nstderr: %s", a, tail(c.Stderr(), 4096))
					default:
						t.Fatalf("the call never reached the frozen upstream's stdin within 30 s and is unanswered (upstream state %q)\nstderr: %s", procState(child), tail(c.Stderr(), 4096))
					}
				}
			}
			start := time.Now()
			if err := c.CloseStdin(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-c.Exited():
				t.Logf("genui exited %v after stdin closed", time.Since(start).Round(time.Millisecond))
			case <-ctx.Done():
				t.Fatal("genui mcp never exited after its stdin closed")
			}
			// The whole upstream group must be gone (ESRCH), zombies aside.
			gone := func() bool {
				err := syscall.Kill(-pgid, 0)
				return errors.Is(err, syscall.ESRCH) || groupOnlyZombies(pgid)
			}
			if !testenv.Until(time.Until(deadlineOf(ctx)), gone) {
				t.Fatalf("upstream process group %d still alive after genui exited", pgid)
			}
		})
	}
}

// unreadStdin is how many bytes wait unread in process pid's stdin pipe
// (Linux: the pipe reopened through /proc, FIONREAD alias TIOCINQ).
func unreadStdin(t *testing.T, pid int) int {
	t.Helper()
	f, err := os.OpenFile("/proc/"+strconv.Itoa(pid)+"/fd/0", os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatalf("the upstream's stdin: %v", err)
	}
	defer f.Close()
	n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ)
	if err != nil {
		t.Fatalf("FIONREAD on the upstream's stdin: %v", err)
	}
	return n
}

// procState is the state letter of process pid (R, S, T, Z, ...; "" when
// it is gone).
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 || i+3 > len(b) {
		return ""
	}
	return string(b[i+2 : i+3])
}

// deadlineOf is ctx's deadline (an hour away when it has none).
func deadlineOf(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(time.Hour)
}

// groupOnlyZombies reports whether every process in group pgid is a zombie
// (dead, waiting for a reaper that is not this test's business).
func groupOnlyZombies(pgid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// The command name may contain spaces: parse after the last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+2 > len(b) {
			continue
		}
		var state string
		var ppid, pg int
		if _, err := fmt.Sscan(string(b[i+2:]), &state, &ppid, &pg); err != nil {
			continue
		}
		if pg == pgid && state != "Z" {
			return false
		}
	}
	return true
}
