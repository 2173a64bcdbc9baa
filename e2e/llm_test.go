package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

const forecastURI = "ui://get_forecast"

// genuiLLM starts `genui mcp --dir DIR --debug args...` (built-in demo
// upstream) with env added to the offline environment. At cleanup it
// checks that key appears in no file under DIR, nowhere on stdout (every
// response) and nowhere on stderr (the --debug log).
// These tests are about the html mode's pages (the stand-in answers with
// one): GENUI_GENERATION_MODE says so before env. genuiLLMDefault sets no
// mode.
func genuiLLM(t *testing.T, key string, env []string, handler mcptest.Option, args ...string) (*mcptest.Client, string) {
	t.Helper()
	return genuiLLMDefault(t, key, append([]string{"GENUI_GENERATION_MODE=html"}, env...), handler, args...)
}

// genuiLLMDefault is genuiLLM without a generation mode (the default).
func genuiLLMDefault(t *testing.T, key string, env []string, handler mcptest.Option, args ...string) (*mcptest.Client, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ui")
	cmd := exec.Command(testenv.GenuiBinary(t), append([]string{"mcp", "--dir", dir, "--debug"}, args...)...)
	cmd.Env = append(testenv.OfflineEnv(), env...)
	c := session(t, cmd, handler)
	t.Cleanup(func() {
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(dir, "log", "genui.log")); err == nil {
				t.Logf("genui.log (last 8 KiB):\n%s", tail(string(b), 8192))
			}
		}
		if key == "" {
			return
		}
		_ = c.Close() // flush everything before scanning
		llmtest.NoKey(t, key, "genui's stdout (every response)", c.Stdout())
		llmtest.NoKey(t, key, "genui's stderr (the --debug log)", []byte(c.Stderr()))
		llmtest.NoKeyInDir(t, key, dir)
	})
	return c, dir
}

func waitUpdated(t *testing.T, ctx context.Context, c *mcptest.Client, uri string) {
	t.Helper()
	if _, err := c.WaitNotification(ctx, "notifications/resources/updated", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"`+uri+`"`)
	}); err != nil {
		t.Fatalf("no notifications/resources/updated for %s: %v", uri, err)
	}
}

// TestLLMBackgroundUpgradeOverStdio: genui mcp with --llm anthropic pointed
// at a stand-in Anthropic API (real fantasy/SDK client code, SSE stream)
// that holds its answer until the test releases it. The first read and 49
// more concurrent reads complete with the offline UI while the provider
// still holds the one request they share; once released, the LLM page
// replaces the UI and the subscribed client gets
// notifications/resources/updated. (How fast a first read is belongs in
// the benchmarks: engine's BenchmarkReadWhileLLMWrites.)
func TestLLMBackgroundUpgradeOverStdio(t *testing.T) {
	held := make(chan struct{})
	var releaseOnce sync.Once
	release := func() { releaseOnce.Do(func() { close(held) }) }
	t.Cleanup(release)
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage, Release: held,
		InputTokens: 4321, OutputTokens: 1234})
	c, dir := genuiLLM(t, llmtest.TestKey, []string{"ANTHROPIC_API_KEY=" + llmtest.TestKey, "ANTHROPIC_BASE_URL=" + srv.URL},
		hostHandler(), "--llm", "anthropic", "--model", "claude-test")
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	if _, rpcErr, err := c.Request(ctx, "resources/subscribe", map[string]string{"uri": forecastURI}); err != nil || rpcErr != nil {
		t.Fatalf("subscribe: %v %v", err, rpcErr)
	}
	first := readUI(t, c, forecastURI)
	if strings.Contains(first, "forecast-card") || !strings.Contains(first, "data-genui-shim") {
		t.Fatal("the first read must be the offline UI")
	}
	var wg sync.WaitGroup
	for range 49 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if html := readUI(t, c, forecastURI); html != first {
				t.Error("a concurrent read got another page than the offline UI")
			}
		}()
	}
	wg.Wait()
	// All 50 reads were answered while the provider holds the request.
	testenv.Until(30*time.Second, func() bool { return srv.Count() > 0 })
	if n := srv.Count(); n != 1 {
		t.Fatalf("50 reads caused %d provider requests, want exactly 1", n)
	}
	heldFor := time.Since(srv.Requests()[0].At).Truncate(time.Millisecond)
	release()
	waitUpdated(t, ctx, c, forecastURI)
	upgraded := readUI(t, c, forecastURI)
	if !strings.Contains(upgraded, "forecast-card") || !strings.Contains(upgraded, "data-genui-shim") {
		t.Fatal("after resources/updated the read must serve the LLM page with the shim inlined")
	}
	if n := srv.Count(); n != 1 {
		t.Fatalf("50 reads caused %d provider requests, want exactly 1", n)
	}
	q := srv.Requests()[0]
	if q.Header.Get("X-Api-Key") != llmtest.TestKey {
		t.Error("the key from ANTHROPIC_API_KEY was not sent to ANTHROPIC_BASE_URL")
	}
	// _ui_inspect: tokens, duration and the chain recorded with the entry.
	res, err := c.CallTool(ctx, "_ui_inspect", map[string]string{"toolName": "get_forecast"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ins struct {
		StructuredContent struct {
			Meta struct {
				Provider     string `json:"provider"`
				Model        string `json:"model"`
				UIType       string `json:"uiType"`
				InputTokens  int    `json:"inputTokens"`
				OutputTokens int    `json:"outputTokens"`
				Duration     int64  `json:"duration"`
				Chain        []struct{ Stage string }
			} `json:"meta"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(res, &ins); err != nil {
		t.Fatal(err)
	}
	m := ins.StructuredContent.Meta
	if m.Provider != "anthropic" || m.Model != "claude-test" || m.UIType != "llm" || m.InputTokens != 4321 ||
		m.OutputTokens != 1234 || time.Duration(m.Duration) < heldFor || len(m.Chain) != 1 {
		t.Fatalf("_ui_inspect meta = %+v", m)
	}
	// --debug wrote the prompt and the raw answer.
	files, _ := filepath.Glob(filepath.Join(dir, "debug", "*"))
	if len(files) != 2 {
		t.Errorf("DIR/debug holds %v, want a prompt and a response", files)
	}
}

// TestLLMSamplingOverStdio: --llm sampling asks the host's own model with
// sampling/createMessage; the host (this test's client) holds its answer
// until the test has done the first read (which must be the offline UI, so
// it cannot have waited for the host's model), then answers with a page,
// which replaces the offline UI.
func TestLLMSamplingOverStdio(t *testing.T) {
	var mu sync.Mutex
	var asked []json.RawMessage
	held := make(chan struct{})
	var releaseOnce sync.Once
	release := func() { releaseOnce.Do(func() { close(held) }) }
	t.Cleanup(release)
	handler := mcptest.WithRequestHandler(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
		switch method {
		case "ping":
			return json.RawMessage(`{}`), nil
		case "sampling/createMessage":
			mu.Lock()
			asked = append(asked, params)
			mu.Unlock()
			select { // the host's model answers when the test says so
			case <-held:
			case <-ctx.Done():
				return nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "closed")
			}
			b, _ := json.Marshal(map[string]any{"role": "assistant", "model": "host-model", "stopReason": "endTurn",
				"content": map[string]any{"type": "text", "text": llmtest.ForecastPage}})
			return b, nil
		}
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "no %s", method)
	})
	c, _ := genuiLLM(t, "", nil, handler, "--llm", "sampling")
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, json.RawMessage(`{"sampling":{}}`)); err != nil {
		t.Fatal(err)
	}
	if _, rpcErr, err := c.Request(ctx, "resources/subscribe", map[string]string{"uri": forecastURI}); err != nil || rpcErr != nil {
		t.Fatalf("subscribe: %v %v", err, rpcErr)
	}
	if strings.Contains(readUI(t, c, forecastURI), "forecast-card") {
		t.Fatal("the first read must not wait for the host's model")
	}
	release()
	waitUpdated(t, ctx, c, forecastURI)
	if !strings.Contains(readUI(t, c, forecastURI), "forecast-card") {
		t.Fatal("the host model's page is not served after resources/updated")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 {
		t.Fatalf("%d sampling requests, want 1", len(asked))
	}
	var p struct {
		SystemPrompt string `json:"systemPrompt"`
		MaxTokens    int    `json:"maxTokens"`
		Messages     []struct {
			Role    string `json:"role"`
			Content struct{ Type, Text string }
		} `json:"messages"`
	}
	if err := json.Unmarshal(asked[0], &p); err != nil || p.MaxTokens <= 0 || !strings.Contains(p.SystemPrompt, "window.McpApps") ||
		len(p.Messages) != 1 || !strings.Contains(p.Messages[0].Content.Text, "get_forecast") {
		t.Fatalf("sampling/createMessage params: %v %s", err, clip(asked[0]))
	}
}

// TestLLMSamplingWithoutCapability: a host that did not declare sampling
// keeps the offline UI and genui says why.
func TestLLMSamplingWithoutCapability(t *testing.T) {
	c, _ := genuiLLM(t, "", nil, hostHandler(), "--llm", "sampling")
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, json.RawMessage(`{"roots":{}}`)); err != nil {
		t.Fatal(err)
	}
	readUI(t, c, forecastURI)
	var res json.RawMessage
	explained := func() bool {
		var err error
		if res, err = c.CallTool(ctx, "_ui_inspect", map[string]string{"toolName": "get_forecast"}, nil); err != nil {
			t.Fatal(err)
		}
		return strings.Contains(string(res), "advertised the sampling capability")
	}
	if !testenv.Until(30*time.Second, explained) {
		t.Fatalf("_ui_inspect never explained the missing sampling capability: %s", clip(res))
	}
	for _, m := range c.Messages() {
		if m.Method == "sampling/createMessage" {
			t.Fatal("genui asked a host without the sampling capability")
		}
	}
}

// TestLLMExportWaitsForPages: `genui export` with an LLM writes the model's
// pages (it waits for them), through the OpenAI wire format.
func TestLLMExportWaitsForPages(t *testing.T) {
	srv := llmtest.New(t, llmtest.OpenAI, llmtest.Reply{Text: llmtest.ForecastPage, Delay: 300 * time.Millisecond})
	wd := t.TempDir()
	out := filepath.Join(wd, "out")
	ctx := bounded(t, 2*time.Minute)
	cmd := exec.CommandContext(ctx, testenv.GenuiBinary(t), "export", "--out", out, "--dir", filepath.Join(wd, "ui"), "--llm", "openai")
	cmd.Env = append(testenv.OfflineEnv(), "OPENAI_API_KEY="+llmtest.TestKey, "OPENAI_BASE_URL="+srv.BaseURL(), "GENUI_GENERATION_MODE=html")
	cmd.Dir = wd
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("export: %v\n%s", err, b)
	}
	llmtest.NoKey(t, llmtest.TestKey, "export's output", b)
	page, err := os.ReadFile(filepath.Join(out, "get_forecast.html"))
	if err != nil || !strings.Contains(string(page), "forecast-card") {
		t.Fatalf("get_forecast.html is not the model's page: %v", err)
	}
	if !strings.Contains(string(b), "(llm,") {
		t.Errorf("export did not report llm pages:\n%s", b)
	}
	llmtest.NoKeyInDir(t, llmtest.TestKey, wd)
}
