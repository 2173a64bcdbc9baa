// Package testenv finds or builds what genui's tests need: the genui binary,
// Node and the npm packages installed by scripts/test-deps.sh, and headless
// Chromium. A missing tool skips the test, except under CI=true where it fails
// the test with a message naming scripts/test-deps.sh.
package testenv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// SkipShort skips a test that needs what the fast tier (`go test -short`,
// make test-short) goes without: Chromium, tmux, Node and the npm packages,
// the genui binary, or minutes. It skips even under CI=true: -short is an
// explicit choice, unlike a missing tool.
func SkipShort(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: needs " + what)
	}
}

// InCI reports whether the environment variable CI is "true".
func InCI() bool { return os.Getenv("CI") == "true" }

// Missingf reports that a tool the test needs is absent: t.Skip normally
// and under -short, t.Fatal under CI=true.
func Missingf(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...) + " (run make deps: scripts/test-deps.sh)"
	SkipShort(t, msg)
	if InCI() {
		t.Fatal("CI=true and a required test dependency is missing: " + msg)
	}
	t.Skip(msg)
}

// CacheDir is ${GENUI_TEST_CACHE:-$HOME/.cache/genui-test}.
func CacheDir() string {
	if d := os.Getenv("GENUI_TEST_CACHE"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, ".cache", "genui-test")
}

// NPMDir is where scripts/test-deps.sh installs npm packages (the --prefix).
func NPMDir() string { return filepath.Join(CacheDir(), "npm") }

// ModuleRoot returns the directory holding genui's go.mod.
func ModuleRoot() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, goTool(), "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("go env GOMOD: not inside a module")
	}
	return filepath.Dir(gomod), nil
}

var (
	buildOnce sync.Once
	buildDir  string
	buildPath string
	buildErr  error
)

// GenuiBinary builds ./cmd/genui once per test process (with -race when the
// test binary has it) and returns the path. A build failure fails the test.
// Call Cleanup (or use Main) to remove the build directory at the end.
// GENUI_TEST_BINARY=/path/to/genui uses that binary instead of building.
func GenuiBinary(t testing.TB) string {
	t.Helper()
	SkipShort(t, "the genui binary")
	buildOnce.Do(func() {
		if p := os.Getenv("GENUI_TEST_BINARY"); p != "" {
			buildPath, buildErr = filepath.Abs(p)
			if buildErr == nil {
				_, buildErr = os.Stat(buildPath)
			}
			return
		}
		buildDir, buildErr = os.MkdirTemp("", "genui-testbin-")
		if buildErr != nil {
			return
		}
		buildPath, buildErr = BuildGenui(buildDir, raceEnabled)
	})
	if buildErr != nil {
		t.Fatalf("building genui: %v", buildErr)
	}
	return buildPath
}

// BuildGenui runs `go build [-race] -o DIR/genui ./cmd/genui` in the module
// root (bounded to 10 minutes) and returns the binary's path.
func BuildGenui(dir string, race bool) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "genui")
	args := []string{"build"}
	if race {
		args = append(args, "-race")
	}
	args = append(args, "-o", out, "./cmd/genui")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool(), args...)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, b)
	}
	return out, nil
}

// Cleanup removes the binary GenuiBinary built, if any.
func Cleanup() {
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
}

// Main runs the tests and then Cleanup. Use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }
func Main(m *testing.M) int {
	defer Cleanup()
	return m.Run()
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

// NodePath returns the node executable (see Missing for when it is absent).
func NodePath(t testing.TB) string {
	t.Helper()
	SkipShort(t, "node")
	p, err := exec.LookPath("node")
	if err != nil {
		Missingf(t, "node not found on PATH")
	}
	return p
}

// NPMBin returns the absolute path of the script behind the executable bin of
// the npm package pkg installed in NPMDir (callers run `node <path>`). bin ""
// means the package's only (or first) bin entry.
func NPMBin(t testing.TB, pkg, bin string) string {
	t.Helper()
	SkipShort(t, "npm package "+pkg)
	p, err := npmBin(NPMDir(), pkg, bin)
	if err != nil {
		Missingf(t, "npm package %s: %v", pkg, err)
	}
	return p
}

func npmBin(prefix, pkg, bin string) (string, error) {
	dir := filepath.Join(prefix, "node_modules", filepath.FromSlash(pkg))
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("not installed in %s", prefix)
	}
	var manifest struct {
		Name string          `json:"name"`
		Bin  json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		return "", fmt.Errorf("bad package.json: %w", err)
	}
	var rel string
	var single string
	var many map[string]string
	switch {
	case json.Unmarshal(manifest.Bin, &single) == nil && single != "":
		rel = single // a string bin is named after the package
	case json.Unmarshal(manifest.Bin, &many) == nil && len(many) > 0:
		if bin != "" {
			rel = many[bin]
		} else {
			names := make([]string, 0, len(many))
			for k := range many {
				names = append(names, k)
			}
			sort.Strings(names)
			rel = many[names[0]]
		}
	}
	if rel == "" {
		return "", fmt.Errorf("no bin entry %q in package.json", bin)
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("bin %s: %w", rel, err)
	}
	return p, nil
}

// RequireChromium returns the path of the headless Chromium binary
// (/usr/bin/chromium, or chromium on PATH); see Missing for when it is absent.
func RequireChromium(t testing.TB) string {
	t.Helper()
	SkipShort(t, "chromium")
	for _, name := range []string{"/usr/bin/chromium", "chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missingf(t, "chromium not found (Debian package chromium)")
	return ""
}

// ChromiumFlags are the launch flags every headless Chromium in the tests
// uses, with userDataDir as a fresh profile (give each browser its own).
func ChromiumFlags(userDataDir string) []string {
	return []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--disable-quic", "--user-data-dir=" + userDataDir,
	}
}

// llmEnv are the variables that make genui pick an LLM provider.
var llmEnv = []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
	"OPENROUTER_API_KEY", "OLLAMA_HOST", "GENUI_LLM", "GENUI_MODEL", "GENUI_LLM_PROVIDER", "GENUI_LLM_MODEL"}

// OfflineEnv is os.Environ() without the variables that select an LLM
// provider, so genui under test uses its offline generator.
func OfflineEnv() []string {
	var env []string
next:
	for _, kv := range os.Environ() {
		for _, k := range llmEnv {
			if strings.HasPrefix(kv, k+"=") {
				continue next
			}
		}
		env = append(env, kv)
	}
	return env
}

// RaceEnabled reports whether the tests (and so the genui binary they
// build) run with the race detector, which makes genui several times
// slower: latency bounds account for it.
func RaceEnabled() bool { return raceEnabled }
