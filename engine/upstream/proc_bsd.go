//go:build unix && !linux

package upstream

import (
	"os"
	"syscall"
)

// childNeedsLockedThread: no parent-death signal outside Linux; the
// watchdog alone stops the upstream's group when genui dies.
const childNeedsLockedThread = false

func setParentDeathSignal(*syscall.SysProcAttr) {}

// widenPipe: pipes keep their size outside Linux.
func widenPipe(*os.File) {}
