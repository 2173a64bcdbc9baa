package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/app"
)

func newPreviewCmd() *cobra.Command {
	var f config.Flags
	var noOpen bool
	var argsJSON string
	cmd := &cobra.Command{
		Use:   "preview TOOL [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Open the browser preview of TOOL (reuses a running genui in --dir when there is one)",
		Example: "  genui preview get_forecast                    # a tool of the built-in demo (or of the running genui)\n" +
			"  genui preview --no-open search -- node my-server.js",
		RunE: func(cmd *cobra.Command, args []string) error {
			tool, command, err := config.SplitTool(args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			s, err := app.ConfigureInput(&f, f.Input(command))
			if err != nil {
				return err
			}
			defer s.Close()
			ctx, stop := app.SignalContext()
			defer stop()
			return app.Preview(ctx, s.PreviewOptions(tool, argsJSON, noOpen), s.NewApp)
		},
	}
	f.Register(cmd.Flags())
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "print the URL, do not open a browser")
	cmd.Flags().StringVar(&argsJSON, "args", "", "JSON arguments to call the tool with on load")
	return cmd
}

func newExportCmd() *cobra.Command {
	var f config.Flags
	var out string
	cmd := &cobra.Command{
		Use:   "export --out DIR [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Write every tool's UI as a standalone .html file",
		Example: "  genui export --out ui/                        # the built-in demo's UIs\n" +
			"  genui export --out ui/ -- node my-server.js",
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := app.Configure(&f, args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer s.Close()
			eo, err := s.ExportEngineOptions()
			if err != nil {
				return err
			}
			ctx, stop := app.SignalContext()
			defer stop()
			return app.Export(ctx, eo, out, os.Stderr)
		},
	}
	f.RegisterExport(cmd.Flags())
	cmd.Flags().StringVar(&out, "out", "", "folder to write the .html files to (required)")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}
