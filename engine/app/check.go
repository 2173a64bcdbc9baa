package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/checks"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/history"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/resultdiff"
	"github.com/genui-dev/genui/engine/upstream"
)

// `genui check`: pinned calls replayed against the server without a host
// or a running genui: it starts the upstream itself (no side server, no
// port files, no history), replays the checks in checks.directory and
// exits 0 when every one is equal (or accepted with --update), 1 otherwise.

// ConfigureWithNames is Configure for commands that take names before
// "--" (genui check NAME... -- UPSTREAM...): it returns them apart.
func ConfigureWithNames(f *config.Flags, args []string, dash int) (*Setup, []string, error) {
	names, command := args, []string(nil)
	if dash >= 0 {
		names, command = args[:dash], args[dash:]
	}
	s, err := ConfigureInput(f, f.Input(command))
	return s, names, err
}

// CheckOptions configure RunChecks.
type CheckOptions struct {
	// Names selects checks (all when empty).
	Names []string
	// Update rewrites the files of changed checks with the new results.
	Update bool
	// JSON prints the report as JSON (contract.CheckReport; with Lint, the
	// contract.LintReport follows it).
	JSON bool
	// Demo runs the checks against the built-in demo when no upstream is
	// configured (checks pinned in a TUI that ran the demo); without it a
	// missing upstream is NoUpstreamError.
	Demo bool
	// Lint runs the server linter too (genui lint) on the same upstream.
	Lint bool
	Out  io.Writer
}

// NoUpstreamError is `genui check`'s error when no server is given (no
// "-- COMMAND", no configured upstream) and --demo is not set: checks
// replayed against the built-in demo would fail with "tool not found"
// and say nothing about the server meant. genui exits 2 (a usage error).
type NoUpstreamError struct{}

func (NoUpstreamError) Error() string {
	return "no server to check: give its command after -- (genui check -- node build/index.js) or set \"upstream\" in the configuration; --demo checks against the built-in demo"
}

// ExitCode is the process's exit status for it.
func (NoUpstreamError) ExitCode() int { return 2 }

// ExitCode is the process's exit status for a command's error: 2 for a
// usage error (genui check without a server), else 1.
func ExitCode(err error) int {
	var nu NoUpstreamError
	if errors.As(err, &nu) {
		return nu.ExitCode()
	}
	return 1
}

// ErrChecksFailed is RunChecks' error when a check changed or failed
// (the report says which): genui exits 1.
var ErrChecksFailed = errors.New("checks did not pass")

// upstreamStartWait bounds the wait for the upstream `genui check` starts.
const upstreamStartWait = 60 * time.Second

// RunChecks is `genui check`.
func (s *Setup) RunChecks(ctx context.Context, o CheckOptions) error {
	store := checks.NewStore(s.Config.Checks.Directory)
	up, stop, err := s.startUpstream(ctx, o.Demo)
	if err != nil {
		return err
	}
	defer stop()
	rep, err := store.Run(ctx, toolCaller(up), checks.RunOptions{Names: o.Names, Update: o.Update, Timeout: s.Config.Checks.Timeout.D()})
	if err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(o.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprint(o.Out, checks.Report(rep))
	}
	var lintErr error
	if o.Lint {
		lintErr = s.lintWith(ctx, up, LintOptions{JSON: o.JSON, Out: o.Out})
		if lintErr != nil && !errors.Is(lintErr, ErrLintFailed) {
			return lintErr
		}
	}
	if !rep.OK() {
		return errors.Join(fmt.Errorf("%w: %d changed, %d failed", ErrChecksFailed, rep.Changed-rep.Updated, rep.Failed), lintErr)
	}
	return lintErr
}

// checkCaller starts the configured upstream and returns a caller of its
// tools; stop ends it (its process group).
func (s *Setup) checkCaller(ctx context.Context, demo bool) (checks.Caller, func(), error) {
	c, stop, err := s.startUpstream(ctx, demo)
	if err != nil {
		return nil, stop, err
	}
	return toolCaller(c), stop, nil
}

// startUpstream starts the configured upstream (for the commands that run
// without a host: check, lint) and waits, bounded, for it to be ready;
// stop ends it (its process group). Without a configured upstream it is
// NoUpstreamError unless demo asks for the built-in demo.
func (s *Setup) startUpstream(ctx context.Context, demo bool) (*upstream.Client, func(), error) {
	if s.Upstream.Transport == upstream.TransportInProcess && !demo {
		return nil, func() {}, NoUpstreamError{}
	}
	log, err := s.Logger()
	if err != nil {
		return nil, func() {}, err
	}
	cfg := s.Upstream
	cfg.Logger, cfg.ClientName = log, "genui-check"
	c := upstream.New(cfg)
	rctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(rctx) }()
	stop := func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			log.Warn("the upstream did not stop within 10 s")
		}
	}
	wctx, wcancel := context.WithTimeout(ctx, upstreamStartWait)
	defer wcancel()
	if err := waitStarted(wctx, c); err != nil {
		stop()
		select {
		case rerr := <-done: // a configuration error ends Run at once
			if rerr != nil {
				return nil, func() {}, rerr
			}
		default:
		}
		return nil, func() {}, fmt.Errorf("the upstream %s did not start: %s", DescribeUpstream(s.Upstream), s.Config.Secrets.Redact(err.Error()))
	}
	return c, stop, nil
}

// waitStarted waits until c is connected, or its first attempt failed
// (then at once, with the reason: its exit and the last lines of its
// stderr), bounded by ctx: a server that cannot start is reported within
// a second, not after upstreamStartWait.
func waitStarted(ctx context.Context, c *upstream.Client) error {
	ready := make(chan error, 1)
	go func() { ready <- c.WaitReady(ctx) }()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case err := <-ready:
			return err
		case <-t.C:
			if st := c.State(); !st.Connected && st.LastError != "" {
				return errors.New(st.LastError)
			}
		}
	}
}

// toolCaller calls c's tools.
func toolCaller(c *upstream.Client) checks.Caller {
	return func(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
		params, err := json.Marshal(map[string]any{"name": tool, "arguments": args})
		if err != nil {
			return nil, err
		}
		res, err := c.Request(ctx, "tools/call", params)
		if err != nil {
			var je *jsonrpc.Error
			if errors.As(err, &je) {
				return nil, fmt.Errorf("%s (JSON-RPC error %d)", je.Message, je.Code)
			}
			return nil, err
		}
		return res, nil
	}
}

// AddCheckOptions configure AddCheck: Args is NAME [TOOL [ARGUMENTS]].
type AddCheckOptions struct {
	Args []string
	// HistoryID pins a recorded call (DIR/history) instead of TOOL.
	HistoryID int64
	Ignore    []string
	Replace   bool
	// Demo: as CheckOptions.Demo.
	Demo bool
	Out  io.Writer
}

// AddCheck is `genui check add`: it pins a recorded call, or calls TOOL
// with ARGUMENTS (a JSON object; default {}) for the expected result, and
// writes the check's file.
func (s *Setup) AddCheck(ctx context.Context, o AddCheckOptions) error {
	if len(o.Args) == 0 || len(o.Args) > 3 {
		return errors.New("usage: genui check add NAME [TOOL [ARGUMENTS_JSON]] | NAME --history ID")
	}
	c := contract.Check{Name: o.Args[0], Ignore: o.Ignore, Arguments: json.RawMessage(`{}`)}
	if err := checks.ValidName(c.Name); err != nil {
		return err
	}
	for _, p := range o.Ignore {
		if _, err := resultdiff.ParsePath(p); err != nil {
			return fmt.Errorf("--ignore: %w", err)
		}
	}
	if len(o.Args) > 1 {
		c.Tool = o.Args[1]
	}
	if len(o.Args) > 2 {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(o.Args[2]), &obj); err != nil || obj == nil {
			return fmt.Errorf("ARGUMENTS must be a JSON object, not %q", o.Args[2])
		}
		c.Arguments = json.RawMessage(o.Args[2])
	}
	switch {
	case o.HistoryID != 0 && c.Tool != "":
		return errors.New("give either TOOL or --history, not both")
	case o.HistoryID != 0:
		h, err := s.recordedCall(o.HistoryID)
		if err != nil {
			return err
		}
		if why := h.Replayable(); why != "" {
			return fmt.Errorf("call %d cannot be pinned: %s", h.ID, why)
		}
		c.Tool, c.Arguments = h.Tool, h.Arguments
		if h.Error == "" && h.ResultOmitted == "" {
			c.Result = h.Result
		}
	case c.Tool == "":
		return errors.New("name the TOOL to call (or pin a recorded call with --history ID)")
	}
	if c.Result == nil {
		call, stop, err := s.checkCaller(ctx, o.Demo)
		if err != nil {
			return err
		}
		defer stop()
		cctx, cancel := context.WithTimeout(ctx, s.Config.Checks.Timeout.D())
		defer cancel()
		if c.Result, err = call(cctx, c.Tool, c.Arguments); err != nil {
			return fmt.Errorf("calling %s for the check's expected result: %w", c.Tool, err)
		}
	}
	store := checks.NewStore(s.Config.Checks.Directory)
	written, err := store.Write(c, o.Replace)
	if err != nil {
		return err
	}
	path := filepath.Join(store.Dir(), c.Name+".json")
	if !written {
		fmt.Fprintf(o.Out, "check %s unchanged (%s)\n", c.Name, path)
		return nil
	}
	fmt.Fprintf(o.Out, "pinned %s: %s %s -> %s\n", c.Name, c.Tool, clip(string(c.Arguments), 80), path)
	return nil
}

// recordedCall reads one call from DIR/history (a running genui may be
// writing it: it is only read).
func (s *Setup) recordedCall(id int64) (contract.HistoryEntry, error) {
	st, err := history.Open(history.Options{Dir: filepath.Join(s.Config.Dir, "history"), MaxEntries: s.Config.History.MaxEntries,
		MaxBytes: s.Config.History.MaxBytes, MaxValueBytes: s.Config.History.MaxValueBytes})
	if err != nil {
		return contract.HistoryEntry{}, err
	}
	defer st.Close()
	h, ok := st.Get(id)
	if !ok {
		return contract.HistoryEntry{}, fmt.Errorf("no recorded call %d in %s (the TUI's History pane shows the numbers)",
			id, filepath.Join(s.Config.Dir, "history"))
	}
	return h, nil
}

// ListChecks is `genui check list`.
func (s *Setup) ListChecks(out io.Writer) error {
	store := checks.NewStore(s.Config.Checks.Directory)
	list, problems, err := store.List()
	if err != nil {
		return err
	}
	if len(list) == 0 && len(problems) == 0 {
		fmt.Fprintf(out, "no checks in %s\n", store.Dir())
	}
	for _, c := range list {
		line := fmt.Sprintf("%s  %s %s", c.Name, c.Tool, clip(string(c.Arguments), 60))
		if len(c.Ignore) > 0 {
			line += "  ignore " + strings.Join(c.Ignore, ", ")
		}
		fmt.Fprintln(out, line)
	}
	for name, perr := range problems {
		fmt.Fprintf(out, "%s  cannot be read: %v\n", name, perr)
	}
	return nil
}

// clip shortens s (JSON is compacted) for a one-line message.
func clip(s string, n int) string {
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(s)) == nil {
		s = buf.String()
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
	}
	return s
}
