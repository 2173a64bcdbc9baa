package viewdefs

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/genui-dev/genui/internal/assetunit"
)

// The scripts and styles inlined into the offline pages. What pages carry
// is the esbuild-minified build under min/ (`go generate ./viewdefs`,
// internal/minify; TestMinifiedAssetsAreFresh there fails when it is
// stale); the readable sources beside it are what is edited, and what
// pages carry instead when rendered with Options.ReadableSources (genui
// --debug).

//go:generate go run ../internal/minify/gen .

var (
	//go:embed min
	minFS embed.FS
	//go:embed connect.js form-base.js form.js form-nested.js form-none.js rich.js textlines.js textdata.js text.js render.js page.js emergency.js page.css rich.css rich-views.css
	srcFS embed.FS
)

// AssetUnits are the units a page inlines, declared once: internal/minify
// builds min/ from them and the pages read them by their Out. The pages'
// own scripts are units of several sources: render.js (result rendering
// shared by the pages) followed by page.js (the offline UI: one classic
// script wrapped in a function, so it runs the moment the packed page's
// loader inserts it) or emergency.js (the emergency page: one ES module);
// form-base.js (the element helper and description folding) opens both
// form.js and form-none.js. The text readers are units of their own, so a
// page carries only those its view can need (pageUnits).
var AssetUnits = []assetunit.Unit{
	{Out: "min/connect.js", Srcs: []string{"connect.js"}},
	{Out: "min/form.js", Srcs: []string{"form-base.js", "form.js"}, Wrapped: true},
	{Out: "min/form-nested.js", Srcs: []string{"form-nested.js"}},
	{Out: "min/form-none.js", Srcs: []string{"form-base.js", "form-none.js"}, Wrapped: true},
	{Out: "min/rich.js", Srcs: []string{"rich.js"}},
	{Out: "min/textlines.js", Srcs: []string{"textlines.js"}},
	{Out: "min/textdata.js", Srcs: []string{"textdata.js"}},
	{Out: "min/text.js", Srcs: []string{"text.js"}},
	{Out: "min/page-rich.js", Srcs: []string{"render.js", "page.js"}, Wrapped: true},
	{Out: "min/emergency.js", Srcs: []string{"render.js", "emergency.js"}, Module: true},
	{Out: "min/page.css", Srcs: []string{"page.css"}},
	{Out: "min/rich.css", Srcs: []string{"rich.css"}},
	{Out: "min/rich-views.css", Srcs: []string{"rich-views.css"}},
}

// assets is one build of everything a page inlines, by unit (the Out of
// an AssetUnits entry).
type assets map[string]string

var (
	minAssets = sync.OnceValue(func() assets { return load(minFS, true) })
	srcAssets = sync.OnceValue(func() assets { return load(srcFS, false) })
)

// load reads one build: the min/ files, or each unit's sources joined the
// way internal/minify joins them before minifying.
func load(fsys embed.FS, min bool) assets {
	a := assets{}
	for _, u := range AssetUnits {
		var (
			s   string
			err error
		)
		if min {
			var b []byte
			b, err = fs.ReadFile(fsys, u.Out)
			s = string(b)
		} else {
			s, err = u.Source(fsys)
		}
		if err != nil {
			panic("viewdefs: embedded asset missing: " + err.Error())
		}
		a[u.Out] = s
	}
	return a
}

// get is the unit out of this build; a name no unit declares is a bug.
func (a assets) get(out string) string {
	s, ok := a[out]
	if !ok {
		panic("viewdefs: no asset unit " + out)
	}
	return s
}

// Options are how a page is rendered.
type Options struct {
	// ReadableSources inlines the readable sources instead of the minified
	// build (for debugging a page in a browser's developer tools; genui
	// --debug). Such pages are other pages than the minified ones (a UI
	// cache keys them apart).
	ReadableSources bool
}

func (o Options) assets() assets {
	if o.ReadableSources {
		return srcAssets()
	}
	return minAssets()
}
