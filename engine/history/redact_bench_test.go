package history

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkEncode: what history.redact costs the writer per entry (one
// call with small arguments and a 16 KiB result), against no rules.
func BenchmarkEncode(b *testing.B) {
	var items []string
	for i := 0; i < 150; i++ {
		items = append(items, fmt.Sprintf(`{"id":%d,"name":"item %d","tags":["a","b"],"score":%d.5}`, i, i, i))
	}
	result := `{"content":[{"type":"text","text":"` + strings.Repeat("x", 4000) + `"}],"structuredContent":{"items":[` + strings.Join(items, ",") + `]}}`
	rec := call("search", `{"query":"weather","limit":10,"options":{"fuzzy":true}}`, result)
	for _, tc := range []struct {
		name  string
		rules []string
	}{{"none", nil}, {"defaults", []string{"*token", "*secret*", "*password*", "*apikey*", "authorization"}}} {
		b.Run(tc.name, func(b *testing.B) {
			s := open(b, Options{Redact: tc.rules})
			var buf []byte
			b.SetBytes(int64(len(result)))
			b.ReportAllocs()
			for b.Loop() {
				buf, _ = s.encode(buf[:0], 1, rec)
			}
		})
	}
}
