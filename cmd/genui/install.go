package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/install"
)

// newInstallCmd is `genui install [--dir DIR] [--project DIR] [--force]`:
// the JSON report goes to stdout, the Claude Code line to stderr.
func newInstallCmd() *cobra.Command {
	var dir, project string
	var force bool
	cmd := &cobra.Command{
		Use:   "install [--dir DIR] [--force]",
		Short: "Write DIR/ (helper script, docs, Claude Code skill) and print the Claude Code config line",
		Long: "Writes DIR/README.md, the DIR/mcp helper script, DIR/resources/ and the Claude Code skill\n" +
			"PROJECT/.claude/skills/genui/SKILL.md (PROJECT defaults to DIR's parent). Files of the same\n" +
			"or a newer genui version are kept unless --force. Prints a JSON report on stdout.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d := firstNonEmpty(dir, os.Getenv("GENUI_DIR"), ".ui")
			rep, err := install.Install(install.Options{Dir: d, ProjectDir: project, Force: force, Version: engine.Version})
			if err != nil {
				return err
			}
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(rep); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "Register genui with Claude Code (run in %s):\n  %s\n", rep.ProjectDir, rep.ClaudeCommand)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "genui's folder (default .ui, or $GENUI_DIR)")
	cmd.Flags().StringVar(&project, "project", "", "project folder for .claude/skills (default: DIR's parent)")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite files even when the installed version is the same or newer")
	return cmd
}
