package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
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
	// GenuiCPU is genui's own CPU time from its exec to its first
	// tools/list answer (median of as many starts of its own, driven by a
	// raw client; its threads' run time in /proc, its upstream not
	// counted): what genui's start takes from the cores the upstream boots
	// on, and far steadier than the wall clock on a loaded machine.
	GenuiCPU time.Duration
}

func (r startReport) String() string {
	return fmt.Sprintf("start, spawn to first tools/list answered, genui mcp over server-memory against server-memory alone (%d pairs, order alternated): "+
		"median of paired ratios %.2fx (goal <= 1.1x; pairs %.2f-%.2fx), medians %v against %v\n",
		r.Pairs, r.Ratio, r.Lowest, r.Upper, r.Genui.Round(time.Millisecond), r.Alone.Round(time.Millisecond)) +
		fmt.Sprintf("  genui's own CPU time to that answer (median of %d starts, its upstream not counted): %v\n",
			r.Pairs, r.GenuiCPU.Round(100*time.Microsecond))
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
	var cpu []time.Duration
	for i := range cfg.startPairs {
		c, err := startCPU(ctx, cfg.genui, filepath.Join(dir, fmt.Sprintf("cpu-%d", i)), node, memory, env)
		if err != nil {
			return startReport{}, fmt.Errorf("start %d, genui's CPU time: %w", i, err)
		}
		cpu = append(cpu, c)
	}
	return startReport{Pairs: len(ratios), Alone: summarize(aloneT).P50, Genui: summarize(genuiT).P50,
		Ratio: medianFloat(ratios), Lowest: ratios[0], Upper: ratios[len(ratios)-1], GenuiCPU: median(cpu)}, nil
}

// startCPU starts genui mcp over server-memory with a raw client
// (initialize, tools/list) and returns genui's own CPU time when its
// tools/list answer arrives.
func startCPU(ctx context.Context, genui, dir, node, memory string, env map[string]string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, genui, "mcp", "--dir", dir, "--", node, memory)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer stopChild(cmd, in)
	br := bufio.NewReader(out)
	send := func(s string) error { _, err := io.WriteString(in, s+"\n"); return err }
	if err := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`); err != nil {
		return 0, err
	}
	if _, err := readAnswer(br, 1); err != nil {
		return 0, fmt.Errorf("initialize: %w", err)
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); err != nil {
		return 0, err
	}
	if _, err := readAnswer(br, 2); err != nil {
		return 0, fmt.Errorf("tools/list: %w", err)
	}
	return cpuTime(cmd.Process.Pid), nil
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
