package engine

import (
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
)

// injectShim inlines genui's App implementation into a page (idempotent)
// and writes the page's CSP meta tag for its scripts; readable: the
// readable app.js (Options.ReadableAssets).
func injectShim(html string, readable bool) string {
	return pagecsp.Apply(mcpshim.Options{ReadableSources: readable}.Inject(html))
}
