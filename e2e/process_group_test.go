package e2e_test

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// groupProc is a child started in its own process group, so a signal to it
// reaches what it starts too (genui's upstream, npx's node), with its stdout
// and stderr in one buffer.
type groupProc struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan struct{}
}

// startGroup starts cmd in its own process group; what names it in the
// failure. The caller stops it (kill) in its cleanup.
func startGroup(t *testing.T, cmd *exec.Cmd, what string) *groupProc {
	t.Helper()
	p := &groupProc{cmd: cmd, out: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", what, err)
	}
	go func() { _ = cmd.Wait(); close(p.exited) }()
	return p
}

// kill signals the process group and waits for the exit, sending SIGKILL
// after 10 s. Calling it again once the group is gone returns at once.
func (p *groupProc) kill(sig syscall.Signal) {
	_ = syscall.Kill(-p.cmd.Process.Pid, sig)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.exited
	}
}
