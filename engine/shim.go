package engine

import "github.com/genui-dev/genui/mcpshim"

// injectShim inlines genui's App implementation into a page (idempotent).
func injectShim(html string) string { return mcpshim.Inject(html) }
