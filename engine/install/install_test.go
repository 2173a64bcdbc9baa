package install_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/install"
)

func actions(rep install.Report) map[string]string {
	out := map[string]string{}
	for _, f := range rep.Files {
		out[filepath.Base(f.Path)] = f.Action
	}
	return out
}

func mustInstall(t *testing.T, opts install.Options) install.Report {
	t.Helper()
	rep, err := install.Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestFreshInstall(t *testing.T) {
	project := t.TempDir()
	dir := filepath.Join(project, ".ui")
	rep := mustInstall(t, install.Options{Dir: dir, Version: "1.2.3"})
	if rep.ProjectDir != project || rep.Dir != dir || rep.Version != "1.2.3" {
		t.Fatalf("report = %+v", rep)
	}
	want := map[string]string{"README.md": "installed", ".gitignore": "installed", "mcp": "installed", "agent-guide.md": "installed", "SKILL.md": "installed"}
	if got := actions(rep); !equalMaps(got, want) {
		t.Fatalf("actions = %v, want %v", got, want)
	}
	readme := read(t, filepath.Join(dir, "README.md"))
	if !strings.Contains(readme, "**Version: 1.2.3**") {
		t.Errorf("README.md has no version line:\n%s", readme)
	}
	st, err := os.Stat(filepath.Join(dir, "mcp"))
	if err != nil || st.Mode().Perm()&0o111 == 0 {
		t.Fatalf("mcp script not executable: %v %v", st, err)
	}
	if got := install.FileVersion([]byte(read(t, filepath.Join(dir, "mcp")))); got != "1.2.3" {
		t.Errorf("mcp version marker = %q", got)
	}
	skill := read(t, filepath.Join(project, ".claude", "skills", "genui", "SKILL.md"))
	if !strings.HasPrefix(skill, "---\nname: genui\ndescription: ") {
		t.Errorf("SKILL.md front matter:\n%s", skill[:min(200, len(skill))])
	}
	for _, s := range []string{"_ui_refine", "_ui_list", "_ui_inspect", "_ui_regenerate", "_ui_refresh_tools", "_ui_status", "_ui_preview", "refine-request", ".ui/mcp event"} {
		if !strings.Contains(skill, s) {
			t.Errorf("SKILL.md does not mention %s", s)
		}
	}
	if rep.ClaudeCommand != "claude mcp add genui -- genui mcp" {
		t.Errorf("ClaudeCommand = %q", rep.ClaudeCommand)
	}
	if guide := read(t, filepath.Join(dir, "resources", "agent-guide.md")); !strings.Contains(guide, "genui-version: 1.2.3") {
		t.Errorf("guide has no version marker")
	}
	// The report is JSON with the fields `genui install` prints.
	b, _ := json.Marshal(rep)
	var generic map[string]any
	if err := json.Unmarshal(b, &generic); err != nil || generic["files"] == nil || generic["claudeCommand"] == nil {
		t.Fatalf("report JSON %s: %v", b, err)
	}
}

func TestSkipSameVersionForceAndNewer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".ui")
	mustInstall(t, install.Options{Dir: dir, Version: "1.2.3"})

	// A user edit to the same version survives a plain install.
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(readme, []byte("**Version: 1.2.3**\nmine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := mustInstall(t, install.Options{Dir: dir, Version: "1.2.3"})
	for _, f := range rep.Files {
		if f.Action != install.ActionSkipped || f.Found != "1.2.3" || f.Reason == "" {
			t.Errorf("same version: %+v", f)
		}
	}
	if read(t, readme) != "**Version: 1.2.3**\nmine\n" {
		t.Error("same-version install overwrote README.md")
	}

	// --force rewrites everything.
	rep = mustInstall(t, install.Options{Dir: dir, Version: "1.2.3", Force: true})
	for _, f := range rep.Files {
		if f.Action != install.ActionUpdated {
			t.Errorf("force: %+v", f)
		}
	}
	if strings.Contains(read(t, readme), "mine") {
		t.Error("--force did not rewrite README.md")
	}

	// An older genui keeps the newer files; a newer one updates them.
	rep = mustInstall(t, install.Options{Dir: dir, Version: "1.2.0"})
	for _, f := range rep.Files {
		if f.Action != install.ActionSkipped || !strings.Contains(f.Reason, "newer") {
			t.Errorf("older genui: %+v", f)
		}
	}
	rep = mustInstall(t, install.Options{Dir: dir, Version: "1.10.0"})
	for _, f := range rep.Files {
		if f.Action != install.ActionUpdated || f.Found != "1.2.3" {
			t.Errorf("newer genui: %+v", f)
		}
	}
	if !strings.Contains(read(t, readme), "**Version: 1.10.0**") {
		t.Error("README.md not updated to 1.10.0")
	}
}

func TestForeignFileKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".ui")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := mustInstall(t, install.Options{Dir: dir, Version: "1.0.0"})
	if a := actions(rep); a["README.md"] != "skipped" || a["mcp"] != "installed" {
		t.Fatalf("actions = %v", a)
	}
	if read(t, filepath.Join(dir, "README.md")) != "my notes\n" {
		t.Error("a README.md without a genui marker was overwritten")
	}
}

// TestDirOnlyWritesNothingOutsideDir: what a starting genui installs on
// its own (DirOnly) stays inside DIR: no .claude/ in the project, and
// DIR/.gitignore keeps the project's git status clean.
func TestDirOnlyWritesNothingOutsideDir(t *testing.T) {
	project := t.TempDir()
	dir := filepath.Join(project, ".ui")
	rep := mustInstall(t, install.Options{Dir: dir, Version: "1.2.3", DirOnly: true})
	for _, p := range rep.Installed() {
		if rel, err := filepath.Rel(dir, p); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("DirOnly wrote %s, outside %s", p, dir)
		}
	}
	entries, err := os.ReadDir(project)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != ".ui" {
		t.Errorf("the project holds %v, want only .ui", entries)
	}
	if ig := read(t, filepath.Join(dir, ".gitignore")); !strings.Contains(ig, "\n*\n") || install.FileVersion([]byte(ig)) != "1.2.3" {
		t.Errorf(".gitignore does not ignore everything with a version marker:\n%s", ig)
	}
}

func TestCustomDirAndProject(t *testing.T) {
	project := t.TempDir()
	dir := filepath.Join(t.TempDir(), "elsewhere ui")
	rep := mustInstall(t, install.Options{Dir: dir, ProjectDir: project, Version: "0.1.0"})
	if want := "claude mcp add genui -- genui mcp --dir '" + dir + "'"; rep.ClaudeCommand != want {
		t.Errorf("ClaudeCommand = %q, want %q", rep.ClaudeCommand, want)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude", "skills", "genui", "SKILL.md")); err != nil {
		t.Error(err)
	}
	rep = mustInstall(t, install.Options{Dir: filepath.Join(project, "tools-ui"), Version: "0.1.0"})
	if rep.ClaudeCommand != "claude mcp add genui -- genui mcp --dir tools-ui" {
		t.Errorf("ClaudeCommand = %q", rep.ClaudeCommand)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []install.Options{
		{Dir: "", Version: "1.0.0"},
		{Dir: t.TempDir(), Version: ""},
		{Dir: t.TempDir(), Version: "one"},
	} {
		if _, err := install.Install(o); err == nil {
			t.Errorf("Install(%+v) succeeded", o)
		}
	}
}

func TestFileVersion(t *testing.T) {
	for in, want := range map[string]string{
		"# x\n\n**Version: 0.1.0**\n":    "0.1.0",
		"# genui-version: 2.0.1\n":       "2.0.1",
		"<!-- genui-version: v3.4.5 -->": "3.4.5",
		"nothing here":                   "",
	} {
		if got := install.FileVersion([]byte(in)); got != want {
			t.Errorf("FileVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestScriptSyntax checks the helper with `sh -n` and that `mcp` without a
// running genui fails with a clear message instead of hanging.
func TestScriptSyntax(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".ui")
	mustInstall(t, install.Options{Dir: dir, Version: "0.1.0"})
	script := filepath.Join(dir, "mcp")
	if out, err := exec.Command("sh", "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("sh -n: %v\n%s", err, out)
	}
	out, err := exec.Command(script, "status").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "not running") {
		t.Fatalf("status without genui: err=%v out=%s", err, out)
	}
	// A stale port file (nothing listens there) is reported as such.
	if err := os.WriteFile(filepath.Join(dir, "mcp-port"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(script, "state").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "stale") {
		t.Fatalf("state with a stale port file: err=%v out=%s", err, out)
	}
	out, err = exec.Command(script, "help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), ".ui/mcp event") || strings.Contains(string(out), "set -eu") {
		t.Fatalf("help: err=%v out=%s", err, out)
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
