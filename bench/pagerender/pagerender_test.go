// Package pagerender is `make bench`'s render benchmark: what a user of a
// host waits for once a tool result arrives. Headless Chromium runs a host
// page built on the official AppBridge (npm @modelcontextprotocol/ext-apps)
// that hands a tool result to (a) genui's offline page for that tool and
// (b) a minimal hand-written App page (testdata/minimal.html) that shows the
// same result as a plain table, both served by one local server. Each page
// sets the performance mark "result-painted" once the result is on screen;
// its startTime is the time from the start of the frame's navigation (the
// page's own load, unpacking and handshake included) to the painted result.
// genui's page draws a result that comes before its rich views (read
// through the host after the handshake) plainly at once, and again with
// them: "rich-painted" is the frame that shows that drawing. Loads
// alternate between the two pages, 50 each per shape after warm-up, for
// five shapes (table, card, markdown, tree, diff); the benchmark reports
// p50 and p95 of each and genui's as a multiple of the minimal page's
// (goal: 1.5x at most), and the p50 of genui's rich drawing beside it.
//
// To compare two versions of genui's pages in one run (the honest way on a
// shared machine): GENUI_PAGERENDER_WRITE=DIR writes this version's page
// for each shape to DIR/<shape>.html, and the deferred blocks they read to
// DIR/blocks.json, and stops; a run of another version with
// GENUI_PAGERENDER_COMPARE=DIR loads those pages too, in the same
// alternation, answers their reads from that file, and prints their p50
// against the same minimal page.
package pagerender

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
	"github.com/genui-dev/genui/pagepack"
)

// loads is how many times each page renders each shape (after warmUp).
const (
	loads  = 50
	warmUp = 3
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// server serves the host page, the ext-apps modules, the two app pages
// and the results.
func server(tb testing.TB, pages map[string]string, blocks map[string]string) *httptest.Server {
	nm := filepath.Join(testenv.NPMDir(), "node_modules")
	if _, err := os.Stat(filepath.Join(nm, filepath.FromSlash(browsertest.ExtAppsBridge))); err != nil {
		testenv.Missingf(tb, "npm file %s: %v (scripts/test-deps.sh installs it)", browsertest.ExtAppsBridge, err)
	}
	imports := map[string]string{"@modelcontextprotocol/ext-apps/app-bridge": "/node_modules/" + browsertest.ExtAppsBridge}
	m, err := browsertest.ModuleImportMap(nm, browsertest.ExtAppsBridge, "/node_modules/")
	if err != nil {
		tb.Fatalf("import map: %v", err)
	}
	for k, v := range m {
		imports[k] = v
	}
	host, err := os.ReadFile(filepath.Join("testdata", "host.html"))
	if err != nil {
		tb.Fatal(err)
	}
	hostPage := strings.Replace(string(host), "{{IMPORTMAP}}", browsertest.ImportMapScript(imports), 1)
	mux := http.NewServeMux()
	mux.Handle("/node_modules/", http.StripPrefix("/node_modules/", browsertest.NodeModulesHandler(nm)))
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			_, _ = w.Write([]byte(body))
		}
	}
	mux.HandleFunc("/{$}", html(hostPage))
	// The pages' reads of their deferred scripts (the rich views), as
	// genui's MCP server answers them: host.html's onreadresource asks here.
	// The compared pages' blocks come from the file their version wrote.
	mux.HandleFunc(browsertest.PageBlocksPath, browsertest.ServePageBlocksFrom(blocks))
	for path, page := range pages {
		mux.HandleFunc("/app/"+path, html(page))
	}
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv
}

// offlinePage is genui's offline page for a shape's tool, as genui serves
// it (packed, with its CSP meta tag and the App shim).
func offlinePage(tb testing.TB, s shape) string {
	res, err := gen.NewOffline().Generate(context.Background(), gen.Request{Tool: gen.Tool{
		Name: s.tool, Title: "", Description: s.desc, InputSchema: json.RawMessage(inputSchema)}})
	if err != nil {
		tb.Fatal(err)
	}
	return res.HTML
}

// loaded is what the host's load() returns.
type loaded struct {
	Painted float64 `json:"painted"` // ms from navigation start to the mark
	Text    int     `json:"text"`    // characters of text the page shows
	// The phases, ms from navigation start (-1: no such mark): the
	// document parsed (domInteractive), genui's page unpacked, its deferred
	// scripts (the rich views, read through the host) in, the result
	// received by the page.
	Parsed   float64 `json:"parsed"`
	Unpacked float64 `json:"unpacked"`
	Deferred float64 `json:"deferred"`
	Received float64 `json:"received"`
	// Rich is when the frame that shows the result drawn by genui's rich
	// views was painted (-1: not a genui page with rich views): a result
	// that comes before them is painted plainly first ("painted").
	Rich float64 `json:"rich"`
}

func load(ctx context.Context, src string, s shape) (loaded, error) {
	args, _ := json.Marshal(s.args)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		fmt.Sprintf(`load(%q, %s, %s).then(JSON.stringify)`, src, args, s.result), chromedp.EvalAwaitPromise))
	if err != nil {
		return loaded{}, fmt.Errorf("%s: %w", src, err)
	}
	var l loaded
	err = json.Unmarshal([]byte(raw), &l)
	return l, err
}

// percentile is the nearest-rank percentile p of ms.
func percentile(ms []float64, p int) float64 {
	s := slices.Clone(ms)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

func BenchmarkPageRender(b *testing.B) {
	pages := map[string]string{"minimal": mustRead(b, filepath.Join("testdata", "minimal.html"))}
	for _, s := range shapes {
		pages["genui/"+s.name] = offlinePage(b, s)
	}
	if dir := os.Getenv("GENUI_PAGERENDER_WRITE"); dir != "" {
		blocks := map[string]string{}
		for _, s := range shapes {
			page := pages["genui/"+s.name]
			if err := os.WriteFile(filepath.Join(dir, s.name+".html"), []byte(page), 0o644); err != nil {
				b.Fatal(err)
			}
			if m := reBlockURI.FindStringSubmatch(page); m != nil {
				blob, ok := pagepack.Deferred(m[1])
				if !ok {
					b.Fatalf("%s names block %s, which is not here", s.name, m[1])
				}
				blocks[m[1]] = blob
			}
		}
		raw, _ := json.Marshal(blocks)
		if err := os.WriteFile(filepath.Join(dir, "blocks.json"), raw, 0o644); err != nil {
			b.Fatal(err)
		}
		b.Skipf("wrote genui's pages and their blocks to %s", dir)
	}
	other := os.Getenv("GENUI_PAGERENDER_COMPARE")
	blocks := map[string]string{}
	if other != "" {
		for _, s := range shapes {
			pages["other/"+s.name] = mustRead(b, filepath.Join(other, s.name+".html"))
		}
		// Pages from before their rich views were read through the host have no blocks.
		if raw, err := os.ReadFile(filepath.Join(other, "blocks.json")); err == nil {
			if err := json.Unmarshal(raw, &blocks); err != nil {
				b.Fatal(err)
			}
		}
	}
	srv := server(b, pages, blocks)
	ctx := browsertest.Start(b)
	browsertest.Run(b, ctx, 30*time.Second, chromedp.Navigate(srv.URL+"/"))
	browsertest.Poll(b, ctx, `window.benchReady === true`, 30*time.Second)

	type result struct{ genui, minimal, other []loaded }
	results := map[string]*result{}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for _, s := range shapes {
			r := &result{}
			results[s.name] = r
			for i := -warmUp; i < loads; i++ {
				// Alternate which page goes first, so drift hits both alike.
				order := []string{"genui/" + s.name, "minimal"}
				if other != "" {
					order = append(order, "other/"+s.name)
				}
				if i%2 == 1 {
					slices.Reverse(order)
				}
				for _, page := range order {
					l, err := load(ctx, srv.URL+"/app/"+page, s)
					if err != nil {
						b.Fatal(err)
					}
					if l.Text == 0 {
						b.Fatalf("%s showed no text for %s", page, s.name)
					}
					if i < 0 {
						continue
					}
					switch {
					case page == "minimal":
						r.minimal = append(r.minimal, l)
					case strings.HasPrefix(page, "other/"):
						r.other = append(r.other, l)
					default:
						r.genui = append(r.genui, l)
					}
				}
			}
		}
	}
	b.StopTimer()
	var lines, phases []string
	painted := func(ls []loaded) []float64 { return field(ls, func(l loaded) float64 { return l.Painted }) }
	for _, s := range shapes {
		r := results[s.name]
		g50, g95 := percentile(painted(r.genui), 50), percentile(painted(r.genui), 95)
		m50, m95 := percentile(painted(r.minimal), 50), percentile(painted(r.minimal), 95)
		b.ReportMetric(g50/m50, s.name+"-p50-x")
		b.ReportMetric(g95/m95, s.name+"-p95-x")
		lines = append(lines, fmt.Sprintf("%-8s genui p50 %6.1f ms p95 %6.1f ms | minimal p50 %6.1f ms p95 %6.1f ms | genui/minimal p50 %.2fx p95 %.2fx (goal <= 1.5x)",
			s.name, g50, g95, m50, m95, g50/m50, g95/m95))
		if rich := field(r.genui, func(l loaded) float64 { return l.Rich }); len(rich) > 0 {
			r50, r95 := percentile(rich, 50), percentile(rich, 95)
			b.ReportMetric(r50/m50, s.name+"-rich-p50-x")
			lines = append(lines, fmt.Sprintf("%-8s drawn by the rich views: p50 %6.1f ms p95 %6.1f ms, %.2fx and %.2fx the minimal page", s.name, r50, r95, r50/m50, r95/m95))
		}
		phases = append(phases, fmt.Sprintf("%-8s genui %s | minimal %s", s.name, phaseLine(r.genui), phaseLine(r.minimal)))
		if other != "" {
			o50 := percentile(painted(r.other), 50)
			lines = append(lines, fmt.Sprintf("%-8s compared: pages of %s p50 %6.1f ms, %.2fx the minimal page (this version %.2fx)", s.name, other, o50, o50/m50, g50/m50))
			phases = append(phases, fmt.Sprintf("%-8s compared: %s", s.name, phaseLine(r.other)))
		}
	}
	// Printed, not logged: go test cuts a benchmark's log after ten lines.
	fmt.Printf("navigation start to result painted, %d loads of each page per shape (%d KB genui page for the table):\n%s\n"+
		"where the time goes (medians, ms from navigation start):\n%s\n",
		loads, len(pages["genui/table"])/1024, strings.Join(lines, "\n"), strings.Join(phases, "\n"))
}

// reBlockURI finds the deferred block a packed page names.
var reBlockURI = regexp.MustCompile(`;(` + regexp.QuoteMeta(pagepack.DeferredPrefix) + `[0-9a-f]{32})</script>`)

func mustRead(tb testing.TB, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// field is f of every load that has it (f < 0: the page set no such mark).
func field(ls []loaded, f func(loaded) float64) []float64 {
	out := make([]float64, 0, len(ls))
	for _, l := range ls {
		if v := f(l); v >= 0 {
			out = append(out, v)
		}
	}
	return out
}

// phaseLine is the median of each phase the loads marked.
func phaseLine(ls []loaded) string {
	var parts []string
	for _, p := range []struct {
		name string
		f    func(loaded) float64
	}{
		{"parsed", func(l loaded) float64 { return l.Parsed }},
		{"unpacked", func(l loaded) float64 { return l.Unpacked }},
		{"deferred in", func(l loaded) float64 { return l.Deferred }},
		{"result received", func(l loaded) float64 { return l.Received }},
		{"painted", func(l loaded) float64 { return l.Painted }},
		{"painted richly", func(l loaded) float64 { return l.Rich }},
	} {
		if v := field(ls, p.f); len(v) > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f", p.name, percentile(v, 50)))
		}
	}
	return strings.Join(parts, ", ")
}
