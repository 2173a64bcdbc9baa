//go:build !unix

package upstream

import (
	"io"
	"log/slog"
	"os"
	"os/exec"
	"syscall"
)

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)

// setProcessGroup is a no-op where process groups are not available.
func setProcessGroup(*exec.Cmd) {}

// childNeedsLockedThread: no parent-death signal here.
const childNeedsLockedThread = false

// startWatchdog: no process groups to stop here.
func startWatchdog(int, *slog.Logger) io.Closer { return nil }

// signalGroup kills the process itself (no groups, no SIGTERM here).
func signalGroup(pid int, _ syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// widenPipe: pipes keep their size outside Linux.
func widenPipe(*os.File) {}
