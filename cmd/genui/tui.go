package main

import (
	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/app"
	"github.com/genui-dev/genui/tui/launch"
)

func newTUICmd() *cobra.Command {
	var f config.Flags
	var o launch.Options
	cmd := &cobra.Command{
		Use:   "tui [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "The terminal workbench: attach to the genui serving --dir, or run one in-process",
		Long: "genui tui shows the genui that serves --dir (DIR/mcp-port names a live one: genui mcp\n" +
			"started by Claude Code, or genui serve) and drives it from the keyboard. With none running,\n" +
			"or with --no-attach or an upstream given, it runs the engine in-process with its HTTP side\n" +
			"server and port files (the built-in demo when no upstream is given). Logs go to\n" +
			"DIR/log/genui.log, never to the terminal.",
		Example: "  genui tui                                     # attach, or run the built-in demo in-process\n" +
			"  genui tui -- node my-server.js                # run your server in-process\n" +
			"  genui tui --watch server.js -- node server.js # restart it when server.js changes",
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := app.Configure(&f, args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer s.Close()
			ctx, stop := app.SignalContext()
			defer stop()
			return launch.Run(ctx, s, o)
		},
	}
	f.Register(cmd.Flags())
	f.RegisterPorts(cmd.Flags())
	f.RegisterCapabilities(cmd.Flags(), "workbench")
	cmd.Flags().BoolVar(&o.Attach, "attach", false, "attach to the genui serving --dir; fail when none runs")
	cmd.Flags().BoolVar(&o.NoAttach, "no-attach", false, "run the engine in-process even when a genui serves --dir")
	return cmd
}
