package gen

import (
	"regexp"
	"strings"
	"testing"
)

// The patterns checkImports and checkCSS ran over a whole script or style
// sheet before they ran only where their first word occurs: the reference
// the scanning must agree with.
var (
	refStaticImport = regexp.MustCompile(`\bimport\s*(?:[\w$*{},\s]+?\bfrom\s*)?["']([^"'\n]+)["']`)
	refExportFrom   = regexp.MustCompile(`\bexport\s*(?:\*|\{[^}]*\})\s*(?:as\s+[\w$]+\s*)?from\s*["']([^"'\n]+)["']`)
	refDynamic      = regexp.MustCompile(`\bimport\s*\(\s*["'\x60]([^"'\x60\n]+)["'\x60]\s*\)`)
)

func refProblems(js, css string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{refStaticImport, refExportFrom, refDynamic} {
		for _, m := range re.FindAllStringSubmatch(stripJSComments(js), -1) {
			out = append(out, m[1])
		}
	}
	for _, m := range reCSSURL().FindAllStringSubmatch(css, -1) {
		out = append(out, m[1])
	}
	return out
}

func scanProblems(js, css string) []string {
	out := importSpecs(js)
	checkCSS(css, "", func(_ string, args ...any) { out = append(out, args[1].(string)) })
	return out
}

var validateScanSeeds = [][2]string{
	{`import { a } from "x"; import * as b from 'https://cdn/y'; export * from "z"; export { q } as r from "w"; import("v"); import(` + "`u`" + `)`, `a{background:URL( "https://x/y.png")} @IMPORT "//cdn/z.css";`},
	{`reimport "x"; _import "y"; $import "z"; importimport "w"; export{a}from"b"; exports {c} from "d"`, `p{color:red}`},
	{`const important = 1; /* import "hidden" */ // import "hidden2"
import"ok";importx "no"`, `.a{display:none!important}.b{background:url(data:image/png;base64,AA)}`},
}

// TestImportScanMatchesTheRegexps: on hand-picked cases (word boundaries,
// comments, case in CSS) the scanning finds what the regexps found.
func TestImportScanMatchesTheRegexps(t *testing.T) {
	for _, c := range validateScanSeeds {
		if got, want := strings.Join(scanProblems(c[0], c[1]), "|"), strings.Join(refProblems(c[0], c[1]), "|"); got != want {
			t.Errorf("js %q css %q\n got %q\nwant %q", c[0], c[1], got, want)
		}
	}
}

// FuzzImportScanMatchesTheRegexps compares the two on any script and style
// sheet.
func FuzzImportScanMatchesTheRegexps(f *testing.F) {
	for _, c := range validateScanSeeds {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, js, css string) {
		if got, want := strings.Join(scanProblems(js, css), "|"), strings.Join(refProblems(js, css), "|"); got != want {
			t.Fatalf("js %q css %q\n got %q\nwant %q", js, css, got, want)
		}
	})
}
