package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// The start ratio (issue 39): `genui mcp` in front of npm's server-memory
// against server-memory alone, spawn to the first tools/list answered (so
// it holds genui's own start before it spawns the upstream and its answer
// after the upstream's initialize), in pairs whose order alternates; the
// figure is the median of the pairs' ratios (genui / alone), goal <= 1.1x.

// startReport is the start ratio's outcome.
type startReport struct {
	Pairs         int
	Alone, Genui  time.Duration // medians
	Ratio         float64       // median of the paired ratios
	Lowest, Upper float64       // the lowest and highest paired ratio
}

func (r startReport) String() string {
	return fmt.Sprintf("start, spawn to first tools/list answered, genui mcp over server-memory against server-memory alone (%d pairs, order alternated): "+
		"median of paired ratios %.2fx (goal <= 1.1x; pairs %.2f-%.2fx), medians %v against %v\n",
		r.Pairs, r.Ratio, r.Lowest, r.Upper, r.Genui.Round(time.Millisecond), r.Alone.Round(time.Millisecond))
}

// benchStart measures the start ratio with cfg.startPairs pairs; a
// missing server-memory is an error (scripts/test-deps.sh installs it).
func benchStart(ctx context.Context, cfg config) (startReport, error) {
	nm := filepath.Join(testenv.NPMDir(), "node_modules")
	memory := filepath.Join(nm, "@modelcontextprotocol", "server-memory", "dist", "index.js")
	if _, err := os.Stat(memory); err != nil {
		return startReport{}, fmt.Errorf("server-memory not installed (run scripts/test-deps.sh): %w", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return startReport{}, fmt.Errorf("node not found (run scripts/test-deps.sh): %w", err)
	}
	script, err := scriptPath()
	if err != nil {
		return startReport{}, err
	}
	dir, err := os.MkdirTemp("", "genui-bench-start-")
	if err != nil {
		return startReport{}, err
	}
	defer os.RemoveAll(dir)
	env := map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}
	alone := server{Command: node, Args: []string{memory}, Env: env}
	var ratios []float64
	var aloneT, genuiT []time.Duration
	for i := range cfg.startPairs + 1 { // the first pair warms the page cache and is not counted
		proxied := server{Command: cfg.genui, Args: []string{"mcp", "--dir", filepath.Join(dir, fmt.Sprintf("ui-%d", i)), "--", node, memory}, Env: env}
		servers := []server{alone, proxied}
		if i%2 == 1 {
			servers = []server{proxied, alone}
		}
		rep, err := drive(ctx, node, script, nm, sdkSpec{Servers: servers, Tool: "read_graph", Args: []byte(`{}`)})
		if err != nil {
			return startReport{}, fmt.Errorf("start pair %d: %w", i, err)
		}
		a, g := time.Duration(rep.Servers[0].StartupNs), time.Duration(rep.Servers[1].StartupNs)
		if i%2 == 1 {
			a, g = g, a
		}
		if i == 0 {
			continue
		}
		if a <= 0 {
			return startReport{}, fmt.Errorf("start pair %d: server-memory alone started in %v", i, a)
		}
		aloneT, genuiT = append(aloneT, a), append(genuiT, g)
		ratios = append(ratios, float64(g)/float64(a))
	}
	sort.Float64s(ratios)
	return startReport{Pairs: len(ratios), Alone: summarize(aloneT).P50, Genui: summarize(genuiT).P50,
		Ratio: medianFloat(ratios), Lowest: ratios[0], Upper: ratios[len(ratios)-1]}, nil
}

// medianFloat is the median of sorted xs (the mean of the middle two for
// an even count).
func medianFloat(xs []float64) float64 {
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
