package testenv

import (
	"os/exec"
	"testing"
)

// RequireTmux returns the tmux executable (scripts/test-deps.sh installs the
// Debian package tmux); see Missing for when it is absent.
func RequireTmux(t testing.TB) string {
	t.Helper()
	SkipShort(t, "tmux")
	for _, name := range []string{"/usr/bin/tmux", "tmux"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missingf(t, "tmux not found (Debian package tmux)")
	return ""
}
