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
	deadline := time.Now().Add(30 * time.Second)
	for len(upstream) < 2 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the upstream did not start within 30 s (pids %v)", upstream)
		}
		time.Sleep(50 * time.Millisecond)
		b, _ := os.ReadFile(pids)
		upstream = upstream[:0]
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				upstream = append(upstream, p)
			}
		}
	}
	t.Cleanup(func() {
		for _, p := range upstream {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
	time.Sleep(500 * time.Millisecond) // the demo server is up
	for _, p := range upstream {
		if !running(p) {
			t.Fatalf("upstream process %d not running before the kill", p)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	deadline = time.Now().Add(10 * time.Second)
	for _, p := range upstream {
		for running(p) {
			if time.Now().After(deadline) {
				out, _ := exec.Command("ps", "-eo", "pid,ppid,pgid,stat,args").Output()
				t.Fatalf("upstream process %d (of %v) still running 10 s after genui was killed\n%s", p, upstream, out)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
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
