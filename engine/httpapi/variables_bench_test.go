package httpapi

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
)

// BenchmarkVariablesThousandTools times GET /variables (JSON and the
// server-rendered page) with 1,000 upstream tools against the same request
// with 10 tools in the same run, interleaved: x-per-tool is the cost per
// tool at 1,000 over the cost per tool at 10 (about 1 when the page grows
// linearly with the tools; TestVariablesThousandTools checks what it
// holds).
func BenchmarkVariablesThousandTools(b *testing.B) {
	big, small := variablesServer(b, 1000), variablesServer(b, 10)
	for _, accept := range []string{"application/json", "text/html"} {
		b.Run(accept, func(b *testing.B) {
			get := func(base string) {
				req, _ := http.NewRequest(http.MethodGet, base+"/variables", nil)
				req.Header.Set("Accept", accept)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("GET /variables: %d", resp.StatusCode)
				}
			}
			var bigT, smallT time.Duration
			b.ResetTimer()
			const chunk = 5
			for i := 0; i < b.N; i += chunk {
				n := min(chunk, b.N-i)
				t0 := time.Now()
				for range n {
					get(big)
				}
				t1 := time.Now()
				for range n {
					get(small)
				}
				bigT, smallT = bigT+t1.Sub(t0), smallT+time.Since(t1)
			}
			b.StopTimer()
			n := float64(b.N)
			b.ReportMetric(float64(bigT.Nanoseconds())/n, "1000-tools-ns/op")
			b.ReportMetric(float64(smallT.Nanoseconds())/n, "10-tools-ns/op")
			if smallT > 0 {
				b.ReportMetric((float64(bigT)/1000)/(float64(smallT)/10), "x-per-tool")
			}
		})
	}
}

// variablesServer runs an engine over n tools behind the side server and
// returns its API base URL.
func variablesServer(b *testing.B, n int) string {
	base, e := startSideServer(b, engine.Options{Upstream: manyToolsUpstream(n), Dir: b.TempDir()})
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	if err := e.Registry().WaitReady(wctx); err != nil {
		b.Fatal(err)
	}
	return base
}
