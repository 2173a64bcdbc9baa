package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/engine/app"
)

// newSpecCmd is `genui spec schema | validate [FILE]`: the view
// specification every generated page draws (package viewspec).
func newSpecCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "spec",
		Short: "The view specification of generated pages: its JSON Schema, or a check of a spec",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "schema",
		Short: fmt.Sprintf("Print the view specification's JSON Schema (version %d)", app.SpecVersion),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := os.Stdout.Write(app.SpecSchema())
			return err
		},
	}, &cobra.Command{
		Use:   "validate [FILE]",
		Short: "Check a view spec (a file, or standard input); exits non-zero listing every problem with its path",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return app.ValidateSpec(args, os.Stdin, os.Stdout, os.Stderr)
		},
	})
	return cmd
}
