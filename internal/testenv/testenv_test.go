package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNPMBin(t *testing.T) {
	prefix := t.TempDir()
	write := func(pkg, manifest string, files ...string) {
		dir := filepath.Join(prefix, "node_modules", pkg)
		if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte("//"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("@s/one", `{"name":"@s/one","bin":"dist/index.js"}`, "dist/index.js")
	write("two", `{"name":"two","bin":{"b":"dist/b.js","a":"dist/a.js"}}`, "dist/a.js", "dist/b.js")
	write("nobin", `{"name":"nobin"}`)
	write("gone", `{"name":"gone","bin":"dist/missing.js"}`)

	tests := []struct {
		pkg, bin, want, errHas string
	}{
		{pkg: "@s/one", want: "node_modules/@s/one/dist/index.js"},
		{pkg: "two", bin: "b", want: "node_modules/two/dist/b.js"},
		{pkg: "two", want: "node_modules/two/dist/a.js"}, // first name in sorted order
		{pkg: "two", bin: "zzz", errHas: `no bin entry "zzz"`},
		{pkg: "nobin", errHas: "no bin entry"},
		{pkg: "gone", errHas: "missing.js"},
		{pkg: "absent", errHas: "not installed"},
	}
	for _, tc := range tests {
		got, err := npmBin(prefix, tc.pkg, tc.bin)
		if tc.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("npmBin(%q, %q) err = %v, want it to contain %q", tc.pkg, tc.bin, err, tc.errHas)
			}
			continue
		}
		if err != nil || got != filepath.Join(prefix, tc.want) {
			t.Errorf("npmBin(%q, %q) = %q, %v; want %q", tc.pkg, tc.bin, got, err, filepath.Join(prefix, tc.want))
		}
	}
}

func TestCacheDirOverride(t *testing.T) {
	t.Setenv("GENUI_TEST_CACHE", "/x/y")
	if got := NPMDir(); got != "/x/y/npm" {
		t.Errorf("NPMDir() = %q, want /x/y/npm", got)
	}
}

func TestOfflineEnv(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "k")
	t.Setenv("OLLAMA_HOST", "h")
	t.Setenv("GENUI_KEEP", "1")
	env := strings.Join(OfflineEnv(), "\n")
	if strings.Contains(env, "ANTHROPIC_API_KEY=") || strings.Contains(env, "OLLAMA_HOST=") {
		t.Errorf("OfflineEnv kept an LLM variable")
	}
	if !strings.Contains(env, "GENUI_KEEP=1") {
		t.Errorf("OfflineEnv dropped an unrelated variable")
	}
}

func TestModuleRoot(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("ModuleRoot() = %q without go.mod: %v", root, err)
	}
}

// TestChromiumHeadless proves the flags start a real headless Chromium that
// renders a page.
func TestChromiumHeadless(t *testing.T) {
	chromium := RequireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append(ChromiumFlags(t.TempDir()), "--dump-dom", "data:text/html,<p>genui-ok</p>")
	cmd := exec.CommandContext(ctx, chromium, args...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	if !strings.Contains(string(out), "<p>genui-ok</p>") {
		t.Fatalf("chromium --dump-dom output lacks the page: %q", out)
	}
}

func TestNodeAndNPMPackages(t *testing.T) {
	node := NodePath(t)
	entry := NPMBin(t, "@modelcontextprotocol/server-everything", "")
	if !strings.HasSuffix(entry, "dist/index.js") {
		t.Errorf("server-everything entry = %q", entry)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "v") {
		t.Fatalf("node --version = %q, %v", out, err)
	}
}
