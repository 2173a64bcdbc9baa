package gctarget

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the GC's target (setting it is the only way to read it).
func gcPercent() int {
	v := debug.SetGCPercent(100)
	debug.SetGCPercent(v)
	return v
}

// TestRaiseAndPutBack: a raise sets the target; raises that overlap put it
// back only when the last ends; a second call of one restore does not end
// another's raise; a target set higher (GOGC), or the GC turned off, is
// left alone.
func TestRaiseAndPutBack(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	one := Raise()
	if got := gcPercent(); got != Percent {
		t.Fatalf("during a raise: GOGC %d, want %d", got, Percent)
	}
	two := Raise()
	one()
	one() // once only: two's raise still holds
	if got := gcPercent(); got != Percent {
		t.Fatalf("while a second raise holds: GOGC %d, want %d", got, Percent)
	}
	two()
	if got := gcPercent(); got != 100 {
		t.Fatalf("after the raises: GOGC %d, want 100 back", got)
	}
	for _, set := range []int{-1, 2 * Percent} {
		debug.SetGCPercent(set)
		done := Raise()
		if got := gcPercent(); got != set {
			t.Fatalf("GOGC %d set before: %d during a raise", set, got)
		}
		done()
		if got := gcPercent(); got != set {
			t.Fatalf("GOGC %d set before: %d after a raise", set, got)
		}
	}
}
