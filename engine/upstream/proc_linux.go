//go:build linux

package upstream

import "syscall"

// childNeedsLockedThread: Linux sends the parent-death signal when the OS
// thread that started the child exits, not the process; dialStdio starts
// the child from a goroutine locked to its thread until the child is
// reaped, so the signal comes only when genui itself dies.
const childNeedsLockedThread = true

// setParentDeathSignal makes the kernel SIGKILL the child when genui dies,
// even by SIGKILL (the watchdog then stops the rest of its group).
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
