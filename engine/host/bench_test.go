package host_test

import (
	"testing"

	"github.com/genui-dev/genui/engine/host"
)

// BenchmarkReadCachedUI measures resources/read of a cached UI through the
// host over in-memory pipes, with ping through the same session as the
// baseline (see ReportMetric "x-ping").
func BenchmarkReadCachedUI(b *testing.B) {
	t := &testing.T{}
	h := startHost(t, demoUpstream(), host.UIMetaAlways)
	h.c.t = t
	h.c.initialize(nil)
	h.c.result("resources/read", map[string]any{"uri": "ui://get_current_weather"}, nil)
	b.Run("ping", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			h.c.result("ping", nil, nil)
		}
	})
	b.Run("read", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			h.c.result("resources/read", map[string]any{"uri": "ui://get_current_weather"}, nil)
		}
	})
}
