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
	if len(outs) != len(Units()) {
		t.Fatalf("%d outputs for %d units", len(outs), len(Units()))
	}
	for p, want := range outs {
		got, err := os.ReadFile(filepath.Join(root, p))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s is stale or missing (%v): run `go generate ./viewdefs ./mcpshim ./pagepack`", p, err)
		}
	}
}

// TestBuildRefusesBrokenSource: a syntax error names the unit and line.
func TestBuildRefusesBrokenSource(t *testing.T) {
	if _, err := Build(Unit{Out: "x/min/a.js"}, "function ("); err == nil {
		t.Fatal("no error for broken JavaScript")
	}
}

// TestEveryMinifiedFileIsDeclared: each file under a min/ folder is the
// output of a declared unit (no page inlines a file the build forgot).
func TestEveryMinifiedFileIsDeclared(t *testing.T) {
	wd, _ := os.Getwd()
	root, err := Root(wd)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, u := range Units() {
		declared[u.Out] = true
	}
	for _, dir := range []string{"viewdefs/min", "mcpshim/min", "pagepack/min"} {
		files, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if p := dir + "/" + f.Name(); !declared[p] {
				t.Errorf("%s is declared by no unit (viewdefs.AssetUnits, mcpshim.AssetUnits, pagepack.AssetUnits)", p)
			}
		}
	}
}
