package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
)

// BenchmarkReadWhileLLMWrites times what a host's first read of a tool gets
// with an LLM configured: the offline UI, from the cache, while the LLM
// page is still being written (the stand-in provider holds its answer for
// the whole run, so every read takes that path). The baseline, in the same
// engine and interleaved, is a read of a tool whose LLM page is cached:
// x-cached = while-writing-ns / cached-ns.
func BenchmarkReadWhileLLMWrites(b *testing.B) {
	const cachedTool = "get_forecast_cached"
	r := newLLMRig(b, llmtest.Reply{Text: llmtest.ForecastPage}, nil,
		forecastToolJSON, strings.Replace(forecastToolJSON, `"get_forecast"`, `"`+cachedTool+`"`, 1))
	ctx := context.Background()
	readOK := func(tool string) page {
		p, err := r.e.readUI(ctx, tool)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	readOK(cachedTool)
	if !testenv.Until(time.Minute, func() bool { return r.e.ui.generations()[cachedTool].State == contract.GenDone }) {
		b.Fatalf("no LLM page for %s within a minute: %+v", cachedTool, r.e.ui.generations()[cachedTool])
	}
	held := make(chan struct{})
	b.Cleanup(func() { close(held) })
	r.srv.SetDefault(llmtest.Reply{Text: llmtest.ForecastPage, Release: held})
	if p := readOK("get_forecast"); !strings.Contains(p.Meta.FallbackReason, "being generated") {
		b.Fatalf("the first read did not serve the offline UI while the LLM writes: %q %q", p.Meta.UIType, p.Meta.FallbackReason)
	}
	if p := readOK(cachedTool); !p.FromCache {
		b.Fatal("the baseline read is not a cache hit")
	}
	var heldT, cachedT time.Duration
	b.ResetTimer()
	const chunk = 100
	for i := 0; i < b.N; i += chunk {
		n := min(chunk, b.N-i)
		t0 := time.Now()
		for range n {
			readOK("get_forecast")
		}
		t1 := time.Now()
		for range n {
			readOK(cachedTool)
		}
		heldT, cachedT = heldT+t1.Sub(t0), cachedT+time.Since(t1)
	}
	b.StopTimer()
	if st := r.e.ui.generations()["get_forecast"]; st.State != contract.GenRunning {
		b.Fatalf("the generation ended during the run (%s): the reads did not all take the first-read path", st.State)
	}
	n := float64(b.N)
	b.ReportMetric(float64(heldT.Nanoseconds())/n, "while-writing-ns/op")
	b.ReportMetric(float64(cachedT.Nanoseconds())/n, "cached-ns/op")
	if cachedT > 0 {
		b.ReportMetric(float64(heldT)/float64(cachedT), "x-cached")
	}
}
