package httpapi

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
)

// TestPreviewReplacesAPageThatNavigatesAway (issue 21, item 1): LLM pages
// that send the tool result away by navigating their frame, by the same
// spelled out of pieces, and by submitting a form, served through the
// preview with validation bypassed (a tampered persisted cache: what a
// generation stored is replaced on disk before genui starts). In headless
// Chromium each page gets the real result and tries to leave: the bridge's
// navigation guard (or the page CSP's form-action) blocks it, the preview
// notices, replaces the frame with the offline UI and records a security
// event (engine event, /wait queue, log). No request reaches the sink.
// Then a navigation the page could not block (the browser itself loads
// another document into the frame) is noticed by its second load.
func TestPreviewReplacesAPageThatNavigatesAway(t *testing.T) {
	var sinkHits atomic.Int64
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sinkHits.Add(1)
		t.Errorf("the sink got a request: %s", r.URL)
	}))
	t.Cleanup(sink.Close)
	pages := map[string]string{
		"get_forecast":        llmtest.NavigatingPage(sink.URL),
		"get_current_weather": llmtest.ObfuscatedNavigatingPage(sink.URL),
		"datastore_search":    llmtest.FormSubmitPage(sink.URL),
	}
	args := map[string]string{"get_forecast": `{"location":"Oslo","days":2}`, "get_current_weather": `{"location":"Lisbon"}`,
		"datastore_search": `{"q":"garden","limit":3}`}

	provider := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage})
	dir := t.TempDir()
	opts := func() engine.Options {
		l, err := gen.New(gen.Config{Provider: gen.ProviderAnthropic, Model: "test-model", BaseURL: provider.BaseURL(), APIKey: llmtest.TestKey,
			Mode: gen.ModeHTML})
		if err != nil {
			t.Fatal(err)
		}
		return engine.Options{Upstream: demoConfig(), Dir: dir, PersistCache: true, Generator: l,
			Logger: slog.New(slog.NewJSONHandler(logFile(t, dir), nil))}
	}

	// A first genui generates the LLM pages (good ones) and persists them.
	first := startPreviewEngine(t, opts(), host.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for tool := range pages {
		var v contract.UIView
		llmPage := func() bool {
			var err error
			if v, err = first.e.UI(ctx, tool); err != nil {
				t.Fatal(err)
			}
			return v.Meta.UIType == gen.UITypeLLM
		}
		if !testenv.Until(30*time.Second, llmPage) {
			t.Fatalf("%s: no LLM page (%s: %s)", tool, v.Meta.UIType, v.Meta.FallbackReason)
		}
	}
	first.stop(t)

	// Validation bypassed: the stored pages become the leaking ones.
	files, _ := filepath.Glob(filepath.Join(dir, "cache", "*.json"))
	poisoned := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ent map[string]json.RawMessage
		if err := json.Unmarshal(raw, &ent); err != nil {
			t.Fatal(err)
		}
		var tool, meta = "", struct{ UIType string }{}
		_ = json.Unmarshal(ent["tool"], &tool)
		_ = json.Unmarshal(ent["meta"], &meta)
		if meta.UIType != gen.UITypeLLM || pages[tool] == "" {
			continue
		}
		ent["html"], _ = json.Marshal(pagecsp.Apply(mcpshim.Inject(pages[tool])))
		out, _ := json.Marshal(ent)
		if err := os.WriteFile(f, out, 0o644); err != nil {
			t.Fatal(err)
		}
		poisoned++
	}
	if poisoned != len(pages) {
		t.Fatalf("poisoned %d cache entries, want %d", poisoned, len(pages))
	}

	p := startPreviewEngine(t, opts(), host.Options{})
	var secMu = make(chan contract.Event, 16)
	p.e.OnEvent(func(ev contract.Event) {
		if ev.Kind == contract.EventSecurity {
			secMu <- ev
		}
	})
	b := p.tab(t, browsertest.Start(t))
	for tool, leak := range pages {
		t.Run(tool, func(t *testing.T) {
			if v, _ := p.e.UI(ctx, tool); !strings.Contains(v.HTML, sink.URL) {
				t.Fatalf("the tampered page is not what genui serves")
			}
			b.t = t
			browsertest.Run(t, b.ctx, 30*time.Second, chromedp.Navigate(p.apiTS.URL+"/preview/"+tool+"?call=1"+argsQuery(args[tool])))
			b.poll(`document.body.dataset.security === "navigation"`, 30*time.Second)
			// The frame is the offline UI now, with the result delivered again.
			b.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
			b.waitFrame(`(w, d) => !!d.getElementById("tool-form") && d.body.dataset.state === "result"`)
			var ev contract.Event
			select {
			case ev = <-secMu:
			case <-time.After(10 * time.Second):
				t.Fatal("no security event")
			}
			sec := ev.Detail.(*contract.Security)
			if ev.Tool != tool || sec.Kind != contract.SecurityNavigation || sec.UIType != gen.UITypeLLM || !strings.Contains(sec.Action, "offline UI") {
				t.Fatalf("security event = %+v %+v", ev, sec)
			}
			wantDetail := "tried to navigate its frame to " + sink.URL
			if strings.Contains(leak, "f.submit()") {
				wantDetail = "to " + sink.URL // the guard or form-action, whichever the browser applies first
			}
			if !strings.Contains(sec.Detail, wantDetail) {
				t.Errorf("detail %q lacks %q", sec.Detail, wantDetail)
			}
			if v, _ := p.e.UI(ctx, tool); v.Meta.UIType != gen.UITypeOfflineRich || !strings.Contains(v.Meta.FallbackReason, "security:") {
				t.Errorf("genui now serves %s (%q), want the offline UI", v.Meta.UIType, v.Meta.FallbackReason)
			}
			var notice string
			_ = json.Unmarshal([]byte(b.eval(`document.getElementById("security-notice").textContent`)), &notice)
			if !strings.Contains(notice, "genui replaced this UI") {
				t.Errorf("notice = %q", notice)
			}
			p.waitQueue(t, 10*time.Second, func(q contract.QueuedEvent) bool { return q.Type == string(contract.EventSecurity) && q.Tool == tool })
		})
	}
	b.t = t
	if n := sinkHits.Load(); n != 0 {
		t.Fatalf("%d requests reached the sink", n)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "genui-test.log"))
	if !strings.Contains(string(log), "a UI navigated its frame away") {
		t.Error("the log has no security line")
	}

	// A navigation the guard does not stop (a browser without the
	// Navigation API): another document loads into the frame. The preview
	// notices the second load.
	t.Run("second load", func(t *testing.T) {
		b.t = t
		browsertest.Run(t, b.ctx, 30*time.Second, chromedp.Navigate(p.apiTS.URL+"/preview/get_forecast?call=1"+argsQuery(args["get_forecast"])))
		b.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
		if got := b.eval(`document.body.dataset.security || null`); got != "null" {
			t.Fatalf("the offline UI caused a security incident: %s\n%s", got, b.logText())
		}
		// Standing in for a browser without the Navigation API (no guard):
		// another document is loaded into the app frame.
		frameURL := p.uiTS.URL + "/frame/get_forecast?elsewhere=1"
		b.eval(`(document.getElementById("ui").src = ` + strconvQuote(frameURL) + `, true)`)
		b.poll(`document.body.dataset.security === "navigation"`, 20*time.Second)
		select {
		case ev := <-secMu:
			if d := ev.Detail.(*contract.Security); !strings.Contains(d.Detail, "second document") && !strings.Contains(d.Detail, "unloaded") {
				t.Errorf("detail = %q", d.Detail)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no security event for the second load")
		}
		b.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
	})
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// logFile is a file under dir for an engine's log.
func logFile(t *testing.T, dir string) *os.File {
	f, err := os.OpenFile(filepath.Join(dir, "genui-test.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}
