package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/genui-dev/genui/internal/manytools"
)

// The 100,000-tool upstream, as a user meets it: `genui mcp` in front of a
// stdio server with that many tools (internal/manytools, this program
// re-executed with manyToolsEnv set), against the same server alone. Time
// from spawning the server to the first tools/list answer the client has
// read whole (the server alone sends all its tools in that answer, about
// 36 MB; genui sends its first page, once the upstream's first 1,000 tools
// are in), the time to the last page of genui's listing (a host paging
// through every tool, against the server's one answer), and genui's
// resident memory a second after that, against genui in front of a
// one-tool server in the same run. genui keeps its --dir across
// the rounds (as a user's .ui stays), after one unmeasured start of each.

// manyToolsEnv makes this program (or its test binary) a stdio MCP server
// with that many tools and nothing else.
const manyToolsEnv = "GENUI_BENCH_MANYTOOLS"

func manyToolsMain() int {
	n, err := strconv.Atoi(os.Getenv(manyToolsEnv))
	if err != nil || n < 0 {
		fmt.Fprintln(os.Stderr, "manytools: bad", manyToolsEnv)
		return 2
	}
	if err := (&manytools.Server{N: n}).Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "manytools:", err)
		return 1
	}
	return 0
}

// toolsReport is the 100,000-tool part of a run.
type toolsReport struct {
	N, Rounds int
	JSONBytes int           // the tools' JSON, without the envelope
	Direct    time.Duration // median spawn to first tools/list answer, server alone
	Genui     time.Duration // the same through genui mcp
	// Ratios are genui's time over the server's own, one per round (each
	// round starts the server alone and then genui, back to back, so a
	// load swing between rounds moves both); the report gives their median.
	Ratios []float64
	// GenuiWhole is genui's median time to the last page of the listing
	// (a host paging through every tool), WholeRatios its round-by-round
	// ratios to the server alone's one answer (which holds every tool).
	GenuiWhole  time.Duration
	WholeRatios []float64
	// CPU is the median CPU time (its threads' run time in /proc) the
	// process spent up to the answer: the server alone's,
	// genui's own (its upstream, a child, not counted). Unlike the wall
	// clock it hardly moves with the other load on the machine.
	DirectCPU, GenuiCPU time.Duration
	PageTools           int   // tools in genui's first page
	AnswerBytes         int   // bytes of the server's own answer
	RSS, RSS1           int64 // genui's resident bytes after its first answer: N tools, 1 tool
}

func (r toolsReport) String() string {
	if r.N == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d upstream tools (%.1f MB of tool JSON), spawn to the first tools/list answer read (median of %d):\n",
		r.N, float64(r.JSONBytes)/1e6, r.Rounds)
	fmt.Fprintf(&b, "  server alone %v (all %d tools, %.1f MB), genui %v (first page, %d tools; it goes out once they are in)\n",
		r.Direct.Round(time.Millisecond), r.N, float64(r.AnswerBytes)/1e6, r.Genui.Round(time.Millisecond), r.PageTools)
	fmt.Fprintf(&b, "  CPU time to that answer (median): the server alone %v, genui itself %v (its upstream not counted)\n",
		r.DirectCPU.Round(time.Millisecond), r.GenuiCPU.Round(time.Millisecond))
	ratios := slices.Clone(r.Ratios)
	slices.Sort(ratios)
	fmt.Fprintf(&b, "  genui over the server's own, round by round: median %.2fx (range %.2f-%.2fx over %d rounds; goal <= 1.5x):",
		ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1], len(ratios))
	for _, x := range r.Ratios { // in order, to pool runs
		fmt.Fprintf(&b, " %.2f", x)
	}
	b.WriteString("\n")
	whole := slices.Clone(r.WholeRatios)
	slices.Sort(whole)
	fmt.Fprintf(&b, "  the whole listing through genui (every page, cursor by cursor) %v; over the server's one answer, round by round: median %.2fx (range %.2f-%.2fx):",
		r.GenuiWhole.Round(time.Millisecond), whole[len(whole)/2], whole[0], whole[len(whole)-1])
	for _, x := range r.WholeRatios {
		fmt.Fprintf(&b, " %.2f", x)
	}
	b.WriteString("\n")
	added := r.RSS - r.RSS1
	fmt.Fprintf(&b, "  genui resident memory a second after its first page (a start of its own): %.1f MB, %.1f MB with a one-tool server: %.0f B/tool added, %.2fx the tools' JSON (the Go heap after GC: BenchmarkToolsList100k)\n",
		float64(r.RSS)/1e6, float64(r.RSS1)/1e6, float64(added)/float64(r.N), float64(added)/float64(r.JSONBytes))
	return b.String()
}

// benchManyTools alternates the server alone and genui in front of it,
// rounds times each, then measures genui with a one-tool server.
func benchManyTools(ctx context.Context, cfg config) (toolsReport, error) {
	r := toolsReport{N: cfg.tools, Rounds: cfg.toolRounds, JSONBytes: (&manytools.Server{N: cfg.tools}).ToolsBytes()}
	dir, err := os.MkdirTemp("", "genui-bench-tools-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	var direct, viaGenui, genuiWhole, directCPU, genuiCPU []time.Duration
	var rss []int64
	for i := -1; i < cfg.toolRounds; i++ { // round -1 warms up
		// The order flips every round, so neither mode always runs right
		// after the other's exit (its freed memory, its page cache).
		var d, g listed
		for _, alone := range []bool{i%2 == 0, i%2 != 0} {
			if alone {
				if d, err = firstToolsList(ctx, cfg, cfg.tools, "", false); err != nil {
					return r, fmt.Errorf("server alone: %w", err)
				}
			} else if g, err = firstToolsList(ctx, cfg, cfg.tools, dir, false); err != nil {
				return r, fmt.Errorf("through genui: %w", err)
			}
		}
		if d.tools != cfg.tools {
			return r, fmt.Errorf("the server alone listed %d tools, want %d", d.tools, cfg.tools)
		}
		if g.all < cfg.tools {
			return r, fmt.Errorf("genui's pages listed %d tools, want at least %d", g.all, cfg.tools)
		}
		if i < 0 {
			continue
		}
		// Memory on its own start, a second after the first page, as
		// before the pages were timed: paging through 100 pages leaves
		// garbage the resident figure would count until the GC returns it.
		m, err := firstToolsList(ctx, cfg, cfg.tools, dir, true)
		if err != nil {
			return r, fmt.Errorf("through genui, memory: %w", err)
		}
		direct, viaGenui, rss = append(direct, d.took), append(viaGenui, g.took), append(rss, m.rss)
		genuiWhole = append(genuiWhole, g.whole)
		r.Ratios = append(r.Ratios, ratio(g.took, d.took))
		r.WholeRatios = append(r.WholeRatios, ratio(g.whole, d.took))
		directCPU, genuiCPU = append(directCPU, d.cpu), append(genuiCPU, g.cpu)
		r.PageTools, r.AnswerBytes = g.tools, d.bytes
	}
	one, err := firstToolsList(ctx, cfg, 1, dir, true)
	if err != nil {
		return r, fmt.Errorf("through genui, one tool: %w", err)
	}
	r.Direct, r.Genui, r.GenuiWhole = median(direct), median(viaGenui), median(genuiWhole)
	r.DirectCPU, r.GenuiCPU = median(directCPU), median(genuiCPU)
	slices.Sort(rss)
	r.RSS, r.RSS1 = rss[len(rss)/2], one.rss
	return r, nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// listed is one spawn-to-tools/list measurement.
type listed struct {
	took  time.Duration // to the first answer
	whole time.Duration // to the last page (the first answer for the server alone)
	tools int           // tools in the first answer
	all   int           // tools in every page
	bytes int           // bytes of the answer
	rss   int64         // genui's resident bytes right after (genui only)
	cpu   time.Duration
}

// firstToolsList spawns the n-tool server (through genui mcp with --dir
// genuiDir when that is not ""), initializes, asks tools/list and times
// the answer, then pages through the rest of the listing (timed whole),
// or, for memory, reads genui's resident bytes a second after the first
// answer instead.
func firstToolsList(ctx context.Context, cfg config, n int, genuiDir string, memory bool) (listed, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var cmd *exec.Cmd
	env := append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, manyToolsEnv+"=") }),
		manyToolsEnv+"="+strconv.Itoa(n))
	if genuiDir != "" {
		cmd = exec.CommandContext(ctx, cfg.genui, "mcp", "--dir", genuiDir, "--llm", "offline", "--", cfg.relay)
		cmd.Dir = genuiDir
	} else {
		cmd = exec.CommandContext(ctx, cfg.relay)
	}
	cmd.Env = env
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return listed{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return listed{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return listed{}, err
	}
	defer stopChild(cmd, in)
	br := bufio.NewReaderSize(out, 1<<20)
	send := func(s string) error { _, err := io.WriteString(in, s+"\n"); return err }
	if err := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`); err != nil {
		return listed{}, err
	}
	if _, err := readAnswer(br, 1); err != nil {
		return listed{}, fmt.Errorf("initialize: %w", err)
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return listed{}, err
	}
	if err := send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); err != nil {
		return listed{}, err
	}
	line, err := readAnswer(br, 2)
	took := time.Since(start)
	cpu := cpuTime(cmd.Process.Pid)
	if err != nil {
		return listed{}, fmt.Errorf("tools/list: %w", err)
	}
	res := listed{took: took, bytes: len(line), cpu: cpu, whole: took}
	var ans struct {
		Result struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &ans); err != nil || ans.Error != nil {
		return listed{}, fmt.Errorf("tools/list answer: %v %.300s", err, ans.Error)
	}
	res.tools = len(ans.Result.Tools)
	res.all = res.tools
	if memory {
		time.Sleep(time.Second) // what it settles at, not a transient
		res.rss = residentBytes(cmd.Process.Pid)
		return res, nil
	}
	// The rest of the listing, page by page, as a host pages through it
	// (the server alone has none: its one answer holds every tool). The
	// pages are decoded after the clock stops, as the server's answer is.
	var pages [][]byte
	for id, cursor := 3, ans.Result.NextCursor; cursor != ""; id++ {
		q, _ := json.Marshal(cursor)
		if err := send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/list","params":{"cursor":` + string(q) + `}}`); err != nil {
			return listed{}, err
		}
		line, err := readAnswer(br, id)
		if err != nil {
			return listed{}, fmt.Errorf("tools/list page %d: %w", id-1, err)
		}
		pages = append(pages, line)
		cursor = ""
		if i := bytes.LastIndex(line, []byte(`"nextCursor":"`)); i >= 0 {
			rest := line[i+len(`"nextCursor":"`):]
			cursor = string(rest[:max(bytes.IndexByte(rest, '"'), 0)])
		}
	}
	res.whole = time.Since(start)
	for i, line := range pages {
		ans.Result.Tools = nil
		if err := json.Unmarshal(line, &ans); err != nil || ans.Error != nil {
			return listed{}, fmt.Errorf("tools/list page %d: %v %.300s", i+2, err, ans.Error)
		}
		res.all += len(ans.Result.Tools)
	}
	return res, nil
}

// readAnswer reads frames until the response with the given id (skipping
// notifications and requests) and returns it.
func readAnswer(br *bufio.Reader, id int) ([]byte, error) {
	prefix := []byte(`"id":` + strconv.Itoa(id) + `,`)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		head := line[:min(len(line), 64)]
		if bytes.Contains(head, prefix) && !bytes.Contains(head, []byte(`"method"`)) {
			return bytes.TrimSpace(line), nil
		}
	}
}

// residentBytes is a process's resident set (VmRSS), or 0.
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cpuTime is a process's CPU time so far, without its children: the sum
// of its threads' run time in /proc (nanoseconds; /proc/PID/stat counts
// 10 ms ticks), or 0. Go programs seldom end a thread, so what a thread
// that ended ran is hardly ever missing.
func cpuTime(pid int) time.Duration {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread ended
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}

// stopChild closes the child's stdin and waits for it to exit, killing it
// after 10 s.
func stopChild(cmd *exec.Cmd, in io.Closer) {
	_ = in.Close()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}
