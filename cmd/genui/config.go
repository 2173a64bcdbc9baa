package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/config"
)

// newConfigCmd is `genui config schema | show | validate [FILE]`.
func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "genui.json: its JSON Schema, the effective configuration, or a check of a file",
	}
	cmd.AddCommand(newConfigSchemaCmd(), newConfigShowCmd(), newConfigValidateCmd())
	return cmd
}

func newConfigSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print genui.json's JSON Schema (save it and name it in \"$schema\" for editor help)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := os.Stdout.Write(config.Schema)
			return err
		},
	}
}

func newConfigShowCmd() *cobra.Command {
	var f config.Flags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show [flags]",
		Short: "Print the effective configuration, each value with its source (flag, env, file, default); secrets redacted",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eff, err := config.LoadFlags(&f)
			if err != nil {
				return err
			}
			return eff.Show(os.Stdout, asJSON)
		},
	}
	f.Register(cmd.Flags())
	f.RegisterPorts(cmd.Flags())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

func newConfigValidateCmd() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "validate [FILE]",
		Short: "Check a config file (default --config, else ./genui.json); exits non-zero listing every error",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return config.ValidateCommand(config.FileArg(args, file), os.Stdout)
		},
	}
	cmd.Flags().StringVar(&file, "config", "", "config file (default ./genui.json)")
	return cmd
}
