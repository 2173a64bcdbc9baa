package minify

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMinifiedAssetsAreFresh: the committed min/ files are exactly what
// esbuild makes of today's sources.
func TestMinifiedAssetsAreFresh(t *testing.T) {
	wd, _ := os.Getwd()
	root, err := Root(wd)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != len(Units) {
		t.Fatalf("%d outputs for %d units", len(outs), len(Units))
	}
	for p, want := range outs {
		got, err := os.ReadFile(filepath.Join(root, p))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s is stale or missing (%v): run `go generate ./viewdefs ./mcpshim`", p, err)
		}
	}
}

// TestBuildRefusesBrokenSource: a syntax error names the unit and line.
func TestBuildRefusesBrokenSource(t *testing.T) {
	if _, err := Build(Unit{Out: "x/min/a.js"}, "function ("); err == nil {
		t.Fatal("no error for broken JavaScript")
	}
}
