package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// readReport compares resources/read of a cached ui:// UI with ping, the
// cheapest round trip through the same `genui mcp` session (the baseline).
type readReport struct {
	URI         string
	Bytes       int
	Read, Ping  stats
	FirstReadMs float64 // the uncached read that generated the UI
}

func (r readReport) String() string {
	return fmt.Sprintf("resources/read %s (cached, %d bytes of HTML) p50=%v p99=%v; ping p50=%v p99=%v; ratio p50=%.2fx p99=%.2fx; first (generating) read %.1f ms",
		r.URI, r.Bytes, r.Read.P50, r.Read.P99, r.Ping.P50, r.Ping.P99,
		ratio(r.Read.P50, r.Ping.P50), ratio(r.Read.P99, r.Ping.P99), r.FirstReadMs)
}

// measureReads times cached resources/read of the tool's UI and ping, n each,
// through one `genui mcp` session over the in-process demo.
func measureReads(ctx context.Context, cfg config, dir string) (readReport, error) {
	cmd := exec.Command(cfg.genui, "mcp", "--dir", dir)
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = os.TempDir()
	c, err := mcptest.Start(ctx, cmd)
	if err != nil {
		return readReport{}, err
	}
	defer c.Close()
	fail := func(err error) (readReport, error) {
		return readReport{}, fmt.Errorf("%w (stderr: %.500s)", err, c.Stderr())
	}
	if _, err := c.Initialize(ctx, "2025-11-25", nil); err != nil {
		return fail(err)
	}
	r := readReport{URI: "ui://" + cfg.tool}
	read := func() (int, error) {
		res, rerr, err := c.Request(ctx, "resources/read", map[string]string{"uri": r.URI})
		if err != nil {
			return 0, err
		}
		if rerr != nil {
			return 0, rerr
		}
		var out struct {
			Contents []struct {
				Text string `json:"text"`
			} `json:"contents"`
		}
		if err := json.Unmarshal(res, &out); err != nil || len(out.Contents) != 1 || out.Contents[0].Text == "" {
			return 0, fmt.Errorf("resources/read %s: unexpected result %.200s", r.URI, res)
		}
		return len(out.Contents[0].Text), nil
	}
	start := time.Now()
	if r.Bytes, err = read(); err != nil {
		return fail(err)
	}
	r.FirstReadMs = float64(time.Since(start).Microseconds()) / 1000
	ping := func() error {
		_, rerr, err := c.Request(ctx, "ping", nil)
		if err == nil && rerr != nil {
			err = rerr
		}
		return err
	}
	for i := 0; i < cfg.warmup; i++ {
		if _, err := read(); err != nil {
			return fail(err)
		}
		if err := ping(); err != nil {
			return fail(err)
		}
	}
	readLat := make([]time.Duration, cfg.n)
	pingLat := make([]time.Duration, cfg.n)
	// Interleave so machine noise hits both series alike.
	for i := 0; i < cfg.n; i++ {
		t0 := time.Now()
		if _, err := read(); err != nil {
			return fail(err)
		}
		t1 := time.Now()
		if err := ping(); err != nil {
			return fail(err)
		}
		readLat[i], pingLat[i] = t1.Sub(t0), time.Since(t1)
	}
	if err := c.CheckStdout(); err != nil {
		return fail(fmt.Errorf("stdout is not pure JSON-RPC: %w", err))
	}
	r.Read, r.Ping = summarize(readLat), summarize(pingLat)
	return r, nil
}
