// Package gctarget raises the Go garbage collector's target (GOGC) while
// genui does something short that allocates a lot or must not be slowed:
// a long tools/list answer streaming in, and the start of a serving
// command, whose collections would run on the CPU the upstream needs to
// boot. Raises overlap: the target goes back only when the last of them
// ends. A target set higher already (GOGC in the environment), or the GC
// turned off, is left alone.
package gctarget

import (
	"runtime/debug"
	"sync"
)

// Percent is the raised target: the heap may grow to five times what is
// live (and at least 16 MB, the runtime's 4 MB minimum scaled alike)
// before the next collection.
const Percent = 400

var (
	mu    sync.Mutex
	users int
	was   int
)

// Raise sets the GC's target to Percent (unless it is higher or off) and
// returns what puts it back once every raise has ended; calling it again
// does nothing.
func Raise() (restore func()) {
	mu.Lock()
	defer mu.Unlock()
	if users == 0 {
		was = debug.SetGCPercent(Percent)
		if was < 0 || was >= Percent {
			debug.SetGCPercent(was)
		}
	}
	users++
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			if users--; users == 0 {
				debug.SetGCPercent(was)
			}
		})
	}
}
