package testenv

import (
	"testing"
	"time"
)

// pollEvery is how often Until and Eventually look at their condition.
const pollEvery = 5 * time.Millisecond

// Until reports whether cond holds within bound, looking every few
// milliseconds (at once first). For conditions no event announces; a test
// that can wait on an event or a channel should.
func Until(bound time.Duration, cond func() bool) bool {
	if cond() {
		return true
	}
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if cond() {
				return true
			}
		case <-deadline.C:
			return cond()
		}
	}
}

// Eventually fails the test when cond does not hold within bound; what
// says what was awaited.
func Eventually(tb testing.TB, bound time.Duration, what string, cond func() bool) {
	tb.Helper()
	if !Until(bound, cond) {
		tb.Fatalf("timed out after %s waiting for %s", bound, what)
	}
}
