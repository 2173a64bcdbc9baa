package gen

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
	"github.com/genui-dev/genui/internal/uicorpus"
)

// The UI corpus (internal/uicorpus): real tool definitions and results of a
// dozen MCP servers genui was never tuned for, recorded by `make uicorpus`.
// Every page they make (each tool's form, each recorded result) is checked in
// Chromium against the quality invariants of testdata/page_invariants.js at
// 1280 and 400 px, light and dark.

//go:embed testdata/page_invariants.js
var pageInvariantsJS string

// invariants in report order.
// csp: the page ran under the host's CSP header and its own CSP meta tag
// (pagecsp) without a violation.
var invariants = []string{"overflow", "tall", "links", "markers", "contrast", "tabular", "errors", "csp"}

// corpusHost is an MCP Apps host page for the corpus: the UI in a sandboxed
// iframe from another origin, the host's theme and width set by the test, no
// host style variables (genui's own defaults). Tool calls the UI makes are
// answered from window.replies.
const corpusHost = `<!doctype html>
<html><head><meta charset="utf-8"><title>corpus host</title><style>body{margin:0} iframe{border:0;display:block}</style></head>
<body data-app-status="loading">
<iframe id="ui" sandbox="allow-scripts allow-same-origin allow-forms" style="width: 1280px; height: 300px"></iframe>
<script>%s</script>
<script>
window.calls = [];
window.replies = [];
const iframe = document.getElementById("ui");
const bridge = new McpHost.AppBridge(iframe, {
  hostInfo: { name: "genui-corpus-host", version: "1.0.0" },
  hostContext: { theme: %q, displayMode: "inline", locale: "en-US" },
  onInitialized: function () { document.body.dataset.appStatus = "ready"; },
  onReadResource: readDeferred,
  onCallTool: function (params) {
    window.calls.push(params);
    const r = window.replies.shift();
    if (!r) throw new Error("no reply queued");
    if (r.rpcError) { const e = new Error(r.rpcError.message); e.code = r.rpcError.code; throw e; }
    return r;
  }
});
window.bridge = bridge;
bridge.start();
iframe.src = %s;
</script>
</body></html>`

// corpusPage is one page of the corpus: a tool's form, or a tool with one
// recorded call's result shown.
type corpusPage struct {
	server, tool string
	label        string // "form" or "call N"
	call         *uicorpus.Call
	tabular      string       // kind of tabular text the result holds, or ""
	errMsg       *string      // the cleaned upstream message of an error result
	rpcError     *rpcErrorMsg // the call failed with a JSON-RPC error
}

type rpcErrorMsg struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// corpusEnv is one browser tab with the host and UI servers, reused by every
// page; tab gives another tab of the same browser and servers.
type corpusEnv struct {
	t     *testing.T
	ctx   context.Context
	host  string
	pages *corpusPageStore
	shots string
}

// corpusPageStore holds the generated pages the UI server serves, shared by
// the tabs.
type corpusPageStore struct {
	mu    sync.Mutex
	pages map[string]string // tool id -> generated HTML
}

func newCorpusEnv(t *testing.T) *corpusEnv {
	env := &corpusEnv{t: t, ctx: browsertest.Start(t), pages: &corpusPageStore{pages: map[string]string{}}, shots: os.Getenv("GENUI_UICORPUS_SHOTS")}
	ui := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		env.pages.mu.Lock()
		page, ok := env.pages.pages[strings.TrimPrefix(r.URL.Path, "/ui/")]
		env.pages.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Security-Policy", defaultCSP)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// Every violation of the host's and the page's own CSP is recorded.
		_, _ = w.Write([]byte(recordViolations(page)))
	}))
	t.Cleanup(ui.Close)
	host := httptest.NewServer(withDeferred(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		src, _ := json.Marshal(ui.URL + "/ui/" + r.URL.Query().Get("tool"))
		theme := r.URL.Query().Get("theme")
		if theme == "" {
			theme = "light"
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, corpusHost, testHostJS(), theme, src)
	})))
	t.Cleanup(host.Close)
	env.host = host.URL
	return env
}

// tab is another tab of e's browser on the same servers.
func (e *corpusEnv) tab() *corpusEnv {
	return &corpusEnv{t: e.t, ctx: browsertest.Tab(e.t, e.ctx), host: e.host, pages: e.pages, shots: e.shots}
}

// run evaluates expr in the host page (bounded) and decodes its JSON into v.
func (e *corpusEnv) run(expr string, v any) error {
	ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("JSON.stringify("+expr+")"))
	if err != nil {
		return fmt.Errorf("%s: %w", expr, err)
	}
	if v != nil {
		return json.Unmarshal([]byte(s), v)
	}
	return nil
}

func (e *corpusEnv) frame(fn string) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(e.ctx, 20*time.Second)
	defer cancel()
	return browsertest.FrameEval(ctx, "#ui", fn)
}

// waitFrame waits until cond, a function expression (w, d) => boolean or a
// promise of one, is true in the UI frame (bounded). The frame polls itself;
// the test retries only while the frame is not there yet.
func (e *corpusEnv) waitFrame(cond string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	poll := fmt.Sprintf(`(w, d) => new Promise((resolve) => {
		const end = Date.now() + %d;
		const step = async () => {
			let ok = false;
			try { ok = await (%s)(w, d); } catch (e) { ok = false; }
			if (ok === true || Date.now() > end) resolve(ok === true); else setTimeout(step, 15);
		};
		step();
	})`, timeout.Milliseconds(), cond)
	var err error
	if testenv.Until(time.Until(deadline), func() bool {
		var b json.RawMessage
		b, err = e.frame(poll)
		return err == nil && string(b) == "true"
	}) {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("waiting for %s", cond)
}

// open loads the UI of tool (id) in a fresh host page with the given theme.
func (e *corpusEnv) open(id, html string) error {
	e.pages.mu.Lock()
	e.pages.pages[id] = html
	e.pages.mu.Unlock()
	ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(e.host+"/?tool="+id), chromedp.WaitReady(chromedp.CSS(`body[data-app-status="ready"]`))); err != nil {
		return fmt.Errorf("open %s: %w", id, err)
	}
	return e.waitFrame(`(w, d) => d.body.dataset.state === "ready" && !!d.getElementById("tool-form") && (`+richViewsSettled+`)(w, d)`, 10*time.Second)
}

// variant sets the frame's width and the host's theme and waits until the
// UI shows both and its layout has settled.
func (e *corpusEnv) variant(width int, theme string) error {
	if err := e.run(fmt.Sprintf(`(iframe.style.width = "%dpx", bridge.setHostContext({theme: %q}), true)`, width, theme), nil); err != nil {
		return err
	}
	if err := e.waitFrame(fmt.Sprintf(`(w, d) => w.innerWidth === %d && d.documentElement.dataset.theme === %q && new Promise(r => w.requestAnimationFrame(() => w.requestAnimationFrame(() => r(true))))`, width, theme), 5*time.Second); err != nil {
		return err
	}
	return e.waitFrame(layoutSettled, 5*time.Second)
}

// layoutSettled resolves once the frame's layout has stayed the same for
// three frames: its size, how many tables are stacked and each table's
// width. A table decides whether to stack from a ResizeObserver on its
// box, which runs frames after the width changed; on a loaded machine the
// checks ran before it, and measured a 400 px table that was about to
// stack (a primary column of 142 px, where the stacked row gives it 331).
const layoutSettled = `(w, d) => new Promise(r => {
  var last = "", same = 0, n = 0;
  var tick = function () {
    var e = d.documentElement, s = e.scrollWidth + "x" + e.scrollHeight + " " + d.querySelectorAll(".stacked").length + " " +
      [].map.call(d.querySelectorAll("table"), function (t) { return t.offsetWidth; }).join(",");
    if (s === last) same++; else { same = 0; last = s; }
    if (same >= 3 || ++n > 120) return r(true);
    w.requestAnimationFrame(tick);
  };
  w.requestAnimationFrame(tick);
})`

// checkPage runs the invariants in the frame.
func (e *corpusEnv) checkPage(p *corpusPage) (map[string][]string, error) {
	opts := map[string]any{}
	if p.tabular != "" {
		opts["tabular"] = p.tabular
	}
	if p.errMsg != nil {
		opts["error"] = map[string]any{"message": *p.errMsg}
	}
	o, _ := json.Marshal(opts)
	raw, err := e.frame(invariantsCall(string(o)))
	if err != nil {
		return nil, err
	}
	return decodeInvariants(raw)
}

// invariantsCall is the function expression that checks a page: the
// invariants of page_invariants.js and browsertest's contrast walker.
func invariantsCall(opts string) string {
	return "(w, d) => ({found: (" + pageInvariantsJS + ")(w, d, " + opts + "), contrast: (" + browsertest.ContrastJS + ")(w, d, 4.5), csp: w.cspViolations || []})"
}

func decodeInvariants(raw json.RawMessage) (map[string][]string, error) {
	var got struct {
		Found    map[string][]string         `json:"found"`
		Contrast []browsertest.ContrastIssue `json:"contrast"`
		CSP      []map[string]any            `json:"csp"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		return nil, fmt.Errorf("invariants answered %s: %w", raw, err)
	}
	out := got.Found
	if out == nil {
		out = map[string][]string{}
	}
	for _, c := range got.Contrast {
		out["contrast"] = append(out["contrast"], c.String())
	}
	for _, v := range got.CSP {
		b, _ := json.Marshal(v)
		out["csp"] = append(out["csp"], "CSP violation: "+string(b))
	}
	return out, nil
}

// show puts the page's call into the UI: a result as the host delivers it,
// or a JSON-RPC error as the answer to the UI's own call of the tool.
func (e *corpusEnv) show(p *corpusPage) error {
	// Violations are counted per page: the ones of the result shown before are forgotten.
	if _, err := e.frame(`(w, d) => { if (w.cspViolations) w.cspViolations.length = 0; return true; }`); err != nil {
		return err
	}
	if p.call == nil {
		return nil
	}
	args := p.call.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	if p.rpcError != nil {
		rpc, _ := json.Marshal(p.rpcError)
		if err := e.run(fmt.Sprintf(`(window.replies = [{rpcError: %s}], bridge.sendToolInput(%s), true)`, rpc, args), nil); err != nil {
			return err
		}
		// The UI's own call: its form, prefilled with the arguments, submitted.
		if _, err := e.frame(`(w, d) => new Promise(r => setTimeout(() => { d.getElementById("tool-form").requestSubmit(); r(true); }, 50))`); err != nil {
			return err
		}
		return e.waitFrame(`(w, d) => d.body.dataset.state === "error" || (d.body.dataset.state === "ready" && d.querySelector(".field-error:not(:empty)") !== null)`, 10*time.Second)
	}
	if err := e.run(fmt.Sprintf(`(bridge.sendToolInput(%s), bridge.sendToolResult(%s), true)`, args, p.call.Result), nil); err != nil {
		return err
	}
	return e.waitFrame(`(w, d) => d.body.dataset.state === "result" || d.body.dataset.state === "error"`, 10*time.Second)
}

// corpusPages lists the pages of server s: each tool's form, then each call.
func corpusPages(s uicorpus.Server) (map[string]Tool, []*corpusPage) {
	tools := map[string]Tool{}
	var pages []*corpusPage
	for _, raw := range s.Tools {
		var d Tool // a tools/list entry
		_ = json.Unmarshal(raw, &d)
		tools[d.Name] = d
		pages = append(pages, &corpusPage{server: s.Name, tool: d.Name, label: "form"})
	}
	n := map[string]int{}
	for i := range s.Calls {
		c := &s.Calls[i]
		n[c.Tool]++
		p := &corpusPage{server: s.Name, tool: c.Tool, label: fmt.Sprintf("call %d", n[c.Tool]), call: c}
		if len(c.Error) > 0 {
			var e rpcErrorMsg
			_ = json.Unmarshal(c.Error, &e)
			p.rpcError = &e
			msg := cleanErrorMessage(e.Message)
			p.errMsg = &msg
		} else {
			var r struct {
				IsError bool `json:"isError"`
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			}
			_ = json.Unmarshal(c.Result, &r)
			var text []string
			for _, item := range r.Content {
				if item.Type == "text" {
					text = append(text, item.Text)
				}
			}
			if r.IsError && len(text) > 0 {
				msg := cleanErrorMessage(text[0])
				p.errMsg = &msg
			} else if !r.IsError {
				for _, t := range text {
					if k := tabularKind(t); k != "" {
						p.tabular = k
						break
					}
				}
			}
		}
		pages = append(pages, p)
	}
	return tools, pages
}

var (
	ansiRE       = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)
	errHeadingRE = regexp.MustCompile(`(?m)\A\s*#{1,6}\s*(?:Error|Errors|Failed)\s*\n`)
	// Prefixes that say nothing to a person: "Error", "MCP error -32603", and
	// code locations such as "browserBackend.callTool".
	noisePrefix = regexp.MustCompile(`(?i)^(?:error|mcp error -?\d+|error executing tool [\w.-]+|[a-z_$][\w$]*(?:\.[\w$]+)+)$`)
)

// cleanErrorMessage is what an error page must show of the upstream's
// message text (its first line, at least): ANSI codes and a markdown
// "### Error" heading removed, bare prefixes ("Error:", "MCP error -32603:",
// "browserBackend.callTool:") dropped, and a prefix that the next one
// repeats ("tools/call q failed: tools/call q:") said once.
func cleanErrorMessage(s string) string {
	s = errorTextMessage(ansiRE.ReplaceAllString(s, ""))
	s = errHeadingRE.ReplaceAllString(s, "")
	s = strings.TrimSpace(s)
	first, rest, _ := strings.Cut(s, "\n")
	segs := strings.Split(first, ": ")
	var keep []string
	core := func(x string) string {
		x = strings.ToLower(x)
		for _, w := range []string{"error", "failed", "failure"} {
			x = strings.ReplaceAll(x, w, "")
		}
		return strings.Join(strings.Fields(x), " ")
	}
	for i, seg := range segs {
		if i < len(segs)-1 && noisePrefix.MatchString(strings.TrimSpace(seg)) {
			continue
		}
		if i < len(segs)-1 {
			a, b := core(seg), core(segs[i+1])
			if a != "" && b != "" && (a == b || strings.HasPrefix(b, a) || strings.HasPrefix(a, b)) {
				continue
			}
		}
		keep = append(keep, seg)
	}
	first = strings.Join(keep, ": ")
	if rest != "" {
		return first + "\n" + rest
	}
	return first
}

var (
	htmlTableRE  = regexp.MustCompile(`(?is)<table\b.*?<t[dh]\b`)
	webPageRE    = regexp.MustCompile(`(?i)^\s*(?:<!doctype|<html\b)|(?im)^[^<\n]{0,80}:[ \t]*(?:<!doctype|<html\b)|\n\s*\n\s*(?:<!doctype|<html\b)|(?i)"[^"\n]{1,80}"\s*:\s*"\s*(?:<!doctype|<html\b)`)
	recordLineRE = regexp.MustCompile(`^\s*[A-Za-z][\w ./()%-]{0,30}:\s*[^,:]{1,80}(?:,\s*[A-Za-z][\w ./()%-]{0,30}:\s*[^,]{1,80}){2,}\s*$`)
	fileLineRE   = regexp.MustCompile(`^(?:\./)?[\w./@+-]+\.[\w]+[:-]\d+[:-]`)
)

// tabularKind says which kind of tabular text t holds: "html table",
// "record lines", "csv", "file:line", or "" for none. Each reading must
// explain most of the text. A whole web page (doctype, <html>) is a page's
// source, not tabular text, even when it holds a table, also after a
// fetcher's lead-in ("URL: ...\nContent: <!doctype html>", headers and a
// blank line) or as a JSON string ("body": "<!doctype html>...").
func tabularKind(t string) string {
	if htmlTableRE.MatchString(t) && !webPageRE.MatchString(t) {
		return "html table"
	}
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(t, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 3 {
		return ""
	}
	count := func(re *regexp.Regexp) int {
		n := 0
		for _, l := range lines {
			if re.MatchString(l) {
				n++
			}
		}
		return n
	}
	if n := count(recordLineRE); n >= 3 && n*10 >= len(lines)*8 {
		return "record lines"
	}
	if n := count(fileLineRE); n >= 3 && n*10 >= len(lines)*8 {
		return "file:line"
	}
	commas := strings.Count(lines[0], ",")
	if commas >= 2 && !strings.ContainsAny(lines[0], "{}[]") {
		same := 0
		for _, l := range lines {
			if strings.Count(l, ",") == commas {
				same++
			}
		}
		if same == len(lines) {
			return "csv"
		}
	}
	return ""
}

// corpusExceptions are the pages allowed to break an invariant, each with its
// reason ("server/tool/label/invariant").
var corpusExceptions = map[string]string{}

// corpusResult is what the corpus run found for one page and invariant.
type corpusResult struct {
	page     *corpusPage
	inv      string
	variants []string // "1280 light", ...
	problems []string
}

// TestUICorpusInvariants renders every page of the UI corpus at 1280 and 400
// px in light and dark and checks every invariant on each; it reports per
// server how many pages break each invariant and fails for any break not in
// corpusExceptions. GENUI_UICORPUS_SERVERS=a,b limits the servers;
// GENUI_UICORPUS_REPORT=FILE writes the counts as JSON;
// GENUI_UICORPUS_SHOTS=DIR writes a 760 px screenshot of each page (light, or
// GENUI_UICORPUS_SHOTS_THEME=dark) and the per-server gallery pages
// (scripts/uicorpus.sh).
func TestUICorpusInvariants(t *testing.T) {
	servers, split, err := loadCorpusSplits()
	if err != nil {
		t.Fatal(err)
	}
	variants := corpusVariants()
	metrics := metricsReport{Split: split, Servers: map[string]metricTally{}}
	for _, v := range variants {
		metrics.Variants = append(metrics.Variants, fmt.Sprintf("%d px %s", v.width, v.theme))
	}
	var metricFails []metricFail
	only := map[string]bool{}
	for _, n := range strings.Split(os.Getenv("GENUI_UICORPUS_SERVERS"), ",") {
		if n != "" {
			only[n] = true
		}
	}
	env := newCorpusEnv(t)
	start := time.Now()
	var run []uicorpus.Server
	for _, s := range servers {
		if len(only) == 0 || only[s.Name] {
			run = append(run, s)
		}
	}
	outcomes, err := checkCorpusServers(env, run, split, variants, corpusWorkers())
	if err != nil {
		t.Fatal(err)
	}
	var results []corpusResult
	pagesPer := map[string]int{}
	checks := 0
	for i, s := range run {
		o := outcomes[i]
		pagesPer[s.Name] = o.pages
		checks += o.checks
		results = append(results, o.results...)
		metricFails = append(metricFails, o.metricFails...)
		if o.measured {
			metrics.Servers[s.Name] = o.tally
		}
	}
	elapsed := time.Since(start)
	report := corpusReport(results, pagesPer)
	counted := map[*corpusPage]bool{}
	for _, r := range results {
		if !counted[r.page] {
			counted[r.page] = true
			tally := metrics.Servers[r.page.server]
			tally.Broken++
			metrics.Servers[r.page.server] = tally
		}
	}
	metrics.finish()
	t.Logf("UI corpus: %d pages, %d checks (%d variants each) in %s\n%s\n%s", sum(pagesPer), checks, len(variants), elapsed.Round(time.Millisecond), report.table(), metrics.markdown())
	if f := os.Getenv("GENUI_UICORPUS_METRICS"); f != "" {
		if err := os.WriteFile(f, []byte(metrics.markdown()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if f := os.Getenv("GENUI_UICORPUS_REPORT"); f != "" {
		b, _ := json.MarshalIndent(report, "", "  ")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if env.shots != "" {
		var tuned []uicorpus.Server
		for _, s := range servers {
			if split[s.Name] == "tuned" {
				tuned = append(tuned, s)
			}
		}
		if err := writeCorpusGallery(env.shots, tuned, only, results); err != nil {
			t.Fatal(err)
		}
	}
	// A held-out page's failure is counted, never shown: its details would
	// be a look at the held-out split (testdata/uicorpus/README.md).
	heldOut := map[string]int{}
	for _, r := range results {
		key := r.page.server + "/" + r.page.tool + "/" + r.page.label + "/" + r.inv
		if corpusExceptions[key] != "" {
			continue
		}
		if split[r.page.server] != "tuned" {
			heldOut[r.page.server+" "+r.inv]++
			continue
		}
		t.Errorf("%s (%s): %s", key, strings.Join(r.variants, ", "), strings.Join(first(r.problems, 3), "; "))
	}
	seen := map[string]bool{}
	for _, f := range metricFails {
		key := f.page.server + "/" + f.page.tool + "/" + f.page.label + "/" + f.metric
		if metricExceptions[key] != "" || seen[key] {
			continue
		}
		seen[key] = true
		if split[f.page.server] != "tuned" {
			heldOut[f.page.server+" "+f.metric]++
			continue
		}
		t.Errorf("%s (%s): %s", key, f.variant, f.detail)
	}
	// The held-out split is a measurement: its misses cannot be fixed
	// without looking at them, which would make it tuned. They are counted
	// in the table and fail the test only when asked (GENUI_UICORPUS_STRICT=1),
	// as do the split goals.
	strict := os.Getenv("GENUI_UICORPUS_STRICT") == "1"
	note := t.Logf
	if strict {
		note = t.Errorf
	}
	keys := make([]string, 0, len(heldOut))
	for k := range heldOut {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		note("held-out server %s: %d pages miss it (details withheld: held out)", k, heldOut[k])
	}
	for _, sp := range []string{"tuned", "held out"} {
		if tally, ok := metrics.Splits[sp]; ok && tally.Duplicated > 0 {
			note("%s split: %d values drawn twice (goal 0)", sp, tally.Duplicated)
		}
	}
	if tu, ok := metrics.Splits["tuned"]; ok {
		if ho, ok := metrics.Splits["held out"]; ok && ho.coverage() < tu.coverage()-heldOutMaxBehind {
			note("held-out coverage %.1f%% trails the tuned split's %.1f%% by more than %.0f points", 100*ho.coverage(), 100*tu.coverage(), 100*heldOutMaxBehind)
		}
	}
}

// metricFail is one page missing one metric goal at one variant.
type metricFail struct {
	page            *corpusPage
	metric, variant string
	detail          string
}

// metricExceptions are the tuned pages allowed to miss a metric goal, each
// with its reason ("server/tool/label/metric"): "by design" where the page
// means to show less, "open" where the miss is the generator's, still to fix
// (issue 33's list of what remains).
var metricExceptions = map[string]string{
	"ripgrep/search/call 1/coverage":          "by design: file paths are shown relative to the searched folder",
	"ripgrep/search/call 2/coverage":          "by design: file paths are shown relative to the searched folder",
	"ripgrep/search/call 3/coverage":          "by design: file paths are shown relative to the searched folder",
	"ripgrep/advanced-search/call 1/coverage": "by design: file paths are shown relative to the searched folder",
	"calc/url_parse/call 1/duplication":       "by design: the query's parameters drawn as a card (limit 25, offset 50) spell the letters of the query string (?limit=25&offset=50) that href and search hold; no value is drawn twice",
	"astrotask/getNextTask/call 2/principal":  "by design: the answer's own list at the top (availableTasks, 5 tasks) is the main table with its count; the metric's largest array (context.descendants, 8 nodes of the project's tree, each subtask listed again under its parent) is context, folded beside it with its count",
	"astrotask/getTask/call 2/principal":      "by design: the result is one task and its context (the task's fields and its message in the header, in sight; its 2 ancestors the table); the metric's largest array (context.root.children, the project's 4 top-level tasks as a tree) is context, folded with its count, its small tree open",
}

type corpusVariant struct {
	width int
	theme string
}

// corpusVariants are the widths and themes every page is checked at: 1280
// light and 400 dark, or all four (1280 and 400, light and dark) with
// GENUI_UICORPUS_MATRIX=full.
func corpusVariants() []corpusVariant {
	if os.Getenv("GENUI_UICORPUS_MATRIX") == "full" {
		return []corpusVariant{{1280, "light"}, {1280, "dark"}, {400, "light"}, {400, "dark"}}
	}
	return []corpusVariant{{1280, "light"}, {400, "dark"}}
}

// loadCorpusSplits loads the tuned corpus and its held-out split (when
// recorded) and says which split each server is in.
func loadCorpusSplits() ([]uicorpus.Server, map[string]string, error) {
	servers, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		return nil, nil, err
	}
	split := map[string]string{}
	for _, s := range servers {
		split[s.Name] = "tuned"
	}
	if m, _ := filepath.Glob(filepath.Join(uicorpus.HeldOutDir(), "*.json")); len(m) > 0 {
		held, err := uicorpus.Load(uicorpus.HeldOutDir())
		if err != nil {
			return nil, nil, err
		}
		for _, s := range held {
			if split[s.Name] != "" {
				return nil, nil, fmt.Errorf("uicorpus: server %s is in both splits", s.Name)
			}
			split[s.Name] = "held out"
		}
		servers = append(servers, held...)
	}
	return servers, split, nil
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(append([]string{}, s[:n]...), fmt.Sprintf("(+%d more)", len(s)-n))
	}
	return s
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// uiCorpusReport counts, per server, the pages that break each invariant.
type uiCorpusReport struct {
	Pages  map[string]int            `json:"pages"`
	Broken map[string]map[string]int `json:"broken"`
}

func corpusReport(results []corpusResult, pages map[string]int) uiCorpusReport {
	r := uiCorpusReport{Pages: pages, Broken: map[string]map[string]int{}}
	for s := range pages {
		r.Broken[s] = map[string]int{}
	}
	for _, x := range results {
		r.Broken[x.page.server][x.inv]++
	}
	return r
}

func (r uiCorpusReport) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s %5s", "server", "pages")
	for _, inv := range invariants {
		fmt.Fprintf(&b, " %8s", inv)
	}
	b.WriteByte('\n')
	names := make([]string, 0, len(r.Pages))
	for s := range r.Pages {
		names = append(names, s)
	}
	sort.Strings(names)
	total := map[string]int{}
	for _, s := range names {
		fmt.Fprintf(&b, "%-20s %5d", s, r.Pages[s])
		for _, inv := range invariants {
			fmt.Fprintf(&b, " %8d", r.Broken[s][inv])
			total[inv] += r.Broken[s][inv]
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%-20s %5d", "total", sum(r.Pages))
	for _, inv := range invariants {
		fmt.Fprintf(&b, " %8d", total[inv])
	}
	b.WriteByte('\n')
	return b.String()
}

// screenshot writes the page at 760 px to shots/SERVER/TOOL-LABEL.png, in
// the light theme (the gallery's) or the one GENUI_UICORPUS_SHOTS_THEME names
// (dark: to look at the dark theme; the checks run in both anyway).
func (e *corpusEnv) screenshot(p *corpusPage) error {
	theme := "light"
	if os.Getenv("GENUI_UICORPUS_SHOTS_THEME") == "dark" {
		theme = "dark"
	}
	if err := e.variant(760, theme); err != nil {
		return err
	}
	// Let the frame follow the content's height before the picture: the
	// same height for 180 ms (or 4 s passed: the picture is taken anyway).
	last, since := -1.0, time.Now()
	var err error
	testenv.Until(4*time.Second, func() bool {
		var h float64
		if err = e.run(`document.getElementById("ui").getBoundingClientRect().height`, &h); err != nil {
			return true
		}
		if h != last {
			last, since = h, time.Now()
		}
		return time.Since(since) >= 180*time.Millisecond
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(e.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#ui")))
	if err != nil {
		return err
	}
	dir := filepath.Join(e.shots, p.server)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, shotName(p)), png, 0o644)
}

func shotName(p *corpusPage) string {
	return strings.ReplaceAll(p.tool+"-"+strings.ReplaceAll(p.label, " ", ""), "/", "_") + ".png"
}

// writeCorpusGallery writes shots/SERVER.md for each server shot: every page
// with its screenshot and what it broke.
func writeCorpusGallery(dir string, servers []uicorpus.Server, only map[string]bool, results []corpusResult) error {
	broke := map[*corpusPage][]string{}
	for _, r := range results {
		broke[r.page] = append(broke[r.page], r.inv)
	}
	for _, s := range servers {
		if len(only) > 0 && !only[s.Name] {
			continue
		}
		_, pages := corpusPages(s)
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", s.Name)
		fmt.Fprintf(&b, "genui's offline UI for every tool of npm's `%s` %s (%s license; %s), recorded by `make uicorpus`", s.Package, s.Version, s.License, s.Kind)
		if s.Setup != "" {
			fmt.Fprintf(&b, " against %s", s.Setup)
		}
		fmt.Fprintf(&b, ". Each picture is the page at 760 px, light theme, after the host delivered the recorded result (or the form alone). %d tools, %d calls.\n\n", len(s.Tools), len(s.Calls))
		b.WriteString("| Tool | Page | Invariants broken |\n| --- | --- | --- |\n")
		for _, p := range pages {
			what := p.label
			if p.call != nil {
				var cb bytes.Buffer
				a := string(p.call.Arguments)
				if json.Compact(&cb, p.call.Arguments) == nil {
					a = cb.String()
				}
				if r := []rune(a); len(r) > 120 {
					a = string(r[:117]) + "..."
				}
				what += " `" + strings.ReplaceAll(a, "|", "\\|") + "`"
				if p.errMsg != nil {
					what += " (error)"
				}
			}
			inv := strings.Join(broke[p], ", ")
			if inv == "" {
				inv = "none"
			}
			fmt.Fprintf(&b, "| `%s` %s | ![%s %s](%s/%s) | %s |\n", p.tool, what, p.tool, p.label, s.Name, shotName(p), inv)
		}
		if err := os.WriteFile(filepath.Join(dir, s.Name+".md"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// corpusOutcome is what checking one server's pages found.
type corpusOutcome struct {
	pages, checks int
	results       []corpusResult
	metricFails   []metricFail
	tally         metricTally // of its measured result pages
	measured      bool        // it has a measured result page
}

// corpusWorkers is how many browser tabs check servers at once: two, or
// GENUI_UICORPUS_WORKERS. Each tab's renderer is a process of its own, so
// two keep both cores of a small machine busy while the other waits on the
// test's round trips.
func corpusWorkers() int {
	n := 2
	if v := os.Getenv("GENUI_UICORPUS_WORKERS"); v != "" {
		if _, err := fmt.Sscan(v, &n); err != nil || n < 1 {
			n = 1
		}
	}
	return n
}

// checkCorpusServers checks the pages of servers in up to workers tabs of
// env's browser, one server at a time per tab, and returns each server's
// outcome in the order of servers. The first error stops the rest.
func checkCorpusServers(env *corpusEnv, servers []uicorpus.Server, split map[string]string, variants []corpusVariant, workers int) ([]corpusOutcome, error) {
	workers = min(workers, len(servers))
	outcomes := make([]corpusOutcome, len(servers))
	next := make(chan int, len(servers))
	for i := range servers {
		next <- i
	}
	close(next)
	errs := make(chan error, workers)
	stop := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		tab := env
		if w > 0 {
			tab = env.tab()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				select {
				case <-stop:
					return
				default:
				}
				o, err := tab.checkServer(servers[i], split[servers[i].Name], variants)
				if err != nil {
					once.Do(func() { close(stop) })
					errs <- err
					return
				}
				outcomes[i] = o
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return outcomes, nil
}

// checkServer renders every page of server s in e's tab at each variant and
// checks the invariants and, on result pages, the metrics.
func (e *corpusEnv) checkServer(s uicorpus.Server, split string, variants []corpusVariant) (corpusOutcome, error) {
	var o corpusOutcome
	gen := NewOffline()
	tools, pages := corpusPages(s)
	o.pages = len(pages)
	byTool := map[string][]*corpusPage{}
	var order []string
	for _, p := range pages {
		if _, ok := byTool[p.tool]; !ok {
			order = append(order, p.tool)
		}
		byTool[p.tool] = append(byTool[p.tool], p)
	}
	for ti, name := range order {
		res, err := gen.Generate(context.Background(), Request{Tool: tools[name]})
		if err != nil {
			return o, fmt.Errorf("%s/%s: generate: %w", s.Name, name, err)
		}
		id := fmt.Sprintf("%s-%d", s.Name, ti)
		// One page per tool: its form first, then each call's result in turn
		// (each result replaces the one before, as in a host).
		if err := e.open(id, res.HTML); err != nil {
			return o, fmt.Errorf("%s/%s: %w", s.Name, name, err)
		}
		for _, p := range byTool[name] {
			if err := e.show(p); err != nil {
				return o, fmt.Errorf("%s/%s %s: %w", s.Name, name, p.label, err)
			}
			found := map[string]*corpusResult{}
			measured := p.call != nil && p.rpcError == nil
			var facts resultFacts
			var ms []pageMetrics
			if measured {
				facts = factsOf(p.call.Result)
			}
			for _, v := range variants {
				at := fmt.Sprintf("%d %s", v.width, v.theme)
				if err := e.variant(v.width, v.theme); err != nil {
					return o, fmt.Errorf("%s/%s %s at %s: %w", s.Name, name, p.label, at, err)
				}
				got, err := e.checkPage(p)
				if err != nil {
					return o, fmt.Errorf("%s/%s %s at %s: %w", s.Name, name, p.label, at, err)
				}
				o.checks++
				if measured {
					var m pageMetrics
					raw, err := e.frame(metricsCall(facts))
					if err == nil {
						err = json.Unmarshal(raw, &m)
					}
					if err != nil {
						return o, fmt.Errorf("%s/%s %s at %s: metrics: %w", s.Name, name, p.label, at, err)
					}
					ms = append(ms, m)
					for k, detail := range metricProblems(facts, m) {
						o.metricFails = append(o.metricFails, metricFail{page: p, metric: k, variant: at, detail: detail})
					}
				}
				for inv, probs := range got {
					r := found[inv]
					if r == nil {
						r = &corpusResult{page: p, inv: inv}
						found[inv] = r
					}
					r.variants = append(r.variants, at)
					if len(r.problems) == 0 {
						r.problems = probs
					}
				}
			}
			if measured {
				o.tally.add(facts, ms)
				o.measured = true
			}
			for _, inv := range invariants {
				if r := found[inv]; r != nil {
					o.results = append(o.results, *r)
				}
			}
			if e.shots != "" && split == "tuned" { // held-out pages are never pictured
				if err := e.screenshot(p); err != nil {
					return o, fmt.Errorf("%s/%s %s: screenshot: %w", s.Name, name, p.label, err)
				}
			}
		}
	}
	return o, nil
}
