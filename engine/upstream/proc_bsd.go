//go:build unix && !linux

package upstream

import "syscall"

// childNeedsLockedThread: no parent-death signal outside Linux; the
// watchdog alone stops the upstream's group when genui dies.
const childNeedsLockedThread = false

func setParentDeathSignal(*syscall.SysProcAttr) {}
