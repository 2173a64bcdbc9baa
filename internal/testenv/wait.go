package testenv

import (
	"testing"
	"time"
)

// How often Until and Eventually look at their condition: every
// firstPollEvery at first, twice as long after each look, up to
// maxPollEvery. A condition that holds soon is seen soon; one that costs
// something to check (a process started, an HTTP request, a browser
// evaluation) is not checked hundreds of times a second through a long
// wait on a shared machine.
const (
	firstPollEvery = 5 * time.Millisecond
	maxPollEvery   = 100 * time.Millisecond
)

// Until reports whether cond holds within bound, looking at once first,
// then every few milliseconds (backing off to every 100 ms). For
// conditions no event announces; a test that can wait on an event or a
// channel should.
func Until(bound time.Duration, cond func() bool) bool {
	if cond() {
		return true
	}
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	every := firstPollEvery
	next := time.NewTimer(every)
	defer next.Stop()
	for {
		select {
		case <-next.C:
			if cond() {
				return true
			}
			every = min(2*every, maxPollEvery)
			next.Reset(every)
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
