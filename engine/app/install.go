package app

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/install"
)

// Install is `genui install`: it writes DIR's helper files, prints the JSON
// report to stdout and the Claude Code line to stderr.
func Install(opts install.Options, stdout, stderr io.Writer) error {
	rep, err := install.Install(opts)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "Register genui with Claude Code (run in %s):\n  %s\n", rep.ProjectDir, rep.ClaudeCommand)
	return nil
}

// autoInstall writes DIR's helper files on first start: inside DIR only
// (the Claude Code skill in the project is `genui install`'s).
func (a *App) autoInstall() {
	dir := a.opts.Engine.Dir
	if dir == "" {
		return
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err == nil {
		return
	}
	rep, err := install.Install(install.Options{Dir: dir, Version: engine.Version, DirOnly: true})
	if err != nil {
		a.log.Warn("auto-install failed", "err", err)
		return
	}
	a.log.Info("auto-installed helper files", "dir", dir, "files", len(rep.Files))
}
