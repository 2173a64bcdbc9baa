package e2e_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/internal/testenv"
)

// serveBanner runs `genui serve` (the built-in demo) with env added to an
// offline environment and returns its banner (stderr up to the previews)
// and its /state; genui is stopped before it returns.
func serveBanner(t *testing.T, env ...string) (string, contract.State) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, testenv.GenuiBinary(t), "serve", "--dir", t.TempDir())
	cmd.Dir, cmd.Env = t.TempDir(), append(testenv.OfflineEnv(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		_ = cmd.Wait()
	}()
	var banner strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			banner.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "previews:") || strings.Contains(sc.Text(), "not ready") {
				break
			}
		}
		go func() { _, _ = io.Copy(io.Discard, stderr) }()
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("genui serve printed no banner within 60 s")
	}
	m := regexp.MustCompile(`state: (http://127\.0\.0\.1:\d+)/state`).FindStringSubmatch(banner.String())
	if m == nil {
		t.Fatalf("no state URL in the banner:\n%s", banner.String())
	}
	res, err := http.Get(m[1] + "/state")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st contract.State
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return banner.String(), st
}

// TestServeNamesBorrowedLLMSettings: beside Claude Code (its
// ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL in the environment) genui serve
// says in its banner and /state that the generator's settings came from
// those variables; GENUI_LLM_FROM_ENVIRONMENT=false keeps it offline and
// quiet about them.
func TestServeNamesBorrowedLLMSettings(t *testing.T) {
	claude := []string{"ANTHROPIC_API_KEY=sk-ant-claude-code-0123456789", "ANTHROPIC_BASE_URL=http://127.0.0.1:1"}
	banner, st := serveBanner(t, claude...)
	if !strings.Contains(banner, "UI generator: anthropic, with ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL from the environment") ||
		st.Generator != "anthropic" || st.GeneratorSource != "ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL from the environment" {
		t.Fatalf("borrowed settings not named: generator %q source %q\n%s", st.Generator, st.GeneratorSource, banner)
	}
	if strings.Contains(banner, "sk-ant-claude-code") {
		t.Fatal("the key is in the banner")
	}
	banner, st = serveBanner(t, append(claude, "GENUI_LLM_FROM_ENVIRONMENT=false")...)
	if strings.Contains(banner, "UI generator:") || st.Generator != "offline" || st.GeneratorSource != "" {
		t.Fatalf("with llm.fromEnvironment false: generator %q source %q\n%s", st.Generator, st.GeneratorSource, banner)
	}
}
