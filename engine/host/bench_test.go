package host_test

import (
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
)

// BenchmarkReadCachedUI measures resources/read of a cached UI through the
// host over in-memory pipes; ping through the same session, interleaved, is
// the baseline (metric x-ping = read time / ping time).
func BenchmarkReadCachedUI(b *testing.B) {
	t := &testing.T{}
	h := startHost(t, demoUpstream(), host.UIMetaAlways)
	h.c.t = t
	h.c.initialize(nil)
	h.c.result("resources/read", map[string]any{"uri": "ui://get_current_weather"}, nil)
	var readT, pingT time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		h.c.result("resources/read", map[string]any{"uri": "ui://get_current_weather"}, nil)
		t1 := time.Now()
		h.c.result("ping", nil, nil)
		readT += t1.Sub(t0)
		pingT += time.Since(t1)
	}
	b.ReportMetric(float64(readT.Nanoseconds())/float64(b.N), "read-ns/op")
	b.ReportMetric(float64(pingT.Nanoseconds())/float64(b.N), "ping-ns/op")
	if pingT > 0 {
		b.ReportMetric(float64(readT)/float64(pingT), "x-ping")
	}
}
