package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// cmd/genui is flag parsing and wiring only (architecture.md: "cobra
// commands only ... No logic"): configuration lives in package config,
// running genui in engine/app. These tests hold it to that on the source.

const module = "github.com/genui-dev/genui/"

// allowedImports are what a command may use.
var allowedImports = map[string]bool{
	"fmt": true, "os": true, "github.com/spf13/cobra": true,
	module + "config": true, module + "engine/app": true,
	module + "engine":      true, // genui version: engine.VersionLine
	module + "engine/demo": true, // genui demo-server: demo.ServeStdio
	module + "tui/launch":  true, // genui tui hands the set-up configuration to the workbench's launcher
}

var cmdFunc = regexp.MustCompile(`^new[A-Z][A-Za-z]*Cmd$`)

// logicIn lists what in f is more than flag parsing and wiring: imports
// beyond cobra, config and app; declarations other than main and
// new...Cmd constructors; loops, switches, selects, goroutines, channel
// sends; conditions other than `err != nil` returning; function literals
// other than a cobra.Command's Run/RunE; arithmetic and comparisons.
func logicIn(fset *token.FileSet, f *ast.File) []string {
	var out []string
	bad := func(n ast.Node, format string, args ...any) {
		out = append(out, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(format, args...)))
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !allowedImports[p] {
			bad(imp, "imports %s (commands use only cobra, config, engine/app, engine, engine/demo and tui/launch)", p)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.IMPORT {
				bad(d, "declares a %s at top level", d.Tok)
			}
		case *ast.FuncDecl:
			if d.Recv != nil || (d.Name.Name != "main" && !cmdFunc.MatchString(d.Name.Name)) {
				bad(d, "declares func %s (only main and new...Cmd constructors)", d.Name.Name)
			}
		}
	}
	// allowedLits are the function literals given as Run/RunE of a
	// cobra.Command literal.
	allowedLits := map[*ast.FuncLit]bool{}
	okIfs := map[*ast.IfStmt]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && (k.Name == "RunE" || k.Name == "Run") {
				if fl, ok := n.Value.(*ast.FuncLit); ok {
					allowedLits[fl] = true
				}
			}
		case *ast.IfStmt:
			if isErrCheck(n) {
				okIfs[n] = true
			}
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			bad(n, "loops")
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			bad(n, "branches with switch/select")
		case *ast.GoStmt:
			bad(n, "starts a goroutine")
		case *ast.SendStmt:
			bad(n, "sends on a channel")
		case *ast.IfStmt:
			if !okIfs[n] {
				bad(n, "has a condition other than `if err != nil { return err }`")
			}
		case *ast.FuncLit:
			if !allowedLits[n] {
				bad(n, "has a function literal that is not a cobra Run/RunE")
			}
		case *ast.BinaryExpr:
			if !(n.Op == token.ADD && isStringLit(n)) && !(n.Op == token.NEQ && isErrNil(n)) {
				bad(n, "computes (%s)", n.Op)
			}
		case *ast.UnaryExpr:
			if n.Op != token.AND {
				bad(n, "computes (%s)", n.Op)
			}
		case *ast.IndexExpr, *ast.SliceExpr:
			bad(n, "indexes or slices")
		}
		return true
	})
	return out
}

// isErrCheck is `if [x, ]err := call(); err != nil { ... }` with no else,
// whose body only returns or calls (report and exit).
func isErrCheck(n *ast.IfStmt) bool {
	b, ok := n.Cond.(*ast.BinaryExpr)
	if !ok || !isErrNil(b) || n.Else != nil || len(n.Body.List) == 0 || len(n.Body.List) > 2 {
		return false
	}
	for _, s := range n.Body.List {
		switch s.(type) {
		case *ast.ReturnStmt, *ast.ExprStmt:
		default:
			return false
		}
	}
	return true
}

func isErrNil(b *ast.BinaryExpr) bool {
	x, ok1 := b.X.(*ast.Ident)
	y, ok2 := b.Y.(*ast.Ident)
	return b.Op == token.NEQ && ok1 && ok2 && x.Name == "err" && y.Name == "nil"
}

func isStringLit(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.BinaryExpr:
		return e.Op == token.ADD && isStringLit(e.X) && isStringLit(e.Y)
	case *ast.ParenExpr:
		return isStringLit(e.X)
	}
	return false
}

// TestCommandsHoldNoLogic: every non-test file of cmd/genui is wiring.
func TestCommandsHoldNoLogic(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		n++
		for _, p := range logicIn(fset, f) {
			t.Error(p)
		}
	}
	if n < 3 {
		t.Fatalf("found %d command files; is this cmd/genui?", n)
	}
}

// TestLogicCheckCatchesLogic: the check above fails on the kind of code
// that used to live here (so it cannot pass vacuously).
func TestLogicCheckCatchesLogic(t *testing.T) {
	src := `package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"
)

type resolved struct{ dir string }

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func newXCmd() *cobra.Command {
	var dir string
	return &cobra.Command{RunE: func(cmd *cobra.Command, args []string) error {
		d := firstNonEmpty(dir, os.Getenv("GENUI_DIR"), ".ui")
		if len(args) > 1 {
			d = args[0]
		}
		go func() {}()
		_ = strings.ToUpper(d)
		return nil
	}}
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(logicIn(fset, f), "\n")
	for _, want := range []string{"imports strings", "declares a type", "declares func firstNonEmpty", "loops",
		"condition other than", "starts a goroutine", "function literal that is not", "indexes"} {
		if !strings.Contains(got, want) {
			t.Errorf("the check missed %q; it reported:\n%s", want, got)
		}
	}
}
