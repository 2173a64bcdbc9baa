package gen

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
)

// exfilListeners are a UDP listener (a TURN server's port) and an HTTP
// listener on 127.0.0.1 that count what reaches them.
type exfilListeners struct {
	udp      *net.UDPConn
	udpHits  atomic.Int64
	http     *httptest.Server
	httpHits atomic.Int64
}

func newExfilListeners(t *testing.T) *exfilListeners {
	t.Helper()
	x := &exfilListeners{}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	x.udp = udp
	t.Cleanup(func() { _ = udp.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := udp.ReadFromUDP(buf); err != nil {
				return
			}
			x.udpHits.Add(1)
		}
	}()
	x.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { x.httpHits.Add(1) }))
	t.Cleanup(x.http.Close)
	return x
}

func (x *exfilListeners) hits() (udp, http int64) { return x.udpHits.Load(), x.httpHits.Load() }

// secretResult is a forecast result whose data the hostile page tries to
// carry out (and whose conditions hold markup).
const secretResult = `{content: [{type: "text", text: "2 days"}], structuredContent: {location: "Oslo", secret: "s3cr3t-token",
  days: [{date: "2026-01-16", high: 3, low: -2, conditions: "<img src=x onerror=\"document.body.dataset.pwned='data'\">"},
         {date: "2026-01-17", high: 1, low: -5, conditions: "clear", link: "javascript:document.body.dataset.pwned='link'"}]}}`

// TestSpecModeHostileAnswerInBrowser (issue 32): an LLM with no mode set
// (the spec mode) whose provider answers with a hostile page (a WebRTC peer
// connection with the result as TURN username, a navigation to a listener,
// tool data put in with innerHTML): the answer is rejected as not a spec,
// re-asked once, and the offline page stands in with the reason. In
// headless Chromium that page gets the result: no model-written script
// runs and neither the UDP nor the HTTP listener on 127.0.0.1 receives
// anything. The control serves the same hostile answer as a page (checks
// bypassed): the listeners do receive, so they would have seen a leak.
func TestSpecModeHostileAnswerInBrowser(t *testing.T) {
	f, ui := newFixture(t)
	deliver := func() {
		f.eval(`(bridge.sendToolInput({location: "Oslo"}), bridge.sendToolResult(`+secretResult+`), true)`, nil)
	}

	// Each run has listeners of its own: a TURN client's retransmissions
	// from the control never count against the spec page.
	t.Run("control", func(t *testing.T) {
		f.t = t
		x := newExfilListeners(t)
		ui.addHTML("hostile_control", pagecsp.Apply(mcpshim.Inject(hostileAnswer(x.udp.LocalAddr().String(), x.http.URL))))
		f.open("hostile_control")
		deliver()
		if !testenv.Until(20*time.Second, func() bool { u, h := x.hits(); return u+h > 0 }) {
			t.Fatal("control: the hostile page served as is reached neither listener: the test could not see a leak")
		}
		u, h := x.hits()
		t.Logf("control: the hostile page reached the listeners (udp %d, http %d)", u, h)
	})
	f.t = t

	x := newExfilListeners(t)
	r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: hostileAnswer(x.udp.LocalAddr().String(), x.http.URL)}, specMode)
	res := r.generate("hostile")
	wantChain(t, res, "generated!", "re-asked!", "offline")
	if r.srv.Count() != 2 || res.UIType != UITypeOfflineRich || !strings.Contains(res.FallbackReason, "not one JSON object") {
		t.Fatalf("served %s after %d requests (reason %q)", res.UIType, r.srv.Count(), res.FallbackReason)
	}
	if _, ok := specOfPage(res.HTML); !ok {
		t.Fatal("the page served is not a spec page")
	}
	ui.addHTML("hostile_spec", res.HTML)
	f.open("hostile_spec")
	deliver()
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.body.textContent.includes("2026-01-17")`)
	// The markup in the data is text on the page, not an element.
	var page struct {
		Imgs  int
		Pwned *string
		Text  bool
	}
	if err := json.Unmarshal(f.frame(`(w, d) => ({Imgs: d.querySelectorAll("img[src=x]").length, Pwned: d.body.dataset.pwned || null,
		Text: d.body.textContent.includes("<img src=x onerror=")})`), &page); err != nil {
		t.Fatal(err)
	}
	if page.Imgs != 0 || page.Pwned != nil || !page.Text {
		t.Errorf("the tool's markup: %+v (want no element, no handler run, the markup shown as text)", page)
	}
	// Nothing leaves: watch longer than the control needed.
	if testenv.Until(5*time.Second, func() bool { u, h := x.hits(); return u+h != 0 }) {
		u, h := x.hits()
		t.Fatalf("the spec page reached a listener: udp %d, http %d", u, h)
	}
	var frame struct{ PC, Href string }
	_ = json.Unmarshal(f.frame(`(w, d) => ({PC: typeof w.pc, Href: w.location.href})`), &frame)
	if frame.PC != "undefined" || strings.Contains(frame.Href, x.http.URL) {
		t.Errorf("model-written script ran in the frame: %+v", frame)
	}
}

// TestSpecModePageInBrowser: the model's spec (a title and an order of
// columns with labels, hostile strings in them) is what the page draws in
// Chromium: the heading is the spec's title as text, the table's columns
// come in the spec's order with its labels, and no markup of the spec
// becomes an element.
func TestSpecModePageInBrowser(t *testing.T) {
	const spec = `{"version": 1, "title": "Oslo <img src=x onerror=\"document.body.dataset.pwned='title'\"> days", "principal": "/days",
	  "view": {"kind": "table", "columns": [{"field": "low", "label": "Low <b>°C</b>"}, {"field": "date", "label": "javascript:alert(1)"}, {"field": "high"},
	    {"field": "link", "format": "link"}, {"field": "conditions", "format": "markdown"}]}}`
	r := newWireRig(t, llmtest.OpenAI, llmtest.Reply{Text: spec}, specMode)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := r.llm.Generate(ctx, Request{Tool: forecastTool, Key: "k", Example: json.RawMessage(forecastExample)})
	if err != nil {
		t.Fatal(err)
	}
	wantChain(t, res, "generated")
	f, ui := newFixture(t)
	ui.addHTML("spec_page", res.HTML)
	f.open("spec_page")
	f.eval(`(bridge.sendToolInput({location: "Oslo"}), bridge.sendToolResult(`+secretResult+`), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.querySelectorAll("table th").length > 0`)
	var got struct {
		Title   string
		Headers []string
		Imgs    int
		Bolds   int
		Links   int
		Pwned   *string
	}
	if err := json.Unmarshal(f.frame(`(w, d) => ({Title: d.getElementById("tool-title").textContent,
		Headers: [...d.querySelectorAll("table th")].map((th) => th.textContent.trim()).filter(Boolean),
		Imgs: d.querySelectorAll("img[src=x]").length, Bolds: d.querySelectorAll("th b").length,
		Links: [...d.querySelectorAll("a")].filter((a) => !/^(https?:|mailto:|#|$)/i.test(a.getAttribute("href") || "")).length,
		Pwned: d.body.dataset.pwned || null})`), &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Title, `Oslo <img src=x onerror=`) {
		t.Errorf("the heading is %q, want the spec's title as text", got.Title)
	}
	want := []string{"Low <b>°C</b>", "javascript:alert(1)", "high"}
	if len(got.Headers) < 3 || !strings.HasPrefix(got.Headers[0], want[0]) || !strings.HasPrefix(got.Headers[1], want[1]) || !strings.HasPrefix(got.Headers[2], want[2]) {
		t.Errorf("the table's headers are %q, want the spec's order and labels %q", got.Headers, want)
	}
	if got.Imgs != 0 || got.Bolds != 0 || got.Links != 0 || got.Pwned != nil {
		t.Errorf("markup of the spec became elements: %+v", got)
	}
}
