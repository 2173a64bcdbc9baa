package gen

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
)

// htmlMode selects the generation mode in which the model writes the whole
// page (HTML and script): the mode the page-safety tests are about. It is
// the one place these tests choose it.
func htmlMode(c *Config) { c.Mode = ModeHTML }

// quietWindow is how long a test waits for something that must not
// arrive, once the page's hostile code has run; the controls show that
// what does arrive arrives well within it.
const quietWindow = 3 * time.Second

// leakListeners are a UDP and an HTTP listener on 127.0.0.1 that a hostile
// page tries to reach: a TURN server for WebRTC and a web server for a
// navigation.
type leakListeners struct {
	udp     net.PacketConn
	udpGot  chan string
	web     *httptest.Server
	webGot  chan string
	udpAddr string
}

func newLeakListeners(t *testing.T) *leakListeners {
	t.Helper()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &leakListeners{udp: udp, udpGot: make(chan string, 64), webGot: make(chan string, 64), udpAddr: udp.LocalAddr().String()}
	t.Cleanup(func() { udp.Close() })
	go func() {
		buf := make([]byte, 4096)
		for {
			n, _, err := udp.ReadFrom(buf)
			if err != nil {
				return
			}
			select {
			case l.udpGot <- fmt.Sprintf("%d bytes %q", n, buf[:min(n, 60)]):
			default:
			}
		}
	}()
	l.web = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case l.webGot <- r.URL.String():
		default:
		}
		_, _ = w.Write([]byte("got it"))
	}))
	t.Cleanup(l.web.Close)
	return l
}

// nothing fails the test if anything reaches either listener within
// quietWindow.
func (l *leakListeners) nothing(t *testing.T) {
	t.Helper()
	select {
	case p := <-l.udpGot:
		t.Fatalf("the UDP listener received %s", p)
	case u := <-l.webGot:
		t.Fatalf("the HTTP listener received %s", u)
	case <-time.After(quietWindow):
	}
}

// arrives waits (bounded) for something at the listener ch and says when.
func arrives(t *testing.T, ch chan string, what string) string {
	t.Helper()
	start := time.Now()
	select {
	case got := <-ch:
		t.Logf("control: the %s listener received %s after %s", what, got, time.Since(start).Round(time.Millisecond))
		return got
	case <-time.After(20 * time.Second):
		t.Fatalf("control: nothing reached the %s listener within 20 s: the test could not see a leak", what)
		return ""
	}
}

// leakResult is the tool result the hostile pages try to carry out.
const leakResult = `{content: [{type: "text", text: "the secret"}], structuredContent: {secret: "S3CRET-result-42"}}`

// runHostile serves page as name, sends it the result and waits until its
// hostile code ran (data-attempt), returning the errors it met.
func runHostile(f *fixture, ui *uiServer, name, page string) map[string]string {
	f.t.Helper()
	ui.addHTML(name, page)
	f.open(name)
	f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult(`+leakResult+`), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.attempt === "done"`)
	var marks map[string]string
	f.frameJSON(`(w, d) => Object.assign({}, d.body.dataset)`, &marks)
	return marks
}

// leave navigates the browser away from the host page, closing its frame.
func leave(f *fixture) {
	f.t.Helper()
	browsertest.Run(f.t, f.ctx, 10*time.Second, chromedp.Navigate("about:blank"))
}

// unguarded serves a model's page as genui did before the page guard:
// the shim before the first script of <head>, the CSP with
// 'strict-dynamic'.
func unguarded(page string) string {
	p := mcpshim.Inject(page)
	meta := `<meta http-equiv="Content-Security-Policy" content="` + pagecsp.Policy(pagecsp.ScriptHashes(p), true) + `">`
	i := strings.Index(p, "<head>") + len("<head>")
	return p[:i] + meta + p[i:]
}

// TestLLMPageCannotLeakThroughWebRTC (issue 34 item 1): a model-written
// page that hands the result to a TURN server on a UDP listener of
// 127.0.0.1, through an alias of RTCPeerConnection, the webkit name, or a
// fresh realm of a frame (made with createElement, from constant markup
// reached through frames[0] or contentWindow, or in its own markup), or a
// WebTransport session to it, sends nothing, served as genui serves it
// even with the checks bypassed. Through the whole chain (a stand-in
// provider answering with the page) nothing arrives either. The control:
// the alias page as genui served it before (no guard) reaches the
// listener.
func TestLLMPageCannotLeakThroughWebRTC(t *testing.T) {
	f, ui := newFixture(t)
	// Each case has listeners of its own: a peer connection retransmits
	// for many seconds after its frame is gone.
	t.Run("control", func(t *testing.T) {
		l := newLeakListeners(t)
		runHostile(f, ui, "webrtc_control", unguarded(llmtest.WebRTCLeakPages(l.udpAddr)["alias"]))
		arrives(t, l.udpGot, "UDP")
		leave(f)
	})
	for _, name := range []string{"alias", "webkit", "iframe-realm", "markup-realm", "markup-contentwindow", "parser-realm", "webtransport"} {
		t.Run("guarded/"+name, func(t *testing.T) {
			l := newLeakListeners(t)
			marks := runHostile(f, ui, "webrtc_"+name, servedLLMPage(llmtest.WebRTCLeakPages(l.udpAddr)[name]))
			if marks["error0"] == "" {
				t.Errorf("the page's WebRTC attempt did not fail: %v", marks)
			}
			t.Logf("the page met: %s", marks["error0"])
			l.nothing(t)
		})
	}
	t.Run("chain", func(t *testing.T) {
		l := newLeakListeners(t)
		r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.WebRTCLeakPages(l.udpAddr)["alias"]}, htmlMode)
		res := r.generate("webrtc-chain")
		ui.addHTML("webrtc_chain", res.HTML)
		f.open("webrtc_chain")
		f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult(`+leakResult+`), true)`, nil)
		if res.UIType == UITypeLLM {
			f.waitFrame(`(w, d) => d.body.dataset.attempt === "done"`)
		} else {
			f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
		}
		l.nothing(t)
	})
}

// TestLLMPageGuardRunsFirst (issue 34 item 2): a page that presets the
// navigation guard's old flag in a script before <head> and then follows
// a link to an HTTP listener with the result in its URL is stopped (the
// guard and bridge are the document's first script and keep no global
// flag): nothing reaches the listener and the host is told. Through the
// whole chain too. The control: the same served page with the guard's
// listener switched off reaches the listener.
func TestLLMPageGuardRunsFirst(t *testing.T) {
	f, ui := newFixture(t)
	l := newLeakListeners(t)
	ctl := newLeakListeners(t)
	page := llmtest.PresetGuardNavigatingPage(l.web.URL)
	served := servedLLMPage(page)
	if !strings.HasPrefix(served, "<!doctype html>") || strings.Index(served, pagecsp.GuardedMark) > strings.Index(served, "__genuiNavigationGuard") {
		t.Fatalf("genui's guard is not ahead of the page's first script:\n%.300s", served)
	}

	t.Run("control", func(t *testing.T) {
		const listen = `addEventListener("navigate",`
		if !strings.Contains(served, listen) {
			t.Fatalf("the served page has no %s to switch off", listen)
		}
		off := servedLLMPage(llmtest.PresetGuardNavigatingPage(ctl.web.URL))
		off = pagecsp.Apply(strings.Replace(off, listen, `addEventListener("navigate-off",`, 1))
		ui.addHTML("nav_control", off)
		f.open("nav_control")
		f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult(`+leakResult+`), true)`, nil)
		if got := arrives(t, ctl.webGot, "HTTP"); !strings.Contains(got, "S3CRET") {
			t.Errorf("the control's request does not carry the result: %s", got)
		}
	})
	check := func(t *testing.T, name, page string) {
		ui.addHTML(name, page)
		f.open(name)
		f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult(`+leakResult+`), true)`, nil)
		// Until the page's code ran: a navigation that got out replaces
		// the frame's document, so the listener is watched meanwhile.
		for deadline := time.Now().Add(20 * time.Second); ; {
			select {
			case u := <-l.webGot:
				t.Fatalf("the HTTP listener received %s", u)
			case <-time.After(200 * time.Millisecond):
			}
			var ran bool
			f.frameJSON(`(w, d) => d.body && d.body.dataset.attempt === "done"`, &ran)
			if ran {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the page's code did not run within 20 s")
			}
		}
		l.nothing(t)
		var log []hostMsg
		f.eval("window.hostLog", &log)
		for _, m := range log {
			if m.Msg.Method == "notifications/message" && strings.Contains(string(m.Msg.Params), "genui/navigation-guard") {
				return
			}
		}
		t.Errorf("the host was not told of the blocked navigation")
	}
	t.Run("guarded", func(t *testing.T) { check(t, "nav_guarded", served) })
	t.Run("chain", func(t *testing.T) {
		r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: page}, htmlMode)
		res := r.generate("nav-chain")
		if res.UIType != UITypeLLM {
			t.Fatalf("the page no rule forbids was not served: %+v", res.Chain)
		}
		check(t, "nav_chain", res.HTML)
	})
}

// TestLLMPageAliasedSinksInBrowser (issue 34 item 3): a page that makes a
// script element through document.createElement.bind(document) and puts
// data in through Reflect.set(el, "innerHTML", ...) runs neither the
// script nor the handler the data carries, served even with the checks
// bypassed (the guard refuses the element; the policy of a page that is
// not packed has no 'strict-dynamic', so a script it did not hash never
// runs). The checker rejects both (TestCheckRejectsAliasedSinks), so
// through the chain the offline UI stands in. The control: the page as
// genui served it before runs the script.
func TestLLMPageAliasedSinksInBrowser(t *testing.T) {
	f, ui := newFixture(t)
	page := llmtest.AliasedSinksPage()

	control := runHostile(f, ui, "sinks_control", unguarded(page))
	if control["pwned"] != "script" {
		t.Fatalf("control: the created script should run under 'strict-dynamic' without the guard, got %v", control)
	}
	marks := runHostile(f, ui, "sinks_guarded", servedLLMPage(page))
	if marks["pwned"] != "" {
		t.Fatalf("the page ran its %s: %v", marks["pwned"], marks)
	}
	if !strings.Contains(marks["error0"], "may not create <script>") {
		t.Errorf("the bound createElement was not refused: %v", marks)
	}
	// Without the guard, the page's policy alone (no 'strict-dynamic')
	// stops the created script.
	marks = runHostile(f, ui, "sinks_csp_only", pagecsp.Apply(mcpshim.Inject(page)))
	if marks["pwned"] != "" {
		t.Fatalf("the page's CSP let a created script run: %v", marks)
	}
	if raw, _ := json.Marshal(f.cspViolations()); !strings.Contains(string(raw), "script-src") {
		t.Errorf("no script-src violation recorded: %s", raw)
	}

	r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: page}, htmlMode)
	if res := r.generate("sinks-chain"); res.UIType == UITypeLLM {
		t.Errorf("the aliased-sinks page was served: %+v", res.Chain)
	}
}
