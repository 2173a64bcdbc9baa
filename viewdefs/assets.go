package viewdefs

import (
	"embed"
	"strings"
	"sync"
	"sync/atomic"
)

// The scripts and styles inlined into the offline pages. What pages carry
// is the esbuild-minified build under min/ (`go generate ./viewdefs`,
// internal/minify; TestMinifiedAssetsAreFresh there fails when it is
// stale); the readable sources beside it are what is edited, and what
// pages carry instead after UseReadableSources(true) (genui --debug).
//
// The pages' own scripts are units: render.js (result rendering shared by
// the pages) followed by page.js (the offline UI: one classic script
// wrapped in a function, so it runs the moment the packed page's loader
// inserts it) or emergency.js (the emergency page: one ES module).

//go:generate go run ../internal/minify/gen .

var (
	//go:embed min
	minFS embed.FS
	//go:embed connect.js form.js form-nested.js form-none.js rich.js textlines.js textdata.js text.js render.js page.js emergency.js page.css rich.css
	srcFS embed.FS
)

// assets is one build of everything a page inlines.
type assets struct {
	connect, form, formNested, formNone, rich, text string
	pageRich, emergency                             string
	pageCSS, richCSS                                string
}

var (
	minAssets = sync.OnceValue(func() *assets { return load(minFS, true) })
	srcAssets = sync.OnceValue(func() *assets { return load(srcFS, false) })
	readable  atomic.Bool
)

// load reads one build: min/ files, or the sources with units joined the
// way internal/minify joins them before minifying.
func load(fs embed.FS, min bool) *assets {
	read := func(name string) string {
		if min {
			name = "min/" + name
		}
		b, err := fs.ReadFile(name)
		if err != nil {
			panic("viewdefs: embedded asset missing: " + name)
		}
		return string(b)
	}
	unit := func(minName string, srcs ...string) string {
		if min {
			return read(minName)
		}
		parts := make([]string, len(srcs))
		for i, s := range srcs {
			parts[i] = read(s)
		}
		return strings.Join(parts, "\n")
	}
	// A Wrapped unit (internal/minify): one classic script in strict mode,
	// its top-level names its own; the minified build is wrapped already.
	wrapped := func(src string) string {
		if min {
			return src
		}
		return "(() => {\n\"use strict\";\n" + src + "\n})();"
	}
	return &assets{
		connect: read("connect.js"), form: read("form.js"), formNested: read("form-nested.js"), formNone: read("form-none.js"),
		rich: read("rich.js"), text: unit("text.js", "textlines.js", "textdata.js", "text.js"),
		pageRich:  wrapped(unit("page-rich.js", "render.js", "page.js")),
		emergency: unit("emergency.js", "render.js", "emergency.js"),
		pageCSS:   read("page.css"), richCSS: read("rich.css"),
	}
}

// UseReadableSources makes pages rendered from now on inline the readable
// sources instead of the minified build (for debugging a page in a
// browser's developer tools; genui --debug). Process-wide.
func UseReadableSources(on bool) { readable.Store(on) }

// ReadableSources reports whether pages inline the readable sources (part
// of a UI's cache key: the two builds are different pages).
func ReadableSources() bool { return readable.Load() }

func cur() *assets {
	if readable.Load() {
		return srcAssets()
	}
	return minAssets()
}
