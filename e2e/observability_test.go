package e2e_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// genuiWithConfig starts `genui mcp --dir DIR` in a working directory
// holding genui.json (body, with {{LLM}} replaced by the stand-in
// provider's URL), with the Anthropic key in the environment.
func genuiWithConfig(t *testing.T, body string, srv *llmtest.Server) (*mcptest.Client, string) {
	t.Helper()
	wd := t.TempDir()
	dir := filepath.Join(wd, "ui")
	if srv != nil {
		body = strings.ReplaceAll(body, "{{LLM}}", srv.BaseURL())
	}
	if err := os.WriteFile(filepath.Join(wd, "genui.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testenv.GenuiBinary(t), "mcp", "--dir", dir)
	cmd.Dir = wd
	cmd.Env = append(testenv.OfflineEnv(), "ANTHROPIC_API_KEY="+llmtest.TestKey, "GENUI_GENERATION_MODE=html") // the html mode's pages
	c := session(t, cmd, hostHandler())
	t.Cleanup(func() {
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(dir, "log", "genui.log")); err == nil {
				t.Logf("genui.log (last 8 KiB):\n%s", tail(string(b), 8192))
			}
		}
	})
	return c, dir
}

// logLines parses DIR/log/genui.log (JSON lines).
func logLines(t *testing.T, dir string) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "log", "genui.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("genui.log line is not JSON: %v: %.200s", err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// waitLog polls the log until pred matches a line (bounded).
func waitLog(t *testing.T, dir string, what string, pred func(map[string]any) bool) map[string]any {
	t.Helper()
	var line map[string]any
	logged := func() bool {
		for _, l := range logLines(t, dir) {
			if pred(l) {
				line = l
				return true
			}
		}
		return false
	}
	if !testenv.Until(60*time.Second, logged) {
		t.Fatalf("no log line: %s", what)
	}
	return line
}

// TestRequestIDFollowsResourceReadThroughLog: one resources/read of a
// tool's UI, with an LLM configured in genui.json, can be followed through
// DIR/log/genui.log by its request id: the host's request, the cache
// lookup, the provider call and its answer, validation, the generated
// page and the cache store, in that order, each naming its component; the
// cache entry on disk carries the same id.
func TestRequestIDFollowsResourceReadThroughLog(t *testing.T) {
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage})
	c, dir := genuiWithConfig(t, `{"llm": {"provider": "anthropic", "model": "claude-test", "baseUrl": "{{LLM}}"},
	  "generation": {"firstRead": "wait", "waitBudget": "90s"}, "logging": {"level": "debug"}}`, srv)
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	if page := readUI(t, c, forecastURI); !strings.Contains(page, "forecast-card") {
		t.Fatalf("resources/read did not return the LLM page (%d bytes)", len(page))
	}
	req := waitLog(t, dir, "the host's resources/read request", func(l map[string]any) bool {
		return l["msg"] == "request" && l["method"] == "resources/read" && l["component"] == "host"
	})
	rid, _ := req["rid"].(string)
	if rid == "" {
		t.Fatalf("request line without rid: %v", req)
	}
	waitLog(t, dir, "cache store", func(l map[string]any) bool { return l["msg"] == "cache store" && l["rid"] == rid })

	steps := []struct{ component, msg string }{
		{"host", "request"},
		{"cache", "cache lookup"},
		{"gen", "LLM request"},
		{"gen", "LLM answer"},
		{"gen", "LLM answer validated"},
		{"gen", "LLM UI generated"},
		{"cache", "cache store"},
	}
	var trail []string
	next := 0
	for _, l := range logLines(t, dir) {
		if l["rid"] != rid {
			continue
		}
		trail = append(trail, fmt.Sprintf("%v/%v", l["component"], l["msg"]))
		if next < len(steps) && l["component"] == steps[next].component && l["msg"] == steps[next].msg {
			next++
		}
	}
	if next < len(steps) {
		t.Fatalf("request %s: the log shows %v; missing %s/%s (in order: %v)", rid, trail, steps[next].component, steps[next].msg, steps)
	}
	// The cache entry remembers the request that made it.
	entries, _ := filepath.Glob(filepath.Join(dir, "cache", "*.json"))
	found := false
	for _, p := range entries {
		b, _ := os.ReadFile(p)
		found = found || bytes.Contains(b, []byte(`"requestId":"`+rid+`"`)) && bytes.Contains(b, []byte(`"uiType":"llm"`))
	}
	if !found {
		t.Errorf("no cached LLM entry under %s/cache carries requestId %s", dir, rid)
	}
	llmtest.NoKey(t, llmtest.TestKey, "genui.log", mustRead(t, filepath.Join(dir, "log", "genui.log")))
}

// TestFallbackLogNamesReasonAndValidationErrors: when the model's answer
// cannot be used, one log line says the offline UI stands in, with the
// reason and the validation errors.
func TestFallbackLogNamesReasonAndValidationErrors(t *testing.T) {
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: "Sorry, I cannot write that page."})
	c, dir := genuiWithConfig(t, `{"llm": {"provider": "anthropic", "baseUrl": "{{LLM}}"},
	  "generation": {"firstRead": "wait", "waitBudget": "90s"}}`, srv)
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	readUI(t, c, forecastURI)
	l := waitLog(t, dir, "the fallback line", func(l map[string]any) bool {
		return l["msg"] == "LLM UI fell back to the offline UI"
	})
	reason, _ := l["reason"].(string)
	verrs, _ := l["validationErrors"].([]any)
	if l["level"] != "WARN" || l["component"] != "gen" || l["tool"] != "get_forecast" || l["rid"] == nil {
		t.Errorf("fallback line: %v", l)
	}
	if !strings.Contains(reason, "not an HTML document") || len(verrs) == 0 ||
		!strings.Contains(fmt.Sprint(verrs[0]), "not an HTML document") {
		t.Errorf("the fallback line does not name its reason and validation errors: %v", l)
	}
}

// TestMetricsCountProxiedCallCacheHitAndGeneration: GET /metrics on the API
// port parses with the Prometheus text parser and counts a proxied
// tools/call (latency histogram by method), a cache hit and a generation.
func TestMetricsCountProxiedCallCacheHitAndGeneration(t *testing.T) {
	c, dir := genuiMCP(t)
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	if _, rerr, err := c.Request(ctx, "tools/call", map[string]any{"name": "get_forecast", "arguments": map[string]any{"location": "Oslo"}}); err != nil || rerr != nil {
		t.Fatalf("tools/call: %v %v", rerr, err)
	}
	readUI(t, c, forecastURI) // generated (offline)
	readUI(t, c, forecastURI) // a cache hit
	port := waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second)
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	value := func(name string, labels map[string]string) float64 {
		fam, ok := fams[name]
		if !ok {
			t.Errorf("/metrics has no %s", name)
			return 0
		}
		sum := 0.0
	next:
		for _, m := range fam.GetMetric() {
			for k, v := range labels {
				if !hasLabel(m, k, v) {
					continue next
				}
			}
			switch {
			case m.GetHistogram() != nil:
				sum += float64(m.GetHistogram().GetSampleCount())
			case m.GetCounter() != nil:
				sum += m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				sum += m.GetGauge().GetValue()
			}
		}
		return sum
	}
	if n := value("genui_mcp_request_duration_seconds", map[string]string{"method": "tools/call", "proxied": "true"}); n < 1 {
		t.Errorf("proxied tools/call observed %v times, want >= 1", n)
	}
	if n := value("genui_mcp_request_duration_seconds", map[string]string{"method": "resources/read", "proxied": "false"}); n < 2 {
		t.Errorf("genui's resources/read observed %v times, want >= 2", n)
	}
	if n := value("genui_cache_hits_total", nil); n < 1 {
		t.Errorf("cache hits = %v, want >= 1", n)
	}
	if n := value("genui_generations_total", map[string]string{"generator": "offline", "outcome": "generated"}); n < 1 {
		t.Errorf("generations = %v, want >= 1", n)
	}
	if n := value("genui_generation_duration_seconds", map[string]string{"outcome": "generated"}); n < 1 {
		t.Errorf("generation durations observed %v times, want >= 1", n)
	}
	for _, name := range []string{"genui_cache_misses_total", "genui_cache_evictions_total", "genui_upstream_restarts_total",
		"genui_wait_pollers", "genui_wait_queue_length", "genui_upstream_connected"} {
		value(name, nil)
	}
}

func hasLabel(m *dto.Metric, k, v string) bool {
	for _, l := range m.GetLabel() {
		if l.GetName() == k {
			return l.GetValue() == v
		}
	}
	return false
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
