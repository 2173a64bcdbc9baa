package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine/app"
)

// newInstallCmd is `genui install [--dir DIR] [--project DIR] [--force]`:
// the JSON report goes to stdout, the Claude Code line to stderr. DIR
// resolves like every command's (--dir > GENUI_DIR > genui.json > .ui).
func newInstallCmd() *cobra.Command {
	var f config.Flags
	var project string
	var force bool
	cmd := &cobra.Command{
		Use:   "install [--dir DIR] [--force]",
		Short: "Write DIR/ (helper script, docs, Claude Code skill) and print the Claude Code config line",
		Long: "Writes DIR/README.md, the DIR/mcp helper script, DIR/resources/ and the Claude Code skill\n" +
			"PROJECT/.claude/skills/genui/SKILL.md (PROJECT defaults to DIR's parent). Files of the same\n" +
			"or a newer genui version are kept unless --force. Prints a JSON report on stdout.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eff, err := config.LoadFlags(&f)
			if err != nil {
				return err
			}
			return app.Install(app.InstallOptions(eff, project, force), os.Stdout, os.Stderr)
		},
	}
	f.RegisterDir(cmd.Flags())
	cmd.Flags().StringVar(&project, "project", "", "project folder for .claude/skills (default: DIR's parent)")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite files even when the installed version is the same or newer")
	return cmd
}
