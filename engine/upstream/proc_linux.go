//go:build linux

package upstream

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// childNeedsLockedThread: Linux sends the parent-death signal when the OS
// thread that started the child exits, not the process; dialStdio starts
// the child from a goroutine locked to its thread until the child is
// reaped, so the signal comes only when genui itself dies.
const childNeedsLockedThread = true

// setParentDeathSignal makes the kernel SIGKILL the child when genui dies,
// even by SIGKILL (the watchdog then stops the rest of its group).
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// pipeBytes is the capacity genui asks for the upstream's stdout pipe
// (Linux's default is 64 KiB; unprivileged processes may go up to
// /proc/sys/fs/pipe-max-size, 1 MiB by default).
const pipeBytes = 1 << 20

// widenPipe enlarges the pipe r reads from: a 36 MB answer (100,000
// tools) through a 64 KiB pipe is 560 hand-offs between the upstream's
// write and genui's read, each a wake-up that waits for a CPU on a busy
// machine; with 1 MiB it is 36. Failure leaves the pipe as it was.
func widenPipe(r *os.File) {
	if rc, err := r.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeBytes) })
	}
}
