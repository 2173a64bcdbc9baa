package gen

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/pagepack"
)

// recordCSP is put first in a page's head: it records every CSP violation.
const recordCSP = `<script>window.cspViolations = []; document.addEventListener("securitypolicyviolation", e => window.cspViolations.push(e.violatedDirective + " " + e.blockedURI));</script>`

func packedForecast(t *testing.T, headFirst string) string {
	t.Helper()
	res, err := NewOffline().Generate(context.Background(), Request{Tool: Tool{Name: "get_forecast", Description: "Weather forecast for a city.",
		InputSchema: json.RawMessage(forecastSchema)}})
	if err != nil {
		t.Fatal(err)
	}
	if !pagepack.IsPacked(res.HTML) {
		t.Fatal("the offline page is not packed")
	}
	i := strings.Index(res.HTML, "<head>")
	return res.HTML[:i+len("<head>")] + headFirst + res.HTML[i+len("<head>"):]
}

// TestPackedPageUnderDefaultCSP: an offline page unpacks under the MCP
// Apps default CSP without a single violation, shows its content (the
// hide style gone) and works: handshake, form, result.
func TestPackedPageUnderDefaultCSP(t *testing.T) {
	f, ui := newFixture(t)
	ui.addHTML("get_forecast", packedForecast(t, recordCSP))
	f.open("get_forecast")
	f.waitFrame(`(w, d) => d.getElementById("f-location") !== null`)
	f.eval(`(bridge.sendToolResult({content: [{type: "text", text: "Sunny in Berlin"}], structuredContent: {city: "Berlin", high_c: 23}}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	var got struct {
		Violations []string
		Hidden     bool
		Visibility string
		Scripts    int
	}
	if err := json.Unmarshal(f.frame(`(w, d) => ({Violations: w.cspViolations, Hidden: d.querySelector("style[`+pagepack.PackAttr+`-hide]") !== null,
		Visibility: getComputedStyle(d.querySelector("main")).visibility, Scripts: d.scripts.length})`), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Violations) > 0 || got.Hidden || got.Visibility != "visible" {
		t.Fatalf("packed page: %+v", got)
	}
	if !strings.Contains(f.frameText("#result"), "Sunny in Berlin") {
		t.Fatalf("result not rendered: %q", f.frameText("#result"))
	}
}

// TestPackedPageUnpacksTheRestAfterTheHandshake: the offline page's
// connect.js starts the handshake from the first stream and the loader
// unpacks the rest (styles, form, renderers, page.js) only once it is done,
// so the host's answer is handled when it comes, not behind the rest; the
// page then works as before. Opened without a host (no answer ever comes),
// the rest is unpacked anyway, at most 250 ms after the first stream.
func TestPackedPageUnpacksTheRestAfterTheHandshake(t *testing.T) {
	f, ui := newFixture(t)
	// Notes, when the handshake settles, whether the rest's scripts had run.
	const hook = `<script>window.atHandshake = null; (function () { let c; Object.defineProperty(window, "genuiConnected", {configurable: true,
  get: function () { return c; },
  set: function (v) { c = v; v.then(function () { window.atHandshake = {done: true, restRan: !!window.GenuiText}; }, function () { window.atHandshake = {done: false, restRan: !!window.GenuiText}; }); }}); })();</script>`
	ui.addHTML("get_forecast", packedForecast(t, hook))
	f.open("get_forecast")
	f.waitFrame(`(w, d) => d.getElementById("f-location") !== null`)
	var at struct{ Done, RestRan bool }
	if err := json.Unmarshal(f.frame(`(w, d) => w.atHandshake`), &at); err != nil {
		t.Fatal(err)
	}
	if !at.Done || at.RestRan {
		t.Errorf("at the handshake's end: %+v; want it done before the rest's scripts ran", at)
	}
	f.eval(`(bridge.sendToolResult({content: [{type: "text", text: "Sunny in Berlin"}], structuredContent: {city: "Berlin", high_c: 23}}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	if !strings.Contains(f.frameText("#result"), "Sunny in Berlin") {
		t.Fatalf("result not rendered: %q", f.frameText("#result"))
	}

	// No host: the page is its own parent and nobody answers.
	var alone struct {
		Unpacked bool
		Form     bool
	}
	ctx, cancel := context.WithTimeout(f.ctx, 10*time.Second)
	defer cancel()
	var page string
	f.eval(`document.getElementById("ui").src`, &page)
	if _, err := chromedp.Run(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	browsertest.Poll(t, f.ctx, `performance.getEntriesByName("genui-unpacked").length > 0`, 5*time.Second)
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({Unpacked: performance.getEntriesByName("genui-unpacked").length > 0, Form: !!document.getElementById("f-location") && !!window.GenuiText})`))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(raw), &alone); err != nil || !alone.Unpacked || !alone.Form {
		t.Errorf("without a host: %+v %v; want the rest unpacked and the form built", alone, err)
	}
}

// TestPackedPageWithoutDecompressionStream: in a browser without
// DecompressionStream the page says why it cannot run, visibly, instead of
// staying blank.
func TestPackedPageWithoutDecompressionStream(t *testing.T) {
	f, ui := newFixture(t)
	ui.addHTML("get_forecast", packedForecast(t, `<script>delete window.DecompressionStream;</script>`))
	browsertest.Run(t, f.ctx, 20*time.Second, chromedp.Navigate(f.host+"/?tool=get_forecast"))
	f.waitFrame(`(w, d) => d.querySelector("[role=alert]") !== null`)
	var got struct {
		Alert, State, Visibility, Display string
	}
	if err := json.Unmarshal(f.frame(`(w, d) => ({Alert: d.querySelector("[role=alert]").textContent, State: d.body.dataset.state,
		Visibility: getComputedStyle(d.querySelector("main")).visibility, Display: getComputedStyle(d.querySelector("main")).display})`), &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Alert, "could not unpack") || !strings.Contains(got.Alert, "DecompressionStream") || got.State != "error" || got.Visibility != "visible" || got.Display == "none" {
		t.Fatalf("no clear failure: %+v", got)
	}
}

// TestPackedPageDamaged: a packed block that does not inflate makes the
// page say so, visibly, and leaves no unhandled promise rejection behind
// (the loader writes the bytes into the DecompressionStream itself).
func TestPackedPageDamaged(t *testing.T) {
	f, ui := newFixture(t)
	page := packedForecast(t, `<script>window.unhandled = []; addEventListener("unhandledrejection", (e) => window.unhandled.push(String(e.reason)));</script>`)
	start := strings.Index(page, pagepack.PackAttr+">") + len(pagepack.PackAttr+">")
	end := start + strings.Index(page[start:], "<")
	block := page[start:end]
	comma := strings.Index(block, ",")
	if comma < 0 {
		t.Fatal("the block has no first segment")
	}
	for name, bad := range map[string]string{
		"not deflate": strings.Repeat("3q2+7w3q", 64), // valid base64, not deflate
		// The first segment cut short (whole base64 quads): the stream stays
		// open for the next segment, so the loader must see that the
		// segment's output is all in and still short, not wait for more.
		"first segment short": block[:comma/2/4*4] + block[comma:],
	} {
		ui.addHTML("get_forecast", page[:start]+bad+page[end:])
		browsertest.Run(t, f.ctx, 20*time.Second, chromedp.Navigate(f.host+"/?tool=get_forecast"))
		f.waitFrame(`(w, d) => d.querySelector("[role=alert]") !== null`)
		var got struct {
			Alert, State, Visibility, Display string
			Unhandled                         []string
		}
		if err := json.Unmarshal(f.frame(`(w, d) => ({Alert: d.querySelector("[role=alert]").textContent, State: d.body.dataset.state,
		Visibility: getComputedStyle(d.querySelector("main")).visibility, Display: getComputedStyle(d.querySelector("main")).display, Unhandled: w.unhandled})`), &got); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Alert, "could not unpack") || got.State != "error" || got.Visibility != "visible" || got.Display == "none" || len(got.Unhandled) > 0 {
			t.Fatalf("%s block: %+v", name, got)
		}
	}
}

// TestPackedPageReadsItsOwnBlockPastADecoy: a copy of the block's tag
// earlier in the page (a page that quotes it, a model's page) is not what
// the loader inflates: it reads the block Pack wrote just before it, as
// Unpack does, so the page works (it showed "could not unpack" before).
func TestPackedPageReadsItsOwnBlockPastADecoy(t *testing.T) {
	f, ui := newFixture(t)
	decoy := `<script type="application/octet-stream" ` + pagepack.PackAttr + `>not a block</script>`
	page := packedForecast(t, decoy)
	if _, err := pagepack.Unpack(page); err != nil {
		t.Fatalf("Unpack: %v", err)
	}
	ui.addHTML("get_forecast", page)
	f.open("get_forecast")
	f.waitFrame(`(w, d) => d.getElementById("f-location") !== null || d.querySelector("[role=alert]") !== null`)
	if alert := f.frameText("[role=alert]"); alert != "" {
		t.Fatalf("the loader read the decoy: %s", alert)
	}
}

// TestPackedPartsKeepEveryCharacter: the loader slices each part out of
// the inflated text by its length in UTF-16 code units, so text with
// characters of two, three and four UTF-8 bytes (one outside the BMP)
// reaches the page whole: a style with them applies, a script with them
// runs and the one after it too.
func TestPackedPartsKeepEveryCharacter(t *testing.T) {
	page, err := pagepack.Pack(`<!doctype html><html><head><meta charset="utf-8"><style>#x::after { content: "é…😀"; }</style></head>` +
		`<body><main><div id="x"></div></main><script>window.a = "😀é…";</script><script>window.b = "after " + window.a.length;</script></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	defer srv.Close()
	ctx := browsertest.Start(t)
	browsertest.Run(t, ctx, 20*time.Second, chromedp.Navigate(srv.URL))
	browsertest.Poll(t, ctx, `performance.getEntriesByName("genui-unpacked").length > 0`, 5*time.Second)
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify([window.a, window.b,
		getComputedStyle(document.getElementById("x"), "::after").content, getComputedStyle(document.querySelector("main")).display])`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `["😀é…","after 4","\"é…😀\"","block"]`; raw != want {
		t.Fatalf("got %s, want %s", raw, want)
	}
}
