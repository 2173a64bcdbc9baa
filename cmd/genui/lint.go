package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/app"
)

// newLintCmd is `genui lint`: the server linter.
func newLintCmd() *cobra.Command {
	var f config.Flags
	var o app.LintOptions
	cmd := &cobra.Command{
		Use:   "lint [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Lint the server before publishing: tool names, schemas, annotations, results against output schemas; exit 1 on errors",
		Long: "genui lint starts the upstream itself (like genui check), lints the tools it lists (names and titles\n" +
			"per the MCP spec, input and output schemas valid JSON Schema, descriptions present, annotations\n" +
			"consistent) and checks every structuredContent recorded in DIR/history and in the pinned checks\n" +
			"against its tool's outputSchema. Each finding names the tool, the rule and the path; errors make\n" +
			"it exit 1, warnings do not. docs/lint.md lists the rules. `genui check --lint` runs both.",
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := app.Configure(&f, args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer s.Close()
			ctx, stop := app.SignalContext()
			defer stop()
			o.Out = os.Stdout
			return s.Lint(ctx, o)
		},
	}
	f.RegisterCheck(cmd.Flags())
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the report as JSON")
	return cmd
}
