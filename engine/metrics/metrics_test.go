package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestNilMetricsIsNoop: parts built without metrics call the same methods.
func TestNilMetricsIsNoop(t *testing.T) {
	var m *Metrics
	m.ObserveRequest("tools/call", true, false, time.Millisecond)
	m.UpstreamError("rpc")
	m.Generation("offline", OutcomeGenerated, time.Millisecond)
	m.Observe(Sources{CacheHits: func() float64 { return 1 }})
}

// TestHandlerServesOwnRegistry: each Metrics has its own registry (two
// can coexist), method labels are bounded, and the handler serves text.
func TestHandlerServesOwnRegistry(t *testing.T) {
	a, b := New(), New()
	hits := 0.0
	a.Observe(Sources{CacheHits: func() float64 { return hits }})
	b.Observe(Sources{CacheHits: func() float64 { return 99 }})
	hits = 3
	a.ObserveRequest("tools/call", true, false, 20*time.Millisecond)
	a.ObserveRequest("x/attacker-chosen-"+strings.Repeat("a", 50), false, true, time.Millisecond)
	a.Generation("anthropic", OutcomeRepaired, 2*time.Second)
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	out := string(body)
	for _, want := range []string{
		"genui_cache_hits_total 3",
		`genui_mcp_request_duration_seconds_count{error="false",method="tools/call",proxied="true"} 1`,
		`genui_mcp_request_duration_seconds_count{error="true",method="other",proxied="false"} 1`,
		`genui_generations_total{generator="anthropic",outcome="repaired"} 1`,
		"go_goroutines",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(out, "attacker") {
		t.Error("an unknown method became a label value")
	}
}

// TestObserveRequestAllocatesNothing: timing a request costs no
// allocation once its series exists (it runs on every proxied call).
func TestObserveRequestAllocatesNothing(t *testing.T) {
	m := New()
	m.ObserveRequest("tools/call", true, false, time.Millisecond)
	if n := testing.AllocsPerRun(100, func() { m.ObserveRequest("tools/call", true, false, time.Millisecond) }); n != 0 {
		t.Errorf("ObserveRequest allocates %v times per call", n)
	}
}
