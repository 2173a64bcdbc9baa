package tui

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/genui-dev/genui/"

// TestTUISeesOnlyTheEngineAPI: the workbench imports the engine's
// contract and nothing behind it (tui/launch injects the engine or the HTTP
// client).
func TestTUISeesOnlyTheEngineAPI(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, module) && p != module+"engine/contract" && p != module+"pagepack" && p != module+"linediff" {
				t.Errorf("%s imports %s: the TUI may use engine/contract (contract.API), pagepack (to read a packed page) and linediff (to diff a refined page) only", f, p)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked only %d files", checked)
	}
}

// TestTUICompilesWithoutTheEngine: what the workbench compiles (its
// dependencies, transitively) holds none of the engine, the MCP library or
// an LLM provider's SDK: holding a contract.API costs none of them.
func TestTUICompilesWithoutTheEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list -deps listed only %d packages", len(deps))
	}
	banned := []string{"github.com/mark3labs/mcp-go", "charm.land/fantasy", "github.com/anthropics/", "github.com/openai/",
		"google.golang.org/genai", "github.com/aws/", module + "engine/upstream", module + "engine/gen", module + "engine/host"}
	for _, d := range deps {
		if strings.HasPrefix(d, module+"engine") && d != module+"engine/contract" {
			t.Errorf("tui compiles %s", d)
			continue
		}
		for _, b := range banned {
			if strings.HasPrefix(d, b) {
				t.Errorf("tui compiles %s", d)
			}
		}
	}
}
