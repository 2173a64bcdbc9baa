package e2e_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestCrossSitePagesCannotCallRefineOrDrain: a page on another loopback
// port (another dev server on the developer's machine) posts forms to the
// side server (text/plain bodies that spell JSON, and an empty urlencoded
// one) and loads /wait as images, in real Chromium against `genui serve`.
// None of it may call a tool, save a refinement or drain the agent's
// queue.
func TestCrossSitePagesCannotCallRefineOrDrain(t *testing.T) {
	mcpURL, _ := startServe(t)
	api := strings.TrimSuffix(mcpURL, "/mcp")
	localAPI := strings.Replace(api, "127.0.0.1", "localhost", 1)
	ctx := bounded(t, 3*time.Minute)

	// Watch everything the engine does while the page runs.
	var mu sync.Mutex
	var seen []string
	ectx, stopEvents := context.WithCancel(ctx)
	defer stopEvents()
	req, _ := http.NewRequestWithContext(ectx, "GET", api+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 4<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				mu.Lock()
				seen = append(seen, d)
				mu.Unlock()
			}
		}
	}()
	// Something for the agent in the queue, which the page must not take.
	post(t, api+"/api/preview/get_forecast/event", `{"type":"ui/message","payload":{"text":"for the agent"}}`)

	// The attacks: text/plain bodies that spell JSON (a form field named
	// `{"k":"v","x":"` with the value `"}` posts `{"k":"v","x":"="}`),
	// sent by forms that navigate the tab (the side server refuses being
	// framed, so a real attacker navigates) and by no-cors fetches.
	type attack struct{ url, body string }
	attacks := []attack{
		{api + "/api/tool/get_current_weather", `{"location":"Paris","x":"`},
		{api + "/api/preview/get_current_weather/call", `{"name":"get_current_weather","arguments":{"location":"Oslo"},"from":"host","x":"`},
		{api + "/api/preview/get_forecast/refine", `{"feedback":"refined by a foreign page","x":"`},
		{localAPI + "/api/tools/get_forecast/refine", `{"feedback":"refined by a foreign page too","x":"`},
		{localAPI + "/api/tool/_ui_refine", `{"toolName":"get_forecast","feedback":"via the wrapper","x":"`},
		{api + "/api/refresh", ""},
	}
	formPage := func(a attack) string {
		enc, input := "", ""
		if a.body != "" {
			enc, input = ` enctype="text/plain"`, fmt.Sprintf(`<input name="%s" value='"}'>`, html.EscapeString(a.body))
		}
		return fmt.Sprintf(`<!doctype html><form id="f" method="POST"%s action="%s">%s</form><script>document.getElementById("f").submit()</script>`,
			enc, a.url, input)
	}
	var fetches []string
	for _, a := range attacks {
		b, _ := json.Marshal(a.body + `="}`)
		fetches = append(fetches, fmt.Sprintf(`fetch(%q, {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: %s})`, a.url, b))
	}
	mainPage := `<!doctype html><title>evil</title><script>window.done = 0;</script>` +
		fmt.Sprintf(`<img src="%s/wait?timeout=0" onload="window.done++" onerror="window.done++">`, api) +
		fmt.Sprintf(`<img src="%s/wait?timeout=0&x=1" onload="window.done++" onerror="window.done++">`, localAPI) +
		`<script>Promise.allSettled([` + strings.Join(fetches, ",\n") + `]).then(() => { window.fetched = true; });</script>`
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/form/%d", &n); err == nil && n < len(attacks) {
			io.WriteString(w, formPage(attacks[n]))
			return
		}
		io.WriteString(w, mainPage)
	}))
	defer evil.Close()

	bctx := browsertest.Start(t)
	browsertest.Run(t, bctx, 30*time.Second, chromedp.Navigate(evil.URL+"/"))
	browsertest.Poll(t, bctx, `window.done >= 2 && window.fetched === true`, 30*time.Second)
	for i := range attacks {
		browsertest.Run(t, bctx, 30*time.Second, chromedp.Navigate(fmt.Sprintf("%s/form/%d", evil.URL, i)))
		// The form navigated the tab to the side server's answer.
		browsertest.Poll(t, bctx, `location.port !== `+fmt.Sprintf("%q", strings.TrimPrefix(evil.URL, "http://127.0.0.1:"))+` && document.readyState === "complete"`, 30*time.Second)
	}
	// A sentinel through the same API: what the attacks published came
	// before its event on the stream.
	post(t, api+"/api/preview/get_forecast/event", `{"type":"ui/message","payload":{"text":"sentinel after the attacks"}}`)
	testenv.Eventually(t, 30*time.Second, "the sentinel's event", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.ContainsFunc(seen, func(ev string) bool { return strings.Contains(ev, "sentinel after the attacks") })
	})

	mu.Lock()
	events := append([]string(nil), seen...)
	mu.Unlock()
	for _, ev := range events {
		var e struct {
			Kind   string `json:"kind"`
			Detail struct {
				Direction, Method string
			} `json:"detail"`
		}
		_ = json.Unmarshal([]byte(ev), &e)
		switch {
		case e.Kind == "traffic" && e.Detail.Method == "tools/call":
			t.Errorf("a tool was called: %s", clip([]byte(ev)))
		case e.Kind == "queue-drained":
			t.Errorf("the queue was drained: %s", clip([]byte(ev)))
		case e.Kind == "ui-updated" || strings.Contains(ev, "foreign page") || strings.Contains(ev, "via the wrapper"):
			t.Errorf("a refinement went through: %s", clip([]byte(ev)))
		}
	}
	if len(events) == 0 {
		t.Fatal("no events seen at all: the watch is broken")
	}
	var ins struct {
		History []any `json:"history"`
	}
	getJSON(t, api+"/api/tools/get_forecast", &ins)
	if len(ins.History) != 0 {
		t.Errorf("get_forecast has refinements: %v", ins.History)
	}
	var queued []struct {
		Type    string
		Payload struct{ Text string }
	}
	getJSON(t, api+"/wait?timeout=0", &queued)
	found := false
	for _, q := range queued {
		found = found || q.Type == "ui/message" && q.Payload.Text == "for the agent"
	}
	if !found {
		t.Errorf("the agent's event is gone from the queue: %+v", queued)
	}
}

// post sends a JSON body (as a program would: no Origin) and fails on an error status.
func post(t *testing.T, u, body string) {
	t.Helper()
	resp, err := http.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %d %s", u, resp.StatusCode, b)
	}
}

// getJSON decodes a GET's JSON answer.
func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %d %s: %v", u, resp.StatusCode, clip(b), err)
	}
}

// TestAllowedOriginFlag: `genui serve --allowed-origins vscode-webview://*`
// serves a VS Code webview's initialize (with a CORS grant); a web site and
// "null" still get 403.
func TestAllowedOriginFlag(t *testing.T) {
	mcpURL, _ := startServe(t, "--allowed-origins", "vscode-webview://*")
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"webview","version":"1"}}}`
	for origin, want := range map[string]int{"vscode-webview://1a2b3c": http.StatusOK, "https://evil.example": http.StatusForbidden, "null": http.StatusForbidden} {
		req, _ := http.NewRequestWithContext(bounded(t, 30*time.Second), "POST", mcpURL, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		grant := resp.Header.Get("Access-Control-Allow-Origin")
		if resp.StatusCode != want || (want == http.StatusOK) != (grant == origin) {
			t.Errorf("initialize from %s: %d, ACAO %q, %s; want %d", origin, resp.StatusCode, grant, clip(b), want)
		}
	}
}
