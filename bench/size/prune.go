package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// buildWithoutImports builds pkg as if the cut imports were gone: each
// importing package's module is copied to dir, the copy's statements and
// declarations that use a cut import are deleted (the outermost statement
// of the function body holding the use, or the whole declaration), imports
// nothing uses any more are dropped, and a scratch go.mod (-modfile)
// replaces the module with the copy. A measurement, never a release build:
// the deleted code is the back ends the program never configures.
func buildWithoutImports(dir, pkg, tags, ldflags string, cuts []cut) (string, error) {
	byFrom := map[string]map[string]bool{}
	for _, c := range cuts {
		if byFrom[c.from] == nil {
			byFrom[c.from] = map[string]bool{}
		}
		byFrom[c.from][c.to] = true
	}
	froms := make([]string, 0, len(byFrom))
	for f := range byFrom {
		froms = append(froms, f)
	}
	sort.Strings(froms)
	copies := map[string]string{} // module path -> scratch copy
	for i, from := range froms {
		info, err := goList(tags, "{{.Dir}}\t{{with .Module}}{{.Path}}\t{{.Dir}}\t{{.Main}}{{end}}\t{{join .GoFiles \",\"}}\t{{join .Imports \",\"}}", from)
		if err != nil {
			return "", err
		}
		f := strings.Split(info[0], "\t")
		if len(f) != 6 || f[1] == "" || f[3] == "true" {
			return "", fmt.Errorf("%s: not a package of a dependency module", from)
		}
		pkgDir, modPath, modDir, files := f[0], f[1], f[2], strings.Split(f[4], ",")
		cp, ok := copies[modPath]
		if !ok {
			cp = filepath.Join(dir, "mod"+strconv.Itoa(i))
			if err := os.CopyFS(cp, os.DirFS(modDir)); err != nil {
				return "", err
			}
			copies[modPath] = cp
		}
		names, err := packageNames(tags, strings.Split(f[5], ","))
		if err != nil {
			return "", err
		}
		rel, err := filepath.Rel(modDir, pkgDir)
		if err != nil {
			return "", err
		}
		pruned := 0
		for _, name := range files {
			path := filepath.Join(cp, rel, name)
			src, err := os.ReadFile(path)
			if err != nil {
				return "", err
			}
			out, n, err := pruneImports(src, byFrom[from], names)
			if err != nil {
				return "", fmt.Errorf("%s/%s: %w", from, name, err)
			}
			pruned += n
			if n > 0 {
				if err := os.WriteFile(path, out, 0o644); err != nil {
					return "", err
				}
			}
		}
		if pruned == 0 {
			return "", fmt.Errorf("%s uses none of the imports cut from it: update the cut list", from)
		}
	}
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	mainMod := strings.TrimSpace(string(gomod))
	mod, err := os.ReadFile(mainMod)
	if err != nil {
		return "", err
	}
	for m, cp := range copies {
		mod = fmt.Appendf(mod, "\nreplace %s => %s\n", m, cp)
	}
	modfile := filepath.Join(dir, "without.mod")
	if err := os.WriteFile(modfile, mod, 0o644); err != nil {
		return "", err
	}
	sum, err := os.ReadFile(strings.TrimSuffix(mainMod, ".mod") + ".sum")
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "without.sum"), sum, 0o644); err != nil {
		return "", err
	}
	return build(dir, "genui-without", pkg, tags, strings.TrimSpace("-s -w "+ldflags), "-modfile", modfile)
}

// goList runs go list -f format for pkgs on linux/amd64, one line each.
func goList(tags, format string, pkgs ...string) ([]string, error) {
	args := []string{"list", "-f", format}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, pkgs...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v: %s", strings.Join(pkgs, " "), err, stderr.Bytes())
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n"), nil
}

// packageNames maps import paths to their package names.
func packageNames(tags string, paths []string) (map[string]string, error) {
	out := map[string]string{}
	var list []string
	for _, p := range paths {
		if p != "" && p != "C" && p != "unsafe" {
			list = append(list, p)
		}
	}
	out["unsafe"] = "unsafe"
	if len(list) == 0 {
		return out, nil
	}
	lines, err := goList(tags, "{{.ImportPath}} {{.Name}}", list...)
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		if p, n, ok := strings.Cut(l, " "); ok {
			out[p] = n
		}
	}
	return out, nil
}

// pruneImports deletes from one Go file what uses the cut imports: a
// top-level declaration that mentions one (in its signature or anywhere in
// a var, const or type), or else the outermost statement of a function body
// that mentions one (refused for a return statement, whose removal would
// change what the function means), then the imports nothing uses any more.
// names maps import paths to package names. It returns the new source and
// how many declarations and statements it deleted.
func pruneImports(src []byte, cut map[string]bool, names map[string]string) ([]byte, int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, 0, err
	}
	local := func(spec *ast.ImportSpec) string {
		path, _ := strconv.Unquote(spec.Path.Value)
		if spec.Name != nil {
			return spec.Name.Name
		}
		if n, ok := names[path]; ok {
			return n
		}
		return path[strings.LastIndex(path, "/")+1:]
	}
	gone := map[string]bool{} // local names of the cut imports in this file
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		if cut[path] {
			gone[local(spec)] = true
		}
	}
	if len(gone) == 0 {
		return src, 0, nil
	}
	uses := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil && gone[id.Name] {
					found = true
				}
			}
			return !found
		})
		return found
	}
	var removed []ast.Node
	deleted := 0
	var decls []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if uses(d.Type) || d.Recv != nil && uses(d.Recv) {
				removed = append(removed, d)
				deleted++
				continue
			}
			if d.Body != nil {
				var keep []ast.Stmt
				for _, s := range d.Body.List {
					if !uses(s) {
						keep = append(keep, s)
						continue
					}
					if _, ok := s.(*ast.ReturnStmt); ok {
						return nil, 0, fmt.Errorf("%s returns what a cut import gives: cannot leave it out", d.Name.Name)
					}
					removed = append(removed, s)
					deleted++
				}
				d.Body.List = keep
			}
		case *ast.GenDecl:
			if d.Tok != token.IMPORT && uses(d) {
				removed = append(removed, d)
				deleted++
				continue
			}
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	// Drop the comments inside what was deleted, then the unused imports.
	var comments []*ast.CommentGroup
	for _, c := range f.Comments {
		inside := false
		for _, n := range removed {
			if c.Pos() >= n.Pos() && c.End() <= n.End() {
				inside = true
			}
		}
		if !inside {
			comments = append(comments, c)
		}
	}
	f.Comments = comments
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
				used[id.Name] = true
			}
		}
		return true
	})
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		var specs []ast.Spec
		for _, s := range g.Specs {
			spec := s.(*ast.ImportSpec)
			if n := local(spec); n == "_" || n == "." || used[n] {
				specs = append(specs, s)
			}
		}
		g.Specs = specs
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, 0, err
	}
	return out.Bytes(), deleted, nil
}
