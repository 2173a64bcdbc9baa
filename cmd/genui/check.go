package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/app"
)

// newCheckCmd is `genui check [NAME...]`, `genui check add` and `genui
// check list`.
func newCheckCmd() *cobra.Command {
	var f config.Flags
	var o app.CheckOptions
	cmd := &cobra.Command{
		Use:   "check [NAME...] [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Replay the pinned calls (checks.directory) against the server; exit 1 when one changed or failed",
		Long: "genui check starts the upstream itself (no host, no running genui needed), calls every pinned\n" +
			"call (or the NAMEs given) and compares each result with the one in its file: equal, changed\n" +
			"(with the differences, path by path) or failed. --update accepts the new results (only the\n" +
			"changed checks' files are rewritten). Pin calls with `genui check add` or p in the TUI's\n" +
			"History pane. Without a server (no -- UPSTREAM_CMD, no upstream in the configuration) it exits 2,\n" +
			"unless --demo says to check against the built-in demo.",
		RunE: func(cmd *cobra.Command, args []string) error {
			s, names, err := app.ConfigureWithNames(&f, args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer s.Close()
			ctx, stop := app.SignalContext()
			defer stop()
			o.Names, o.Out = names, os.Stdout
			return s.RunChecks(ctx, o)
		},
	}
	f.RegisterCheck(cmd.Flags())
	cmd.Flags().BoolVar(&o.Update, "update", false, "accept changed results: rewrite those checks' files")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&o.Demo, "demo", false, "without an upstream, check against the built-in demo (checks pinned while the TUI ran it)")
	cmd.Flags().BoolVar(&o.Lint, "lint", false, "run the server linter (genui lint) too; its errors also make genui exit 1")
	cmd.AddCommand(newCheckAddCmd(), newCheckListCmd())
	return cmd
}

func newCheckAddCmd() *cobra.Command {
	var f config.Flags
	var o app.AddCheckOptions
	cmd := &cobra.Command{
		Use:   "add NAME [TOOL [ARGUMENTS_JSON]] [--history ID] [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Pin a call as a check: TOOL with ARGUMENTS (called now for the expected result), or a recorded call (--history ID)",
		RunE: func(cmd *cobra.Command, args []string) error {
			s, rest, err := app.ConfigureWithNames(&f, args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer s.Close()
			ctx, stop := app.SignalContext()
			defer stop()
			o.Args, o.Out = rest, os.Stdout
			return s.AddCheck(ctx, o)
		},
	}
	f.RegisterCheck(cmd.Flags())
	cmd.Flags().Int64Var(&o.HistoryID, "history", 0, "pin the recorded call with this number (the TUI's History pane shows them)")
	cmd.Flags().StringArrayVar(&o.Ignore, "ignore", nil, "a path whose differences do not count: /structuredContent/at or structuredContent.items[*].id (repeatable)")
	cmd.Flags().BoolVar(&o.Replace, "replace", false, "replace a check of the same name")
	cmd.Flags().BoolVar(&o.Demo, "demo", false, "without an upstream, call the built-in demo")
	return cmd
}

func newCheckListCmd() *cobra.Command {
	var f config.Flags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the pinned calls",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := app.Configure(&f, args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer s.Close()
			return s.ListChecks(os.Stdout)
		},
	}
	f.RegisterDir(cmd.Flags())
	return cmd
}
