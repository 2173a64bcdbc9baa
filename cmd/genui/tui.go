package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/pkg/browser"
	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/app"
	"github.com/genui-dev/genui/tui"
)

// releaseWait bounds stopping the in-process engine (upstream process
// group, side server, port files) when the TUI quits or attaches.
const releaseWait = 15 * time.Second

func newTUICmd() *cobra.Command {
	var f commonFlags
	var attach, noAttach bool
	cmd := &cobra.Command{
		Use:   "tui [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "The terminal workbench: attach to the genui serving --dir, or run one in-process",
		Long: "genui tui shows the genui that serves --dir (DIR/mcp-port names a live one: genui mcp\n" +
			"started by Claude Code, or genui serve) and drives it from the keyboard. With none running,\n" +
			"or with --no-attach or an upstream given, it runs the engine in-process with its HTTP side\n" +
			"server and port files (the built-in demo when no upstream is given). Logs go to\n" +
			"DIR/log/genui.log, never to the terminal.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if attach && noAttach {
				return errors.New("--attach and --no-attach contradict each other")
			}
			dash := cmd.ArgsLenAtDash()
			r, err := f.resolve(args, dash)
			if err != nil {
				return err
			}
			defer r.close()
			// The terminal belongs to the TUI: logs go to the file only,
			// even with --debug.
			level := slog.LevelInfo
			if f.debug {
				level = slog.LevelDebug
			}
			r.logger = slog.New(slog.NewJSONHandler(r.logFile, &slog.HandlerOptions{Level: level}))
			r.gen.Logger = r.logger
			upstreamGiven := len(f.upstreamCmd) > 0 || f.upstreamURL != ""
			if attach && upstreamGiven {
				return errors.New("--attach shows the running genui with its own upstream: drop the upstream command (or use --no-attach)")
			}
			// Nothing the browser launcher prints may reach the terminal.
			browser.Stdout, browser.Stderr = io.Discard, io.Discard
			ctx, stop := signalContext()
			defer stop()
			dial := func(base string) engine.API { return apiclient.New(base, nil) }
			if !noAttach && !upstreamGiven {
				base, api, derr := tui.Discover(ctx, r.dir, dial)
				switch {
				case derr == nil:
					r.logger.Info("tui attached", "api", base)
					return tui.Run(ctx, tui.Options{API: api, Mode: tui.Attached, Base: base, Dir: r.dir, Dial: dial,
						NoColor: tui.NoColorFromEnv()})
				case attach:
					return fmt.Errorf("--attach: no genui is running in %s (%v); start one (genui mcp or genui serve with --dir %s) or drop --attach", r.dir, derr, r.dir)
				}
			}
			return runTUIInProcess(ctx, r, dial)
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&attach, "attach", false, "attach to the genui serving --dir; fail when none runs")
	cmd.Flags().BoolVar(&noAttach, "no-attach", false, "run the engine in-process even when a genui serves --dir")
	return cmd
}

// runTUIInProcess runs the engine, its MCP host and side server (yielding
// port files) beside the TUI. Quitting stops them: the upstream's process
// group ends and the port files go. Attaching later (key a) stops them too.
func runTUIInProcess(ctx context.Context, r *resolved, dial func(string) engine.API) error {
	eo, err := r.engineOptions()
	if err != nil {
		return err
	}
	a, err := app.New(app.Options{Engine: eo, UIMetadata: r.uiMetadata, AutoInstall: true,
		YieldPortFiles: true, Notices: io.Discard})
	if err != nil {
		return err
	}
	appCtx, stopApp := context.WithCancel(ctx)
	defer stopApp()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- a.Run(appCtx, func(ctx context.Context, api string) error {
			ready <- api
			<-ctx.Done()
			return nil
		})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		return err
	}
	var appErr error
	var once sync.Once
	release := func() {
		once.Do(func() {
			stopApp()
			select {
			case appErr = <-done:
			case <-time.After(releaseWait):
				appErr = fmt.Errorf("the in-process engine did not stop within %s", releaseWait)
			}
		})
	}
	err = tui.Run(ctx, tui.Options{API: a.API(), Mode: tui.InProcess, Base: base, Dir: r.dir, Dial: dial,
		Release: release, Upstream: app.DescribeUpstream(r.upstream), NoColor: tui.NoColorFromEnv()})
	release()
	if err != nil {
		return err
	}
	if appErr != nil && !errors.Is(appErr, context.Canceled) {
		return appErr
	}
	return nil
}
