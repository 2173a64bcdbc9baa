package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/pkg/browser"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/httpapi"
)

func newPreviewCmd() *cobra.Command {
	var f commonFlags
	var noOpen bool
	var argsJSON string
	cmd := &cobra.Command{
		Use:   "preview TOOL [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Open the browser preview of TOOL (reuses a running genui in --dir when there is one)",
		RunE: func(cmd *cobra.Command, args []string) error {
			n := cmd.ArgsLenAtDash()
			if n == 0 || (n < 0 && len(args) == 0) {
				return errors.New("preview needs a TOOL name")
			}
			tool := args[0]
			rest := args[1:]
			if n > 1 || (n < 0 && len(rest) > 0) {
				return fmt.Errorf("unexpected arguments %v (put the upstream command after --)", rest)
			}
			q := url.Values{}
			if argsJSON != "" {
				q.Set("args", argsJSON)
				q.Set("call", "1")
			}
			open := func(base string) (string, error) {
				u := base + "/preview/" + url.PathEscape(tool)
				if len(q) > 0 {
					u += "?" + q.Encode()
				}
				fmt.Fprintln(os.Stderr, "preview:", u)
				if noOpen {
					return u, nil
				}
				return u, browser.OpenURL(u)
			}
			dir := firstNonEmpty(f.dir, os.Getenv("GENUI_DIR"), ".ui")
			if port, alive, err := httpapi.ReadPortFile(filepath.Join(dir, "mcp-port")); err == nil && alive && len(rest) == 0 {
				_, err := open(fmt.Sprintf("http://127.0.0.1:%d", port))
				return err
			}
			// No running genui: run one here until interrupted.
			r, err := f.resolve(rest, n-1)
			if err != nil {
				return err
			}
			defer r.close()
			a, err := buildApp(r)
			if err != nil {
				return err
			}
			return a.run(0, 0, nil, func(ctx context.Context, api string) error {
				wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				defer cancel()
				if err := a.e.WaitReady(wctx); err != nil {
					return err
				}
				if _, ok := a.e.Tool(tool); !ok {
					return fmt.Errorf("unknown tool %q", tool)
				}
				if _, err := open(api); err != nil {
					fmt.Fprintln(os.Stderr, "opening the browser failed:", err)
				}
				fmt.Fprintln(os.Stderr, "serving the preview until Ctrl-C")
				return nil
			})
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "print the URL, do not open a browser")
	cmd.Flags().StringVar(&argsJSON, "args", "", "JSON arguments to call the tool with on load")
	return cmd
}

func newExportCmd() *cobra.Command {
	var f commonFlags
	var out string
	cmd := &cobra.Command{
		Use:   "export --out DIR [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Write every tool's UI as a standalone .html file",
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return errors.New("export needs --out DIR")
			}
			r, err := f.resolve(args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer r.close()
			// Export writes finished pages: wait for the LLM's (up to its budget).
			r.gen.FirstRead, r.gen.WaitBudget = gen.FirstReadWait, max(r.gen.Budget, gen.DefaultBudget)
			gr, err := r.generator()
			if err != nil {
				return err
			}
			e, err := engine.New(engine.Options{Upstream: r.upstream, Dir: r.dir, PersistCache: r.persist, NoCache: r.noCache,
				Logger: r.logger, Generator: gr, MaxConcurrentGenerations: r.gen.MaxConcurrent})
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			ctx, cancel := context.WithCancel(ctx)
			g, gctx := errgroup.WithContext(ctx)
			g.Go(func() error { return e.Run(gctx) })
			g.Go(func() error {
				defer cancel()
				wctx, wcancel := context.WithTimeout(gctx, 30*time.Second)
				defer wcancel()
				if err := e.WaitReady(wctx); err != nil {
					return err
				}
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				for _, t := range e.Tools() {
					if t.OwnUI != "" {
						fmt.Fprintf(os.Stderr, "skip %s: it ships its own UI (%s)\n", t.Name, t.OwnUI)
						continue
					}
					ui, err := e.ReadUI(gctx, t.Name)
					if err != nil {
						return fmt.Errorf("%s: %w", t.Name, err)
					}
					path := filepath.Join(out, safeFileName(t.Name)+".html")
					if err := os.WriteFile(path, []byte(ui.HTML), 0o644); err != nil {
						return err
					}
					fmt.Fprintf(os.Stderr, "wrote %s (%s, %d bytes)\n", path, ui.Meta.UIType, len(ui.HTML))
				}
				return nil
			})
			return g.Wait()
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&out, "out", "", "folder to write the .html files to")
	return cmd
}

// safeFileName keeps letters, digits, '-', '_' and '.'; anything else
// becomes '_' (tool names come from the upstream).
func safeFileName(name string) string {
	b := []byte(name)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !ok {
			b[i] = '_'
		}
	}
	s := string(b)
	if s == "" || s == "." || s == ".." {
		s = "_" + s
	}
	return s
}
