package e2e_test

import (
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

// TestKilledGenuiTakesItsUpstreamAlong: SIGKILL of `genui mcp` leaves no
// orphan: the upstream (started in its own process group) and what it
// spawned are gone within a few seconds.
func TestKilledGenuiTakesItsUpstreamAlong(t *testing.T) {
	bin := testenv.GenuiBinary(t)
	work := t.TempDir()
	pids := filepath.Join(work, "pids")
	// The upstream: a shell that records its pid, leaves a grandchild
	// behind, and becomes genui's demo server.
	script := `echo $$ > "$0"; sleep 300 & echo $! >> "$0"; exec "$1" demo-server`
	cmd := exec.Command(bin, "mcp", "--dir", filepath.Join(work, "ui"), "--", "/bin/sh", "-c", script, pids, bin)
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = work
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	var upstream []int
	started := func() bool {
		b, _ := os.ReadFile(pids)
		upstream = upstream[:0]
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				upstream = append(upstream, p)
			}
		}
		return len(upstream) >= 2
	}
	if !testenv.Until(30*time.Second, started) {
		_ = cmd.Process.Kill()
		t.Fatalf("the upstream did not start within 30 s (pids %v)", upstream)
	}
	t.Cleanup(func() {
		for _, p := range upstream {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
	// The shell became the demo server, and genui's watchdog for its
	// group runs (a kill before that is not this test's case).
	up := func() bool {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(upstream[0]) + "/cmdline")
		return strings.Contains(string(cmdline), "demo-server") && watchdogRuns(upstream[0])
	}
	if !testenv.Until(30*time.Second, up) {
		_ = cmd.Process.Kill()
		t.Fatalf("the demo server (pid %d) and its watchdog did not start within 30 s", upstream[0])
	}
	for _, p := range upstream {
		if !running(p) {
			t.Fatalf("upstream process %d not running before the kill", p)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	deadline := time.Now().Add(10 * time.Second)
	for _, p := range upstream {
		if !testenv.Until(time.Until(deadline), func() bool { return !running(p) }) {
			out, _ := exec.Command("ps", "-eo", "pid,ppid,pgid,stat,args").Output()
			t.Fatalf("upstream process %d (of %v) still running 10 s after genui was killed\n%s", p, upstream, out)
		}
	}
}

// watchdogRuns reports whether genui's upstream watchdog for process group
// pgid runs: sh -c SCRIPT PGID, the script ending in kill -KILL (see
// engine/upstream's watchdogScript).
func watchdogRuns(pgid int) bool {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		if len(args) == 4 && args[1] == "-c" && strings.Contains(args[2], "kill -KILL") && args[3] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// running reports whether pid is alive and not a zombie.
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: trust kill(0)
	}
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}
