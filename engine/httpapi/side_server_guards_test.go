package httpapi

// Guards of the side server: the UI origin and frames cannot reach the API,
// deep links need a trusted navigation, waits are bounded, bad input is
// refused, stalled event streams are dropped, port files are kept for their
// live owner. Each pinned a defect and failed before its fix.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
)

// do sends one request with headers (pairs) to base+path, bounded.
func do(t *testing.T, method, u, body string, headers ...string) (int, http.Header, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json") // what programs send; headers may override it
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestAPIRefusesUIOrigin: a UI (generated, or an upstream's own) must not
// reach the API. Its default CSP stops fetch() but not a form post, and a
// text/plain form whose field name is `{"x":"` posts a valid JSON object.
func TestAPIRefusesUIOrigin(t *testing.T) {
	p := startPreview(t, demoConfig())
	pushed := mustState(t, p.e).Events.Pushed
	uiPort := p.uiTS.URL[strings.LastIndex(p.uiTS.URL, ":")+1:]
	formBody := `{"x":"=y"}` + "\r\n" // what <form enctype=text/plain> sends
	for _, origin := range []string{p.uiTS.URL, "http://localhost:" + uiPort} {
		for _, c := range []struct{ path, body string }{
			{"/api/tool/reset_demo", formBody},
			{"/api/tool/_ui_regenerate", `{"toolName":"get_forecast"}`},
			{"/api/preview/reset_demo/call", `{"name":"reset_demo","from":"host"}`},
			{"/api/preview/get_forecast/event", `{"type":"ui/message","payload":{}}`},
		} {
			code, _, body := do(t, "POST", p.apiTS.URL+c.path, c.body, "Origin", origin, "Content-Type", "text/plain")
			if code != http.StatusForbidden || !strings.Contains(body, "UI origin") {
				t.Errorf("POST %s from %s: %d %s, want 403", c.path, origin, code, body)
			}
		}
	}
	if st := mustState(t, p.e); st.Events.Pushed != pushed {
		t.Errorf("requests from the UI origin reached the queue: %+v", st.Events)
	}
	// The preview page's own requests (API origin) still work.
	if code, _, body := do(t, "POST", p.apiTS.URL+"/api/tool/_ui_list", "{}", "Origin", p.apiTS.URL); code != 200 {
		t.Errorf("same-origin call: %d %s", code, body)
	}
}

// TestAPINeverFramed: a UI that navigates its own iframe to the API origin
// must neither drain /wait nor get a preview page that calls tools as the
// host; the preview page also forbids framing in its headers.
func TestAPINeverFramed(t *testing.T) {
	p := startPreview(t, demoConfig())
	p.e.AgentQueue().Push("test", "marker", "", nil)
	queued := p.e.AgentQueue().Len()
	code, _, body := do(t, "GET", p.apiTS.URL+"/wait?timeout=0", "", "Sec-Fetch-Dest", "iframe", "Sec-Fetch-Site", "same-site")
	if code != http.StatusForbidden {
		t.Errorf("framed /wait: %d %s, want 403", code, body)
	}
	if p.e.AgentQueue().Len() != queued {
		t.Errorf("a framed /wait drained the queue (len %d)", p.e.AgentQueue().Len())
	}
	code, _, _ = do(t, "GET", p.apiTS.URL+"/preview/reset_demo?conserve=1&call=1", "", "Sec-Fetch-Dest", "iframe", "Sec-Fetch-Site", "same-site")
	if code != http.StatusForbidden {
		t.Errorf("framed preview page: %d, want 403", code)
	}
	code, hdr, _ := do(t, "GET", p.apiTS.URL+"/preview/get_forecast?conserve=1", "")
	if code != 200 || !strings.Contains(hdr.Get("Content-Security-Policy"), "frame-ancestors 'none'") || hdr.Get("X-Frame-Options") != "DENY" {
		t.Errorf("preview page: %d CSP %q XFO %q, want frame-ancestors 'none' and DENY", code, hdr.Get("Content-Security-Policy"), hdr.Get("X-Frame-Options"))
	}
}

var previewDataRE = regexp.MustCompile(`(?s)<script type="application/json" id="preview-data">(.*?)</script>`)

// previewConfig fetches a preview page and returns its #preview-data JSON
// and the page.
func previewConfigOf(t *testing.T, u string, headers ...string) (map[string]any, string) {
	t.Helper()
	code, _, body := do(t, "GET", u, "", headers...)
	m := previewDataRE.FindStringSubmatch(body)
	if code != 200 || m == nil {
		t.Fatalf("GET %s: %d, no preview data", u, code)
	}
	var cfg map[string]any
	if err := json.Unmarshal([]byte(m[1]), &cfg); err != nil {
		t.Fatalf("preview data: %v\n%s", err, m[1])
	}
	return cfg, body
}

// TestPreviewDeepLinkCallOnlyFromTrustedNavigation: any web page can send
// the browser to /preview/TOOL?call=1&args=...; such a link must not run the
// tool by itself. A URL the user opens (genui preview, a typed URL) or a
// same-origin navigation (tool switch, conserve hand-over) still calls.
func TestPreviewDeepLinkCallOnlyFromTrustedNavigation(t *testing.T) {
	p := startPreview(t, demoConfig())
	u := p.apiTS.URL + "/preview/get_forecast?conserve=1&call=1" + argsQuery(`{"location":"Paris"}`)
	for _, site := range []string{"cross-site", "same-site"} {
		cfg, page := previewConfigOf(t, u, "Sec-Fetch-Site", site, "Sec-Fetch-Mode", "navigate", "Sec-Fetch-Dest", "document")
		if cfg["call"] != false {
			t.Errorf("Sec-Fetch-Site %s: call=%v, want false", site, cfg["call"])
		}
		if !strings.Contains(html.UnescapeString(page), "not called automatically") {
			t.Errorf("Sec-Fetch-Site %s: the page does not say why the tool was not called", site)
		}
	}
	for _, site := range []string{"", "none", "same-origin"} {
		cfg, _ := previewConfigOf(t, u, "Sec-Fetch-Site", site)
		if cfg["call"] != true || cfg["argsError"] != nil {
			t.Errorf("Sec-Fetch-Site %q: call=%v argsError=%v, want a call", site, cfg["call"], cfg["argsError"])
		}
	}
}

// TestPreviewVisibilityOfUIPrefixedUpstreamTool: an upstream tool whose name
// starts with _ui_ is still an upstream tool; its visibility is enforced.
func TestPreviewVisibilityOfUIPrefixedUpstreamTool(t *testing.T) {
	p := startPreview(t, testUpstreamConfig())
	if _, ok := p.e.Registry().Get("_ui_secret"); !ok {
		t.Fatal("test upstream lacks _ui_secret")
	}
	code, out := p.post(t, "/api/preview/hostile/call", `{"name":"_ui_secret","arguments":{},"from":"ui"}`)
	if code != http.StatusForbidden || !strings.Contains(string(out["error"]), "not callable from an app") {
		t.Fatalf("UI call of a model-only _ui_ tool: %d %s", code, out)
	}
	// genui's own wrappers are model-only too; the host may call the tool.
	if code, out := p.post(t, "/api/preview/hostile/call", `{"name":"_ui_list","arguments":{},"from":"ui"}`); code != http.StatusForbidden {
		t.Errorf("_ui_list from a UI: %d %s, want 403", code, out)
	}
	if code, out := p.post(t, "/api/preview/hostile/call", `{"name":"_ui_secret","arguments":{},"from":"host"}`); code != 200 {
		t.Errorf("_ui_secret from the host: %d %s", code, out)
	}
}

// TestToolCallBoundedWhenUpstreamNeverReady: POST /api/tool/{name} for a
// tool not (yet) known must not wait forever for an upstream that never
// answers tools/list.
func TestToolCallBoundedWhenUpstreamNeverReady(t *testing.T) {
	silent := upstream.Config{Transport: "inprocess", InProcess: func(ctx context.Context, r io.Reader, w io.Writer) error {
		_, _ = io.Copy(io.Discard, r) // reads everything, answers nothing
		return nil
	}}
	base, _ := startSideServer(t, engine.Options{Upstream: silent, Dir: t.TempDir(), ToolLookupWait: 300 * time.Millisecond})
	// An answer at all is the claim: one that waited for the upstream
	// would never come (do's own bound fails the test); 503 "not ready"
	// says the 300 ms lookup wait ended it.
	code, _, body := do(t, "POST", base+"/api/tool/get_weather", `{}`)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "not ready") {
		t.Errorf("tool call with a silent upstream: %d %s, want 503 not ready", code, body)
	}
}

// TestPreviewAPIBadInput: the page API's other routes refuse bad input with
// a clear error instead of passing it on.
func TestPreviewAPIBadInput(t *testing.T) {
	p := startPreview(t, demoConfig())
	for _, c := range []struct {
		path, body string
		want       int
		contains   string
	}{
		{"/api/preview/get_forecast/resources", `[1,2]`, 400, "JSON object"},
		{"/api/preview/get_forecast/resources", `null`, 400, "JSON object"},
		{"/api/preview/get_forecast/resources", `"x"`, 400, "JSON object"},
		{"/api/preview/no_such_tool/event", `{"type":"ui/message","payload":{}}`, 404, "no_such_tool"},
		{"/api/preview/no_such_tool/refine", `{"feedback":"bigger"}`, 404, "no_such_tool"},
	} {
		code, out := p.post(t, c.path, c.body)
		if code != c.want || !strings.Contains(string(out["error"]), c.contains) {
			t.Errorf("POST %s %s: %d %s, want %d with %q", c.path, c.body, code, out, c.want, c.contains)
		}
	}
	if code, out := p.post(t, "/api/preview/get_forecast/resources", `{}`); code != 200 && code != 502 {
		t.Errorf("resources/list {}: %d %s", code, out)
	}
}

// TestEventsDropsClientThatStopsReading: an /events client that keeps its
// connection open but stops reading must not pin the handler goroutine and
// its broker subscription forever.
func TestEventsDropsClientThatStopsReading(t *testing.T) {
	old := sseWriteTimeout
	sseWriteTimeout = 300 * time.Millisecond
	t.Cleanup(func() { sseWriteTimeout = old })
	p := startPreview(t, demoConfig())
	if p.e.Streaming() {
		t.Fatal("someone watches events before the /events client connects")
	}
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(p.apiTS.URL, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096)
	}
	fmt.Fprintf(conn, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(conn)
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, "200") {
		t.Fatalf("GET /events: %q %v", line, err)
	}
	if !p.e.Streaming() {
		t.Fatal("the /events client is not subscribed after its 200")
	}
	// Now never read again, and publish far more than the socket buffers
	// (each traffic event carries a frame cut to contract.MaxTrafficFrame).
	big := []byte(strconv.Quote(strings.Repeat("x", 64<<10)))
	dropped := func() bool {
		for range 16 {
			p.e.TraceFrame(contract.HostToGenui, "", big, 0)
		}
		return !p.e.Streaming()
	}
	if !testenv.Until(15*time.Second, dropped) {
		t.Fatalf("the /events handler of a client that stopped reading is still subscribed after 15 s")
	}
}

// sleeper starts a live process that is not this one, for port-file owners.
func sleeper(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd.Process.Pid
}

// serveInDir runs Serve on random ports with Dir=dir until the returned stop
// is called (bounded).
func serveInDir(t *testing.T, dir string) (*Server, func()) {
	t.Helper()
	return serveWith(t, dir, false)
}

// serveWith is serveInDir, yielding DIR's port files when yield is set.
func serveWith(t *testing.T, dir string, yield bool) (*Server, func()) {
	t.Helper()
	e, err := engine.New(engine.Options{Upstream: demoConfig(), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Dir: dir, YieldPortFiles: yield})
	uiLn, apiLn, err := Listen(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, uiLn, apiLn) }()
	// Until this server has settled DIR's port files: they name its port,
	// or it found another live genui's (or could not write them). Files an
	// earlier server wrote do not count.
	testenv.Until(10*time.Second, func() bool { return portFilesSettled(s, dir) })
	return s, func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Serve did not return within 10 s")
		}
	}
}

func portFilesSettled(s *Server, dir string) bool {
	base := s.APIBase()
	if base == "" {
		return false
	}
	if s.PortConflict() != nil || s.PortFilesError() != nil {
		return true
	}
	b, err := os.ReadFile(filepath.Join(dir, "mcp-port"))
	return err == nil && string(b) == base[strings.LastIndex(base, ":")+1:]+"\n"
}

func fileWritten(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "mcp-port"))
	return err == nil
}

// TestPortFilesOfLiveGenuiKept: a second genui in the same DIR must not
// silently take over (or, on exit, delete) the port files of a live one
// (the one holding DIR/genui.lock).
func TestPortFilesOfLiveGenuiKept(t *testing.T) {
	dir := t.TempDir()
	first, stopFirst := serveInDir(t, dir)
	live, err := os.ReadFile(filepath.Join(dir, "mcp-port"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimPrefix(first.APIBase(), "http://127.0.0.1:") + "\n"; string(live) != want {
		t.Fatalf("mcp-port = %q, want the port alone (%q)", live, want)
	}
	second, stop := serveInDir(t, dir)
	testenv.Until(10*time.Second, func() bool { return second.PortConflict() != nil })
	if err := second.PortConflict(); err == nil || !strings.Contains(err.Error(), strconv.Itoa(os.Getpid())) ||
		!strings.Contains(err.Error(), strings.TrimSpace(string(live))) || !strings.Contains(err.Error(), "--dir") {
		t.Errorf("PortConflict() = %v, want a message naming the owner's pid and port and --dir", err)
	}
	check := func(when string) {
		if b, err := os.ReadFile(filepath.Join(dir, "mcp-port")); err != nil || string(b) != string(live) {
			t.Errorf("%s: mcp-port = %q, %v; want the live genui's %q", when, b, err, live)
		}
	}
	check("while serving")
	stop()
	check("after the second exits")
	stopFirst()
	for _, f := range []string{"ui-port", "mcp-port"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("the owner's %s not removed on exit: %v", f, err)
		}
	}

	// We own the files and something else rewrites one while we run (an
	// older genui that knows no lock): our exit must not delete it.
	dir2 := t.TempDir()
	_, stop2 := serveInDir(t, dir2)
	if !fileWritten(dir2) {
		t.Fatal("mcp-port not written")
	}
	if err := os.WriteFile(filepath.Join(dir2, "mcp-port"), []byte("4242\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop2()
	if b, err := os.ReadFile(filepath.Join(dir2, "mcp-port")); err != nil || string(b) != "4242\n" {
		t.Errorf("exit removed another genui's mcp-port: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir2, "ui-port")); !os.IsNotExist(err) {
		t.Errorf("our own ui-port not removed on exit: %v", err)
	}
}

// TestPortFileNamingAnotherLiveProcessIsStale: a port file left by a dead
// genui whose pid now belongs to another live process (here a sleep, and
// this very test process) does not stop a new genui from writing its own:
// only a genui holding DIR/genui.lock owns them.
func TestPortFileNamingAnotherLiveProcessIsStale(t *testing.T) {
	for _, pid := range []int{sleeper(t), os.Getpid()} {
		dir := t.TempDir()
		stale := fmt.Sprintf("4242\n%d\n", pid)
		for _, f := range []string{"ui-port", "mcp-port"} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(stale), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, alive, err := ReadPortFile(filepath.Join(dir, "mcp-port")); err != nil || alive {
			t.Errorf("stale port file of pid %d: alive=%v err=%v", pid, alive, err)
		}
		s, stop := serveInDir(t, dir)
		want := strings.TrimPrefix(s.APIBase(), "http://127.0.0.1:") + "\n"
		if !testenv.Until(10*time.Second, func() bool {
			b, _ := os.ReadFile(filepath.Join(dir, "mcp-port"))
			return string(b) == want
		}) {
			b, _ := os.ReadFile(filepath.Join(dir, "mcp-port"))
			t.Fatalf("pid %d: mcp-port = %q, want our %q (conflict: %v)", pid, b, want, s.PortConflict())
		}
		if port, alive, err := ReadPortFile(filepath.Join(dir, "mcp-port")); err != nil || !alive || fmt.Sprintf("%d\n", port) != want {
			t.Errorf("ReadPortFile of a live genui: %d %v %v", port, alive, err)
		}
		stop()
	}
}

// TestUnwritablePortFileKeepsServing: when the port files cannot be
// written (a full disk; here a directory where mcp-port goes) the side
// server warns and serves anyway: its files never take the server (and
// with it `genui mcp`) down.
func TestUnwritablePortFileKeepsServing(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "mcp-port"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, stop := serveInDir(t, dir)
	defer stop() // serveInDir returned once the port files were settled: here, failed
	if code, _, body := do(t, "GET", s.APIBase()+"/state", ""); code != http.StatusOK {
		t.Fatalf("GET /state: %d %s", code, body)
	}
	if err := s.PortFilesError(); err == nil || !strings.Contains(err.Error(), "mcp-port") {
		t.Fatalf("PortFilesError() = %v, want the failed write named", err)
	}
}

// keep imports used when tests are trimmed.
var _ = url.QueryEscape
var _ contract.QueuedEvent

// startSideServer runs an engine with opts behind the side server (the
// host's base a closed port) and returns the side server's URL and the
// engine, which is stopped, within a bound, when tb ends.
func startSideServer(tb testing.TB, opts engine.Options) (string, *engine.Engine) {
	tb.Helper()
	e, err := engine.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	s := New(Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Host: host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry()})})
	ts := httptest.NewServer(s.Handler())
	s.SetBases("http://127.0.0.1:1", ts.URL)
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			tb.Error("engine did not stop within 10 s")
		}
	})
	return ts.URL, e
}
