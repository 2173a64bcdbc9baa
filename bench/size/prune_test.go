package main

import (
	"strings"
	"testing"
)

const pruneSrc = `package p

import (
	"cmp"
	"strings"

	cloudsdk "example.com/cloud"
	"example.com/keep"
)

// New uses the cloud back end only when configured.
func New(region string, useCloud bool) []string {
	opts := []string{strings.ToUpper(region)}
	if useCloud {
		// configured cloud only
		opts = append(opts, cloudsdk.Option(cmp.Or(region, "us-east-1")))
	}
	opts = append(opts, keep.Option())
	return opts
}

var defaultConfig = cloudsdk.Config{}

func helper(c cloudsdk.Config) {}

func shadow() int {
	cloudsdk := struct{ X int }{1}
	return cloudsdk.X
}
`

// TestPruneImports: what uses the cut import goes (the statement holding
// the use, declarations naming it), imports left unused go, the rest stays
// (a local variable with the import's name is not a use).
func TestPruneImports(t *testing.T) {
	names := map[string]string{"cmp": "cmp", "strings": "strings", "example.com/cloud": "cloud", "example.com/keep": "keep"}
	out, n, err := pruneImports([]byte(pruneSrc), map[string]bool{"example.com/cloud": true}, names)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if n != 3 {
		t.Errorf("deleted %d, want 3 (the if statement, the var, helper):\n%s", n, s)
	}
	for _, gone := range []string{`"example.com/cloud"`, `"cmp"`, "useCloud {", "configured cloud only", "defaultConfig", "func helper"} {
		if strings.Contains(s, gone) {
			t.Errorf("pruned source still has %q:\n%s", gone, s)
		}
	}
	for _, kept := range []string{`"strings"`, `"example.com/keep"`, "keep.Option()", "return opts", "return cloudsdk.X"} {
		if !strings.Contains(s, kept) {
			t.Errorf("pruned source lost %q:\n%s", kept, s)
		}
	}
	out, n, err = pruneImports([]byte(pruneSrc), map[string]bool{"example.com/other": true}, names)
	if err != nil || n != 0 || string(out) != pruneSrc {
		t.Errorf("a file without the cut import changed: %d, %v", n, err)
	}
	ret := "package p\n\nimport \"example.com/cloud\"\n\nfunc F() int { return cloud.N() }\n"
	if _, _, err := pruneImports([]byte(ret), map[string]bool{"example.com/cloud": true}, names); err == nil || !strings.Contains(err.Error(), "F returns") {
		t.Errorf("a return of the cut import's value was pruned: %v", err)
	}
}
