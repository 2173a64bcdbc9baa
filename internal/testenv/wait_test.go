package testenv

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestUntil: Until sees a condition soon after it comes true, gives up at
// its bound, and backs off so a long wait looks only about ten times a
// second (on synctest's fake clock).
func TestUntil(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		looks := 0
		holds := func() bool { looks++; return time.Since(start) >= time.Second }
		if !Until(10*time.Second, holds) {
			t.Fatal("Until gave up on a condition that came true after 1 s")
		}
		if took := time.Since(start); took > time.Second+maxPollEvery {
			t.Errorf("Until saw the condition %s after it came true", took-time.Second)
		}

		start, looks = time.Now(), 0
		if Until(10*time.Second, func() bool { looks++; return false }) {
			t.Fatal("Until reported a condition that never held")
		}
		if took := time.Since(start); took != 10*time.Second {
			t.Errorf("Until gave up after %s, want its bound", took)
		}
		if looks > 120 {
			t.Errorf("Until looked %d times in 10 s, want about 10 a second", looks)
		}
	})
}
