package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The layering rules (docs/architecture.md), checked on the source: front
// ends reach the engine through contract.API (and the host through the
// interface it declares), never through its internals; the contract itself
// is a leaf.

const module = "github.com/genui-dev/genui/"

// parseDir parses the non-test Go files of dir (relative to engine/).
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, m, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return files
}

func imports(f *ast.File) []string {
	var out []string
	for _, i := range f.Imports {
		p, _ := strconv.Unquote(i.Path.Value)
		out = append(out, p)
	}
	return out
}

// TestHostUsesTheEngineFrontDoor: the MCP host declares what it needs of
// the engine (host.Engine, host.Upstream, host.Tools) and imports no engine
// package but the contract, the tool registry's types and jsonrpc; it never
// reaches for the upstream client, the cache or the generators.
func TestHostUsesTheEngineFrontDoor(t *testing.T) {
	allowed := map[string]bool{module + "engine/contract": true, module + "engine/registry": true,
		module + "engine/jsonrpc": true, module + "mcpshim": true, module + "viewdefs": true, module + "pagecsp": true}
	checked := 0
	for _, f := range parseDir(t, "host") {
		for _, imp := range imports(f) {
			if strings.HasPrefix(imp, module) && !allowed[imp] {
				t.Errorf("engine/host imports %s: it reaches the engine through its own interfaces (host/engine.go)", imp)
			}
			checked++
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "Broker", "Queue", "AgentQueue", "Cache", "Refinements", "Generator":
					t.Errorf("engine/host calls .%s(): engine internals", sel.Sel.Name)
				}
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("checked only %d imports of engine/host", checked)
	}
}

// TestSideServerUsesTheEngineFrontDoor: httpapi serves contract.API and the
// preview through the interfaces it declares (httpapi/engine.go), never
// *engine.Engine itself; it never reaches for the upstream client, the
// cache or the refinement store.
func TestSideServerUsesTheEngineFrontDoor(t *testing.T) {
	for _, f := range parseDir(t, "httpapi") {
		for _, imp := range imports(f) {
			for _, bad := range []string{"engine/upstream", "engine/cache", "engine/refine", "engine/gen"} {
				if imp == module+bad {
					t.Errorf("engine/httpapi imports %s", imp)
				}
			}
		}
		if names := namesEngineType(f); len(names) > 0 {
			t.Errorf("engine/httpapi names %s: it holds the engine as httpapi.Engine", strings.Join(names, ", "))
		}
	}
}

// namesEngineType lists where f names the engine package's concrete types
// (engine.Engine, engine.Relay): a consumer that should hold an interface.
func namesEngineType(f *ast.File) []string {
	local := ""
	for _, i := range f.Imports {
		if p, _ := strconv.Unquote(i.Path.Value); p == module+"engine" {
			local = "engine"
			if i.Name != nil {
				local = i.Name.Name
			}
		}
	}
	if local == "" {
		return nil
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == local && (sel.Sel.Name == "Engine" || sel.Sel.Name == "Relay") {
				out = append(out, local+"."+sel.Sel.Name)
			}
		}
		return true
	})
	return out
}

// TestEngineNeverImportsUIToolkits: the engine and everything under it stay
// free of bubbletea and lipgloss.
func TestEngineNeverImportsUIToolkits(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
			return err
		}
		matches, _ := filepath.Glob(filepath.Join(path, "*.go"))
		if len(matches) == 0 {
			return nil
		}
		for _, f := range parseDir(t, path) {
			for _, imp := range imports(f) {
				if strings.Contains(imp, "bubbletea") || strings.Contains(imp, "lipgloss") || strings.Contains(imp, "charm.land/bubbles") {
					t.Errorf("%s imports %s", path, imp)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFrontEndsSeeOnlyTheInterface: the TUI imports neither the MCP host
// nor the side server: it holds a contract.API (tui/layering_test.go checks
// it imports the contract and nothing else of genui).
func TestFrontEndsSeeOnlyTheInterface(t *testing.T) {
	for _, f := range parseDir(t, "../tui") {
		for _, imp := range imports(f) {
			if imp == module+"engine/host" || imp == module+"engine/httpapi" || imp == module+"engine/upstream" {
				t.Errorf("tui imports %s", imp)
			}
		}
	}
}

// TestContractIsALeaf: engine/contract imports the standard library only,
// so whoever holds a contract.API compiles nothing of the engine.
func TestContractIsALeaf(t *testing.T) {
	for _, f := range parseDir(t, "contract") {
		for _, imp := range imports(f) {
			if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") {
				t.Errorf("engine/contract imports %s: only the standard library is allowed", imp)
			}
		}
	}
}

// TestClientSeesOnlyTheContract: the HTTP client of the side server needs
// the contract and nothing else of genui.
func TestClientSeesOnlyTheContract(t *testing.T) {
	for _, f := range parseDir(t, "apiclient") {
		for _, imp := range imports(f) {
			if strings.HasPrefix(imp, module) && imp != module+"engine/contract" {
				t.Errorf("engine/apiclient imports %s", imp)
			}
		}
	}
}

// TestRegistryIsLow: the tool registry, which the host sees, stays below
// the engine: the contract, jsonrpc and the cache's hashing only.
func TestRegistryIsLow(t *testing.T) {
	allowed := map[string]bool{module + "engine/contract": true, module + "engine/jsonrpc": true, module + "engine/cache": true}
	for _, f := range parseDir(t, "registry") {
		for _, imp := range imports(f) {
			if strings.HasPrefix(imp, module) && !allowed[imp] {
				t.Errorf("engine/registry imports %s", imp)
			}
		}
	}
}

// TestDevelopLoopPackagesAreLow: the call history, the checks, the result
// diff and the file watch sit below the engine: the contract, jsonrpc and
// safefile, each other where they build on one another, nothing above.
func TestDevelopLoopPackagesAreLow(t *testing.T) {
	allowed := map[string]map[string]bool{
		"history":    {module + "engine/contract": true, module + "engine/jsonrpc": true, module + "engine/safefile": true},
		"checks":     {module + "engine/contract": true, module + "engine/resultdiff": true, module + "engine/safefile": true},
		"resultdiff": {module + "engine/contract": true, module + "linediff": true},
		"watch":      {},
		// The linter and the schema checks it and elicitation answers use.
		"lint":        {module + "engine/contract": true, module + "engine/schemacheck": true},
		"schemacheck": {},
		// Services of the engine that stand alone.
		"suggest":     {},
		"traffic":     {module + "engine/contract": true, module + "engine/jsonrpc": true},
		"toolchanges": {module + "engine/contract": true, module + "engine/registry": true, module + "engine/resultdiff": true},
	}
	for dir, ok := range allowed {
		for _, f := range parseDir(t, dir) {
			for _, imp := range imports(f) {
				if strings.HasPrefix(imp, module) && !ok[imp] {
					t.Errorf("engine/%s imports %s", dir, imp)
				}
			}
		}
	}
}
