//go:build race

package testenv

// raceEnabled reports whether this test binary was built with -race; the
// genui binary built for it then gets -race too.
const raceEnabled = true
