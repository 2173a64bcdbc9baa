// Command bench measures what the genui proxy costs, in one run, with the
// official TypeScript SDK client (bench/sdk_client.mjs) over stdio against
// three servers that all end in `genui demo-server`:
//
//   - direct: `genui demo-server`;
//   - relay:  a byte relay that copies both pipes and understands nothing
//     (this program re-executed in relay mode): the floor for any proxy;
//   - genui:  `genui mcp -- genui demo-server`.
//
// It reports tools/call p50/p99 per mode, the latency each proxy adds over
// direct and genui's added latency as a multiple of the relay's; warm
// resources/read of a cached UI against ping in the same genui session; the
// size of every demo tool's UI; and startup (spawn to the first tools/list
// answer) of genui against the demo alone. In each round one client
// process connects to a fresh server of every mode and calls them in turn,
// call by call (the order rotating), so machine noise hits them alike.
//
//	go run ./bench -genui bin/genui [-n 2000] [-warmup 200] [-rounds 8] [-tool get_current_weather]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// config is one benchmark run.
type config struct {
	genui   string          // genui binary
	relay   string          // this program's binary (relay mode)
	n       int             // measured calls per mode (split over rounds)
	warmup  int             // unmeasured calls per mode and round first
	rounds  int             // alternations of the modes
	tool    string          // tool to call
	args    json.RawMessage // its arguments
	timeout time.Duration   // bound for the whole run
	// tools is the size of the many-tools upstream (0: skip that part);
	// toolRounds how often each of its modes starts.
	tools, toolRounds int
	// startPairs is how many alternating pairs the start ratio takes
	// (0: skip it).
	startPairs int
}

// stats summarises latencies.
type stats struct {
	P50, P99 time.Duration
}

// Modes, in the order they are reported.
const (
	modeDirect = "direct"
	modeRelay  = "relay"
	modeGenui  = "genui"
)

var modes = []string{modeDirect, modeRelay, modeGenui}

// report is the result of a run.
type report struct {
	Tool              string
	Calls             map[string]stats         // mode -> tools/call latency
	Startup           map[string]time.Duration // mode -> median spawn-to-tools/list
	Read              stats                    // warm resources/read through genui
	Ping              stats                    // ping in the same session
	ReadURI           string
	FirstRead         time.Duration  // the read that generated the UI
	Sizes             map[string]int // ui:// uri -> bytes of HTML
	N, Warmup, Rounds int
}

// added is what a proxy mode adds over direct at p50.
func (r report) added(mode string) time.Duration { return r.Calls[mode].P50 - r.Calls[modeDirect].P50 }

// AddedRatio is genui's added p50 latency as a multiple of the relay's.
func (r report) AddedRatio() float64 { return ratio(r.added(modeGenui), r.added(modeRelay)) }

func (r report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tools/call %s with the TypeScript SDK client, %d calls per mode in %d rounds (+%d warm-up per round)\n",
		r.Tool, r.N, r.Rounds, r.Warmup)
	for _, m := range modes {
		s := r.Calls[m]
		fmt.Fprintf(&b, "  %-6s p50=%-9v p99=%-9v", m, s.P50, s.P99)
		if m != modeDirect {
			fmt.Fprintf(&b, " added p50=%v", r.added(m))
		}
		b.WriteString("\n")
	}
	if r.added(modeRelay) > 0 {
		fmt.Fprintf(&b, "  genui's added latency / the relay's (p50): %.2fx (target <= 1.5x, goal 1.25x)\n", r.AddedRatio())
	} else {
		b.WriteString("  genui's added latency / the relay's (p50): n/a (the relay added nothing measurable; raise -n)\n")
	}
	if r.ReadURI != "" {
		fmt.Fprintf(&b, "resources/read %s warm (%d bytes) p50=%v p99=%v; ping p50=%v p99=%v; ratio p50=%.2fx (target p99 <= 2ms, goal 1ms); first (generating) read %v\n",
			r.ReadURI, r.Sizes[r.ReadURI], r.Read.P50, r.Read.P99, r.Ping.P50, r.Ping.P99, ratio(r.Read.P50, r.Ping.P50), r.FirstRead)
	}
	if len(r.Sizes) > 0 {
		uris := make([]string, 0, len(r.Sizes))
		for u := range r.Sizes {
			uris = append(uris, u)
		}
		sort.Slice(uris, func(i, j int) bool { return r.Sizes[uris[i]] > r.Sizes[uris[j]] })
		var parts []string
		for _, u := range uris {
			parts = append(parts, fmt.Sprintf("%s %.1f KB", strings.TrimPrefix(u, "ui://"), float64(r.Sizes[u])/1024))
		}
		fmt.Fprintf(&b, "UI sizes (target <= 70 KB, goal 45 KB): %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "startup, spawn to first tools/list answered (median of %d): demo alone %v, relay %v, genui %v (%.2fx the demo)\n",
		r.Rounds, r.Startup[modeDirect].Round(time.Microsecond), r.Startup[modeRelay].Round(time.Microsecond),
		r.Startup[modeGenui].Round(time.Microsecond), ratio(r.Startup[modeGenui], r.Startup[modeDirect]))
	return b.String()
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// relayEnv carries the relay's child command line (JSON array): when set,
// this program (or its test binary) is the byte relay and nothing else.
const relayEnv = "GENUI_BENCH_RELAY_CMD"

func main() {
	if os.Getenv(relayEnv) != "" {
		os.Exit(relayMain())
	}
	if os.Getenv(manyToolsEnv) != "" {
		os.Exit(manyToolsMain())
	}
	var cfg config
	var args string
	flag.StringVar(&cfg.genui, "genui", "", "genui binary (default: build ./cmd/genui into a temp dir)")
	flag.IntVar(&cfg.n, "n", 2000, "measured calls per mode")
	flag.IntVar(&cfg.warmup, "warmup", 200, "warm-up calls per mode and round")
	flag.IntVar(&cfg.rounds, "rounds", 8, "rounds (each starts fresh servers; the modes alternate call by call)")
	flag.StringVar(&cfg.tool, "tool", "get_current_weather", "demo tool to call")
	flag.StringVar(&args, "args", `{"location":"Berlin"}`, "tool arguments as JSON")
	flag.DurationVar(&cfg.timeout, "timeout", 10*time.Minute, "bound for the whole run")
	flag.IntVar(&cfg.tools, "tools", 100_000, "tools of the many-tools upstream (0: skip)")
	flag.IntVar(&cfg.toolRounds, "tool-rounds", 5, "measured starts of each many-tools mode (after one warm-up)")
	flag.IntVar(&cfg.startPairs, "start-pairs", 10, "pairs of starts, genui mcp over server-memory and server-memory alone (0: skip)")
	flag.Parse()
	cfg.args = json.RawMessage(args)

	if err := benchMain(cfg); err != nil {
		slog.New(slog.NewTextHandler(os.Stderr, nil)).Error("bench failed", "err", err)
		os.Exit(1)
	}
}

// relayMain copies stdin to the child and the child's stdout to stdout,
// byte for byte, until the child exits.
func relayMain() int {
	var argv []string
	if err := json.Unmarshal([]byte(os.Getenv(relayEnv)), &argv); err != nil || len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "relay: bad", relayEnv, err)
		return 2
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, relayEnv+"=") })
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err == nil {
		var out io.ReadCloser
		if out, err = cmd.StdoutPipe(); err == nil {
			if err = cmd.Start(); err == nil {
				go func() {
					_, _ = io.Copy(in, os.Stdin)
					_ = in.Close()
				}()
				_, _ = io.Copy(os.Stdout, out)
				err = cmd.Wait()
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		return 1
	}
	return 0
}

// benchMain resolves or builds the binaries, runs, and prints the report.
func benchMain(cfg config) error {
	if cfg.tools > 0 && cfg.toolRounds < 1 {
		return fmt.Errorf("-tool-rounds %d: at least one round", cfg.toolRounds)
	}
	if !json.Valid(cfg.args) {
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
	if cfg.relay, err = os.Executable(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	r, err := run(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Print(r)
	if cfg.startPairs > 0 {
		sr, err := benchStart(ctx, cfg)
		if err != nil {
			return fmt.Errorf("start ratio: %w", err)
		}
		fmt.Print(sr)
	}
	if cfg.tools > 0 {
		tr, err := benchManyTools(ctx, cfg)
		if err != nil {
			return fmt.Errorf("many tools: %w", err)
		}
		fmt.Print(tr)
	}
	return nil
}

// sdkReport is what sdk_client.mjs prints (latencies in ns).
type sdkReport struct {
	Servers     []sdkServer        `json:"servers"`
	Reads       map[string][]int64 `json:"reads"`
	Pings       []int64            `json:"pings"`
	FirstReadNs map[string]int64   `json:"firstReadNs"`
	Sizes       map[string]int     `json:"sizes"`
}

// sdkServer is one server's share of an sdkReport.
type sdkServer struct {
	StartupNs   int64   `json:"startupNs"`
	Tools       int     `json:"tools"`
	ToolsWithUI int     `json:"toolsWithUI"`
	Calls       []int64 `json:"calls"`
}

// sdkSpec is what sdk_client.mjs does.
type sdkSpec struct {
	Servers []server        `json:"servers"`
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args"`
	N       int             `json:"n"`
	Warmup  int             `json:"warmup"`
	Reads   []string        `json:"reads,omitempty"`
	ReadN   int             `json:"readN,omitempty"`
	Sizes   bool            `json:"sizes,omitempty"`
}

// run does cfg.rounds rounds: in each, one client connects to a fresh
// server of every mode (in a rotating order) and alternates its calls
// among them; then it measures reads and sizes in one more genui session.
func run(ctx context.Context, cfg config) (report, error) {
	if cfg.n < 1 || cfg.rounds < 1 {
		return report{}, errors.New("n and rounds must be at least 1")
	}
	if cfg.relay == "" {
		return report{}, errors.New("no relay binary")
	}
	nm := filepath.Join(testenv.NPMDir(), "node_modules")
	node, err := exec.LookPath("node")
	if err != nil {
		return report{}, fmt.Errorf("node not found (run scripts/test-deps.sh): %w", err)
	}
	script, err := scriptPath()
	if err != nil {
		return report{}, err
	}
	dir, err := os.MkdirTemp("", "genui-bench-dir-")
	if err != nil {
		return report{}, err
	}
	defer os.RemoveAll(dir)

	r := report{Tool: cfg.tool, Calls: map[string]stats{}, Startup: map[string]time.Duration{},
		N: cfg.n, Warmup: cfg.warmup, Rounds: cfg.rounds}
	calls := map[string][]time.Duration{}
	startups := map[string][]time.Duration{}
	per := max(1, cfg.n/cfg.rounds)
	for round := 0; round < cfg.rounds; round++ {
		order := make([]string, len(modes))
		spec := sdkSpec{Tool: cfg.tool, Args: cfg.args, N: per, Warmup: cfg.warmup}
		for i := range modes {
			order[i] = modes[(i+round)%len(modes)] // rotate who starts first
			spec.Servers = append(spec.Servers, cfg.server(order[i], dir))
		}
		rep, err := drive(ctx, node, script, nm, spec)
		if err != nil {
			return r, fmt.Errorf("round %d: %w", round, err)
		}
		for i, m := range order {
			sr := rep.Servers[i]
			if m == modeGenui && sr.ToolsWithUI == 0 {
				return r, errors.New("genui: no tool carries UI metadata")
			}
			calls[m] = append(calls[m], nanos(sr.Calls)...)
			startups[m] = append(startups[m], time.Duration(sr.StartupNs))
		}
	}
	for _, m := range modes {
		r.Calls[m] = summarize(calls[m])
		r.Startup[m] = summarize(startups[m]).P50
	}
	r.ReadURI = "ui://" + cfg.tool
	rep, err := drive(ctx, node, script, nm, sdkSpec{Servers: []server{cfg.server(modeGenui, dir)}, Tool: cfg.tool,
		Args: cfg.args, Warmup: cfg.warmup, Reads: []string{r.ReadURI}, ReadN: cfg.n, Sizes: true})
	if err != nil {
		return r, fmt.Errorf("reads: %w", err)
	}
	r.Read, r.Ping = summarize(nanos(rep.Reads[r.ReadURI])), summarize(nanos(rep.Pings))
	r.FirstRead, r.Sizes = time.Duration(rep.FirstReadNs[r.ReadURI]), rep.Sizes
	return r, nil
}

// server is a mode's server: its command line and extra environment.
type server struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// server is the server of a mode.
func (cfg config) server(mode, dir string) server {
	switch mode {
	case modeRelay:
		child, _ := json.Marshal([]string{cfg.genui, "demo-server"})
		return server{Command: cfg.relay, Args: []string{}, Env: map[string]string{relayEnv: string(child)}}
	case modeGenui:
		// Each genui gets its own directory: rounds overlap nothing, but a
		// shared DIR would make one genui yield its port files to the next.
		return server{Command: cfg.genui, Args: []string{"mcp", "--dir", filepath.Join(dir, fmt.Sprintf("ui-%d", time.Now().UnixNano())), "--", cfg.genui, "demo-server"}}
	}
	return server{Command: cfg.genui, Args: []string{"demo-server"}}
}

// drive runs sdk_client.mjs with spec and decodes its report.
func drive(ctx context.Context, node, script, nm string, spec sdkSpec) (sdkReport, error) {
	sj, err := json.Marshal(spec)
	if err != nil {
		return sdkReport{}, err
	}
	cmd := exec.CommandContext(ctx, node, script, nm, string(sj))
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = os.TempDir() // no stray genui.json from the working directory
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return sdkReport{}, fmt.Errorf("%w (stderr: %.800s)", err, stderr.String())
	}
	var rep sdkReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		return sdkReport{}, fmt.Errorf("bad report %.300q: %w", stdout.String(), err)
	}
	if len(rep.Servers) != len(spec.Servers) {
		return sdkReport{}, fmt.Errorf("report for %d servers, want %d", len(rep.Servers), len(spec.Servers))
	}
	return rep, nil
}

// scriptPath finds sdk_client.mjs beside this package's source.
func scriptPath() (string, error) {
	root, err := testenv.ModuleRoot()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, "bench", "sdk_client.mjs")
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

func nanos(v []int64) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x)
	}
	return out
}

// summarize returns the nearest-rank median and 99th percentile.
func summarize(lat []time.Duration) stats {
	if len(lat) == 0 {
		return stats{}
	}
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
