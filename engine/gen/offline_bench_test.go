package gen

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkOfflineGenerate is one offline page for a small tool, as
// prewarming makes one per tool: template, shim, self-check, packing, CSP.
func BenchmarkOfflineGenerate(b *testing.B) {
	tool := Tool{Name: "get_forecast", Description: "Forecast for a city",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`)}
	g := NewOffline()
	for b.Loop() {
		if _, err := g.Generate(context.Background(), Request{Tool: tool}); err != nil {
			b.Fatal(err)
		}
	}
}
