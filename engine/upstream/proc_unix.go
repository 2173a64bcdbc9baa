//go:build unix

package upstream

import (
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)

// setProcessGroup starts cmd in its own process group, so signalGroup
// reaches everything it spawns (npx, sh -c, ...); on Linux the child also
// gets SIGKILL when genui dies (see proc_linux.go).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// watchdogScript runs in a process of its own (its own group, so the
// upstream's group signals never reach it): it waits for EOF on stdin,
// which comes when genui exits however it exits (the kernel closes genui's
// end of the pipe, even after SIGKILL), or when genui closes it after a
// clean teardown; then it stops the upstream's process group, which it
// gets as $0: SIGTERM, and SIGKILL 2 s later if anything was left.
// (dash's kill takes no "--": a negative number after the signal is the
// group.)
const watchdogScript = `trap "" TERM HUP INT; read _ || :; ` +
	`if kill -TERM "-$0" 2>/dev/null; then sleep 2; kill -KILL "-$0" 2>/dev/null; fi; exit 0`

// startWatchdog starts the watchdog for the process group pgid and
// returns genui's end of its pipe (close it to release the watchdog), or
// nil when it cannot start (then only the parent-death signal, on Linux,
// and genui's own shutdown stop the upstream).
func startWatchdog(pgid int, log *slog.Logger) io.Closer {
	r, w, err := os.Pipe()
	if err != nil {
		log.Warn("upstream watchdog not started", "err", err)
		return nil
	}
	defer r.Close()
	// The watchdog must outlive genui (it kills the group when genui dies).
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, strconv.Itoa(pgid)) //nolint:noctx // outlives every context
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		log.Warn("upstream watchdog not started", "err", err)
		return nil
	}
	go func() { _ = cmd.Wait() }() // reaped when released
	return w
}

// signalGroup sends sig to the process group led by pid.
func signalGroup(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return nil
	}
	return syscall.Kill(-pid, sig)
}
