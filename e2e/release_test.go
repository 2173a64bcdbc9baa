package e2e_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

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

// TestReleaseBuild checks `make release` cheaply: the Makefile's default
// PLATFORMS are the five release targets, and one cross-build
// (linux/amd64, CGO_ENABLED=0, -trimpath) through the same recipe yields
// genui-vX.Y.Z-linux-amd64 and a SHA256SUMS that matches it; on a
// linux/amd64 machine that binary runs `version` and prints the README's
// version with the commit. (`make release` builds all five; see the
// README's Development section.)
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

	version := readmeVersion(t)
	dir := t.TempDir()
	ctx := bounded(t, 10*time.Minute)
	cmd := exec.CommandContext(ctx, "make", "-s", "release", "PLATFORMS=linux/amd64", "RELEASE_DIR="+dir)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make release: %v\n%s", err, out)
	}
	name := "genui-v" + version + "-linux-amd64"
	bin := filepath.Join(dir, name)
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatalf("make release wrote no %s: %v", name, err)
	}
	sum := sha256.Sum256(b)
	f, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 {
			sums[strings.TrimPrefix(fields[1], "*")] = fields[0]
		}
	}
	if sums[name] != hex.EncodeToString(sum[:]) || len(sums) != 1 {
		t.Errorf("SHA256SUMS = %v, want one line for %s with %x", sums, name, sum)
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Logf("not on linux/amd64: built %s but cannot run it", name)
		return
	}
	out, err := exec.CommandContext(ctx, bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", name, err)
	}
	line := strings.TrimSpace(string(out))
	if !regexp.MustCompile(`^genui v` + regexp.QuoteMeta(version) + ` \(([0-9a-f]{7,40}(-dirty)?|unknown)\)$`).MatchString(line) {
		t.Errorf("%s version printed %q, want \"genui v%s (<commit>)\"", name, line, version)
	}
}
