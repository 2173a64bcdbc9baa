// Package install writes genui's folder for agents: DIR/README.md, the
// DIR/mcp helper script, DIR/resources/ (a guide served at /api/resource/),
// DIR/.gitignore (git ignores the whole folder)
// and a Claude Code skill at PROJECT/.claude/skills/genui/SKILL.md (only
// when asked: `genui install`; a starting genui writes DIR's files only).
//
// Every file carries the genui version that wrote it. Install leaves a file
// alone when the version in it is the same or newer (or when it has no
// version marker at all, i.e. it is not ours), unless Options.Force is set.
// Install writes nothing to stdout or stderr, so `genui mcp` can call it on
// start.
package install

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	template "github.com/DataDog/datadog-agent/pkg/template/text"
	"github.com/google/renameio/v2/maybe"
)

//go:embed files/*.tmpl
var files embed.FS

// templates are parsed on first use (an install), not at every genui start.
var templates = sync.OnceValue(func() *template.Template { return template.Must(template.ParseFS(files, "files/*.tmpl")) })

// Options say where and what to install.
type Options struct {
	// Dir is genui's folder (e.g. .ui). Required.
	Dir string
	// ProjectDir holds .claude/skills/genui/SKILL.md; default: Dir's parent.
	ProjectDir string
	// Force overwrites files even when they are the same or newer version.
	Force bool
	// Version is the version to install, X.Y.Z (engine.Version). Required.
	Version string
	// DirOnly writes only the files inside Dir (README.md, .gitignore,
	// mcp, resources/), not the skill in ProjectDir: what a starting genui
	// writes on its own. Only `genui install` writes outside Dir.
	DirOnly bool
}

// Actions reported per file.
const (
	ActionInstalled = "installed" // the file did not exist
	ActionUpdated   = "updated"   // an older (or, with Force, any) version was replaced
	ActionSkipped   = "skipped"   // left alone; see Reason
)

// File is the outcome for one file.
type File struct {
	Path   string `json:"path"`
	Action string `json:"action"`
	// Found is the version that was on disk before ("" if none or unknown).
	Found  string `json:"found,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Report is what Install did; `genui install` prints it as JSON.
type Report struct {
	Dir        string `json:"dir"`
	ProjectDir string `json:"projectDir"`
	Version    string `json:"version"`
	Files      []File `json:"files"`
	// ClaudeCommand registers genui with Claude Code for this project.
	ClaudeCommand string `json:"claudeCommand"`
}

// Installed lists the paths that were written (installed or updated).
func (r Report) Installed() []string {
	var out []string
	for _, f := range r.Files {
		if f.Action != ActionSkipped {
			out = append(out, f.Path)
		}
	}
	return out
}

// target is one file to write.
type target struct {
	tmpl string
	path string
	mode os.FileMode
}

// templateData is what the file templates see.
type templateData struct {
	Version       string
	DirRel        string // Dir relative to the project ("." style path), for the skill
	ClaudeCommand string
}

// Install writes the files (see the package comment) and reports what it did.
// A failure to write one file stops it with an error naming the file; the
// report then lists the files done so far.
func Install(opts Options) (Report, error) {
	if strings.TrimSpace(opts.Dir) == "" {
		return Report{}, errors.New("install: Dir is empty")
	}
	if _, ok := parseVersion(opts.Version); !ok {
		return Report{}, fmt.Errorf("install: version %q is not X.Y.Z", opts.Version)
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return Report{}, fmt.Errorf("install: %w", err)
	}
	project := opts.ProjectDir
	if project == "" {
		project = filepath.Dir(dir)
	}
	if project, err = filepath.Abs(project); err != nil {
		return Report{}, fmt.Errorf("install: %w", err)
	}
	rel, err := filepath.Rel(project, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = dir
	}
	data := templateData{Version: opts.Version, DirRel: filepath.ToSlash(rel), ClaudeCommand: ClaudeCommand(rel)}
	rep := Report{Dir: dir, ProjectDir: project, Version: opts.Version, Files: []File{}, ClaudeCommand: data.ClaudeCommand}
	targets := []target{
		{"README.md.tmpl", filepath.Join(dir, "README.md"), 0o644},
		{"gitignore.tmpl", filepath.Join(dir, ".gitignore"), 0o644},
		{"mcp.sh.tmpl", filepath.Join(dir, "mcp"), 0o755},
		{"agent-guide.md.tmpl", filepath.Join(dir, "resources", "agent-guide.md"), 0o644},
	}
	if !opts.DirOnly {
		targets = append(targets, target{"SKILL.md.tmpl", filepath.Join(project, ".claude", "skills", "genui", "SKILL.md"), 0o644})
	}
	for _, t := range targets {
		f, err := installOne(t, data, opts.Force)
		if err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, f)
	}
	return rep, nil
}

// ClaudeCommand is the line that registers genui with Claude Code, run in
// the project folder; dirRel is genui's folder relative to the project.
func ClaudeCommand(dirRel string) string {
	cmd := "claude mcp add genui -- genui mcp"
	if d := filepath.ToSlash(filepath.Clean(dirRel)); d != ".ui" {
		cmd += " --dir " + shellQuote(d)
	}
	return cmd
}

func installOne(t target, data templateData, force bool) (File, error) {
	f := File{Path: t.path}
	old, err := os.ReadFile(t.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		f.Action = ActionInstalled
	case err != nil:
		return f, fmt.Errorf("install: read %s: %w", t.path, err)
	default:
		found := FileVersion(old)
		f.Found = found
		f.Action = ActionUpdated
		if !force {
			if found == "" {
				f.Action, f.Reason = ActionSkipped, "exists without a genui version marker (not written by genui); use --force to replace it"
			} else if cmp, ok := compareVersions(found, data.Version); !ok {
				f.Action, f.Reason = ActionSkipped, fmt.Sprintf("unreadable version %q; use --force to replace it", found)
			} else if cmp == 0 {
				f.Action, f.Reason = ActionSkipped, "same version already installed"
			} else if cmp > 0 {
				f.Action, f.Reason = ActionSkipped, fmt.Sprintf("newer version %s installed; use --force to downgrade", found)
			}
		}
	}
	if f.Action == ActionSkipped {
		return f, nil
	}
	var buf bytes.Buffer
	if err := templates().ExecuteTemplate(&buf, t.tmpl, data); err != nil {
		return f, fmt.Errorf("install: render %s: %w", t.tmpl, err)
	}
	if err := os.MkdirAll(filepath.Dir(t.path), 0o755); err != nil {
		return f, fmt.Errorf("install: %w", err)
	}
	// renameio: temp file beside it, fsync, rename; then the mode asked
	// for (an existing file's mode would otherwise be kept).
	if err := maybe.WriteFile(t.path, buf.Bytes(), t.mode); err != nil {
		return f, fmt.Errorf("install: write %s: %w", t.path, err)
	}
	if err := os.Chmod(t.path, t.mode); err != nil {
		return f, fmt.Errorf("install: chmod %s: %w", t.path, err)
	}
	return f, nil
}

// versionRE finds the version marker of an installed file:
// "**Version: X.Y.Z**" (README.md) or "genui-version: X.Y.Z" (the others).
var versionRE = regexp.MustCompile(`(?:\*\*Version:\s*|genui-version:\s*)v?([0-9][0-9A-Za-z.+-]*)`)

// FileVersion returns the genui version recorded in an installed file's
// content, or "" when it has none.
func FileVersion(content []byte) string {
	m := versionRE.FindSubmatch(content)
	if m == nil {
		return ""
	}
	return strings.TrimRight(string(m[1]), ".")
}

// parseVersion reads X.Y.Z (a "-pre" or "+build" suffix is ignored).
func parseVersion(v string) ([3]int, bool) {
	var out [3]int
	v = strings.TrimPrefix(v, "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

// compareVersions returns -1, 0 or 1 as a < b, a == b, a > b, with semver
// precedence: a pre-release sorts before its release (1.2.0-rc.1 < 1.2.0),
// pre-releases compare identifier by identifier, build metadata is ignored.
func compareVersions(a, b string) (int, bool) {
	va, ok1 := parseVersion(a)
	vb, ok2 := parseVersion(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	for i := range va {
		switch {
		case va[i] < vb[i]:
			return -1, true
		case va[i] > vb[i]:
			return 1, true
		}
	}
	return comparePrerelease(prerelease(a), prerelease(b)), true
}

// prerelease returns the part after "-" and before "+" ("" for a release).
func prerelease(v string) string {
	if i := strings.IndexByte(v, '+'); i >= 0 {
		v = v[:i]
	}
	if i := strings.IndexByte(v, '-'); i >= 0 {
		return v[i+1:]
	}
	return ""
}

// comparePrerelease orders pre-release strings the semver way: none is
// highest; numeric identifiers compare as numbers and sort before
// alphanumeric ones; a shorter list of equal identifiers sorts first.
func comparePrerelease(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return 1
	case b == "":
		return -1
	}
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, errA := strconv.Atoi(pa[i])
		nb, errB := strconv.Atoi(pb[i])
		switch {
		case errA == nil && errB == nil && na != nb:
			if na < nb {
				return -1
			}
			return 1
		case errA == nil && errB != nil:
			return -1
		case errA != nil && errB == nil:
			return 1
		case errA != nil && pa[i] != pb[i]:
			if pa[i] < pb[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(pa) < len(pb):
		return -1
	case len(pa) > len(pb):
		return 1
	}
	return 0
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
