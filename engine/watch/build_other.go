//go:build !unix

package watch

import (
	"context"
	"os/exec"
)

// shellCommand runs command with cmd /C; ending ctx stops it.
func shellCommand(ctx context.Context, command string) *exec.Cmd {
	return exec.CommandContext(ctx, "cmd", "/C", command)
}
