package engine

import (
	"runtime/debug"
	"sync"
)

// Version is genui's version (X.Y.Z), reported by `genui version`,
// _ui_status, /state and DIR/README.md. README.md's "**Version: X.Y.Z**"
// line is the single source: the Makefile injects it with
//
//	-ldflags "-X github.com/genui-dev/genui/engine.Version=X.Y.Z"
//
// and TestVersionMatchesREADME keeps this default (used by plain `go
// build` and `go test`) equal to it.
var Version = "0.2.0"

// Commit is the git commit genui was built from, injected by the Makefile
// (-X github.com/genui-dev/genui/engine.Commit=...). When empty, the VCS
// revision Go stamps into the binary is used, if any.
var Commit = ""

// BuildCommit is Commit, else the stamped VCS revision (12 characters,
// "-dirty" when the tree had changes), else "unknown".
func BuildCommit() string { return buildCommit() }

var buildCommit = sync.OnceValue(func() string {
	if Commit != "" {
		return Commit
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
})

// VersionLine is what `genui version` prints: "genui vX.Y.Z (commit)".
func VersionLine() string { return "genui v" + Version + " (" + BuildCommit() + ")" }
