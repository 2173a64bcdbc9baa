package apitest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

// calledMethods are the methods of contract.API the suite's cases call
// (api.Method(...)) in files.
func calledMethods(t *testing.T, files []string) map[string]bool {
	t.Helper()
	called := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "api" {
				called[sel.Sel.Name] = true
			}
			return true
		})
	}
	return called
}

// uncovered are the rows of contract.Methods no case in files calls.
func uncovered(t *testing.T, files []string) []string {
	called := calledMethods(t, files)
	var out []string
	for _, m := range contract.Methods {
		if !called[m.Name] {
			out = append(out, m.Name)
		}
	}
	return out
}

func suiteFiles(t *testing.T) []string {
	files, err := filepath.Glob("suite*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite files: %v", err)
	}
	return files
}

// TestConformanceCoversMethodTable: the suite (Run and RunHost, which
// both implementations pass) calls every method of contract.Methods.
func TestConformanceCoversMethodTable(t *testing.T) {
	if missing := uncovered(t, suiteFiles(t)); len(missing) > 0 {
		t.Errorf("no conformance case calls %v", missing)
	}
}

// TestConformanceCoverageCheckBites: without the develop cases the check
// reports the methods only they call.
func TestConformanceCoverageCheckBites(t *testing.T) {
	files := slices.DeleteFunc(suiteFiles(t), func(f string) bool { return strings.HasSuffix(f, "suite_develop.go") })
	missing := uncovered(t, files)
	for _, want := range []string{"History", "CompareCalls", "AddCheck", "RunChecks"} {
		if !slices.Contains(missing, want) {
			t.Errorf("%s went unreported without suite_develop.go (reported %v)", want, missing)
		}
	}
}
