package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
)

// invariantPage is a hand-made page for the invariant checker: bad breaks
// exactly the named invariant, good is its twin that keeps it.
type invariantPage struct {
	inv       string
	name      string
	bad, good string
	opts      map[string]any
	// also: other invariants the bad page cannot help breaking.
	also []string
}

// invariantPages: for each invariant, pages that break it the ways the corpus
// showed, each with a twin that does not.
var invariantPages = []invariantPage{
	{inv: "overflow", name: "page scrolls sideways",
		bad:  `<div id="result"><pre style="white-space:pre">` + strings.Repeat("wide ", 400) + `</pre></div>`,
		good: `<div id="result"><pre style="white-space:pre;overflow:auto;max-width:100%">` + strings.Repeat("wide ", 400) + `</pre></div>`},
	{inv: "overflow", name: "block cut off without a scroll",
		bad:  `<div id="result"><div style="overflow:hidden;width:200px;white-space:nowrap">` + strings.Repeat("clipped ", 100) + `</div></div>`,
		good: `<div id="result"><div style="overflow:auto;width:200px;white-space:nowrap">` + strings.Repeat("clipped ", 100) + `</div></div>`},
	{inv: "overflow", name: "description cut with an ellipsis",
		bad:  `<p style="overflow:hidden;text-overflow:ellipsis;white-space:nowrap;width:200px">Reads orders from CSV and serves them over HTTP with paging and exports</p>`,
		good: `<p style="white-space:normal;width:200px">Reads orders from CSV and serves them over HTTP with paging and exports</p>`},
	{inv: "tall", name: "text block taller than its bound",
		bad:  `<div id="result"><div class="text" style="white-space:pre">` + strings.Repeat("line\n", 200) + `</div></div>`,
		good: `<div id="result"><div style="max-height:360px;overflow:auto"><div class="text" style="white-space:pre">` + strings.Repeat("line\n", 200) + `</div></div></div>`},
	{inv: "tall", name: "card of text taller than its bound, beside a scrolling box",
		bad:  `<div id="result"><dl class="card"><dt>a</dt><dd style="white-space:pre">` + strings.Repeat("line\n", 100) + `</dd><dt>b</dt><dd><div style="max-height:300px;overflow:auto">` + strings.Repeat("x<br>", 100) + `</div></dd></dl></div>`,
		good: `<div id="result"><dl class="card"><dt>a</dt><dd style="white-space:pre">` + strings.Repeat("line\n", 10) + `</dd><dt>b</dt><dd><div style="max-height:300px;overflow:auto">` + strings.Repeat("x<br>", 100) + `</div></dd><dt>c</dt><dd><div style="max-height:300px;overflow:auto">` + strings.Repeat("y<br>", 100) + `</div></dd></dl></div>`},
	{inv: "links", name: "link without a target",
		bad:  `<div id="result"><p>See <a>page-1.yml</a></p></div>`,
		good: `<div id="result"><p>See <a href="https://example.com/page-1.yml">page-1.yml</a></p></div>`},
	{inv: "markers", name: "raw HTML shown as text",
		bad:  `<div id="result"><div class="text">&lt;table&gt;&lt;tr&gt;&lt;td&gt;1&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</div></div>`,
		good: `<div id="result"><pre><code>&lt;table&gt;&lt;tr&gt;&lt;td&gt;1&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</code></pre></div>`},
	{inv: "markers", name: "ANSI codes shown",
		bad:  `<div id="result"><pre>` + "\x1b[2m  - waiting for locator\x1b[22m" + `</pre></div>`,
		good: `<div id="result"><pre>  - waiting for locator</pre></div>`},
	{inv: "markers", name: "markdown markers shown",
		bad:  `<div id="result"><div class="text">### Result\n**bold** and [Snapshot](page-1.yml)</div></div>`,
		good: `<div id="result"><h3>Result</h3><p><strong>bold</strong> and <a href="https://example.com/page-1.yml">Snapshot</a></p></div>`},
	{inv: "markers", name: "bold underscores shown, not a dunder identifier",
		bad:  `<div id="result"><ul class="values"><li>__name__</li><li>__bold__ and __strong words__</li></ul></div>`,
		good: `<div id="result"><ul class="values"><li>__name__</li><li>__meta_kubernetes_pod__</li><li><strong>strong words</strong></li></ul></div>`},
	{inv: "contrast", name: "pale text",
		bad:  `<div id="result"><p style="color:#bbb;background:#fff">faint label</p></div>`,
		good: `<div id="result"><p style="color:#555;background:#fff">readable label</p></div>`},
	{inv: "contrast", name: "pale chart label (SVG fill)",
		bad:  `<div id="result" style="background:#fff"><svg width="200" height="40"><text x="5" y="20" fill="#ccc">Jan</text></svg></div>`,
		good: `<div id="result" style="background:#fff"><svg width="200" height="40"><text x="5" y="20" fill="#444">Jan</text></svg></div>`},
	{inv: "tabular", name: "record lines left as text", opts: map[string]any{"tabular": "record lines"},
		bad:  `<div id="result"><div class="text">PID: 1, Command: init, CPU: 0.1%</div></div>`,
		good: `<div id="result"><table><tr><th>PID</th></tr><tr><td>1</td></tr></table><button>View as text</button></div>`},
	{inv: "tabular", name: "table without a text switch", opts: map[string]any{"tabular": "csv"},
		bad:  `<div id="result"><table><tr><th>a</th></tr><tr><td>1</td></tr></table></div>`,
		good: `<div id="result"><table><tr><th>a</th></tr><tr><td>1</td></tr></table><button>View as text</button></div>`},
	{inv: "errors", name: "raw upstream error", also: []string{"markers"}, opts: map[string]any{"error": map[string]any{"message": "Debugger is not paused"}},
		bad:  `<div id="result"><div class="error-banner">### Error` + "\n" + `Error: browserBackend.callTool: Debugger is not paused` + "\n\x1b[2mlog\x1b[22m" + `</div></div>`,
		good: `<div id="result"><div class="error-banner">Debugger is not paused</div><details class="raw"><summary>Raw error text</summary></details></div>`},
	{inv: "errors", name: "message shown twice", opts: map[string]any{"error": map[string]any{"message": "column \"total\" does not exist"}},
		bad:  `<div id="result"><div class="error-banner">column "total" does not exist</div><p>column "total" does not exist</p><details class="raw"><summary>Raw</summary></details></div>`,
		good: `<div id="result"><div class="error-banner">column "total" does not exist</div><details class="raw"><summary>Raw</summary></details></div>`},
	{inv: "errors", name: "stacked prefixes", opts: map[string]any{"error": map[string]any{"message": "relation does not exist"}},
		bad:  `<div id="result"><div class="error-banner">the call failed: tools/call query failed: tools/call query: relation does not exist</div><details class="raw"><summary>Raw</summary></details></div>`,
		good: `<div id="result"><div class="error-banner">relation does not exist</div><details class="raw"><summary>Raw</summary></details></div>`},
	{inv: "errors", name: "no way to the raw text", opts: map[string]any{"error": map[string]any{"message": "no such file"}},
		bad:  `<div id="result"><div class="error-banner">no such file</div></div>`,
		good: `<div id="result"><div class="error-banner">no such file</div><details class="raw"><summary>Raw JSON</summary></details></div>`},
}

// TestPageInvariantsCatchBreaks proves each invariant of the corpus checker
// fails a page that breaks it and passes its twin that does not.
func TestPageInvariantsCatchBreaks(t *testing.T) {
	ctx := browsertest.Start(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html data-theme="light"><head><meta charset="utf-8"><style>body{margin:8px;font:14px sans-serif;color:#111;background:#fff}</style></head><body>%s</body></html>`, r.URL.Query().Get("body"))
	}))
	t.Cleanup(srv.Close)
	check := func(t *testing.T, body string, opts map[string]any) map[string][]string {
		t.Helper()
		c, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		q := srv.URL + "/?body=" + urlQueryEscape(body)
		o, _ := json.Marshal(opts)
		if err := chromedp.Do(c, chromedp.Navigate(q)); err != nil {
			t.Fatal(err)
		}
		raw, err := chromedp.Run(c, chromedp.Evaluate[string]("JSON.stringify(("+invariantsCall(string(o))+")(window, document))"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := decodeInvariants(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	covered := map[string]bool{}
	for _, p := range invariantPages {
		t.Run(p.inv+"/"+p.name, func(t *testing.T) {
			covered[p.inv] = true
			bad := check(t, p.bad, p.opts)
			if len(bad[p.inv]) == 0 {
				t.Errorf("the %s invariant passed a page that breaks it: %s (found %v)", p.inv, p.bad, bad)
			}
			for inv := range bad {
				if inv != p.inv && !slices.Contains(p.also, inv) {
					t.Errorf("the bad page also broke %s: %v (it should break only %s)", inv, bad[inv], p.inv)
				}
			}
			if good := check(t, p.good, p.opts); len(good) > 0 {
				t.Errorf("the twin page that keeps %s broke %v", p.inv, good)
			}
		})
	}
	for _, inv := range invariants {
		if inv == "csp" {
			continue // the browser's own report (securitypolicyviolation), proven by the gallery's CSP tests
		}
		if !covered[inv] {
			t.Errorf("invariant %s has no page proving it catches a break", inv)
		}
	}
}

func urlQueryEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// TestCleanErrorMessage: what an error page must show of an upstream's text.
func TestCleanErrorMessage(t *testing.T) {
	for in, want := range map[string]string{
		"### Error\nError: The tool \"browser_handle_dialog\" can only be used when there is related modal state present.":          "The tool \"browser_handle_dialog\" can only be used when there is related modal state present.",
		"Error executing get operation: MCP error -32603: Failed to get indexes: Query failed: column \"tablename\" does not exist": "Error executing get operation: Failed to get indexes: Query failed: column \"tablename\" does not exist",
		"the call failed: tools/call query failed: tools/call query: relation \"invoices\" does not exist":                          "the call failed: tools/call query: relation \"invoices\" does not exist",
		"\x1b[31mboom\x1b[0m": "boom",
		"### Error\nError: browserBackend.callTool: Debugger is not paused": "Debugger is not paused",
		"Error: Git commit failed: Exit Code: 128\nStderr: x":               "Git commit failed: Exit Code: 128\nStderr: x",
	} {
		if got := cleanErrorMessage(in); got != want {
			t.Errorf("cleanErrorMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTabularKind: which texts count as tabular for the corpus invariant.
func TestTabularKind(t *testing.T) {
	for in, want := range map[string]string{
		"PID: 1, Command: init, CPU: 0.0%, Memory: 0.1%\nPID: 2, Command: node, CPU: 1.2%, Memory: 3.4%\nPID: 3, Command: sh, CPU: 0.0%, Memory: 0.0%": "record lines",
		"<table><tr><th>A</th></tr><tr><td>1</td></tr></table>":                                                            "html table",
		"URL: http://x/\nContent: <!doctype html>\n<html><table><tr><th>A</th></tr><tr><td>1</td></tr></table>":            "",
		"HTTP/1.1 200 OK\nContent-Type: text/html\n\n<!DOCTYPE html><table><tr><th>A</th></tr><tr><td>1</td></tr></table>": "",
		"src/a.js:1:const a\nsrc/a.js:4:return a\nsrc/b.go:10:package b":                                                   "file:line",
		"id,name,total\n1,Ada,2\n2,Bob,3":                                                                                  "csv",
		"The export failed, again, and again.\nWe retried.\nIt worked, finally.":                                           "",
		"key: value\nother: thing\nthird: x":                                                                               "",
	} {
		if got := tabularKind(in); got != want {
			t.Errorf("tabularKind(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTabularKindWebPageInJSONString: a whole web page held as a JSON
// string (an HTTP client's {status, headers, body: "<!doctype html>..."})
// is a page's source, not tabular text, though it holds a table: the page
// draws it as source with "View as table" beside it, as it does the page
// after a fetcher's lead-in.
func TestTabularKindWebPageInJSONString(t *testing.T) {
	c := recordedCall(t, "curl", "curl", 2)
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(c.Result, &r); err != nil || len(r.Content) != 1 {
		t.Fatalf("recorded result %.200s", c.Result)
	}
	if !strings.Contains(r.Content[0].Text, `"body": "<!doctype html>`) || !strings.Contains(r.Content[0].Text, "<table") {
		t.Fatalf("the recorded result is no web page with a table in a JSON string: %.200s", r.Content[0].Text)
	}
	if got := tabularKind(r.Content[0].Text); got != "" {
		t.Errorf("tabularKind = %q, want \"\" (a web page's source)", got)
	}
}
