// Command gen writes the minified assets (see package minify); `go
// generate` runs it in viewdefs and mcpshim, each for its own directory:
//
//	go run ../internal/minify/gen DIR...
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/genui-dev/genui/internal/minify"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "minify:", err)
		os.Exit(1)
	}
}

func run(dirs []string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := minify.Root(wd)
	if err != nil {
		return err
	}
	for i, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return err
		}
		if dirs[i], err = filepath.Rel(root, abs); err != nil {
			return err
		}
	}
	outs, err := minify.Generate(root, dirs...)
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(outs))
	for p := range outs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if old, err := os.ReadFile(full); err == nil && string(old) == string(outs[p]) {
			continue
		}
		if err := os.WriteFile(full, outs[p], 0o644); err != nil {
			return err
		}
		fmt.Printf("minify: wrote %s (%d bytes)\n", p, len(outs[p]))
	}
	return nil
}
