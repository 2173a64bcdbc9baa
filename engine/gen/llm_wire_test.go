package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
	"github.com/genui-dev/genui/mcpshim"
)

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.b.Bytes()...)
}

var forecastTool = Tool{Name: "get_forecast", Title: "Forecast", Description: "Weather forecast for a city.",
	InputSchema:  json.RawMessage(forecastSchema),
	OutputSchema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"},"days":{"type":"array"}}}`)}

// wireRig is an LLM generator wired to a stand-in provider.
type wireRig struct {
	t      *testing.T
	srv    *llmtest.Server
	llm    *LLM
	logs   *syncBuffer
	debug  string
	mu     sync.Mutex
	sleeps []time.Duration
}

// providerFor is the --llm value that talks wire.
func providerFor(w llmtest.Wire) string {
	switch w {
	case llmtest.Anthropic:
		return ProviderAnthropic
	case llmtest.OpenAI:
		return ProviderOpenAI
	case llmtest.Gemini:
		return ProviderGoogle
	}
	return ProviderOllama
}

// newWireRig builds the rig in the html mode, whose whole pages most of
// these tests are about; a test of the spec mode sets Config.Mode in mod
// ("" is the default, the spec mode).
func newWireRig(t *testing.T, wire llmtest.Wire, def llmtest.Reply, mod func(*Config)) *wireRig {
	t.Helper()
	r := &wireRig{t: t, srv: llmtest.New(t, wire, def), logs: &syncBuffer{}, debug: filepath.Join(t.TempDir(), "debug")}
	cfg := Config{Provider: providerFor(wire), Model: "test-model", BaseURL: r.srv.BaseURL(), APIKey: llmtest.TestKey, Mode: ModeHTML,
		DebugDir: r.debug, Logger: slog.New(slog.NewJSONHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Sleep: func(ctx context.Context, d time.Duration) error {
			r.mu.Lock()
			r.sleeps = append(r.sleeps, d)
			r.mu.Unlock()
			return ctx.Err()
		}}
	if mod != nil {
		mod(&cfg)
	}
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.llm = l
	t.Cleanup(r.checkNoKey)
	return r
}

// generate runs one generation of the forecast tool and checks the key
// is in none of its outputs.
func (r *wireRig) generate(key string) Result {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return r.generateCtx(ctx, key)
}

// holdUntilEnd is a llmtest.Reply.Release that the end of the test closes.
func holdUntilEnd(t *testing.T) <-chan struct{} {
	ch := make(chan struct{})
	t.Cleanup(func() { close(ch) })
	return ch
}

// generateWithinBudget generates with no deadline of the caller's while the
// provider holds its answer until the test ends: only the generation's own
// budget can end it. A generation that ignored its budget trips the hang
// bound (how fast the budget ends it is no claim of a test).
func (r *wireRig) generateWithinBudget(key string) Result {
	r.t.Helper()
	done := make(chan Result, 1)
	go func() { done <- r.generateCtx(context.Background(), key) }()
	select {
	case res := <-done:
		return res
	case <-time.After(time.Minute):
		r.t.Fatal("the generation is still waiting for the held answer: its budget did not end it")
		return Result{}
	}
}

func (r *wireRig) generateCtx(ctx context.Context, key string) Result {
	r.t.Helper()
	res, err := r.llm.Generate(ctx, Request{Tool: forecastTool, Key: key})
	if err != nil {
		r.t.Fatalf("Generate: %v", err)
	}
	b, _ := json.Marshal(res)
	llmtest.NoKey(r.t, llmtest.TestKey, "the generation result", b)
	if res.HTML == "" {
		r.t.Fatal("no HTML: the chain must always end in a UI")
	}
	return res
}

func (r *wireRig) checkNoKey() {
	llmtest.NoKey(r.t, llmtest.TestKey, "the log", r.logs.Bytes())
	if _, err := os.Stat(r.debug); err == nil {
		llmtest.NoKeyInDir(r.t, llmtest.TestKey, r.debug)
	}
}

func (r *wireRig) slept() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.sleeps...)
}

func wantChain(t *testing.T, res Result, stages ...string) {
	t.Helper()
	var got []string
	for _, s := range res.Chain {
		st := s.Stage
		if !s.OK {
			st += "!"
		}
		got = append(got, st)
	}
	if strings.Join(got, " ") != strings.Join(stages, " ") {
		t.Fatalf("chain = %v, want %v (steps %+v)", got, stages, res.Chain)
	}
}

var wires = []llmtest.Wire{llmtest.Anthropic, llmtest.OpenAI, llmtest.Ollama}

func TestLLMWireSuccess(t *testing.T) {
	for _, w := range wires {
		t.Run(string(w), func(t *testing.T) {
			r := newWireRig(t, w, llmtest.Reply{Text: llmtest.ForecastPage, InputTokens: 1234, OutputTokens: 567}, nil)
			var progress []Progress
			var pmu sync.Mutex
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := r.llm.Generate(ctx, Request{Tool: forecastTool, Key: "k", OnProgress: func(p Progress) {
				pmu.Lock()
				progress = append(progress, p)
				pmu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			wantChain(t, res, "generated")
			if res.UIType != UITypeLLM || res.Provider != providerFor(w) || res.Attempts != 1 || res.FallbackReason != "" {
				t.Fatalf("result = %+v", res)
			}
			if res.InputTokens != 1234 || res.OutputTokens != 567 {
				t.Errorf("tokens = %d/%d, want 1234/567", res.InputTokens, res.OutputTokens)
			}
			if !strings.Contains(res.HTML, mcpshim.ShimAttr) || !strings.Contains(res.HTML, "forecast-card") {
				t.Error("the served page must be the model's page with the shim inlined")
			}
			if rep := Check(res.HTML, forecastTool); !rep.OK() {
				t.Errorf("served page fails Check: %v", rep.Problems)
			}
			pmu.Lock()
			last := progress[len(progress)-1]
			pmu.Unlock()
			if last.Bytes != len(llmtest.ForecastPage) || last.Tool != "get_forecast" || last.Attempt != 1 {
				t.Errorf("last progress = %+v, want %d bytes", last, len(llmtest.ForecastPage))
			}

			reqs := r.srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			q := reqs[0]
			var body map[string]any
			_ = json.Unmarshal(q.Body, &body)
			if body["stream"] != true || body["model"] != "test-model" {
				t.Errorf("request body: stream=%v model=%v", body["stream"], body["model"])
			}
			switch w {
			case llmtest.Anthropic:
				if q.Header.Get("X-Api-Key") != llmtest.TestKey || q.Header.Get("Anthropic-Version") == "" {
					t.Errorf("anthropic headers: key sent=%v version=%q", q.Header.Get("X-Api-Key") == llmtest.TestKey, q.Header.Get("Anthropic-Version"))
				}
				if !bytes.Contains(q.Body, []byte(`"cache_control":{"type":"ephemeral"}`)) {
					t.Error("the system prompt is not marked for Anthropic prompt caching")
				}
			case llmtest.OpenAI:
				if q.Header.Get("Authorization") != "Bearer "+llmtest.TestKey {
					t.Error("openai: bearer key not sent")
				}
			}
			if !strings.Contains(q.System(), "window.McpApps") || !strings.Contains(q.User(), "<tool_definition>") ||
				!strings.Contains(q.User(), `"get_forecast"`) {
				t.Errorf("prompt lacks the App API or the tool definition:\nSYSTEM %.200s\nUSER %.400s", q.System(), q.User())
			}
			// --debug files: the prompt and the raw answer.
			files, _ := filepath.Glob(filepath.Join(r.debug, "*"))
			var kinds []string
			for _, f := range files {
				kinds = append(kinds, f[strings.LastIndex(f, "-")+1:])
			}
			sort.Strings(kinds)
			if strings.Join(kinds, ",") != "prompt.txt,response.txt" {
				t.Errorf("debug files = %v", files)
			}
		})
	}
}

func TestLLMWireRateLimitHonoursRetryAfter(t *testing.T) {
	for _, w := range wires {
		t.Run(string(w), func(t *testing.T) {
			r := newWireRig(t, w, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
			r.srv.Push(llmtest.Reply{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After": "7"}, Message: "slow down"})
			res := r.generate("k")
			wantChain(t, res, "generated")
			if res.Attempts != 2 || r.srv.Count() != 2 {
				t.Fatalf("attempts %d, requests %d; want 2", res.Attempts, r.srv.Count())
			}
			if s := r.slept(); len(s) != 1 || s[0] != 7*time.Second {
				t.Fatalf("waited %v before the retry, want exactly [7s] (Retry-After)", s)
			}
		})
	}
}

// TestLLMWireRetryAfterWaitsForReal measures the gap between the 429 and
// the retry with the real timer.
func TestLLMWireRetryAfterWaitsForReal(t *testing.T) {
	r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage}, func(c *Config) { c.Sleep = nil })
	r.srv.Push(llmtest.Reply{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After": "1"}})
	r.generate("k")
	reqs := r.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if gap := reqs[1].At.Sub(reqs[0].At); gap < time.Second {
		t.Fatalf("retry came %v after the 429 with Retry-After: 1", gap)
	}
}

func TestLLMWireServerErrorThenSuccess(t *testing.T) {
	for _, w := range wires {
		t.Run(string(w), func(t *testing.T) {
			r := newWireRig(t, w, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
			r.srv.Push(llmtest.Reply{Status: http.StatusInternalServerError, Message: "boom"})
			res := r.generate("k")
			wantChain(t, res, "generated")
			if res.Attempts != 2 {
				t.Fatalf("attempts = %d, want 2", res.Attempts)
			}
			if s := r.slept(); len(s) != 1 || s[0] != DefaultBackoff {
				t.Fatalf("backoff = %v, want [%v]", s, DefaultBackoff)
			}
		})
	}
}

func TestLLMWireServerErrorsExhaustRetries(t *testing.T) {
	r := newWireRig(t, llmtest.OpenAI, llmtest.Reply{Status: 503, Message: "down"}, nil)
	res := r.generate("k")
	wantChain(t, res, "generated!", "offline")
	if res.Attempts != 3 || r.srv.Count() != 3 {
		t.Fatalf("attempts %d requests %d, want 3 (1 + 2 retries)", res.Attempts, r.srv.Count())
	}
	if s := r.slept(); len(s) != 2 || s[0] != time.Second || s[1] != 2*time.Second {
		t.Fatalf("backoff = %v, want [1s 2s]", s)
	}
	if res.Error == nil || res.Error.Class != ErrServer || !res.Error.Retryable || res.Error.Status != 503 {
		t.Fatalf("error = %+v", res.Error)
	}
}

func TestLLMWireAuthStopsAttempts(t *testing.T) {
	for _, w := range wires {
		t.Run(string(w), func(t *testing.T) {
			r := newWireRig(t, w, llmtest.Reply{Status: http.StatusUnauthorized, Message: "invalid x-api-key"}, nil)
			res := r.generate("k1")
			wantChain(t, res, "generated!", "offline")
			if res.Error == nil || res.Error.Class != ErrAuth || res.Error.Retryable || res.UIType != UITypeOfflineRich {
				t.Fatalf("result = %+v error %+v", res, res.Error)
			}
			if r.srv.Count() != 1 || len(r.slept()) != 0 {
				t.Fatalf("%d requests, %d waits after a 401; want 1, 0", r.srv.Count(), len(r.slept()))
			}
			// Later generations make no request and the log says so once.
			res2 := r.generate("k2")
			if r.srv.Count() != 1 || res2.Error == nil || res2.Error.Class != ErrAuth {
				t.Fatalf("after AUTH: %d requests, error %+v", r.srv.Count(), res2.Error)
			}
			if n := bytes.Count(r.logs.Bytes(), []byte("LLM authentication failed")); n != 1 {
				t.Fatalf("the AUTH failure was logged %d times, want once", n)
			}
		})
	}
}

func TestLLMWireSlowerThanBudget(t *testing.T) {
	for _, w := range wires {
		t.Run(string(w), func(t *testing.T) {
			r := newWireRig(t, w, llmtest.Reply{Text: llmtest.ForecastPage, Release: holdUntilEnd(t)},
				func(c *Config) { c.Budget = 300 * time.Millisecond })
			res := r.generateWithinBudget("k")
			wantChain(t, res, "generated!", "offline")
			if res.Error == nil || res.Error.Class != ErrTimeout || res.UIType != UITypeOfflineRich {
				t.Fatalf("result %+v error %+v", res.UIType, res.Error)
			}
		})
	}
}

// TestLLMWireSlowStreamCancelledAtBudget: a stream slower than the budget
// (10 bytes every 50 ms: 11 s for the page) reports progress while it runs
// and is cut at the budget. Progress is throttled to one report per 250 ms,
// so the budget leaves room for several reports even when the first chunk
// is late on a loaded machine (with 400 ms, a first chunk after 150 ms left
// room for one).
func TestLLMWireSlowStreamCancelledAtBudget(t *testing.T) {
	r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage, ChunkSize: 10, ChunkDelay: 50 * time.Millisecond},
		func(c *Config) { c.Budget = 1200 * time.Millisecond })
	var mu sync.Mutex
	var seen []Progress
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := r.llm.Generate(ctx, Request{Tool: forecastTool, Key: "k", OnProgress: func(p Progress) {
		mu.Lock()
		seen = append(seen, p)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Class != ErrTimeout {
		t.Fatalf("error = %+v", res.Error)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 2 || seen[len(seen)-1].Bytes <= seen[0].Bytes {
		t.Fatalf("progress did not advance while streaming: %+v", seen)
	}
}

func TestLLMWireBadAnswers(t *testing.T) {
	cdnPage := strings.Replace(llmtest.ForecastPage, "const { App } = window.McpApps;",
		`import { App } from "https://esm.sh/@modelcontextprotocol/ext-apps@1.0.0/app-with-deps";`, 1)
	for _, tc := range []struct {
		name   string
		answer string
		chain  []string
		check  func(t *testing.T, res Result)
	}{
		{"garbage", "I'm sorry, I can't help with building that interface today.", []string{"generated!", "repaired!", "re-asked!", "repaired!", "offline"},
			func(t *testing.T, res Result) {
				if !strings.Contains(res.FallbackReason, "not an HTML document") {
					t.Errorf("reason = %q", res.FallbackReason)
				}
			}},
		{"fenced with prose", "Here is your UI:\n\n```html\n" + llmtest.ForecastPage + "```\n\nLet me know if you want changes.",
			[]string{"generated!", "repaired"},
			func(t *testing.T, res Result) {
				if !strings.Contains(res.Chain[0].Reason, "code fences") || !strings.Contains(res.Chain[1].Reason, "code fence") {
					t.Errorf("chain reasons = %+v", res.Chain)
				}
				if strings.Contains(res.HTML, "```") || strings.Contains(res.HTML, "Let me know") {
					t.Error("fence or prose left in the page")
				}
			}},
		{"ext-apps from a CDN", cdnPage, []string{"generated!", "repaired"},
			func(t *testing.T, res Result) {
				if strings.Contains(res.HTML, "esm.sh") || !strings.Contains(res.HTML, mcpshim.ShimAttr) ||
					!strings.Contains(res.HTML, "const { App } = window.McpApps;") {
					t.Error("the CDN import was not replaced by the inlined bridge")
				}
				if !strings.Contains(res.Chain[1].Reason, "ext-apps import") {
					t.Errorf("repair reason = %q", res.Chain[1].Reason)
				}
			}},
		{"external script", strings.Replace(llmtest.ForecastPage, "</head>", `<script src="https://cdn.example.com/chart.js"></script></head>`, 1),
			[]string{"generated!", "repaired!", "re-asked!", "repaired!", "offline"},
			func(t *testing.T, res Result) {
				if !strings.Contains(res.FallbackReason, "https://cdn.example.com/chart.js") {
					t.Errorf("reason = %q", res.FallbackReason)
				}
			}},
		{"inline handler", strings.Replace(llmtest.ForecastPage, `<button id="go" type="submit">`, `<button id="go" type="submit" onclick="this.blur()">`, 1),
			[]string{"generated!", "repaired"},
			func(t *testing.T, res Result) {
				if !strings.Contains(res.Chain[0].Reason, "inline event handler") || !strings.Contains(res.Chain[1].Reason, "moved 1 inline event handler") {
					t.Errorf("chain = %+v", res.Chain)
				}
				if strings.Contains(res.HTML, "onclick=") || !strings.Contains(res.HTML, `genuiOn(document.querySelector('[data-genui-on="1"]'), "click"`) {
					t.Error("the handler was not moved into a listener")
				}
			}},
	} {
		for _, w := range wires {
			t.Run(tc.name+"/"+string(w), func(t *testing.T) {
				r := newWireRig(t, w, llmtest.Reply{Text: tc.answer}, nil)
				res := r.generate("k")
				wantChain(t, res, tc.chain...)
				last := res.Chain[len(res.Chain)-1]
				if last.Stage == StageOffline {
					if res.UIType != UITypeOfflineRich || res.FallbackReason == "" {
						t.Fatalf("fallback result %+v", res)
					}
				} else if res.UIType != UITypeLLM {
					t.Fatalf("UIType %q", res.UIType)
				}
				if rep := Check(res.HTML, forecastTool); last.Stage != StageOffline && !rep.OK() {
					t.Errorf("served page fails Check: %v", rep.Problems)
				}
				if problems := Validate(res.HTML); len(problems) > 0 {
					t.Errorf("served page not self-contained: %v", problems)
				}
				tc.check(t, res)
			})
		}
	}
}

func TestLLMContentFiltered(t *testing.T) {
	r := newWireRig(t, llmtest.OpenAI, llmtest.Reply{Text: "partial", Finish: "content_filter"}, nil)
	res := r.generate("k")
	if res.Error == nil || res.Error.Class != ErrContentFiltered || res.Error.Retryable || r.srv.Count() != 1 {
		t.Fatalf("error %+v after %d requests", res.Error, r.srv.Count())
	}
}

// TestLLMSharedGeneration: concurrent requests for one key share one
// provider request; the global limit holds other keys back.
func TestLLMSharedGeneration(t *testing.T) {
	r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage, Delay: 200 * time.Millisecond}, nil)
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res := r.generate("same"); res.UIType != UITypeLLM {
				t.Errorf("UIType %q", res.UIType)
			}
		}()
	}
	wg.Wait()
	if n := r.srv.Count(); n != 1 {
		t.Fatalf("50 concurrent generations of one key made %d provider requests, want 1", n)
	}
}

func TestLLMGlobalLimit(t *testing.T) {
	var mu sync.Mutex
	inFlight, peak := 0, 0
	release := make(chan struct{})
	r := newWireRig(t, llmtest.OpenAI, llmtest.Reply{Text: llmtest.ForecastPage, Hook: func(llmtest.Request) {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		<-release
		mu.Lock()
		inFlight--
		mu.Unlock()
	}}, func(c *Config) { c.MaxConcurrent = 2 })
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() { defer wg.Done(); r.generate("key" + string(rune('a'+i))) }()
	}
	testenv.Until(5*time.Second, func() bool { return r.srv.Count() >= 2 })
	time.Sleep(200 * time.Millisecond) // a third request would arrive now if the limit leaked
	if n := r.srv.Count(); n != 2 {
		t.Errorf("%d requests in flight with a limit of 2", n)
	}
	close(release)
	wg.Wait()
	if peak != 2 || r.srv.Count() != 5 {
		t.Fatalf("peak %d (want 2), total %d (want 5)", peak, r.srv.Count())
	}
}

// TestLLMRunawayAnswerStopped: an answer that keeps streaming past twice the
// page limit is cut off, not buffered without bound.
func TestLLMRunawayAnswerStopped(t *testing.T) {
	r := newWireRig(t, llmtest.OpenAI, llmtest.Reply{Text: strings.Repeat("<p>x</p>", 2*MaxHTMLBytes/8+1000), ChunkSize: 64 << 10}, nil)
	res := r.generate("k")
	if res.Error == nil || res.Error.Class != ErrInvalidRequest || !strings.Contains(res.Error.Message, "while streaming") {
		t.Fatalf("error %+v", res.Error)
	}
}
