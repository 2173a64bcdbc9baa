package e2e_test

import (
	"strings"
	"testing"
)

// TestGenuiCheckWithoutAServer: `genui check` with no server given (no
// "-- COMMAND", no upstream configured) says so and exits 2 instead of
// replaying the checks against the built-in demo; --demo does that on
// purpose (checks pinned while the TUI ran the demo).
func TestGenuiCheckWithoutAServer(t *testing.T) {
	dir := t.TempDir()
	out, code := genuiCheck(t, dir)
	if code != 2 || !strings.Contains(out, "no server to check") || !strings.Contains(out, "--demo") {
		t.Fatalf("genui check without a server: exit %d\n%s", code, out)
	}
	if out, code := genuiCheck(t, dir, "add", "forecast", "get_forecast", `{"location":"Oslo"}`); code != 2 || !strings.Contains(out, "no server to check") {
		t.Fatalf("genui check add without a server: exit %d\n%s", code, out)
	}
	if out, code := genuiCheck(t, dir, "add", "forecast", "get_forecast", `{"location":"Oslo"}`, "--demo"); code != 0 || !strings.Contains(out, "pinned forecast") {
		t.Fatalf("genui check add --demo: exit %d\n%s", code, out)
	}
	if out, code := genuiCheck(t, dir, "--demo"); code != 0 || !strings.Contains(out, "1 equal") {
		t.Fatalf("genui check --demo: exit %d\n%s", code, out)
	}
	t.Logf("without a server:\n%s", out)
}
