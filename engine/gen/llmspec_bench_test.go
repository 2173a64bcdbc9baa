package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
)

// What the stand-in answers in BenchmarkSpecVsHTMLGeneration: for the html
// mode llmtest.ForecastPage (the smallest page that does the job, 2.6 KB;
// the pages real models wrote for genui's prompts were 15-40k characters)
// and, for a refinement, the same page again (the html mode answers with
// the whole page); for the spec mode a whole spec as a model writes it
// (indented, in a code fence) and a merge patch.
const (
	benchSpecAnswer = "```json\n" + `{
  "version": 1,
  "title": "Forecast",
  "principal": "/days",
  "view": {
    "kind": "chart",
    "columns": [
      {"field": "date", "label": "Date", "format": "date"},
      {"field": "high", "label": "High", "format": "number"},
      {"field": "low", "label": "Low", "format": "number"},
      {"field": "conditions", "label": "Conditions"}
    ],
    "chart": {"kind": "line", "x": "date", "y": ["high", "low"], "unit": "°C"}
  },
  "labels": {"location": "Location"}
}` + "\n```"
	benchSpecPatch = `{"view": {"sort": {"field": "high", "dir": "desc"}}}`
	// benchTokenRate is the stand-in's replay rate (output tokens per
	// second), benchChunkTokens the tokens per streamed chunk; a token is
	// taken as 4 characters.
	benchTokenRate   = 400
	benchChunkTokens = 10
)

// benchReply is answer streamed at benchTokenRate, reporting its tokens.
func benchReply(answer string) llmtest.Reply {
	return llmtest.Reply{Text: answer, ChunkSize: 4 * benchChunkTokens,
		ChunkDelay:   time.Second * benchChunkTokens / benchTokenRate,
		OutputTokens: (len(answer) + 3) / 4, InputTokens: 1}
}

// modeCost is what one mode's generations cost over a benchmark's loops.
type modeCost struct {
	promptChars, answerChars, outTokens int
	wall                                time.Duration
	gens                                int
}

func (c *modeCost) add(srv *llmtest.Server, before int, res Result, answer string, took time.Duration) {
	for _, q := range srv.Requests()[before:] {
		c.promptChars += len(q.System()) + len(q.User()) + len(q.Assistant())
	}
	c.answerChars += len(answer)
	c.outTokens += res.OutputTokens
	c.wall += took
	c.gens++
}

// BenchmarkSpecVsHTMLGeneration (issue 32): one generation and one
// refinement of the forecast tool (with a real result in the prompt) in
// the html mode and in the spec mode, alternating, against stand-in
// Anthropic servers that stream their answers at a fixed token rate
// through the real client. It reports per generation the prompt's
// characters (system, user and any re-ask), the answer's characters and
// output tokens as the stand-in reports them, and the wall time, for each
// mode, and the spec mode's share of the html mode's output tokens and
// time (goal: tokens <= 0.2).
func BenchmarkSpecVsHTMLGeneration(b *testing.B) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	rig := func(mode string) (*LLM, *llmtest.Server) {
		srv := llmtest.New(b, llmtest.Anthropic, llmtest.Reply{Status: 500})
		l, err := New(Config{Provider: ProviderAnthropic, Model: "bench-model", BaseURL: srv.BaseURL(), APIKey: llmtest.TestKey,
			Mode: mode, Logger: quiet, Retries: -1})
		if err != nil {
			b.Fatal(err)
		}
		return l, srv
	}
	htmlLLM, htmlSrv := rig(ModeHTML)
	specLLM, specSrv := rig(ModeSpec)
	example := json.RawMessage(forecastExample)
	// cost[mode][0] is the generations', cost[mode][1] the refinements'.
	cost := map[string]*[2]modeCost{ModeHTML: {}, ModeSpec: {}}
	run := func(i int, l *LLM, srv *llmtest.Server, first, second string) {
		c := cost[l.Mode("get_forecast")]
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		srv.Push(benchReply(first), benchReply(second))
		before := srv.Count()
		start := time.Now()
		res, err := l.Generate(ctx, Request{Tool: forecastTool, Key: fmt.Sprintf("gen-%d", i), Example: example})
		took := time.Since(start)
		if err != nil || !IsLLMPage(res.UIType) {
			b.Fatalf("%s generation: %s %v %+v", l.Mode("get_forecast"), res.UIType, err, res.Chain)
		}
		c[0].add(srv, before, res, first, took)
		before = srv.Count()
		start = time.Now()
		ref, err := l.Generate(ctx, Request{Tool: forecastTool, Key: fmt.Sprintf("ref-%d", i), Example: example,
			Refinements: []string{"hottest day first"}, CurrentHTML: res.HTML, PreviousHTML: res.HTML})
		took = time.Since(start)
		if err != nil || !IsLLMPage(ref.UIType) || len(ref.Chain) != 1 {
			b.Fatalf("%s refinement: %s %v %+v", l.Mode("get_forecast"), ref.UIType, err, ref.Chain)
		}
		c[1].add(srv, before, ref, second, took)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			run(i, htmlLLM, htmlSrv, llmtest.ForecastPage, llmtest.ForecastPage)
			run(i, specLLM, specSrv, benchSpecAnswer, benchSpecPatch)
		} else {
			run(i, specLLM, specSrv, benchSpecAnswer, benchSpecPatch)
			run(i, htmlLLM, htmlSrv, llmtest.ForecastPage, llmtest.ForecastPage)
		}
	}
	b.StopTimer()
	for i, phase := range []string{"gen", "refine"} {
		h, sp := cost[ModeHTML][i], cost[ModeSpec][i]
		n := float64(h.gens)
		b.ReportMetric(float64(h.promptChars)/n, "html-"+phase+"-prompt-chars")
		b.ReportMetric(float64(sp.promptChars)/n, "spec-"+phase+"-prompt-chars")
		b.ReportMetric(float64(h.outTokens)/n, "html-"+phase+"-out-tokens")
		b.ReportMetric(float64(sp.outTokens)/n, "spec-"+phase+"-out-tokens")
		b.ReportMetric(float64(h.wall.Milliseconds())/n, "html-"+phase+"-ms")
		b.ReportMetric(float64(sp.wall.Milliseconds())/n, "spec-"+phase+"-ms")
		b.ReportMetric(float64(sp.outTokens)/float64(h.outTokens), "x-html-"+phase+"-tokens")
		b.ReportMetric(float64(sp.wall)/float64(h.wall), "x-html-"+phase+"-time")
		b.Logf("%s: html prompt %.0f chars, answer %.0f chars; spec prompt %.0f chars, answer %.0f chars", phase,
			float64(h.promptChars)/n, float64(h.answerChars)/n, float64(sp.promptChars)/n, float64(sp.answerChars)/n)
	}
}
