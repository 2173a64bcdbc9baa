// Package minify is genui's build-time asset step: it minifies the
// JavaScript and CSS inlined into every generated UI (mcpshim's App and
// viewdefs' scripts and styles) with esbuild's Go API. `go generate
// ./viewdefs ./mcpshim` runs it (gen/) and the output is committed under
// each package's min/; TestMinifiedAssetsAreFresh fails when a source
// changed without regenerating. The readable sources stay beside the
// output and are served instead with --debug.
package minify

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Unit is one minified output: its sources (paths relative to the module
// root) concatenated in order and minified together, so names shared
// between them are shortened alike.
type Unit struct {
	Out  string   // relative to the module root
	Srcs []string // relative to the module root
	// Module: the sources form one ES module (the pages' module scripts,
	// which import App from @modelcontextprotocol/ext-apps).
	Module bool
	// Wrapped: the sources form one classic script in strict mode, wrapped
	// in a function so that their top-level names stay its own (and are
	// shortened too).
	Wrapped bool
}

// Units are every minified asset.
var Units = []Unit{
	{Out: "mcpshim/min/app.js", Srcs: []string{"mcpshim/app.js"}},
	{Out: "mcpshim/min/guard.js", Srcs: []string{"mcpshim/guard.js"}},
	{Out: "viewdefs/min/connect.js", Srcs: []string{"viewdefs/connect.js"}},
	{Out: "viewdefs/min/form.js", Srcs: []string{"viewdefs/form.js"}},
	{Out: "viewdefs/min/form-nested.js", Srcs: []string{"viewdefs/form-nested.js"}},
	{Out: "viewdefs/min/form-none.js", Srcs: []string{"viewdefs/form-none.js"}},
	{Out: "viewdefs/min/rich.js", Srcs: []string{"viewdefs/rich.js"}},
	{Out: "viewdefs/min/text.js", Srcs: []string{"viewdefs/textlines.js", "viewdefs/textdata.js", "viewdefs/text.js"}},
	{Out: "viewdefs/min/page-rich.js", Srcs: []string{"viewdefs/render.js", "viewdefs/page.js"}, Wrapped: true},
	{Out: "viewdefs/min/emergency.js", Srcs: []string{"viewdefs/render.js", "viewdefs/emergency.js"}, Module: true},
	{Out: "viewdefs/min/page.css", Srcs: []string{"viewdefs/page.css"}},
	{Out: "viewdefs/min/rich.css", Srcs: []string{"viewdefs/rich.css"}},
}

// Concat joins a unit's sources the way both the minifier and the
// readable (--debug) pages see them.
func Concat(srcs ...string) string { return strings.Join(srcs, "\n") }

// Wrap turns the joined sources of a Wrapped unit into one classic script,
// as both the minifier and the readable (--debug) pages see it.
func Wrap(src string) string { return "(() => {\n\"use strict\";\n" + src + "\n})();" }

// Build minifies one unit's concatenated source.
func Build(u Unit, src string) ([]byte, error) {
	opts := api.TransformOptions{
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		// What hosts' webviews run (Chromium, WebKit); nothing is lowered
		// that the sources do not use already.
		Target:        api.ES2020,
		Charset:       api.CharsetUTF8,
		LegalComments: api.LegalCommentsNone,
		Loader:        api.LoaderJS,
	}
	if strings.HasSuffix(u.Out, ".css") {
		opts.Loader, opts.Target = api.LoaderCSS, api.ESNext
		opts.Engines = []api.Engine{{Name: api.EngineChrome, Version: "111"}, {Name: api.EngineSafari, Version: "16.4"}}
	}
	if u.Module {
		opts.Format = api.FormatESModule // top-level names are the module's own: shortened too
	}
	r := api.Transform(src, opts)
	if len(r.Errors) > 0 {
		var msgs []string
		for _, e := range r.Errors {
			loc := ""
			if e.Location != nil {
				loc = fmt.Sprintf(" (line %d of the concatenated sources: %s)", e.Location.Line, strings.TrimSpace(e.Location.LineText))
			}
			msgs = append(msgs, e.Text+loc)
		}
		return nil, fmt.Errorf("minify %s: %s", u.Out, strings.Join(msgs, "; "))
	}
	out := bytes.TrimRight(r.Code, "\n")
	if low := bytes.ToLower(out); bytes.Contains(low, []byte("</script")) || bytes.Contains(low, []byte("</style")) {
		return nil, fmt.Errorf("minify %s: the output closes its element (</script or </style)", u.Out)
	}
	return out, nil
}

// Root finds the module root from dir (the directory holding go.mod).
func Root(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("minify: no go.mod above " + dir)
		}
	}
}

// Generate builds every unit whose output lies under one of dirs (all
// when dirs is empty) from the sources under root, and returns the outputs
// by path.
func Generate(root string, dirs ...string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, u := range Units {
		if len(dirs) > 0 && !under(u.Out, dirs) {
			continue
		}
		var srcs []string
		for _, s := range u.Srcs {
			b, err := os.ReadFile(filepath.Join(root, s))
			if err != nil {
				return nil, err
			}
			srcs = append(srcs, string(b))
		}
		src := Concat(srcs...)
		if u.Wrapped {
			src = Wrap(src)
		}
		b, err := Build(u, src)
		if err != nil {
			return nil, err
		}
		out[u.Out] = b
	}
	return out, nil
}

func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}
