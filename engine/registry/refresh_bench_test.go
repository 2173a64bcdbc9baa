package registry

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/genui-dev/genui/internal/manytools"
)

// BenchmarkRefresh100k: a refresh that takes 100,000 tools (36 MB of
// JSON) into an empty registry: each tool parsed, indexed by name.
func BenchmarkRefresh100k(b *testing.B) {
	srv := &manytools.Server{N: 100_000}
	raws := make([]json.RawMessage, srv.N)
	for i := range raws {
		raws[i] = srv.Tool(i)
	}
	fetch := func(context.Context) ([]json.RawMessage, error) { return raws, nil }
	for b.Loop() {
		r, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Refresh(context.Background(), fetch); err != nil || len(r.Snapshot()) != srv.N {
			b.Fatal(err)
		}
	}
}
