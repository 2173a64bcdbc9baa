package engine

import (
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
)

// injectShim inlines genui's App implementation into a page (idempotent)
// and writes the page's CSP meta tag for its scripts.
func injectShim(html string) string { return pagecsp.Apply(mcpshim.Inject(html)) }
