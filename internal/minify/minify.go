// Package minify is genui's build-time asset step: it minifies the
// JavaScript and CSS inlined into every generated UI (mcpshim's App and
// viewdefs' scripts and styles, pagepack's loader) with esbuild's Go API,
// from the units those packages declare (AssetUnits). `go generate
// ./viewdefs ./mcpshim ./pagepack` runs it (gen/) and the output is
// committed under each package's min/; TestMinifiedAssetsAreFresh fails when a source
// changed without regenerating. The readable sources stay beside the
// output and are served instead with --debug.
package minify

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/genui-dev/genui/internal/assetunit"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
)

// Unit is one minified output, Out and Srcs relative to the module root
// (a declaring package's assetunit.Unit with its folder put in front).
type Unit = assetunit.Unit

// Units are every minified asset: each package's own declaration
// (viewdefs.AssetUnits, mcpshim.AssetUnits, pagepack.AssetUnits), the one list both the
// packages and this build step read.
func Units() []Unit {
	var out []Unit
	for _, d := range []struct {
		dir   string
		units []assetunit.Unit
	}{{"mcpshim", mcpshim.AssetUnits}, {"pagepack", pagepack.AssetUnits}, {"viewdefs", viewdefs.AssetUnits}} {
		for _, u := range d.units {
			v := u
			v.Out = path.Join(d.dir, u.Out)
			v.Srcs = make([]string, len(u.Srcs))
			for i, s := range u.Srcs {
				v.Srcs[i] = path.Join(d.dir, s)
			}
			out = append(out, v)
		}
	}
	return out
}

// Build minifies one unit's concatenated source.
func Build(u Unit, src string) ([]byte, error) {
	opts := api.TransformOptions{
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		// What hosts' webviews run (Chromium, WebKit); nothing is lowered
		// that the sources do not use already.
		Target: api.ES2020,
		// ASCII: non-ASCII characters become escapes. A page's loader
		// decodes its packed text as one string, and one character past
		// U+00FF made all of it two-byte: the CSS parser, the script
		// compiler and each part's copy into the DOM then ran on twice the
		// bytes (bench/pagerender: first paint 1-3 ms later per shape).
		Charset:       api.CharsetASCII,
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
	for i, c := range out {
		if c >= 0x80 { // esbuild leaves some (a regular expression's) as they are
			line := bytes.Count(out[:i], []byte("\n")) + 1
			return nil, fmt.Errorf("minify %s: a character past ASCII stays in the output (line %d: %q); write it as an escape (\\u....) in the source", u.Out, line, out[max(0, i-30):min(len(out), i+10)])
		}
	}
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
	for _, u := range Units() {
		if len(dirs) > 0 && !under(u.Out, dirs) {
			continue
		}
		src, err := u.Source(os.DirFS(root))
		if err != nil {
			return nil, err
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
