// Package launch is `genui tui` after flag parsing: it attaches the
// workbench to a running genui or runs one in-process beside it. It is the
// one place that joins the TUI (which sees only contract.API) to the pieces
// behind the interface (config, engine/app, the HTTP client).
package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/pkg/browser"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/app"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/httpapi"
	"github.com/genui-dev/genui/tui"
)

// releaseWait bounds stopping the in-process engine (upstream process
// group, side server, port files) when the TUI quits or attaches.
const releaseWait = 15 * time.Second

// Options are `genui tui`'s own flags.
type Options struct {
	// Attach insists on attaching to the genui serving DIR; NoAttach on
	// running the engine in-process.
	Attach, NoAttach bool
}

// Locate reads what DIR's port and lock files say about the genui serving
// DIR, through engine/httpapi (engine/safefile: regular files only,
// bounded, never blocking on a FIFO or draining a device): the TUI's
// Options.Locate.
func Locate(dir string) (tui.DirGenui, error) {
	g, err := httpapi.LocateDir(dir)
	if err != nil {
		return tui.DirGenui{}, err
	}
	return tui.DirGenui{Base: "http://127.0.0.1:" + strconv.Itoa(g.Port), Instance: g.Instance, Held: g.Held}, nil
}

// Run is `genui tui` after flag parsing: it attaches to the genui that
// r's DIR/mcp-port names when that genui answers, else runs the engine
// in-process (with its side server and yielding port files) beside the
// workbench. Logs go to the log file only, never to the terminal.
func Run(ctx context.Context, r *app.Setup, o Options) error {
	if o.Attach && o.NoAttach {
		return errors.New("--attach and --no-attach contradict each other")
	}
	// The terminal belongs to the TUI: logs and notices go to the file only,
	// even with --debug; nothing the browser launcher prints reaches it.
	r.Stderr, r.Notices = nil, io.Discard
	browser.Stdout, browser.Stderr = io.Discard, io.Discard
	upstreamGiven := r.UpstreamGiven()
	if o.Attach && upstreamGiven {
		return errors.New("--attach shows the running genui with its own upstream: drop the upstream command (or use --no-attach)")
	}
	dir := r.Config.Dir
	dial := func(base string) contract.API { return apiclient.New(base, nil) }
	if !o.NoAttach && !upstreamGiven {
		base, api, derr := tui.Discover(ctx, dir, Locate, dial)
		if derr == nil {
			// DIR exists: the genui it attached to serves it.
			log, err := r.Logger()
			if err != nil {
				return err
			}
			log.With("component", config.ComponentTUI).Info("tui attached", "api", base)
			return tui.Run(ctx, tui.Options{API: api, Mode: tui.Attached, Base: base, Dir: dir, Dial: dial, Locate: Locate, NoColor: tui.NoColorFromEnv()})
		}
		if o.Attach {
			// Nothing to show and nothing written: DIR is not created for this.
			return fmt.Errorf("--attach: no genui is running in %s (%v); start one (genui mcp or genui serve with --dir %s) or drop --attach", dir, derr, dir)
		}
	}
	if _, err := r.Logger(); err != nil {
		return err
	}
	return runInProcess(ctx, r, dial)
}

// runInProcess runs the engine, its MCP host and side server (yielding
// port files) beside the TUI. Quitting stops them: the upstream's process
// group ends and the port files go. Attaching later (key a) stops them too.
func runInProcess(ctx context.Context, r *app.Setup, dial func(string) contract.API) error {
	ao, err := r.AppOptions()
	if err != nil {
		return err
	}
	ao.YieldPortFiles, ao.Notices = true, io.Discard
	a, err := app.New(ao)
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
	err = tui.Run(ctx, tui.Options{API: a.API(), Mode: tui.InProcess, Base: base, Dir: r.Config.Dir, Dial: dial, Locate: Locate,
		Release: release, Upstream: app.DescribeUpstream(r.Upstream), NoColor: tui.NoColorFromEnv()})
	release()
	if err != nil {
		return err
	}
	if appErr != nil && !errors.Is(appErr, context.Canceled) {
		return appErr
	}
	return nil
}
