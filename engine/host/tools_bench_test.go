package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/manytools"
)

// liveHeap is the heap's live bytes after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// heapPeak samples the heap's object bytes (cheaply, through
// runtime/metrics) every few milliseconds until stop, and returns the
// highest value seen.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			mu.Lock()
			peak = max(peak, sample[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// lastFrame keeps the last frame a session sent.
type lastFrame struct{ last []byte }

func (f *lastFrame) Send(b []byte) error { f.last = b; return nil }

// listAllPages lists every tool through sess, page by page, and returns
// the number of pages and the bytes of the largest answer.
func listAllPages(tb testing.TB, sess *host.Session) (pages, largest int) {
	var sink lastFrame
	cursor := ""
	for {
		params := "{}"
		if cursor != "" {
			params = `{"cursor":` + strconv.Quote(cursor) + `}`
		}
		sess.HandleFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":`+params+`}`), &sink)
		pages++
		largest = max(largest, len(sink.last))
		i := bytes.LastIndex(sink.last, []byte(`"nextCursor":"`))
		if i < 0 {
			if !bytes.Contains(sink.last, []byte(`"tools":[`)) {
				tb.Fatalf("tools/list answered %.300s", sink.last)
			}
			return pages, largest
		}
		rest := sink.last[i+len(`"nextCursor":"`):]
		cursor = string(rest[:bytes.IndexByte(rest, '"')])
	}
}

// BenchmarkToolsList100k: an upstream with 100,000 tools (internal/
// manytools, one 30 MB tools/list answer, as in the review) behind genui's
// engine and MCP host. It reports what genui holds per tool once they are
// loaded (held-B/tool: live heap after GC, minus the heap before the
// engine started) against the tool's own JSON (json-B/tool; x-json is
// their ratio), the peak heap while loading them (peak-B/tool), and one
// full listing to a host, page by page (mcp.toolsPageSize 1000; ns/op,
// pages, the largest answer) against compacting the same JSON once in the
// same run (x-compact).
func BenchmarkToolsList100k(b *testing.B) {
	const n = 100_000
	up := &manytools.Server{N: n}
	all := make([]byte, 0, 32<<20)
	all = append(all, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			all = append(all, ',')
		}
		all = append(all, up.Tool(i)...)
	}
	all = append(all, ']')
	jsonBytes := len(all) - n - 1

	before := liveHeap()
	stopPeak := heapPeak()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.DiscardHandler)
	e, err := engine.New(engine.Options{Upstream: upstream.Config{Transport: upstream.TransportInProcess, InProcess: up.Serve, Logger: log},
		Dir: b.TempDir(), Logger: log})
	if err != nil {
		b.Fatal(err)
	}
	srv := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log})
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	b.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			b.Error("engine did not stop within 30 s")
		}
	})
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Minute)
	defer wcancel()
	if err := e.Registry().WaitReady(wctx); err != nil {
		b.Fatal(err)
	}
	if got := len(e.Registry().List()); got != n {
		b.Fatalf("genui holds %d tools, want %d", got, n)
	}
	peak := stopPeak()
	held := liveHeap() - before

	sess := srv.NewSession("bench", nil)
	defer sess.Close()
	var compactT time.Duration
	var pages, largest int
	var buf bytes.Buffer
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pages, largest = listAllPages(b, sess)
		b.StopTimer()
		t0 := time.Now()
		buf.Reset()
		if err := json.Compact(&buf, all); err != nil {
			b.Fatal(err)
		}
		compactT += time.Since(t0)
		b.StartTimer()
	}
	b.StopTimer()
	listT := b.Elapsed()
	b.ReportMetric(float64(held)/n, "held-B/tool")
	b.ReportMetric(float64(jsonBytes)/n, "json-B/tool")
	b.ReportMetric(float64(held)/float64(jsonBytes), "x-json")
	b.ReportMetric(float64(peak-min(peak, before))/n, "peak-B/tool")
	b.ReportMetric(float64(pages), "pages")
	b.ReportMetric(float64(largest)/1024, "page-KiB")
	if compactT > 0 {
		b.ReportMetric(float64(listT)/float64(compactT), "x-compact")
	}
}
