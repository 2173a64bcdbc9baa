package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/metrics"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/pagepack"
)

const tableToolJSON = `{"name":"debug_dump","description":"Dump internals.","inputSchema":{"type":"object"}}`
const otherToolJSON = `{"name":"list_items","description":"Items.","inputSchema":{"type":"object"}}`

// optionsEngine runs an engine over an in-process upstream listing three
// tools, with opts applied.
func optionsEngine(t *testing.T, opts Options) *Engine {
	t.Helper()
	opts.Upstream = upstream.Config{Transport: "inprocess", InProcess: rawUpstream(forecastResult, forecastToolJSON, tableToolJSON, otherToolJSON)}
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := e.tools.WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEnabledAndDisabledTools: generation.enabledTools/disabledTools
// decide which tools get a generated UI; the others pass through with no UI
// metadata, no ui:// resource and a clear error when asked for one.
func TestEnabledAndDisabledTools(t *testing.T) {
	for _, tc := range []struct {
		name              string
		enabled, disabled []string
		withUI            []string
	}{
		{"all", nil, nil, []string{"get_forecast", "debug_dump", "list_items"}},
		{"disabled glob", nil, []string{"debug_*"}, []string{"get_forecast", "list_items"}},
		{"enabled list", []string{"get_forecast", "list_*"}, nil, []string{"get_forecast", "list_items"}},
		{"both", []string{"*"}, []string{"list_items"}, []string{"get_forecast", "debug_dump"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := optionsEngine(t, Options{EnabledTools: tc.enabled, DisabledTools: tc.disabled})
			var got []string
			for _, raw := range e.tools.WithUI() {
				var tool struct {
					Name string `json:"name"`
					Meta struct {
						UI *struct {
							ResourceURI string `json:"resourceUri"`
						} `json:"ui"`
					} `json:"_meta"`
				}
				if err := json.Unmarshal(raw, &tool); err != nil {
					t.Fatal(err)
				}
				if tool.Meta.UI != nil {
					got = append(got, tool.Name)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.withUI, ",") {
				t.Errorf("tools with UI metadata: %v, want %v", got, tc.withUI)
			}
			st, _ := e.State(context.Background())
			for _, ts := range st.Tools {
				want := !strings.Contains(","+strings.Join(tc.withUI, ",")+",", ","+ts.Name+",")
				if (ts.UI.State == contract.UIStateDisabled) != want {
					t.Errorf("%s: state %s", ts.Name, ts.UI.State)
				}
			}
			for _, name := range []string{"get_forecast", "debug_dump", "list_items"} {
				_, err := e.readUI(context.Background(), name)
				var ee *contract.Error
				disabled := errors.As(err, &ee) && ee.Code == contract.CodeInvalidArgument
				if disabled == strings.Contains(","+strings.Join(tc.withUI, ",")+",", ","+name+",") {
					t.Errorf("ReadUI(%s): %v", name, err)
				}
			}
		})
	}
	if _, err := New(Options{DisabledTools: []string{"[bad"}}); err == nil {
		t.Error("a malformed tool pattern was accepted")
	}
}

// TestDefaultTheme: generation.defaultTheme gives generated UIs that theme
// (and its own cache key); a refinement still overrides it.
func TestDefaultTheme(t *testing.T) {
	plain := optionsEngine(t, Options{})
	dark := optionsEngine(t, Options{DefaultTheme: "dark"})
	auto := optionsEngine(t, Options{DefaultTheme: "auto"})
	ctx := context.Background()
	p, err := plain.readUI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	d, err := dark.readUI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := auto.readUI(ctx, "get_forecast")
	if htmlTheme(p.HTML) != "" || htmlTheme(d.HTML) != "dark" || htmlTheme(a.HTML) != "" {
		t.Errorf("<html data-theme>: plain %q, dark %q, auto %q", htmlTheme(p.HTML), htmlTheme(d.HTML), htmlTheme(a.HTML))
	}
	if p.Key == d.Key {
		t.Error("the default theme does not change the cache key")
	}
	if _, err := dark.Refine(ctx, contract.RefineRequest{Tool: "get_forecast", Feedback: "light theme"}); err != nil {
		t.Fatal(err)
	}
	r, _ := dark.readUI(ctx, "get_forecast")
	if htmlTheme(r.HTML) != "light" {
		t.Error("a refinement did not override the default theme")
	}
}

// TestCacheLimitsAndMetrics: the cache limits reach the cache (one entry:
// the second UI evicts the first) and the metrics see hits, misses,
// evictions and generations.
func TestCacheLimitsAndMetrics(t *testing.T) {
	m := metrics.New()
	e := optionsEngine(t, Options{CacheMaxEntries: 1, Metrics: m})
	ctx := context.Background()
	for _, name := range []string{"get_forecast", "get_forecast", "list_items"} {
		if _, err := e.readUI(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	st := e.ui.cache.Stats()
	if st.Entries != 1 || st.Evictions != 1 || st.Hits != 1 {
		t.Errorf("cache stats %+v, want 1 entry, 1 eviction, 1 hit", st)
	}
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range fams {
		for _, mt := range f.GetMetric() {
			if c := mt.GetCounter(); c != nil {
				got[f.GetName()] += c.GetValue()
			}
		}
	}
	if got["genui_cache_evictions_total"] != 1 || got["genui_cache_hits_total"] != 1 || got["genui_generations_total"] != 2 {
		t.Errorf("metrics %v", got)
	}
}

// htmlTheme is the data-theme of a page's <html> element.
func htmlTheme(page string) string {
	i := strings.Index(page, "<html")
	if i < 0 {
		return ""
	}
	tag := page[i : i+strings.IndexByte(page[i:], '>')]
	_, rest, ok := strings.Cut(tag, `data-theme="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// syncBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestLogLinesNameTheirComponentOnce: every log line says which part of
// genui wrote it, once: the cache's own lines (an eviction) and the
// engine's cache lines (lookups, stores) alike.
func TestLogLinesNameTheirComponentOnce(t *testing.T) {
	var out syncBuffer
	log := slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := optionsEngine(t, Options{CacheMaxEntries: 1, Logger: log})
	for _, name := range []string{"get_forecast", "list_items"} {
		if _, err := e.readUI(context.Background(), name); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if n := strings.Count(line, `"component":`); n != 1 {
			t.Errorf("%d components in %s", n, line)
		}
		var l struct{ Msg, Component string }
		if err := json.Unmarshal([]byte(line), &l); err == nil && l.Component == "cache" {
			seen[l.Msg] = true
		}
	}
	for _, msg := range []string{"cache lookup", "cache store", "cache evict"} {
		if !seen[msg] {
			t.Errorf("no %q line with component cache in the log:\n%s", msg, out.String())
		}
	}
}

// TestReadableAssetsIsPerEngine: ReadableAssets (--debug) is the engine's
// own option: an engine started with it serves readable, unpacked pages
// while another in the same process, started after it, still serves the
// minified, packed ones (it used to flip process-wide switches, which
// made every later page readable), and the two cache keys differ.
func TestReadableAssetsIsPerEngine(t *testing.T) {
	ctx := context.Background()
	debug := optionsEngine(t, Options{ReadableAssets: true})
	plain := optionsEngine(t, Options{})
	d, err := debug.readUI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	p, err := plain.readUI(ctx, "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	// A comment of the readable form compiler: only in the readable build.
	const readable = "genui offline form: an input form compiled in the browser"
	if !strings.Contains(d.HTML, readable) || pagepack.IsPacked(d.HTML) {
		t.Errorf("the ReadableAssets engine's page is not readable and unpacked (packed %v)", pagepack.IsPacked(d.HTML))
	}
	if strings.Contains(p.HTML, readable) || !pagepack.IsPacked(p.HTML) {
		t.Errorf("the other engine's page is readable or unpacked (packed %v): ReadableAssets leaked out of its engine", pagepack.IsPacked(p.HTML))
	}
	if d.Key == p.Key {
		t.Errorf("both builds under one cache key %q", d.Key)
	}
}
