package e2e_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// secretValue is what ${env:SECRET} holds in TestEnvSecretsNeverShown: a
// value no output surface may print.
const secretValue = "tok-SECRET-7f3a9c1e5b"

// secretShown is how the surfaces show it.
const secretShown = "<from ${env:SECRET}>"

// secretProject writes a genui.json whose upstream's command line holds
// ${env:SECRET} (the demo server, started through sh, which ignores the
// argument), as does its watch build step, and returns its folder.
func secretProject(t *testing.T, script string) string {
	t.Helper()
	wd := t.TempDir()
	cfg := map[string]any{"upstream": map[string]any{
		"command": "/bin/sh",
		"args":    []string{"-c", script, testenv.GenuiBinary(t), "--label", "${env:SECRET}", "--token=${env:SECRET}"},
		"env":     map[string]string{"DEMO_LABEL": "${env:SECRET}"},
		"watch":   map[string]any{"paths": []string{"."}, "build": "true --label ${env:SECRET}"},
	}}
	if err := os.WriteFile(filepath.Join(wd, "genui.json"), []byte(mustJSON(cfg)), 0o600); err != nil {
		t.Fatal(err)
	}
	return wd
}

// getText reads url (bounded) and returns its body.
func getText(t *testing.T, url string) string {
	t.Helper()
	c := &http.Client{Timeout: 20 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s %v", url, resp.Status, err)
	}
	return string(b)
}

// TestEnvSecretsNeverShown: a ${env:SECRET} in upstream.args (and
// upstream.env) is shown as <from ${env:SECRET}> on every surface that
// prints the upstream: genui serve's banner, /state, /variables, /metrics,
// the log file, genui check's errors and the TUI's header; its value
// appears nowhere.
func TestEnvSecretsNeverShown(t *testing.T) {
	env := []string{"SECRET=" + secretValue}
	// The upstream prints its argument on stderr (genui logs it) every
	// half second for a minute (its process group ends with it).
	wd := secretProject(t, `(i=0; while [ $i -lt 120 ]; do echo "tick, label $2" >&2; sleep 0.5; i=$((i+1)); done) & exec "$0" demo-server`)
	dir := filepath.Join(t.TempDir(), "ui")

	// genui serve: the banner, the API, the log.
	cmd := exec.Command(testenv.GenuiBinary(t), "serve", "--dir", dir)
	cmd.Env = append(testenv.OfflineEnv(), env...)
	cmd.Dir = wd
	p := startGroup(t, cmd, "genui serve")
	out := p.out
	defer p.kill(syscall.SIGTERM)
	port := waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second)
	api := fmt.Sprintf("http://127.0.0.1:%d", port)
	testenv.Until(30*time.Second, func() bool { return strings.Contains(out.String(), "preview") })
	banner := out.String()

	surfaces := map[string]string{"banner": banner}
	surfaces["/state"] = getText(t, api+"/state")
	surfaces["/variables"] = getText(t, api+"/variables")
	surfaces["/metrics"] = getText(t, api+"/metrics")
	for name, text := range surfaces {
		if strings.Contains(text, secretValue) {
			t.Errorf("%s shows the secret:\n%s", name, text)
		}
	}
	for _, name := range []string{"banner", "/state", "/variables"} {
		if !strings.Contains(surfaces[name], jsonOrText(name, secretShown)) {
			t.Errorf("%s does not show %s where the argument is:\n%s", name, secretShown, tail(surfaces[name], 3000))
		}
	}

	// genui check: an upstream that fails to start is named in the error.
	bad := secretProject(t, `echo "usage: server $1" >&2; exit 3`)
	checkCmd := exec.Command(testenv.GenuiBinary(t), "check", "--dir", filepath.Join(t.TempDir(), "ui"))
	checkCmd.Env = append(testenv.OfflineEnv(), env...)
	checkCmd.Dir = bad
	checkOut, _ := runBounded(t, checkCmd, 2*time.Minute)
	if strings.Contains(checkOut, secretValue) {
		t.Errorf("genui check shows the secret:\n%s", checkOut)
	}
	if !strings.Contains(checkOut, secretShown) {
		t.Errorf("genui check does not name the upstream with %s:\n%s", secretShown, checkOut)
	}

	// The TUI's header.
	x := startTUIEnv(t, 400, 40, wd, env, "tui", "--dir", filepath.Join(t.TempDir(), "ui"))
	screen := x.waitFor("the header with the upstream", 60*time.Second, contains("--label"))
	if strings.Contains(screen, secretValue) || !strings.Contains(screen, secretShown) {
		t.Errorf("the TUI's header:\n%s", screen)
	}
	// Its Log tab: the upstream's stderr line, through the engine's log
	// events.
	x.keys("7")
	screen = x.waitFor("the upstream's stderr line in the Log tab", 30*time.Second, contains("line=tick, label"))
	if strings.Contains(screen, secretValue) || !strings.Contains(screen, "tick, label "+secretShown) {
		t.Errorf("the TUI's Log tab:\n%s", screen)
	}
	x.keys("q")

	// The logs, last: everything above has written to them.
	for _, d := range []string{dir} {
		b, err := os.ReadFile(filepath.Join(d, "log", "genui.log"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secretValue) || !strings.Contains(string(b), "tick, label "+secretShown) {
			t.Errorf("the log shows the secret, or not the upstream's line without it:\n%s", tail(string(b), 4000))
		}
	}
	if t.Failed() {
		t.Logf("serve output:\n%s", tail(out.String(), 4000))
	}
}

// jsonOrText is want as it appears on the surface name (JSON escapes <>).
func jsonOrText(name, want string) string {
	if name == "banner" {
		return want
	}
	b, _ := json.Marshal(want)
	return strings.Trim(string(b), `"`)
}

// runBounded runs cmd to completion within d and returns its output.
func runBounded(t *testing.T, cmd *exec.Cmd, d time.Duration) (string, error) {
	t.Helper()
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(d):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%v did not finish within %v:\n%s", cmd.Args, d, out.String())
	}
	return "", nil
}
