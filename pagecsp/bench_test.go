package pagecsp

import (
	"testing"

	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
)

// BenchmarkApplyOfflinePage measures writing the CSP meta tag of a packed
// offline page (what every offline generation and preview frame pays).
func BenchmarkApplyOfflinePage(b *testing.B) {
	page, err := viewdefs.Rich(viewdefs.ToolData{Name: "get_forecast", InputSchema: []byte(`{"type":"object","properties":{"location":{"type":"string"}}}`)}, viewdefs.ViewConfig{})
	if err != nil {
		b.Fatal(err)
	}
	page, err = pagepack.Pack(mcpshim.Inject(page))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		Apply(page)
	}
}
