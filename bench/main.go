// Command bench measures what the genui proxy costs per tools/call: in one run
// it times N sequential round trips of a cheap demo tool (a) directly over
// stdio to `genui demo-server` and (b) through `genui mcp -- genui demo-server`,
// after a warm-up, and prints the median, p99 and the proxied/direct ratio.
//
//	go run ./bench -genui bin/genui [-n 2000] [-warmup 200] [-tool get_current_weather]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// config is one benchmark run.
type config struct {
	genui   string          // genui binary
	n       int             // measured calls per mode
	warmup  int             // unmeasured calls per mode first
	tool    string          // tool to call
	args    json.RawMessage // its arguments; empty: derived from its input schema
	timeout time.Duration   // bound for the whole run
}

// stats summarises one mode's latencies.
type stats struct {
	P50, P99 time.Duration
}

// report is the result of a run.
type report struct {
	Direct, Proxied stats
}

func (r report) String() string {
	return fmt.Sprintf("direct p50=%v p99=%v; proxied p50=%v p99=%v; ratio p50=%.2fx p99=%.2fx",
		r.Direct.P50, r.Direct.P99, r.Proxied.P50, r.Proxied.P99,
		ratio(r.Proxied.P50, r.Direct.P50), ratio(r.Proxied.P99, r.Direct.P99))
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func main() {
	var cfg config
	var args string
	flag.StringVar(&cfg.genui, "genui", "", "genui binary (default: build ./cmd/genui into a temp dir)")
	flag.IntVar(&cfg.n, "n", 2000, "measured calls per mode")
	flag.IntVar(&cfg.warmup, "warmup", 200, "warm-up calls per mode")
	flag.StringVar(&cfg.tool, "tool", "get_current_weather", "demo tool to call")
	flag.StringVar(&args, "args", `{"location":"Berlin"}`, "tool arguments as JSON ('' derives them from the schema)")
	flag.DurationVar(&cfg.timeout, "timeout", 5*time.Minute, "bound for the whole run")
	flag.Parse()
	cfg.args = json.RawMessage(args)

	if err := benchMain(cfg); err != nil {
		slog.New(slog.NewTextHandler(os.Stderr, nil)).Error("bench failed", "err", err)
		os.Exit(1)
	}
}

// benchMain resolves or builds the binary, runs, and prints the report.
func benchMain(cfg config) error {
	if len(cfg.args) > 0 && !json.Valid(cfg.args) {
		return fmt.Errorf("-args %q is not valid JSON", cfg.args)
	}
	if cfg.genui == "" {
		dir, err := os.MkdirTemp("", "genui-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if cfg.genui, err = testenv.BuildGenui(dir, false); err != nil {
			return err
		}
	}
	// The children run in another directory: a relative path would break.
	abs, err := filepath.Abs(cfg.genui)
	if err != nil {
		return err
	}
	cfg.genui = abs
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	r, err := run(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Printf("tools/call %s, n=%d (warm-up %d)\n%s\n", cfg.tool, cfg.n, cfg.warmup, r)
	dir, err := os.MkdirTemp("", "genui-bench-reads-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	rr, err := measureReads(ctx, cfg, dir)
	if err != nil {
		return fmt.Errorf("resources/read: %w", err)
	}
	fmt.Println(rr)
	return nil
}

// run measures the direct mode, then the proxied mode.
func run(ctx context.Context, cfg config) (report, error) {
	if cfg.n < 1 {
		return report{}, errors.New("n must be at least 1")
	}
	dir, err := os.MkdirTemp("", "genui-bench-dir-")
	if err != nil {
		return report{}, err
	}
	defer os.RemoveAll(dir)

	var r report
	direct := exec.Command(cfg.genui, "demo-server")
	if r.Direct, err = measure(ctx, direct, cfg); err != nil {
		return r, fmt.Errorf("direct: %w", err)
	}
	proxied := exec.Command(cfg.genui, "mcp", "--dir", dir, "--", cfg.genui, "demo-server")
	if r.Proxied, err = measure(ctx, proxied, cfg); err != nil {
		return r, fmt.Errorf("proxied: %w", err)
	}
	return r, nil
}

// measure starts cmd, initializes, warms up and times cfg.n calls.
func measure(ctx context.Context, cmd *exec.Cmd, cfg config) (stats, error) {
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = os.TempDir() // no stray genui.json from the working directory
	c, err := mcptest.Start(ctx, cmd)
	if err != nil {
		return stats{}, err
	}
	defer c.Close()
	fail := func(err error) (stats, error) {
		return stats{}, fmt.Errorf("%w (stderr: %.500s)", err, c.Stderr())
	}
	if _, err := c.Initialize(ctx, "2025-11-25", nil); err != nil {
		return fail(err)
	}
	args := cfg.args
	if len(args) == 0 {
		tools, err := c.ListTools(ctx)
		if err != nil {
			return fail(err)
		}
		i := slices.IndexFunc(tools, func(t mcptest.Tool) bool { return t.Name == cfg.tool })
		if i < 0 {
			return fail(fmt.Errorf("no tool %q", cfg.tool))
		}
		if args, err = json.Marshal(mcptest.ExampleArgs(tools[i].InputSchema)); err != nil {
			return fail(err)
		}
	}
	call := func() error {
		res, err := c.CallTool(ctx, cfg.tool, args, nil)
		if err != nil {
			return err
		}
		var r struct {
			IsError bool `json:"isError"`
		}
		if err := json.Unmarshal(res, &r); err != nil || r.IsError {
			return fmt.Errorf("tools/call %s: error result %.300s", cfg.tool, res)
		}
		return nil
	}
	for i := 0; i < cfg.warmup; i++ {
		if err := call(); err != nil {
			return fail(err)
		}
	}
	lat := make([]time.Duration, cfg.n)
	for i := range lat {
		start := time.Now()
		if err := call(); err != nil {
			return fail(err)
		}
		lat[i] = time.Since(start)
	}
	if err := c.CheckStdout(); err != nil {
		return fail(fmt.Errorf("stdout is not pure JSON-RPC: %w", err))
	}
	return summarize(lat), nil
}

// summarize returns the nearest-rank median and 99th percentile.
func summarize(lat []time.Duration) stats {
	s := slices.Clone(lat)
	slices.Sort(s)
	return stats{P50: percentile(s, 50), P99: percentile(s, 99)}
}

// percentile is the nearest-rank percentile of sorted (non-empty) s.
func percentile(s []time.Duration, p int) time.Duration {
	rank := (p*len(s) + 99) / 100 // ceil(p/100 * n)
	if rank < 1 {
		rank = 1
	}
	return s[rank-1]
}
