package viewdefs

import (
	"github.com/genui-dev/genui/internal/assetunit"
	"github.com/genui-dev/genui/viewspec"
)

// RichJS returns the rich renderers as pages inline them.
func RichJS() string { return minAssets().get("min/rich.js") }

// TextJS returns the text renderers as pages inline them: text.js with
// its readers (textlines.js, textdata.js), as a page a text can reach
// carries them.
func TextJS() string {
	a := minAssets()
	return a.get("min/textlines.js") + a.get("min/textdata.js") + a.get("min/text.js")
}

// MarkdownJS returns the vendored markdown parser.
func MarkdownJS() string { return markdownJS }

func assetunitFind(out string) (assetunit.Unit, bool) {
	for _, u := range AssetUnits {
		if u.Out == out {
			return u, true
		}
	}
	return assetunit.Unit{}, false
}

// RichSpec and Emergency render with the minified build (Options{}).
func RichSpec(t ToolData, spec viewspec.Spec, outcomes []viewspec.Outcome) (string, error) {
	return Options{}.RichSpec(t, spec, outcomes)
}

func Emergency(t ToolData, reason string) (string, error) { return Options{}.Emergency(t, reason) }
