package e2e_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/release"
	"github.com/genui-dev/genui/internal/testenv"
)

// readmeVersion is README.md's "**Version: X.Y.Z**" (the single source).
func readmeVersion(t *testing.T) string {
	t.Helper()
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\*\*Version: (\d+\.\d+\.\d+)\*\*$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("README.md has no **Version: X.Y.Z** line")
	}
	return string(m[1])
}

// TestCLIVersionMatchesREADME: the binary the tests build prints
// "genui vX.Y.Z (commit)" with the README's version.
func TestCLIVersionMatchesREADME(t *testing.T) {
	out, _, err := genuiRun(t, t.TempDir(), "version")
	if err != nil {
		t.Fatal(err)
	}
	want := "genui v" + readmeVersion(t) + " ("
	if !strings.HasPrefix(out, want) || !strings.HasSuffix(strings.TrimSpace(out), ")") {
		t.Errorf("genui version printed %q, want %s<commit>)", out, want)
	}
}

// TestREADMEInstallLines: the README's Install section names the README's
// own version everywhere (npx genui@X.Y.Z, the release URL vX.Y.Z, go
// install @vX.Y.Z), its install script URL is the release's default
// location (GitHub releases of go.mod's module), and the Claude Code line
// runs genui through npx.
func TestREADMEInstallLines(t *testing.T) {
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	readme, version := string(b), readmeVersion(t)
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindStringSubmatch(string(gomod))[1]
	for _, m := range regexp.MustCompile(`genui@v?(\d+\.\d+\.\d+)|/v(\d+\.\d+\.\d+)/|genui-v(\d+\.\d+\.\d+)-`).FindAllStringSubmatch(readme, -1) {
		if v := m[1] + m[2] + m[3]; v != version {
			t.Errorf("README.md says %q, but its version is %s", m[0], version)
		}
	}
	for _, want := range []string{
		"claude mcp add genui -- npx -y genui@" + version + " mcp -- node my-server.js",
		"curl -fsSL https://" + module + "/releases/download/v" + version + "/install.sh | sh\n",
		"go install " + module + "/cmd/genui@v" + version,
		"brew install ",
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md's Install section lacks %q", want)
		}
	}
}

// TestReleaseBuild checks `make release` end to end, cheaply: the
// Makefile's default PLATFORMS are the five release targets, and one
// release for this machine's platform (linux/amd64 in CI), through the same
// recipe, yields what a user installs from: the binary and its archive
// (with README.md and LICENSE), SHA256SUMS, the Homebrew formula naming the
// archive's URL (GitHub releases of go.mod's module) and sum, npm packages
// that npm installs from the local tarballs without the registry and whose
// launcher runs `npx genui version` and `npx genui mcp` (answering
// initialize over stdio, wrapping a real upstream), and install.sh, which
// installs a working binary over HTTP and from file:// and refuses a
// corrupted archive. (`make release` builds all five; see the README.)
func TestReleaseBuild(t *testing.T) {
	testenv.SkipShort(t, "a release build")
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("make"); err != nil {
		testenv.Missingf(t, "make is not installed")
	}
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^PLATFORMS \?= (.+)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("Makefile has no PLATFORMS ?= line")
	}
	got := strings.Fields(string(m[1]))
	want := []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Makefile PLATFORMS = %v, want %v", got, want)
	}

	// This machine's platform when a release has it (so the results run
	// here), else linux/amd64, checked but not run.
	p := release.Platform{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	runnable := slices.Contains(release.Supported, p)
	if !runnable {
		p = release.Platform{GOOS: "linux", GOARCH: "amd64"}
	}
	version := readmeVersion(t)
	dir := t.TempDir()
	ctx := bounded(t, 10*time.Minute)
	cmd := exec.CommandContext(ctx, "make", "-s", "release", "PLATFORMS="+p.String(), "RELEASE_DIR="+dir)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make release: %v\n%s", err, out)
	}
	rel := builtRelease{root: root, dir: dir, version: version, platform: p, makeOutput: string(out)}

	t.Run("binary, archive and SHA256SUMS", rel.checkFiles)
	t.Run("formula", rel.checkFormula)
	if !runnable {
		t.Logf("no release platform for %s/%s: built %s but cannot run it", runtime.GOOS, runtime.GOARCH, p)
		return
	}
	t.Run("binary runs", rel.checkVersion)
	t.Run("npm packages", rel.checkNPM)
	if p.GOOS != "windows" {
		t.Run("install script", rel.checkInstallScript)
	}
}

// builtRelease is the output of one `make release` in dir.
type builtRelease struct {
	root, dir, version string
	platform           release.Platform
	makeOutput         string
}

func (r builtRelease) path(name string) string { return filepath.Join(r.dir, filepath.FromSlash(name)) }

func (r builtRelease) sha256(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(r.path(name))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// checkFiles: the binary, its archive (binary, README.md, LICENSE under
// one folder) and SHA256SUMS naming exactly those and install.sh.
func (r builtRelease) checkFiles(t *testing.T) {
	bin := release.BinaryName(r.version, r.platform)
	archive := release.ArchiveName(r.version, r.platform)
	b, err := os.ReadFile(r.path(release.SumsFile))
	if err != nil {
		t.Fatal(err)
	}
	sums := release.ParseSums(string(b))
	want := []string{bin, archive, release.InstallScript}
	if names := slices.Sorted(maps.Keys(sums)); !slices.Equal(names, slices.Sorted(slices.Values(want))) {
		t.Errorf("SHA256SUMS names %v, want %v", names, want)
	}
	for name, sum := range sums {
		if got := r.sha256(t, name); got != sum {
			t.Errorf("SHA256SUMS says %s for %s, the file is %s", sum, name, got)
		}
	}

	binary, err := os.ReadFile(r.path(bin))
	if err != nil {
		t.Fatal(err)
	}
	readme, _ := os.ReadFile(filepath.Join(r.root, "README.md"))
	license, _ := os.ReadFile(filepath.Join(r.root, "LICENSE"))
	stem := release.Stem(r.version, r.platform)
	exe := "genui"
	if r.platform.GOOS == "windows" {
		exe = "genui.exe"
	}
	wantFiles := map[string][]byte{stem + "/" + exe: binary, stem + "/README.md": readme, stem + "/LICENSE": license}
	files := archiveFiles(t, r.path(archive))
	if !maps.EqualFunc(files, wantFiles, bytes.Equal) {
		t.Errorf("%s holds %v, want %v (the binary, the repository's README.md and LICENSE)",
			archive, slices.Sorted(maps.Keys(files)), slices.Sorted(maps.Keys(wantFiles)))
	}
}

// archiveFiles reads the regular files of a tar.gz or zip.
func archiveFiles(t *testing.T, path string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			if f.Mode().IsRegular() {
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				files[f.Name], err = io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		return files
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if files[h.Name], err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// checkFormula: homebrew/genui.rb names the archive at the default
// download URL (GitHub releases of the repository go.mod names) with the
// archive's real sum.
func (r builtRelease) checkFormula(t *testing.T) {
	if r.platform.GOOS == "windows" {
		if _, err := os.Stat(r.path(release.FormulaFile)); err == nil {
			t.Errorf("a Windows-only release wrote %s", release.FormulaFile)
		}
		return
	}
	gomod, err := os.ReadFile(filepath.Join(r.root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(gomod)
	if module == nil {
		t.Fatal("go.mod has no module line")
	}
	formula, err := os.ReadFile(r.path(release.FormulaFile))
	if err != nil {
		t.Fatal(err)
	}
	archive := release.ArchiveName(r.version, r.platform)
	want := map[release.Platform]release.FormulaAsset{r.platform: {
		URL:    "https://" + string(module[1]) + "/releases/download/v" + r.version + "/" + archive,
		SHA256: r.sha256(t, archive),
	}}
	if got := release.ParseFormula(string(formula)); !maps.Equal(got, want) {
		t.Errorf("formula assets %v, want %v:\n%s", got, want, formula)
	}
	if !bytes.Contains(formula, []byte(`version "`+r.version+`"`)) {
		t.Errorf("formula lacks version %q:\n%s", r.version, formula)
	}
}

// versionRE matches `genui version` for this release.
func (r builtRelease) versionRE() *regexp.Regexp {
	return regexp.MustCompile(`^genui v` + regexp.QuoteMeta(r.version) + ` \(([0-9a-f]{7,40}(-dirty)?|unknown)\)$`)
}

func (r builtRelease) checkVersion(t *testing.T) {
	name := release.BinaryName(r.version, r.platform)
	out, err := exec.CommandContext(bounded(t, time.Minute), r.path(name), "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", name, err)
	}
	if line := strings.TrimSpace(string(out)); !r.versionRE().MatchString(line) {
		t.Errorf("%s version printed %q, want \"genui v%s (<commit>)\"", name, line, r.version)
	}
}

// checkNPM: `make release` packed the main package and this platform's
// with `npm pack`; npm installs them from those tarballs into a fresh
// folder while its registry is a server that fails every request (none
// may come); `npx genui version` prints the release's version, an unknown
// command exits as the binary does, and `npx genui mcp -- <server>`
// answers a real initialize frame and lists the upstream's tools with
// genui's, stdout carrying JSON-RPC only.
func (r builtRelease) checkNPM(t *testing.T) {
	testenv.NodePath(t)
	for _, tool := range []string{"npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missingf(t, "%s not found on PATH", tool)
		}
	}
	mainTgz := r.path("npm/genui-" + r.version + ".tgz")
	platformTgz := r.path("npm/" + release.NPMPackageDir(r.platform) + "-" + r.version + ".tgz")
	for _, f := range []string{mainTgz, platformTgz} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("make release packed no %s (%v); it said:\n%s", filepath.Base(f), err, r.makeOutput)
		}
	}

	var registryHits atomic.Int32
	registry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		registryHits.Add(1)
		t.Errorf("npm asked the registry for %s %s", req.Method, req.URL)
		http.Error(w, "no registry in this test", http.StatusNotFound)
	}))
	defer registry.Close()

	app := t.TempDir()
	if err := os.WriteFile(filepath.Join(app, "package.json"), []byte(`{"private": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(testenv.OfflineEnv(),
		"npm_config_registry="+registry.URL+"/",
		"npm_config_cache="+filepath.Join(t.TempDir(), "npm-cache"), // empty: nothing comes from a cache
		"npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false")
	npm := func(ctx context.Context, args ...string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir, cmd.Env = app, env
		return cmd
	}
	if out, err := npm(bounded(t, 3*time.Minute), "npm", "install", mainTgz, platformTgz).CombinedOutput(); err != nil {
		t.Fatalf("npm install of the local tarballs: %v\n%s", err, out)
	}
	installed := filepath.Join(app, "node_modules", filepath.FromSlash(r.platform.NPMPackage()), "bin", "genui")
	if r.platform.GOOS == "windows" {
		installed += ".exe"
	}
	if r.sha256(t, release.BinaryName(r.version, r.platform)) != fileSHA256(t, installed) {
		t.Errorf("%s is not the release's binary", installed)
	}

	out, err := npm(bounded(t, time.Minute), "npx", "genui", "version").Output()
	if line := strings.TrimSpace(string(out)); err != nil || !r.versionRE().MatchString(line) {
		t.Errorf("npx genui version: %q, %v; want genui v%s (<commit>)", line, err, r.version)
	}

	// An unknown command: the launcher exits with the binary's status.
	direct := exec.CommandContext(bounded(t, time.Minute), r.path(release.BinaryName(r.version, r.platform)), "no-such-command")
	_ = direct.Run()
	viaNPX := npm(bounded(t, time.Minute), "npx", "genui", "no-such-command")
	_ = viaNPX.Run()
	if code := viaNPX.ProcessState.ExitCode(); code == 0 || code != direct.ProcessState.ExitCode() {
		t.Errorf("npx genui no-such-command exited %d, the binary %d", code, direct.ProcessState.ExitCode())
	}

	// `npx genui mcp -- node <server-everything> stdio`, as the README's
	// Claude Code line runs it.
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Fatal(err)
	}
	mcp := exec.Command(npx, append([]string{"genui", "mcp", "--dir", filepath.Join(t.TempDir(), "ui"), "--"}, everythingCmd(t)...)...)
	mcp.Dir, mcp.Env = app, env
	c := session(t, mcp, hostHandler())
	ctx := bounded(t, 2*time.Minute)
	res, err := c.Initialize(ctx, protocol, hostCaps)
	if err != nil {
		t.Fatalf("initialize through npx genui mcp: %v", err)
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct{ Name, Version string }
		Capabilities    map[string]json.RawMessage
	}
	if err := json.Unmarshal(res, &init); err != nil {
		t.Fatal(err)
	}
	if init.ProtocolVersion != protocol || init.ServerInfo.Name != "genui" || init.ServerInfo.Version != r.version || init.Capabilities["tools"] == nil {
		t.Errorf("initialize answered %s; want protocol %s, serverInfo genui %s, tools capability", res, protocol, r.version)
	}
	tools, err := c.ListAll(ctx, "tools/list", "tools")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, toolName(tool))
	}
	for _, want := range []string{"echo", "_ui_status"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list through npx genui mcp lacks %s: %v", want, names)
		}
	}
	if err := c.CheckStdout(); err != nil {
		t.Errorf("npx genui mcp stdout: %v", err)
	}
	if n := registryHits.Load(); n != 0 {
		t.Errorf("npm made %d registry requests", n)
	}
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// checkInstallScript: a local copy of the release folder, served over
// HTTP, installs through `curl -fsSL URL/install.sh | sh -s -- ...` (the
// README's line) a binary that runs; the same from file:// with --prefix;
// and a corrupted archive is refused with a clear message, nothing
// installed.
func (r builtRelease) checkInstallScript(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		testenv.Missingf(t, "curl not found on PATH")
	}
	published := func(t *testing.T) string {
		dir := t.TempDir()
		for _, name := range []string{release.ArchiveName(r.version, r.platform), release.SumsFile, release.InstallScript} {
			b, err := os.ReadFile(r.path(name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	install := func(t *testing.T, script string) (string, error) {
		cmd := exec.CommandContext(bounded(t, 2*time.Minute), "/bin/sh", "-c", script)
		cmd.Env = append(testenv.OfflineEnv(), "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	checkInstalled := func(t *testing.T, bin, out string) {
		got, err := exec.CommandContext(bounded(t, time.Minute), bin, "version").Output()
		if line := strings.TrimSpace(string(got)); err != nil || !r.versionRE().MatchString(line) {
			t.Errorf("installed %s version: %q, %v; install.sh said:\n%s", bin, line, err, out)
		}
		if !strings.Contains(out, "SHA256 checked: "+r.sha256(t, release.ArchiveName(r.version, r.platform))) {
			t.Errorf("install.sh did not report the checked sum:\n%s", out)
		}
	}

	t.Run("http", func(t *testing.T) {
		srv := httptest.NewServer(http.FileServer(http.Dir(published(t))))
		defer srv.Close()
		bin := filepath.Join(t.TempDir(), "bin")
		out, err := install(t, fmt.Sprintf("%s -fsSL %s/install.sh | sh -s -- --base-url %s --bin-dir %s", curl, srv.URL, srv.URL, bin))
		if err != nil {
			t.Fatalf("install.sh over HTTP: %v\n%s", err, out)
		}
		checkInstalled(t, filepath.Join(bin, "genui"), out)
	})
	t.Run("file", func(t *testing.T) {
		dir := published(t)
		prefix := t.TempDir()
		out, err := install(t, fmt.Sprintf("sh %s/install.sh --base-url file://%s --prefix %s", dir, dir, prefix))
		if err != nil {
			t.Fatalf("install.sh from file://: %v\n%s", err, out)
		}
		checkInstalled(t, filepath.Join(prefix, "bin", "genui"), out)
	})
	t.Run("corrupted archive refused", func(t *testing.T) {
		dir := published(t)
		archive := release.ArchiveName(r.version, r.platform)
		b, err := os.ReadFile(filepath.Join(dir, archive))
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 0x01 // one bit, size unchanged
		if err := os.WriteFile(filepath.Join(dir, archive), b, 0o644); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
		defer srv.Close()
		bin := filepath.Join(t.TempDir(), "bin")
		out, err := install(t, fmt.Sprintf("%s -fsSL %s/install.sh | sh -s -- --base-url %s --bin-dir %s", curl, srv.URL, srv.URL, bin))
		if err == nil {
			t.Fatalf("install.sh installed a corrupted archive:\n%s", out)
		}
		for _, want := range []string{"SHA256 mismatch for " + archive, "nothing was installed"} {
			if !strings.Contains(out, want) {
				t.Errorf("install.sh said %q, want %q", out, want)
			}
		}
		if entries, _ := os.ReadDir(bin); len(entries) != 0 {
			t.Errorf("a refused install left %v in %s", entries, bin)
		}
	})
}
