package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// TestMain doubles as the byte relay when bench re-executes the test binary.
func TestMain(m *testing.M) {
	if os.Getenv(relayEnv) != "" {
		os.Exit(relayMain())
	}
	if os.Getenv(manyToolsEnv) != "" {
		os.Exit(manyToolsMain())
	}
	os.Exit(testenv.Main(m))
}

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
	us := func(v int) time.Duration { return time.Duration(v) * time.Microsecond }
	r := report{Tool: "t", N: 10, Rounds: 2, Warmup: 1,
		Calls:   map[string]stats{modeDirect: {us(100), us(200)}, modeRelay: {us(150), us(300)}, modeGenui: {us(175), us(400)}},
		Startup: map[string]time.Duration{modeDirect: us(1000), modeRelay: us(1100), modeGenui: us(3000)}}
	got := r.String()
	for _, want := range []string{"relay  p50=150µs", "added p50=50µs", "added p50=75µs",
		"genui's added latency / the relay's (p50): 1.50x", "demo alone 1ms, relay 1.1ms, genui 3ms (3.00x the demo)"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}

// TestRelayCopiesBytes: the relay baseline passes a session through
// unchanged (it is what genui is measured against).
func TestRelayCopiesBytes(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), relayEnv+`=["cat"]`)
	in := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n" + strings.Repeat("x", 100000) + "\n"
	cmd.Stdin = strings.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Fatalf("relay changed the bytes: %d in, %d out", len(in), len(out))
	}
}

// TestBenchSmoke runs the real benchmark with few calls against the real
// binary and the SDK client, so `make test` proves `make bench` works.
func TestBenchSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs genui")
	}
	testenv.NodePath(t)
	if _, err := os.Stat(filepath.Join(testenv.NPMDir(), "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		testenv.Missingf(t, "npm package @modelcontextprotocol/sdk: %v", err)
	}
	bin := testenv.GenuiBinary(t) // built first: a cold build must not eat the run's budget
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := config{genui: bin, relay: self, n: 20, warmup: 5, rounds: 2, tool: "get_current_weather",
		args: json.RawMessage(`{"location":"Berlin"}`)}
	r, err := run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modes {
		if s := r.Calls[m]; s.P50 <= 0 || s.P99 < s.P50 || r.Startup[m] <= 0 {
			t.Errorf("implausible %s figures: %+v startup %v", m, s, r.Startup[m])
		}
	}
	if r.Read.P50 <= 0 || r.Ping.P50 <= 0 || r.Sizes["ui://get_current_weather"] < 1000 || len(r.Sizes) < 5 {
		t.Errorf("implausible reads: read %+v ping %+v sizes %v", r.Read, r.Ping, r.Sizes)
	}
	t.Log("\n" + r.String())

	// The start ratio over server-memory, one measured pair.
	if _, err := os.Stat(filepath.Join(testenv.NPMDir(), "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js")); err != nil {
		testenv.Missingf(t, "npm package @modelcontextprotocol/server-memory: %v", err)
	}
	cfg.startPairs = 1
	sr, err := benchStart(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sr.Pairs != 1 || sr.Alone <= 0 || sr.Genui <= 0 || sr.Ratio <= 0 || sr.Lowest != sr.Ratio || sr.Upper != sr.Ratio || sr.GenuiCPU <= 0 {
		t.Errorf("implausible start ratio: %+v", sr)
	}
	t.Log(sr.String())
}

// TestMedianOfPairedRatios: the start ratio is the median of the pairs'
// own ratios (the middle one, or the mean of the middle two).
func TestMedianOfPairedRatios(t *testing.T) {
	if got := medianFloat([]float64{0.9, 1.1, 1.5}); got != 1.1 {
		t.Errorf("odd count: %v", got)
	}
	if got := medianFloat([]float64{0.5, 1, 1.5, 2}); got != 1.25 {
		t.Errorf("even count: %v", got)
	}
}

// TestToolsReportRatioIsPerRound: the many-tools report's ratios (first
// page, whole listing) are the medians of the rounds' own ratios (not the
// ratio of the two medians), with their range and each round's in order.
func TestToolsReportRatioIsPerRound(t *testing.T) {
	ms := func(v int) time.Duration { return time.Duration(v) * time.Millisecond }
	r := toolsReport{N: 100, Rounds: 5, JSONBytes: 36_400, Direct: ms(300), Genui: ms(500), PageTools: 100,
		AnswerBytes: 36_500, RSS: 40e6, RSS1: 36e6, DirectCPU: ms(180), GenuiCPU: ms(220),
		Ratios: []float64{2, 1, 3, 1.2, 1.5}, GenuiWhole: ms(900), WholeRatios: []float64{3, 2.5, 4, 2, 3.5}}
	got := r.String()
	for _, want := range []string{"median 1.50x (range 1.00-3.00x over 5 rounds; goal <= 1.5x): 2.00 1.00 3.00 1.20 1.50\n",
		"server alone 180ms, genui itself 220ms",
		"every page, cursor by cursor) 900ms; over the server's one answer, round by round: median 3.00x (range 2.00-4.00x): 3.00 2.50 4.00 2.00 3.50\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}

// TestCPUTimeCounts: the CPU time read from /proc grows with work done
// (by 10 ms within 10 s of work, however loaded the machine).
func TestCPUTimeCounts(t *testing.T) {
	before := cpuTime(os.Getpid())
	if before <= 0 {
		t.Fatalf("CPU time %v", before)
	}
	// Reading /proc over and over is the work.
	for start := time.Now(); cpuTime(os.Getpid())-before < 10*time.Millisecond; {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("CPU time %v before 10 s of work, %v after", before, cpuTime(os.Getpid()))
		}
	}
}
