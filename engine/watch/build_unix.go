//go:build unix

package watch

import (
	"context"
	"os/exec"
	"syscall"
)

// shellCommand runs command with sh in a process group of its own; ending
// ctx stops the whole group.
func shellCommand(ctx context.Context, command string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}
