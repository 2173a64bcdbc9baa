package e2e_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// The official TypeScript SDK client (@modelcontextprotocol/sdk, v1) and a
// script of ours, testdata/faithful_client.mjs, that declares exactly the
// capabilities it is given: behind `genui mcp` a server must see the
// client its host is, and a server that does not start must say why at
// once.

const sdkClient = "@modelcontextprotocol/sdk"

// faithfulReport is what testdata/faithful_client.mjs prints.
type faithfulReport struct {
	Tools   []string `json:"tools"`
	Allowed string   `json:"allowed"`
	Error   string   `json:"error"`
	MS      int64    `json:"ms"`
}

// runFaithful runs the script with the client capabilities caps, the
// roots it answers roots/list with, in dir, against a stdio command line
// or (transport "http") a URL.
func runFaithful(t *testing.T, dir, caps string, roots []string, transport string, target ...string) *faithfulReport {
	t.Helper()
	nm := filepath.Join(testenv.NPMDir(), "node_modules")
	if _, err := os.Stat(filepath.Join(nm, sdkClient, "dist", "esm", "client", "index.js")); err != nil {
		testenv.Missingf(t, "npm package %s: %v", sdkClient, err)
	}
	type root struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	}
	list := []root{}
	for _, r := range roots {
		list = append(list, root{URI: (&url.URL{Scheme: "file", Path: r}).String(), Name: filepath.Base(r)})
	}
	rootsJSON, _ := json.Marshal(list)
	script, err := filepath.Abs(filepath.Join("testdata", "faithful_client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testenv.NodePath(t), append([]string{script, nm, caps, string(rootsJSON), transport}, target...)...)
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = dir
	var stderr syncBuffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("faithful client: %v\nstderr:\n%s", err, tail(stderr.String(), 4096))
	}
	var r faithfulReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("faithful client printed no report: %v\n%s\nstderr:\n%s", err, out, tail(stderr.String(), 4096))
	}
	return &r
}

// upstreamTools leaves genui's own _ui_* tools out.
func upstreamTools(names []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return strings.HasPrefix(n, "_ui_") })
}

// TestSDKClientSeesTheSameServerThroughGenui: server-everything lists
// tools by the client's capabilities (a sampling tool for a client that
// samples, ...). A client declaring none, and one declaring what Claude
// Code does (roots and elicitation, not sampling), see the same tools
// through `genui mcp` as directly.
func TestSDKClientSeesTheSameServerThroughGenui(t *testing.T) {
	bin := testenv.GenuiBinary(t)
	ev := everythingCmd(t)
	for _, caps := range []string{`{}`, `{"roots":{"listChanged":true},"elicitation":{"form":{}}}`} {
		t.Run(caps, func(t *testing.T) {
			direct := runFaithful(t, t.TempDir(), caps, nil, "stdio", ev...)
			proxied := runFaithful(t, t.TempDir(), caps, nil, "stdio",
				append([]string{bin, "mcp", "--dir", filepath.Join(t.TempDir(), "ui"), "--"}, ev...)...)
			if direct.Error != "" || proxied.Error != "" || len(direct.Tools) < 5 {
				t.Fatalf("direct %+v, through genui %+v", direct, proxied)
			}
			if got := upstreamTools(proxied.Tools); !slices.Equal(got, direct.Tools) {
				t.Fatalf("through genui the client sees %d tools %v,\ndirectly %d %v", len(got), got, len(direct.Tools), direct.Tools)
			}
			if len(proxied.Tools) == len(direct.Tools) {
				t.Fatalf("genui's own _ui_* tools are missing: %v", proxied.Tools)
			}
		})
	}
}

// TestFilesystemSeesTheClientsRoots: npm's server-filesystem replaces
// its allowed directories with the client's roots. Behind `genui mcp` it
// gets the client's roots (not genui's working directory, not none), as
// directly; behind a standalone `genui serve` started in another folder,
// which declares no roots of its own, it keeps the directory it was
// started with.
func TestFilesystemSeesTheClientsRoots(t *testing.T) {
	bin := testenv.GenuiBinary(t)
	fs := []string{testenv.NodePath(t), testenv.NPMBin(t, filesystemPkg, "")}
	started, clientRoot, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	// macOS temp dirs are symlinks; the server reports real paths.
	for _, p := range []*string{&started, &clientRoot, &elsewhere} {
		if r, err := filepath.EvalSymlinks(*p); err == nil {
			*p = r
		}
	}
	caps := `{"roots":{"listChanged":true}}`
	direct := runFaithful(t, elsewhere, caps, []string{clientRoot}, "stdio", append(fs, started)...)
	proxied := runFaithful(t, elsewhere, caps, []string{clientRoot}, "stdio",
		append([]string{bin, "mcp", "--dir", filepath.Join(t.TempDir(), "ui"), "--"}, append(fs, started)...)...)
	for name, r := range map[string]*faithfulReport{"directly": direct, "through genui mcp": proxied} {
		if r.Error != "" || !strings.Contains(r.Allowed, clientRoot) || strings.Contains(r.Allowed, started) || strings.Contains(r.Allowed, elsewhere) {
			t.Errorf("%s: allowed %q (error %q), want the client's root %s only", name, r.Allowed, r.Error, clientRoot)
		}
	}

	t.Run("serve from another folder", func(t *testing.T) {
		mcpURL, _ := startServeIn(t, elsewhere, append([]string{"--"}, append(fs, started)...)...)
		r := runFaithful(t, t.TempDir(), `{}`, nil, "http", mcpURL)
		if r.Error != "" || !strings.Contains(r.Allowed, started) || strings.Contains(r.Allowed, elsewhere) {
			t.Fatalf("allowed %q (error %q), want %s, the directory the server was started with", r.Allowed, r.Error, started)
		}
	})
}

// TestBrokenUpstreamFailsFastWithItsReason: `genui mcp` with a command
// that does not exist, and with a server that writes a line to stderr and
// exits 1: the host's initialize is an error naming the cause (and that
// line) within 3 s of starting genui, not a "connected" server whose
// tools/list times out 30 s later.
func TestBrokenUpstreamFailsFastWithItsReason(t *testing.T) {
	bin := testenv.GenuiBinary(t)
	const line = "Error: Cannot find module '/srv/missing/server.js'"
	for _, c := range []struct {
		name string
		cmd  []string
		want []string
	}{
		{"no such command", []string{"genui-no-such-command"}, []string{"genui-no-such-command", "not found"}},
		{"exits with a line on stderr", []string{"sh", "-c", `echo "` + line + `" >&2; exit 1`}, []string{"exit status 1", line}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runFaithful(t, t.TempDir(), `{}`, nil, "stdio",
				append([]string{bin, "mcp", "--dir", filepath.Join(t.TempDir(), "ui"), "--"}, c.cmd...)...)
			if r.Error == "" {
				t.Fatalf("the client connected and listed %v; want initialize to fail", r.Tools)
			}
			for _, w := range c.want {
				if !strings.Contains(r.Error, w) {
					t.Errorf("error %q does not name %q", r.Error, w)
				}
			}
			if !strings.Contains(r.Error, "did not start") {
				t.Errorf("error %q does not say the server did not start", r.Error)
			}
			// From spawning genui (a -race build on a loaded machine) to the
			// error; the point is that it is not the 30 s tools/list timeout.
			if r.MS > 3000 {
				t.Errorf("the error came after %d ms, want within 3 s", r.MS)
			}
		})
	}
}

// TestServeSaysWhyTheUpstreamDidNotStart: `genui serve` with a server
// that writes a line to stderr and exits 1 prints the exit and that line
// on its console, not only in DIR/log/genui.log.
func TestServeSaysWhyTheUpstreamDidNotStart(t *testing.T) {
	bin := testenv.GenuiBinary(t)
	const line = "Error: Cannot find module '/srv/missing/server.js'"
	cmd := exec.Command(bin, "serve", "--dir", filepath.Join(t.TempDir(), "ui"), "--", "sh", "-c", `echo "`+line+`" >&2; exit 1`)
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = t.TempDir()
	start := time.Now()
	p := startGroup(t, cmd, "genui serve")
	out := p.out
	t.Cleanup(func() { p.kill(syscall.SIGKILL) })
	// genui's own message: the exit first, then the server's line (the log
	// may show the line on its own earlier).
	const lead = "upstream did not start: upstream exited (exit status 1)"
	said := func(s string) bool {
		i := strings.Index(s, lead)
		return i >= 0 && strings.Contains(s[i:], line)
	}
	if !testenv.Until(30*time.Second, func() bool { return said(out.String()) }) {
		t.Fatalf("after 30 s the console does not say why:\n%s", out.String())
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the reason took %s to show", took)
	}
}
