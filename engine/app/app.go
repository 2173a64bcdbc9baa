// Package app assembles a running genui: the engine, its MCP host and the
// HTTP side server, run under one errgroup with one context. The commands
// (genui mcp, serve, preview, tui, export) build an App from resolved
// configuration and hand it their front end; they hold no logic of their own.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/httpapi"
	"github.com/genui-dev/genui/engine/metrics"
	"github.com/genui-dev/genui/engine/upstream"
)

// Options configure an App.
type Options struct {
	Engine engine.Options
	// UIMetadata is host.UIMetaAlways (default), UIMetaAuto or UIMetaNever.
	UIMetadata string
	// UIPort and APIPort are the side server's ports (0 = random).
	UIPort, APIPort int
	// AutoInstall writes DIR's helper files on first start (DIR/README.md
	// missing); failures are logged, never fatal.
	AutoInstall bool
	// YieldPortFiles lets a genui started later on the same DIR take the
	// port files over (the in-process TUI, which then offers to attach).
	YieldPortFiles bool
	// Notices receives messages for the user (a port conflict); default
	// os.Stderr. Never stdout: in `genui mcp` it carries JSON-RPC only.
	Notices io.Writer
	// Metrics is this App's Prometheus registry and collectors (default:
	// a fresh one); GET /metrics on the API port serves it.
	Metrics *metrics.Metrics
	// Host holds the MCP host's settings (limits, allowed origins); New
	// fills in its Engine, Upstream, Tools, Version, UIMetadata, Logger
	// and ObserveRequest.
	Host host.Options
}

// App is an engine with its MCP host and HTTP side server.
type App struct {
	opts Options
	log  *slog.Logger
	// Engine is the core; front ends use it through contract.API.
	Engine *engine.Engine
	Host   *host.Server
	Side   *httpapi.Server
	// Metrics is what GET /metrics serves.
	Metrics *metrics.Metrics
	// startGC puts the GC's target back after the start (Setup.NewApp);
	// nil when the App was not made by a Setup.
	startGC func()
}

// New builds the engine, the MCP host and the side server; nothing runs
// until Run.
func New(opts Options) (*App, error) {
	if opts.Engine.Logger == nil {
		opts.Engine.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Notices == nil {
		opts.Notices = os.Stderr
	}
	if opts.Metrics == nil {
		opts.Metrics = metrics.New()
	}
	opts.Engine.Metrics = opts.Metrics
	// The TUI, the preview and the HTTP API run beside every App: they may
	// answer the upstream's elicitation and sampling requests.
	opts.Engine.Surfaces = true
	e, err := engine.New(opts.Engine)
	if err != nil {
		return nil, err
	}
	log := e.Logger() // the same log, also shown to watchers (the TUI's Log tab)
	a := &App{opts: opts, log: log.With("component", "app"), Engine: e, Metrics: opts.Metrics}
	if opts.AutoInstall {
		a.autoInstall()
	}
	hopts := opts.Host
	hopts.Engine, hopts.Upstream, hopts.Tools, hopts.Version = e, e.Relay(), e.Registry(), engine.Version
	hopts.UIMetadata, hopts.Logger, hopts.ObserveRequest = opts.UIMetadata, log.With("component", "host"), opts.Metrics.ObserveRequest
	a.Host = host.New(hopts)
	a.Side = httpapi.New(httpapi.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Host: a.Host, Dir: opts.Engine.Dir, Logger: log.With("component", "httpapi"),
		Metrics: opts.Metrics.Handler(), YieldPortFiles: opts.YieldPortFiles})
	return a, nil
}

// API is the engine's front door.
func (a *App) API() contract.API { return a.Engine }

// FrontEnd runs beside the engine; api is the side server's base URL.
type FrontEnd func(ctx context.Context, api string) error

// Run listens on the side server's two ports and runs the engine, the side
// server and main under one errgroup until ctx ends, a part fails, or main
// returns (main may be nil: run until ctx ends). side functions run
// alongside and may return early without stopping anything. Shutdown is
// bounded by the parts' own limits.
func (a *App) Run(ctx context.Context, main FrontEnd, side ...FrontEnd) error {
	uiLn, apiLn, err := httpapi.Listen(a.opts.UIPort, a.opts.APIPort)
	if err != nil {
		return err
	}
	api := "http://" + apiLn.Addr().String()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a.Engine.Run(gctx) })
	g.Go(func() error { return a.Side.Serve(gctx, uiLn, apiLn) })
	if main != nil {
		g.Go(func() error {
			defer cancel()
			return main(gctx, api)
		})
	}
	for _, f := range side {
		g.Go(func() error { return f(gctx, api) })
	}
	if a.startGC != nil {
		go a.endStartGC(gctx)
	}
	g.Go(func() error {
		// Serve notices another live genui's port files, or port files it
		// cannot write, at start; tell the user.
		select {
		case <-gctx.Done():
		case <-time.After(time.Second):
			if err := a.Side.PortConflict(); err != nil {
				fmt.Fprintln(a.opts.Notices, "genui:", err)
			}
			if err := a.Side.PortFilesError(); err != nil {
				fmt.Fprintln(a.opts.Notices, "genui: warning:", err)
			}
		}
		return nil
	})
	err = g.Wait()
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		err = nil
	}
	a.log.Info("genui stopped", "err", err)
	return err
}

// endStartGC puts the GC's target back a second after the upstream's
// tools are first in (the host's first tools/list answered by then), or
// when ctx ends, at most startGCBound after the start.
func (a *App) endStartGC(ctx context.Context) {
	defer a.startGC()
	wctx, cancel := context.WithTimeout(ctx, startGCBound)
	defer cancel()
	if err := a.Engine.Registry().WaitReady(wctx); err != nil {
		return
	}
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// ServeStdio is the front end of `genui mcp`: MCP over stdin/stdout until
// stdin closes. The upstream is told the stdio host's capabilities.
func (a *App) ServeStdio(in io.Reader, out io.Writer) FrontEnd {
	a.Host.ExpectStdioHost()
	return func(ctx context.Context, _ string) error { return a.Host.ServeStdio(ctx, in, out) }
}

// DescribeUpstream is a one-line description of an upstream configuration,
// its secrets hidden (u.Redact: a ${env:VAR} value shows as
// <from ${env:VAR}>).
func DescribeUpstream(u upstream.Config) string {
	var s string
	switch u.Transport {
	case "inprocess":
		return "built-in demo (in-process)"
	case "stdio":
		s = strings.Join(append([]string{u.Command}, u.Args...), " ")
	default:
		s = u.Transport + " " + u.URL
	}
	if u.Redact != nil {
		s = u.Redact(s)
	}
	return s
}

// ServeBanner is the side front end of `genui serve`: it prints the URLs
// and, once the upstream's tools are known, a preview URL per tool.
func (a *App) ServeBanner(w io.Writer, logPath string) FrontEnd {
	return func(ctx context.Context, api string) error {
		fmt.Fprintf(w, "%s\n  MCP (streamable HTTP): %s/mcp\n  MCP (legacy SSE):      %s/sse\n"+
			"  state: %s/state   variables: %s/variables   events for agents: %s/wait   metrics: %s/metrics\n  upstream: %s\n  logs: %s\n",
			engine.VersionLine(), api, api, api, api, api, api, DescribeUpstream(a.opts.Engine.Upstream), logPath)
		if line := a.rootsLine(); line != "" {
			fmt.Fprintln(w, line)
		}
		if st, err := a.Engine.State(ctx); err == nil && st.GeneratorSource != "" {
			fmt.Fprintf(w, "  UI generator: %s, with %s (not given to genui: llm.fromEnvironment false or --llm offline stops this)\n",
				st.Generator, st.GeneratorSource)
		}
		// An upstream that does not start says why here at once (its exit
		// and the last lines of its stderr), not only in the log.
		if _, _, failed := a.Engine.Relay().WaitHandshake(ctx); failed != nil {
			if a.signInBanner(ctx, w) {
				return nil
			}
			fmt.Fprintf(w, "  upstream did not start: %s\n  (genui keeps retrying it; fix the server or its command line)\n",
				strings.ReplaceAll(failed.Error(), "\n", "\n  "))
			return nil
		}
		// Signed in with the tokens kept in DIR: as whom (the name has no
		// control characters: the engine strips them).
		if st, err := a.Engine.State(ctx); err == nil && st.Upstream.Auth != nil && st.Upstream.Auth.Status == contract.AuthSignedIn {
			who := "signed in"
			if st.Upstream.Auth.Account != "" {
				who += " as " + st.Upstream.Auth.Account
			}
			fmt.Fprintf(w, "  upstream sign-in (OAuth): %s\n", who)
		}
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := a.Engine.Registry().WaitReady(wctx); err != nil {
			fmt.Fprintf(w, "  upstream not ready yet: %v\n", err)
			return nil
		}
		fmt.Fprintln(w, "  previews:")
		for _, t := range a.Engine.Registry().List() {
			fmt.Fprintf(w, "    %s/preview/%s\n", api, url.PathEscape(t.Name))
		}
		return nil
	}
}

// signInBanner says, when the upstream wants an OAuth sign-in, where to
// sign in (waiting up to 30 s for discovery and registration to give the
// authorization URL), or why the sign-in failed; it reports whether the
// upstream wants one.
func (a *App) signInBanner(ctx context.Context, w io.Writer) bool {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		st, err := a.Engine.State(ctx)
		if err != nil {
			return false
		}
		auth := st.Upstream.Auth
		switch {
		case auth == nil || auth.Status == contract.AuthNone || auth.Status == contract.AuthSignedIn:
			return false
		case auth.Status == contract.AuthSigningIn && auth.AuthorizationURL != "":
			fmt.Fprintf(w, "  upstream needs sign in (OAuth): open this URL in a browser to sign in:\n    %s\n", auth.AuthorizationURL)
			return true
		case auth.Status != contract.AuthNeeded:
			fmt.Fprintf(w, "  upstream needs sign in (OAuth): %s\n", auth.Message)
			return true
		}
		select {
		case <-ctx.Done():
			fmt.Fprintln(w, "  upstream needs sign in (OAuth): still discovering its authorization server (see /state)")
			return true
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// rootsLine says what genui tells the upstream of roots and the other
// client capabilities, for the serve banner.
func (a *App) rootsLine() string {
	mode := a.Host.CapabilityMode()
	line := "  capabilities toward the upstream: " + mode
	if mode == host.CapabilitiesWorkbench {
		line += " (sampling and elicitation answered in genui's TUI and preview)"
	} else {
		line += " (the first MCP host's own)"
	}
	roots := a.opts.Engine.Roots
	if len(roots) == 0 {
		return line + "\n  roots: none from genui (a host's own roots are passed on to the upstream in host mode)"
	}
	uris := make([]string, len(roots))
	for i, r := range roots {
		uris[i] = r.URI
	}
	return line + "\n  roots genui answers roots/list with: " + strings.Join(uris, ", ")
}

// SignalContext ends on SIGINT or SIGTERM.
func SignalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
