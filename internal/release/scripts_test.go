package release_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/release"
	"github.com/genui-dev/genui/internal/testenv"
)

// These tests run the generated launcher and install script with stand-in
// binaries (shell scripts), so they need no Go build; e2e's
// TestReleasePackages runs both with the real genui.

// hostPlatform is this machine's platform, or the test is skipped when a
// release has none for it (or it cannot run shell scripts).
func hostPlatform(t *testing.T) release.Platform {
	t.Helper()
	p := release.Platform{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	if !slices.Contains(release.Supported, p) || p.GOOS == "windows" {
		t.Skipf("no release platform to test on %s", p)
	}
	return p
}

// buildWithHostBinary builds a release for this machine whose "binary" is
// the shell script script, in root/v1.2.3 (root is the download URL's
// folder, as file://root).
func buildWithHostBinary(t *testing.T, script string) (release.Options, *release.Result) {
	t.Helper()
	p := hostPlatform(t)
	root := t.TempDir()
	dir := filepath.Join(root, "v"+version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, release.BinaryName(version, p)), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	o := release.Options{Version: version, Dir: dir, Platforms: []release.Platform{p}, Homepage: homepage,
		DownloadURL: "file://" + root, README: readme, License: license, ModTime: modTime}
	r, err := release.Build(o)
	if err != nil {
		t.Fatal(err)
	}
	return o, r
}

type run struct {
	stdout, stderr string
	code           int
	status         syscall.WaitStatus
}

// runCmd runs cmd bounded by 30 s and returns its output and exit status.
func runCmd(t *testing.T, cmd *exec.Cmd, stdin string) run {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errb, strings.NewReader(stdin)
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	r := run{stdout: out.String(), stderr: errb.String(), code: cmd.ProcessState.ExitCode()}
	r.status, _ = cmd.ProcessState.Sys().(syscall.WaitStatus)
	return r
}

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// installLayout lays out node_modules as npm installs the release: the
// main package and, unless without, this platform's package.
func installLayout(t *testing.T, o release.Options, r *release.Result, withPlatform bool) string {
	t.Helper()
	nm := filepath.Join(t.TempDir(), "node_modules")
	if err := os.CopyFS(filepath.Join(nm, "genui"), os.DirFS(filepath.Join(o.Dir, r.NPMMain))); err != nil {
		t.Fatal(err)
	}
	if withPlatform {
		p := o.Platforms[0]
		if err := os.CopyFS(filepath.Join(nm, filepath.FromSlash(p.NPMPackage())), os.DirFS(filepath.Join(o.Dir, r.NPMPlatforms[0]))); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(nm, "genui", "bin", "genui.js")
}

// TestLauncher: the npm launcher runs the platform package's binary with
// the same arguments (`--` and spaces kept), stdin and stdout, and exits
// with its status; a SIGTERM sent to the launcher reaches the binary (which
// exits on its own terms); a binary killed by a signal makes the launcher
// end by the same signal.
func TestLauncher(t *testing.T) {
	node := testenv.NodePath(t)
	o, r := buildWithHostBinary(t, `#!/bin/sh
case "$1" in
args) shift; for a in "$@"; do echo "arg:$a"; done; exit 0 ;;
stdin) read -r line; echo "in:$line"; exit 0 ;;
exit) exit "$2" ;;
term) trap 'echo got-TERM; exit 43' TERM; echo ready; while :; do sleep 0.05; done ;;
selfkill) kill -TERM $$ ;;
esac
`)
	launcher := installLayout(t, o, r, true)

	res := runCmd(t, exec.CommandContext(bounded(t), node, launcher, "args", "mcp", "--", "node", "my server.js", "--stdio"), "")
	if want := "arg:mcp\narg:--\narg:node\narg:my server.js\narg:--stdio\n"; res.stdout != want || res.code != 0 {
		t.Errorf("args: stdout %q code %d, want %q code 0 (stderr %s)", res.stdout, res.code, want, res.stderr)
	}
	if res = runCmd(t, exec.CommandContext(bounded(t), node, launcher, "stdin"), "hello frame\n"); res.stdout != "in:hello frame\n" {
		t.Errorf("stdin: stdout %q, want in:hello frame (stderr %s)", res.stdout, res.stderr)
	}
	if res = runCmd(t, exec.CommandContext(bounded(t), node, launcher, "exit", "7"), ""); res.code != 7 {
		t.Errorf("exit 7: launcher exited %d", res.code)
	}

	// SIGTERM to the launcher alone (not its process group). The launcher
	// runs in a group of its own that cleanup kills, so a binary left
	// behind by a launcher that did not forward the signal dies too.
	cmd := exec.Command(node, launcher, "term")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); pr.Close() })
	lines := make(chan string, 4)
	go func() {
		defer close(lines)
		b := make([]byte, 256)
		for {
			n, err := pr.Read(b)
			if n > 0 {
				lines <- string(b[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	next := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(10 * time.Second):
			return "(nothing within 10 s)"
		}
	}
	if l := next(); l != "ready\n" {
		t.Fatalf("term: first output %q", l)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if l := next(); l != "got-TERM\n" {
		t.Errorf("after SIGTERM to the launcher the binary said %q, want got-TERM", l)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		if cmd.ProcessState.ExitCode() != 43 {
			t.Errorf("after SIGTERM the launcher ended with %v, want exit 43 (the binary's)", cmd.ProcessState)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("the launcher had not exited 10 s after SIGTERM")
	}

	res = runCmd(t, exec.CommandContext(bounded(t), node, launcher, "selfkill"), "")
	if !res.status.Signaled() || res.status.Signal() != syscall.SIGTERM {
		t.Errorf("binary killed by SIGTERM: launcher ended with %v (code %d), want killed by SIGTERM", res.status, res.code)
	}
}

// TestLauncherExplainsMissingBinary: without its platform package (an
// install with --omit=optional) the launcher names the package and why it
// may be missing; on a platform the release does not cover it says so.
func TestLauncherExplainsMissingBinary(t *testing.T) {
	node := testenv.NodePath(t)
	o, r := buildWithHostBinary(t, "#!/bin/sh\necho should not run\n")
	p := o.Platforms[0]

	res := runCmd(t, exec.CommandContext(bounded(t), node, installLayout(t, o, r, false), "version"), "")
	if res.code != 1 || res.stdout != "" || !strings.Contains(res.stderr, "the package "+p.NPMPackage()+"@"+version) ||
		!strings.Contains(res.stderr, "--omit=optional") {
		t.Errorf("without %s: code %d stdout %q stderr %q; want exit 1 naming the package and --omit=optional", p.NPMPackage(), res.code, res.stdout, res.stderr)
	}

	// A main package whose optional dependencies lack this platform.
	launcher := installLayout(t, o, r, false)
	manifest := filepath.Join(filepath.Dir(filepath.Dir(launcher)), "package.json")
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	other := "@genui/aix-ppc64"
	if err := os.WriteFile(manifest, bytes.ReplaceAll(b, []byte(p.NPMPackage()), []byte(other)), 0o644); err != nil {
		t.Fatal(err)
	}
	res = runCmd(t, exec.CommandContext(bounded(t), node, launcher, "version"), "")
	if want := "has no binary for " + p.NPMOS() + "-" + p.NPMCPU() + " (npm packages exist for aix-ppc64)"; res.code != 1 || !strings.Contains(res.stderr, want) {
		t.Errorf("unsupported platform: code %d stderr %q, want exit 1 and %q", res.code, res.stderr, want)
	}
}

// TestLauncherRunsOnlyItsOwnPlatformPackage: the launcher runs the binary
// of the platform package npm installed with it (hoisted beside it in the
// same node_modules, or nested under it) and nothing else: with that
// package missing, a perfect forgery (same name and version) in a parent
// node_modules or on NODE_PATH is not run, and a package of another
// version where its own should be is refused; both say what is missing.
func TestLauncherRunsOnlyItsOwnPlatformPackage(t *testing.T) {
	node := testenv.NodePath(t)
	o, r := buildWithHostBinary(t, "#!/bin/sh\necho genuine\n")
	p := o.Platforms[0]
	mainPkg := filepath.Join(o.Dir, r.NPMMain)
	platformPkg := filepath.Join(o.Dir, r.NPMPlatforms[0])
	copyPackage := func(src, dst string) {
		t.Helper()
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	// plant puts a copy of the platform package, whose binary says
	// "planted", at dir/@genui/<platform>.
	plant := func(dir string) {
		t.Helper()
		dst := filepath.Join(dir, filepath.FromSlash(p.NPMPackage()))
		copyPackage(platformPkg, dst)
		if err := os.WriteFile(filepath.Join(dst, "bin", "genui"), []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	nodePath := filepath.Join(root, "node-path")
	plant(nodePath)
	plant(filepath.Join(root, "node_modules"))
	launch := func(launcher string) run {
		t.Helper()
		cmd := exec.CommandContext(bounded(t), node, launcher)
		cmd.Env = append(os.Environ(), "NODE_PATH="+nodePath)
		return runCmd(t, cmd, "")
	}

	// genui installed without its platform package in a project below the
	// planted parent node_modules, and in one with only NODE_PATH planted.
	for _, alone := range []string{filepath.Join(root, "project", "node_modules"), filepath.Join(t.TempDir(), "node_modules")} {
		copyPackage(mainPkg, filepath.Join(alone, "genui"))
		res := launch(filepath.Join(alone, "genui", "bin", "genui.js"))
		if res.code != 1 || res.stdout != "" || !strings.Contains(res.stderr, "the package "+p.NPMPackage()+"@"+version+", which holds") ||
			!strings.Contains(res.stderr, filepath.Join(alone, "genui", "node_modules", filepath.FromSlash(p.NPMPackage()))) {
			t.Errorf("without its platform package in %s: code %d stdout %q stderr %q; want exit 1, nothing run, the package and where it was looked for named",
				alone, res.code, res.stdout, res.stderr)
		}
	}

	// Hoisted beside it, and nested under it: the binary runs.
	hoisted := filepath.Join(root, "hoisted", "node_modules")
	copyPackage(mainPkg, filepath.Join(hoisted, "genui"))
	copyPackage(platformPkg, filepath.Join(hoisted, filepath.FromSlash(p.NPMPackage())))
	nested := filepath.Join(root, "nested", "node_modules")
	copyPackage(mainPkg, filepath.Join(nested, "genui"))
	copyPackage(platformPkg, filepath.Join(nested, "genui", "node_modules", filepath.FromSlash(p.NPMPackage())))
	for _, nm := range []string{hoisted, nested} {
		if res := launch(filepath.Join(nm, "genui", "bin", "genui.js")); res.code != 0 || res.stdout != "genuine\n" {
			t.Errorf("installed in %s: code %d stdout %q stderr %q; want the platform package's binary run", nm, res.code, res.stdout, res.stderr)
		}
	}

	// Another version where its own platform package should be.
	stale := filepath.Join(root, "stale", "node_modules")
	copyPackage(mainPkg, filepath.Join(stale, "genui"))
	copyPackage(platformPkg, filepath.Join(stale, filepath.FromSlash(p.NPMPackage())))
	manifest := filepath.Join(stale, filepath.FromSlash(p.NPMPackage()), "package.json")
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, bytes.Replace(b, []byte(`"version": "`+version+`"`), []byte(`"version": "9.9.9"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	res := launch(filepath.Join(stale, "genui", "bin", "genui.js"))
	if res.code != 1 || res.stdout != "" || !strings.Contains(res.stderr, p.NPMPackage()+"@9.9.9") || !strings.Contains(res.stderr, p.NPMPackage()+"@"+version+" installed with it") {
		t.Errorf("beside a platform package of another version: code %d stdout %q stderr %q; want exit 1 naming both versions", res.code, res.stdout, res.stderr)
	}
}

// installScript runs the release's install.sh with /bin/sh (dash on
// Debian: POSIX, no bashisms) and a clean environment.
func installScript(t *testing.T, o release.Options, env []string, args ...string) run {
	t.Helper()
	cmd := exec.CommandContext(bounded(t), "/bin/sh", append([]string{filepath.Join(o.Dir, release.InstallScript)}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	return runCmd(t, cmd, "")
}

// TestInstallScript: install.sh installs the archive for this machine from
// its default location (download URL + /vVERSION, here file://) into
// --bin-dir, --prefix/bin, GENUI_BIN_DIR or $HOME/.local/bin, checked
// against SHA256SUMS, and the installed binary runs.
func TestInstallScript(t *testing.T) {
	const fake = "#!/bin/sh\necho 'genui v1.2.3 (stand-in)'\n"
	o, _ := buildWithHostBinary(t, fake)
	home := t.TempDir()
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want string // where genui lands
	}{
		{"bin-dir", nil, []string{"--bin-dir", filepath.Join(home, "a")}, filepath.Join(home, "a", "genui")},
		{"prefix", nil, []string{"--prefix=" + filepath.Join(home, "b")}, filepath.Join(home, "b", "bin", "genui")},
		{"env", []string{"GENUI_BIN_DIR=" + filepath.Join(home, "c")}, nil, filepath.Join(home, "c", "genui")},
		{"home", []string{"HOME=" + filepath.Join(home, "d")}, nil, filepath.Join(home, "d", ".local", "bin", "genui")},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := installScript(t, o, c.env, c.args...)
			if res.code != 0 {
				t.Fatalf("install.sh exited %d:\n%s", res.code, res.stderr)
			}
			b, err := os.ReadFile(c.want)
			if err != nil || string(b) != fake {
				t.Fatalf("install.sh did not install the binary at %s (%v):\n%s", c.want, err, res.stderr)
			}
			if st, _ := os.Stat(c.want); st.Mode().Perm() != 0o755 {
				t.Errorf("%s mode %v, want 0755", c.want, st.Mode())
			}
			for _, want := range []string{"SHA256 checked", "installed genui v1.2.3 (stand-in) at " + c.want, "is not on your PATH"} {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("install.sh output lacks %q:\n%s", want, res.stderr)
				}
			}
		})
	}
}

// TestInstallScriptRefuses: a corrupted archive, an archive SHA256SUMS does
// not name, a missing release, a bad version and a bad option each fail
// with a clear message, install nothing and leave an installed genui as it
// was.
func TestInstallScriptRefuses(t *testing.T) {
	p := hostPlatform(t)
	archive := release.ArchiveName(version, p)
	var o release.Options // the release each case works on
	corrupt := func(t *testing.T) {
		path := filepath.Join(o.Dir, archive)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 0xff
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dropSum := func(t *testing.T) {
		path := filepath.Join(o.Dir, release.SumsFile)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for line := range strings.Lines(string(b)) {
			if !strings.HasSuffix(line, "  "+archive+"\n") {
				kept = append(kept, line)
			}
		}
		if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name    string
		prepare func(*testing.T)
		args    []string
		want    []string
	}{
		{"bad option", nil, []string{"--frobnicate"}, []string{"unknown option '--frobnicate'"}},
		{"option without value", nil, []string{"--bin-dir"}, []string{"--bin-dir needs a value"}},
		{"bad version", nil, []string{"--version", "1.2.3;x"}, []string{"is not a version (want X.Y.Z)"}},
		{"missing release", nil, []string{"--version", "9.9.9"}, []string{"cannot download file://", "/v9.9.9/genui-v9.9.9-"}},
		{"corrupted archive", corrupt, nil, []string{"SHA256 mismatch for " + archive, "nothing was installed"}},
		{"archive not in SHA256SUMS", dropSum, nil, []string{"SHA256SUMS has no line for " + archive, "nothing was installed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Each case works on a fresh release: corrupt and dropSum change it.
			o, _ = buildWithHostBinary(t, "#!/bin/sh\necho 'genui v1.2.3 (stand-in)'\n")
			if c.prepare != nil {
				c.prepare(t)
			}
			binDir := t.TempDir()
			old := []byte("#!/bin/sh\necho old genui\n")
			if err := os.WriteFile(filepath.Join(binDir, "genui"), old, 0o755); err != nil {
				t.Fatal(err)
			}
			res := installScript(t, o, nil, append([]string{"--bin-dir", binDir}, c.args...)...)
			if res.code == 0 {
				t.Fatalf("install.sh succeeded:\n%s", res.stderr)
			}
			for _, want := range c.want {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("install.sh said %q, want it to contain %q", res.stderr, want)
				}
			}
			entries, _ := os.ReadDir(binDir)
			if b, _ := os.ReadFile(filepath.Join(binDir, "genui")); len(entries) != 1 || !bytes.Equal(b, old) {
				t.Errorf("after a refused install %s holds %d files and genui %q, want only the old genui", binDir, len(entries), b)
			}
		})
	}

	o, _ = buildWithHostBinary(t, "#!/bin/sh\n")
	res := installScript(t, o, nil, "--help")
	if res.code != 0 || !strings.Contains(res.stdout, "--base-url URL") || !strings.Contains(res.stdout, "default "+version) {
		t.Errorf("--help: code %d stdout %q", res.code, res.stdout)
	}
}
