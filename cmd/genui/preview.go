package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/pkg/browser"
	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/engine/app"
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
			a, err := r.newApp(0, 0)
			if err != nil {
				return err
			}
			ctx, stop := signalContext()
			defer stop()
			return a.Run(ctx, nil, func(ctx context.Context, api string) error {
				wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				defer cancel()
				if _, err := a.Engine.LookupTool(wctx, tool); err != nil {
					return err
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
			eo, err := r.engineOptions()
			if err != nil {
				return err
			}
			ctx, stop := signalContext()
			defer stop()
			return app.Export(ctx, eo, out, os.Stderr)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&out, "out", "", "folder to write the .html files to")
	return cmd
}
