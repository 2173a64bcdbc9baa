package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
)

// The web host test: a browser MCP Apps host of genui's own
// (testdata/webhost, written against the official npm packages, laid out
// like the ext-apps basic-host: host page on one loopback port, sandbox
// proxy on another) talks to `genui serve` directly, with no proxy in
// between, from headless Chromium.

const clientEntry = "@modelcontextprotocol/client/dist/index.mjs"

// webHost serves the host page (one origin) and the sandbox proxy (another).
type webHost struct {
	page, sandbox *httptest.Server
}

func startWebHost(t *testing.T, mcpURL, mode string) *webHost {
	t.Helper()
	return startWebHostWith(t, mcpURL, mode, nil)
}

// startWebHostWith adds extra to the host page's configuration
// (forwardProgress: the host forwards the view's calls itself, with a long
// timeout and their progress).
func startWebHostWith(t *testing.T, mcpURL, mode string, extra map[string]any) *webHost {
	t.Helper()
	nm := filepath.Join(testenv.NPMDir(), "node_modules")
	for _, f := range []string{clientEntry, browsertest.ExtAppsBridge} {
		if _, err := os.Stat(filepath.Join(nm, filepath.FromSlash(f))); err != nil {
			testenv.Missingf(t, "npm file %s: %v", f, err)
		}
	}
	imports := map[string]string{
		"@modelcontextprotocol/client":              "/node_modules/" + clientEntry,
		"@modelcontextprotocol/ext-apps/app-bridge": "/node_modules/" + browsertest.ExtAppsBridge,
	}
	for _, entry := range []string{clientEntry, browsertest.ExtAppsBridge} {
		m, err := browsertest.ModuleImportMap(nm, entry, "/node_modules/")
		if err != nil {
			t.Fatalf("import map for %s: %v", entry, err)
		}
		for k, v := range m {
			imports[k] = v
		}
	}
	pageTmpl, err := os.ReadFile(filepath.Join("testdata", "webhost", "host.html"))
	if err != nil {
		t.Fatal(err)
	}
	sandboxHTML, err := os.ReadFile(filepath.Join("testdata", "webhost", "sandbox.html"))
	if err != nil {
		t.Fatal(err)
	}

	h := &webHost{}
	h.sandbox = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/sandbox.html" {
			http.NotFound(w, r)
			return
		}
		var csp struct {
			ConnectDomains  []string `json:"connectDomains"`
			ResourceDomains []string `json:"resourceDomains"`
		}
		_ = json.Unmarshal([]byte(r.URL.Query().Get("csp")), &csp)
		// The spec's default CSP, widened only by what the resource asks.
		connect := "'none'"
		if len(csp.ConnectDomains) > 0 {
			connect = strings.Join(csp.ConnectDomains, " ")
		}
		res := strings.Join(csp.ResourceDomains, " ")
		w.Header().Set("Content-Security-Policy", fmt.Sprintf("default-src 'none'; script-src 'self' 'unsafe-inline' %s; "+
			"style-src 'self' 'unsafe-inline' %s; img-src 'self' data: %s; media-src 'self' data:; font-src 'self' data:; "+
			"connect-src %s; frame-src 'none'; object-src 'none'; base-uri 'self'", res, res, res, connect))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(sandboxHTML)
	}))
	t.Cleanup(h.sandbox.Close)

	conf := map[string]any{"mcp": mcpURL, "sandbox": h.sandbox.URL + "/sandbox.html", "mode": mode}
	for k, v := range extra {
		conf[k] = v
	}
	cfg, _ := json.Marshal(conf)
	page := strings.NewReplacer("{{IMPORTMAP}}", browsertest.ImportMapScript(imports), "{{CONFIG}}", string(cfg)).Replace(string(pageTmpl))
	mux := http.NewServeMux()
	mux.Handle("/node_modules/", http.StripPrefix("/node_modules/", browsertest.NodeModulesHandler(nm)))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
	h.page = httptest.NewServer(mux)
	t.Cleanup(h.page.Close)
	return h
}

// hostState is window.host of the test web host.
type hostState struct {
	Errors       []string `json:"errors"`
	SessionIDs   []string `json:"sessionIds"`
	TransportSID *string  `json:"transportSession"`
	Protocol     *string  `json:"protocol"`
	Tools        []struct{ Name string }
	Wire         []wireEntry                        `json:"wire"`
	Panels       map[string]struct{ Status string } `json:"panels"`
}

type wireEntry struct {
	HTTPMethod string          `json:"httpMethod"`
	Method     string          `json:"method"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Status     int             `json:"status"`
}

func readHost(t *testing.T, ctx context.Context) hostState {
	t.Helper()
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	raw, err := chromedp.Run(rctx, chromedp.Evaluate[string](`JSON.stringify(window.host || null)`))
	if err != nil {
		t.Fatal(err)
	}
	var h hostState
	if err := json.Unmarshal([]byte(raw), &h); err != nil {
		t.Fatalf("window.host: %v: %s", err, raw)
	}
	return h
}

// inUI evaluates fn(window, document) in a tool's UI: the inner srcdoc
// frame inside the sandbox proxy frame #ui-<tool>.
func inUI(ctx context.Context, tool, fn string) (json.RawMessage, error) {
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return browsertest.FrameEval(rctx, "#ui-"+tool, `(w, d) => { const f = d.querySelector("iframe");
		if (!f || !f.contentDocument || !f.contentDocument.body) return null;
		return (`+fn+`)(f.contentWindow, f.contentDocument); }`)
}

// waitUI polls cond in a tool's UI until it is true.
func waitUI(t *testing.T, ctx context.Context, tool, cond string, d time.Duration) {
	t.Helper()
	var last json.RawMessage
	var err error
	holds := func() bool { last, err = inUI(ctx, tool, cond); return err == nil && string(last) == "true" }
	if testenv.Until(d, holds) {
		return
	}
	body, _ := inUI(ctx, tool, `(w, d) => JSON.stringify({rich: d.body.dataset.richViews, note: (d.getElementById("plain-note") || {}).textContent, state: d.body.dataset.state}) + " " + d.body.innerText.slice(0, 300)`)
	t.Fatalf("%s UI: %s not true within %s (last %s, %v); UI text: %s", tool, cond, d, last, err, body)
}

func pollPage(t *testing.T, ctx context.Context, expr string, d time.Duration) {
	t.Helper()
	rctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if _, err := chromedp.Run(rctx, chromedp.Poll[bool](expr)); err != nil {
		t.Fatalf("waiting for %s: %v (host state: %+v)", expr, err, readHost(t, ctx))
	}
}

// TestWebHostAgainstGenuiServe: the test web host, on its own loopback
// origin, connects to `genui serve` directly (CORS preflight answered,
// Mcp-Session-Id readable), lists the tools, calls get_forecast and
// datastore_search and renders their UIs through the sandbox proxy; the
// forecast UI's own form calls the tool back through the host. It works in
// the SDK's default (2025-11-25, sessions) and auto (2026-07-28) modes. A
// page on a foreign origin (a non-loopback host name mapped to 127.0.0.1)
// is refused.
func TestWebHostAgainstGenuiServe(t *testing.T) {
	// Not --debug: the pages are served packed, as to any host, so the
	// datastore page reads its rich views from genui through the host.
	mcpURL, dir := startServe(t, "--log-level", "debug")
	ctx := browsertest.Start(t, chromedp.Flag("host-resolver-rules", "MAP foreign.test 127.0.0.1"))

	for _, mode := range []string{"legacy", "auto"} {
		t.Run(mode, func(t *testing.T) {
			wh := startWebHost(t, mcpURL, mode)
			browsertest.Run(t, ctx, 30*time.Second, chromedp.Navigate(wh.page.URL+"/"))
			pollPage(t, ctx, `document.body.dataset.status !== "loading"`, 30*time.Second)
			h := readHost(t, ctx)
			if len(h.Errors) > 0 || h.Protocol == nil {
				t.Fatalf("the web host did not connect: %+v", h)
			}
			// The browser really preflighted /mcp, and genui answered. (Checked
			// here, by a subtest that connected: one skipped for a missing npm
			// package made no request to look for.)
			log, err := os.ReadFile(filepath.Join(dir, "log", "genui.log"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(log), `"method":"OPTIONS","path":"/mcp","status":204`) {
				t.Errorf("genui.log shows no answered preflight of /mcp")
			}
			switch mode {
			case "legacy":
				if *h.Protocol != "2025-11-25" || len(h.SessionIDs) == 0 || h.TransportSID == nil || *h.TransportSID != h.SessionIDs[0] {
					t.Fatalf("legacy mode: protocol %s, session ids read by the page %v, transport's %v", *h.Protocol, h.SessionIDs, h.TransportSID)
				}
			case "auto":
				if *h.Protocol != "2026-07-28" || len(h.SessionIDs) != 0 {
					t.Fatalf("auto mode: protocol %s, session ids %v (the stateless revision has none)", *h.Protocol, h.SessionIDs)
				}
			}
			names := map[string]bool{}
			for _, tool := range h.Tools {
				names[tool.Name] = true
			}
			if !names["get_forecast"] || !names["datastore_search"] {
				t.Fatalf("tools listed by the web host: %v", names)
			}

			// get_forecast: called, its UI rendered with the result.
			browsertest.Run(t, ctx, 10*time.Second, chromedp.Evaluate[chromedp.Void](`runTool("get_forecast", {location: "Oslo", days: 3})`))
			pollPage(t, ctx, `window.host.panels.get_forecast && window.host.panels.get_forecast.status !== "calling" && window.host.panels.get_forecast.status !== "initialized"`, 30*time.Second)
			if h := readHost(t, ctx); h.Panels["get_forecast"].Status != "result" {
				t.Fatalf("get_forecast panel: %+v", h)
			}
			waitUI(t, ctx, "get_forecast", `(w, d) => d.body.dataset.state === "result" && d.getElementById("result").textContent.includes("Oslo")`, 20*time.Second)

			// A call-back: the UI's own form calls get_forecast through the
			// host (AppBridge -> SDK client -> genui).
			if _, err := inUI(ctx, "get_forecast", `(w, d) => { const f = d.getElementById("f-location"); f.value = "Bergen";
				f.dispatchEvent(new w.Event("input", {bubbles: true})); d.getElementById("submit").click(); return true; }`); err != nil {
				t.Fatal(err)
			}
			waitUI(t, ctx, "get_forecast", `(w, d) => d.getElementById("result").textContent.includes("Bergen")`, 20*time.Second)
			callback := false
			for _, e := range readHost(t, ctx).Wire {
				if e.Method == "tools/call" && e.Name == "get_forecast" && strings.Contains(string(e.Arguments), `"Bergen"`) && e.Status == http.StatusOK {
					callback = true
				}
			}
			if !callback {
				t.Fatalf("no tools/call for Bergen went from the host to genui: %+v", readHost(t, ctx).Wire)
			}

			// datastore_search: called, its UI rendered with rows: the page read its
			// rich views from genui serve through the host (resources/read).
			browsertest.Run(t, ctx, 10*time.Second, chromedp.Evaluate[chromedp.Void](`runTool("datastore_search", {q: "garden", limit: 5})`))
			pollPage(t, ctx, `window.host.panels.datastore_search && ["result", "error"].includes(window.host.panels.datastore_search.status)`, 30*time.Second)
			if h := readHost(t, ctx); h.Panels["datastore_search"].Status != "result" || len(h.Errors) > 0 {
				t.Fatalf("datastore_search panel: %+v", h)
			}
			waitUI(t, ctx, "datastore_search", `(w, d) => d.body.dataset.state === "result" && d.body.dataset.richViews === "in" && d.querySelectorAll("#result tbody tr").length > 0`, 20*time.Second)

			// Every request of the session was accepted.
			for _, e := range readHost(t, ctx).Wire {
				if e.Status != http.StatusOK && e.Status != http.StatusAccepted {
					t.Errorf("request %+v failed", e)
				}
			}
		})
	}

	// A foreign origin: the same page served as http://foreign.test:PORT.
	t.Run("foreign origin", func(t *testing.T) {
		wh := startWebHost(t, mcpURL, "legacy")
		u, _ := url.Parse(wh.page.URL)
		browsertest.Run(t, ctx, 30*time.Second, chromedp.Navigate("http://foreign.test:"+u.Port()+"/"))
		pollPage(t, ctx, `document.body.dataset.status !== "loading"`, 30*time.Second)
		h := readHost(t, ctx)
		if h.Protocol != nil || len(h.Errors) == 0 || !strings.Contains(strings.Join(h.Errors, " "), "Failed to fetch") {
			t.Fatalf("a page on a foreign origin reached genui: %+v", h)
		}
	})
}
