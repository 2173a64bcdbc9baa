// Package assetunit is the one declaration of how genui's inlined browser
// assets are built: each package that inlines scripts or styles into pages
// (viewdefs, mcpshim) lists its units here once, and both the build step
// (internal/minify, which minifies each unit's joined sources into min/) and
// the package itself (which inlines min/ or, for readable pages, the joined
// sources) read that list. It holds data and string joining only, so the
// packages that serve pages do not link the minifier.
package assetunit

import (
	"fmt"
	"io/fs"
	"strings"
)

// Unit is one inlined asset: its sources concatenated in order and
// minified together (names shared between them are shortened alike).
type Unit struct {
	// Out is the minified output, relative to the declaring package's
	// folder ("min/form.js").
	Out string
	// Srcs are the readable sources, relative to the same folder.
	Srcs []string
	// Module: the sources form one ES module (the pages' module scripts,
	// which import App from @modelcontextprotocol/ext-apps).
	Module bool
	// Wrapped: the sources form one classic script in strict mode, wrapped
	// in a function so that their top-level names stay its own (and are
	// shortened too).
	Wrapped bool
}

// Concat joins a unit's sources the way both the minifier and the
// readable (--debug) pages see them.
func Concat(srcs ...string) string { return strings.Join(srcs, "\n") }

// Wrap turns the joined sources of a Wrapped unit into one classic script,
// as both the minifier and the readable (--debug) pages see it.
func Wrap(src string) string { return "(() => {\n\"use strict\";\n" + src + "\n})();" }

// Source is u's readable source read from fsys (the declaring package's
// folder): its sources joined, wrapped when u is Wrapped. This is what the
// minifier minifies and what readable pages inline.
func (u Unit) Source(fsys fs.FS) (string, error) {
	parts := make([]string, len(u.Srcs))
	for i, s := range u.Srcs {
		b, err := fs.ReadFile(fsys, s)
		if err != nil {
			return "", fmt.Errorf("assetunit: %s: %w", u.Out, err)
		}
		parts[i] = string(b)
	}
	src := Concat(parts...)
	if u.Wrapped {
		src = Wrap(src)
	}
	return src, nil
}
