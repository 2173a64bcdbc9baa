package engine

import (
	"os"
	"regexp"
	"testing"
)

// ReadmeVersion is README.md's "**Version: X.Y.Z**", the single source of
// genui's version.
var reReadmeVersion = regexp.MustCompile(`(?m)^\*\*Version: (\d+\.\d+\.\d+)\*\*$`)

// TestVersionMatchesREADME: the default engine.Version (what `go build`
// and `go test` binaries report; the Makefile injects the README's) is the
// README's.
func TestVersionMatchesREADME(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := reReadmeVersion.FindAllSubmatch(b, -1)
	if len(m) != 1 {
		t.Fatalf("README.md has %d **Version: X.Y.Z** lines, want exactly 1", len(m))
	}
	if got := string(m[0][1]); got != Version {
		t.Errorf("README.md says version %s, engine.Version is %s: change both", got, Version)
	}
}
