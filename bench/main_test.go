package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

func TestPercentile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	tests := []struct {
		in       []time.Duration
		p50, p99 time.Duration
	}{
		{ms(7), 7 * time.Millisecond, 7 * time.Millisecond},
		{ms(4, 1, 3, 2), 2 * time.Millisecond, 4 * time.Millisecond},
		{ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 5 * time.Millisecond, 10 * time.Millisecond},
	}
	for _, tc := range tests {
		got := summarize(tc.in)
		if got.P50 != tc.p50 || got.P99 != tc.p99 {
			t.Errorf("summarize(%v) = %+v, want p50=%v p99=%v", tc.in, got, tc.p50, tc.p99)
		}
	}
	// 200 samples 1..200 ms: nearest-rank p99 is the 198th.
	var s []time.Duration
	for i := 200; i >= 1; i-- {
		s = append(s, time.Duration(i)*time.Millisecond)
	}
	if got := summarize(s).P99; got != 198*time.Millisecond {
		t.Errorf("p99 of 1..200 ms = %v, want 198ms", got)
	}
}

func TestReportString(t *testing.T) {
	r := report{Direct: stats{P50: 100 * time.Microsecond, P99: 200 * time.Microsecond},
		Proxied: stats{P50: 250 * time.Microsecond, P99: 600 * time.Microsecond}}
	want := "direct p50=100µs p99=200µs; proxied p50=250µs p99=600µs; ratio p50=2.50x p99=3.00x"
	if got := r.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestBenchSmoke runs the real benchmark with few calls against the real
// binary, so `make test` proves `make bench` works.
func TestBenchSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs genui")
	}
	bin := testenv.GenuiBinary(t) // built first: a cold build must not eat the run's budget
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := config{genui: bin, n: 20, warmup: 5, tool: "get_current_weather",
		args: json.RawMessage(`{"location":"Berlin"}`)}
	r, err := run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Direct.P50 <= 0 || r.Proxied.P50 <= 0 || r.Direct.P99 < r.Direct.P50 || r.Proxied.P99 < r.Proxied.P50 {
		t.Errorf("implausible report %s", r)
	}
	if !strings.Contains(r.String(), "ratio p50=") {
		t.Errorf("report %q", r)
	}
	t.Log(r)
}
