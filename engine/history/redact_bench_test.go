package history

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkEncode: what the writer spends encoding an entry: a small call
// (the proxy benchmark's get_current_weather, a 0.3 KB result), and one
// with small arguments and a 16 KiB result with history.redact's rules
// against none. (The hand encoder stays because of it: encoding/json took
// 5-7x its time for the small call, 3x for the large one, and two
// allocations per entry that it has none of; see the README.)
func BenchmarkEncode(b *testing.B) {
	b.Run("small", func(b *testing.B) {
		s := open(b, Options{})
		small := call("get_current_weather", `{"location":"Berlin"}`,
			`{"content":[{"type":"text","text":"Berlin: 21.5 °C, partly cloudy, wind 12 km/h W, humidity 58%"}],`+
				`"structuredContent":{"location":"Berlin","temperature":21.5,"unit":"celsius","conditions":"partly cloudy",`+
				`"wind":{"speed":12,"direction":"W"},"humidity":58,"observed":"2026-12-02T04:00:00Z"}}`)
		var buf []byte
		b.ReportAllocs()
		for b.Loop() {
			buf, _ = s.encode(buf[:0], 1, small)
		}
	})
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
