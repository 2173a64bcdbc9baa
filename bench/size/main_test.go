package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestSymbolPackage(t *testing.T) {
	for sym, want := range map[string]string{
		"github.com/openai/openai-go/v3/responses.(*Response).UnmarshalJSON":   "github.com/openai/openai-go/v3/responses",
		"github.com/a/b.F[go.shape.string,github.com/c/d.T]":                   "github.com/a/b",
		"type:*github.com/genui-dev/genui/engine/registry.Tool":                "github.com/genui-dev/genui/engine/registry",
		"go:itab.*github.com/google/go-cmp/cmp.comparer,github.com/x/y.Option": "github.com/google/go-cmp/cmp",
		"net/http.(*Server).Serve":                                             "net/http",
		"runtime.mallocgc":                                                     "runtime",
		"vendor/golang.org/x/net/idna.idnaValues":                              "golang.org/x/net/idna",
		"go:string.*": "",
		"charm.land/fantasy/providers/anthropic.toPrompt.func1": "charm.land/fantasy/providers/anthropic",
		"gopkg.in/natefinch/lumberjack.v2.(*Logger).Write":      "gopkg.in/natefinch/lumberjack.v2",
	} {
		known := map[string]string{"gopkg.in/natefinch/lumberjack.v2": "gopkg.in/natefinch/lumberjack.v2"}
		if got := symbolPackage(sym, known); got != want {
			t.Errorf("symbolPackage(%q) = %q, want %q", sym, got, want)
		}
	}
}

// TestReportsTheMethodLookup: a program that executes a template is
// reported with text/template's lookup and its importer; a plain one is
// reported with dead-code elimination on.
func TestReportsTheMethodLookup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs")
	}
	var out bytes.Buffer
	tmpl := "github.com/genui-dev/genui/bench/size/testdata/tmpl"
	if err := run(&out, "./testdata/tmpl", "", "", 5, false, cut{tmpl, "text/template"}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"stripped linux/amd64 binary", "top modules", "std", "method dead-code elimination: OFF",
		"brought in only by imports the program never calls (" + tmpl + " => text/template):",
		"not measured: " + tmpl + ": not a package of a dependency module",
		"text/template.(*state).evalField", "imported (directly or through the standard library) by: github.com/genui-dev/genui/bench/size/testdata/tmpl"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, " in 0 packages") {
		t.Errorf("the cut import left nothing out:\n%s", s)
	}
	out.Reset()
	if err := run(&out, "./testdata/plain", "", "", 5, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "method dead-code elimination: on") {
		t.Errorf("plain program:\n%s", out.String())
	}
}

// TestGenuiExecutesNoStandardTemplate: no package of genui's binary imports
// the standard library's text/template or html/template, whose execution
// looks methods up by name and makes the linker keep every exported method
// (63 MB against 41 MB; `make size`). Templates use
// github.com/DataDog/datadog-agent/pkg/template instead.
func TestGenuiExecutesNoStandardTemplate(t *testing.T) {
	d, err := loadDeps("github.com/genui-dev/genui/cmd/genui", "grpcnotrace")
	if err != nil {
		t.Fatal(err)
	}
	for p, imps := range d.imports {
		if !strings.HasPrefix(p, "github.com/genui-dev/genui") {
			continue
		}
		for _, i := range imps {
			if i == "text/template" || i == "html/template" {
				t.Errorf("%s imports %s: use github.com/DataDog/datadog-agent/pkg/template/%s", p, i, strings.TrimSuffix(i, "/template"))
			}
		}
	}
}

// TestGenuiLinksNoCloudOnlyBackEnds: genui asks Anthropic and Gemini through
// their SDKs, not fantasy's Anthropic, Google or OpenRouter providers, which
// link the Bedrock and Vertex clients, the AWS SDK and Google's OAuth for
// options genui never sets (3 MB; 41.6 MB against 38.6 MB, `make size`).
func TestGenuiLinksNoCloudOnlyBackEnds(t *testing.T) {
	d, err := loadDeps("github.com/genui-dev/genui/cmd/genui", "grpcnotrace")
	if err != nil {
		t.Fatal(err)
	}
	banned := []string{"charm.land/fantasy/providers/anthropic", "charm.land/fantasy/providers/google",
		"charm.land/fantasy/providers/openrouter", "github.com/anthropics/anthropic-sdk-go/bedrock",
		"github.com/anthropics/anthropic-sdk-go/vertex", "github.com/aws/", "golang.org/x/oauth2/google"}
	if len(d.imports) < 100 {
		t.Fatalf("go list -deps listed only %d packages", len(d.imports))
	}
	for p := range d.imports {
		for _, b := range banned {
			if p == b || strings.HasSuffix(b, "/") && strings.HasPrefix(p, b) {
				t.Errorf("genui links %s", p)
			}
		}
	}
}

// TestOnlyThrough: cutting an import leaves out what only it reaches, not
// what the program also reaches another way.
func TestOnlyThrough(t *testing.T) {
	d := &deps{main: "m", module: map[string]string{
		"m/cmd": "m", "m/llm": "m", "p": "p", "p/cloud": "p", "aws": "aws", "aws/sts": "aws", "shared": "s", "fmt": "std",
	}, imports: map[string][]string{
		"m/cmd":   {"m/llm", "fmt"},
		"m/llm":   {"p"},
		"p":       {"p/cloud", "shared"},
		"p/cloud": {"aws", "shared", "fmt"},
		"aws":     {"aws/sts", "shared"},
		"aws/sts": {"aws"},
	}}
	got := d.onlyThrough([]cut{{"p", "p/cloud"}})
	want := map[string]bool{"p/cloud": true, "aws": true, "aws/sts": true}
	if len(got) != len(want) {
		t.Fatalf("onlyThrough = %v, want %v", got, want)
	}
	for p := range want {
		if !got[p] {
			t.Errorf("onlyThrough lacks %s: %v", p, got)
		}
	}
	if got := d.onlyThrough([]cut{{"m/llm", "p/cloud"}}); len(got) != 0 {
		t.Errorf("an import nobody makes left out %v", got)
	}
}

func TestParseCuts(t *testing.T) {
	got, err := parseCuts(" a/b=>c/d  e=>f ")
	if err != nil || len(got) != 2 || got[0] != (cut{"a/b", "c/d"}) || got[1] != (cut{"e", "f"}) {
		t.Errorf("parseCuts = %v, %v", got, err)
	}
	for _, bad := range []string{"a/b", "=>c", "a=>"} {
		if _, err := parseCuts(bad); err == nil {
			t.Errorf("parseCuts(%q) accepted", bad)
		}
	}
}
