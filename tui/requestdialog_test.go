package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/genui-dev/genui/engine/contract"
)

func pending(id, kind, method, callID, source, params string) contract.Event {
	r := &contract.PendingRequest{ID: id, Kind: kind, Method: method, CallID: callID, Tool: "zeta", Source: source,
		Params: json.RawMessage(params), Deadline: time.Date(2026, 1, 2, 3, 5, 5, 0, time.UTC)}
	r.ParsePendingParams()
	return contract.Event{Kind: contract.EventRequestPending, Tool: "zeta", Detail: r}
}

// startZeta starts a call of zeta (it runs until cancelled) and returns its
// call id.
func startZeta(t *testing.T, d *driver) string {
	t.Helper()
	d.key("end")
	d.key("c")
	d.typeText("x")
	d.key("enter")
	synctest_wait(d)
	return d.m.tool("zeta").result.callID
}

// TestElicitationDialog: a request of this TUI's call opens the dialog: the
// form comes from requestedSchema with the call form's widgets, enter
// accepts with the typed values; a second request queues behind it and
// shows next; ctrl+n declines; esc cancels.
func TestElicitationDialog(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		id := startZeta(t, d)
		schema := `{"type":"object","properties":{"name":{"type":"string","title":"Your name"},"age":{"type":"integer"},` +
			`"color":{"type":"string","enum":["red","blue"]}},"required":["name"]}`
		d.stub.events <- pending("r1", contract.RequestElicitation, "elicitation/create", id, contract.SourceTUI,
			`{"mode":"form","message":"Tell me about you","requestedSchema":`+schema+`}`)
		d.stub.events <- pending("r2", contract.RequestElicitation, "elicitation/create", id, contract.SourceTUI,
			`{"message":"Second question","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}`)
		synctest_wait(d)
		if _, ok := find[*requestDialog](&d.m.overlay); !ok {
			t.Fatal("no dialog opened")
		}
		s := d.screen()
		mustContain(t, s, "The upstream asks for input (elicitation) · 1 of 2", "Tell me about you", "name*", "age", "color",
			"during a call of zeta (tui)", "times out in 1m0s", "1 more request(s) wait", "ctrl+n decline")
		d.key("enter")
		mustContain(t, d.screen(), "fix name before accepting")
		d.typeText("Ada")
		d.key("tab")
		d.typeText("36")
		d.key("tab")
		d.key("right")
		d.key("enter")
		c := hs.called("AnswerRequest")
		want := `AnswerRequest r1 tui {"action":"accept","content":{"age":36,"color":"red","name":"Ada"}} reject=""`
		if len(c) != 1 || c[0] != want {
			t.Fatalf("answers\n got %v\nwant %s", c, want)
		}
		mustContain(t, d.screen(), "Second question", "accepted")
		d.key("ctrl+n")
		if c := hs.called("AnswerRequest r2"); len(c) != 1 || !strings.Contains(c[0], `{"action":"decline"}`) {
			t.Fatalf("decline: %v", c)
		}
		if _, ok := find[*requestDialog](&d.m.overlay); ok {
			t.Fatal("the dialog stays open with nothing queued")
		}
		// A third one, cancelled with esc.
		d.stub.events <- pending("r3", contract.RequestElicitation, "elicitation/create", id, contract.SourceTUI,
			`{"message":"Third","requestedSchema":{"type":"object","properties":{}}}`)
		synctest_wait(d)
		d.key("esc")
		if c := hs.called("AnswerRequest r3"); len(c) != 1 || !strings.Contains(c[0], `{"action":"cancel"}`) {
			t.Fatalf("cancel: %v", c)
		}
	})
}

// TestURLElicitationDialog: the whole URL shows, o opens it (a failing
// browser copies it instead), y copies it, enter accepts.
func TestURLElicitationDialog(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		long := "https://example.com/authorize?client=genui&state=" + strings.Repeat("abcdef0123", 15) + "&end=LASTPART"
		d.stub.events <- pending("u1", contract.RequestElicitation, "elicitation/create", "", contract.SourceAPI,
			`{"mode":"url","message":"Sign in","url":"`+long+`","elicitationId":"e-9"}`)
		synctest_wait(d)
		s := d.screen()
		mustContain(t, s, "open a URL", "Sign in", "https://example.com/authorize?client=genui", "LASTPART", "elicitation id e-9", "host example.com (https)")
		d.key("o")
		if c := hs.called("OpenURL"); len(c) != 1 || c[0] != "OpenURL "+long {
			t.Fatalf("open %v", c)
		}
		d.key("y")
		if c := hs.called("Copy"); len(c) != 1 || c[0] != "Copy "+long {
			t.Fatalf("copy %v", c)
		}
		d.key("enter")
		if c := hs.called("AnswerRequest"); len(c) != 1 || c[0] != `AnswerRequest u1 tui {"action":"accept"} reject=""` {
			t.Fatalf("answers %v", c)
		}
	})
}

// TestSamplingDialog: the messages, system prompt, limits and model
// preferences show whole; an answer typed by hand is sent with ctrl+s; a
// second request is drafted by genui's LLM (ctrl+g), the draft shows for
// editing and is sent as drafted; a third is declined.
func TestSamplingDialog(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		id := startZeta(t, d)
		params := `{"messages":[{"role":"user","content":{"type":"text","text":"What is 2+2? Answer briefly."}},` +
			`{"role":"user","content":[{"type":"image","mimeType":"image/png","data":"` + strings.Repeat("QUJD", 300) + `"}]}],` +
			`"systemPrompt":"You are terse.","maxTokens":100,"temperature":0.5,"modelPreferences":{"hints":[{"name":"claude"}],"speedPriority":0.9}}`
		d.stub.events <- pending("s1", contract.RequestSampling, "sampling/createMessage", id, contract.SourceTUI, params)
		synctest_wait(d)
		s := d.screen()
		mustContain(t, s, "(sampling)", "System prompt", "You are terse.", "[0] user", "What is 2+2? Answer briefly.",
			"[1] user", "image image/png, 1.2KB base64", "max tokens 100 · temperature 0.5", "ctrl+g drafts")
		mustNotContain(t, s, "QUJDQUJD")
		d.key("pgdown")
		mustContain(t, d.screen(), "Model preferences", `"speedPriority": 0.9`)
		d.key("ctrl+s")
		mustContain(t, d.screen(), "type an answer first")
		d.typeText("Four.")
		d.key("ctrl+s")
		want := `AnswerRequest s1 tui {"content":{"text":"Four.","type":"text"},"model":"genui-tui (answered by hand)","role":"assistant","stopReason":"endTurn"} reject=""`
		if c := hs.called("AnswerRequest"); len(c) != 1 || c[0] != want {
			t.Fatalf("answer\n got %v\nwant %s", c, want)
		}
		d.stub.events <- pending("s2", contract.RequestSampling, "sampling/createMessage", id, contract.SourceTUI, params)
		synctest_wait(d)
		d.key("ctrl+g")
		if c := hs.called("DraftSamplingAnswer"); len(c) != 1 || c[0] != "DraftSamplingAnswer s2" {
			t.Fatalf("draft %v", c)
		}
		if len(hs.called("AnswerRequest s2")) != 0 {
			t.Fatal("the draft was sent before the person saw it")
		}
		mustContain(t, d.screen(), "a drafted answer", "the draft of anthropic claude-test")
		d.key("ctrl+s")
		if c := hs.called("AnswerRequest s2"); len(c) != 1 || !strings.Contains(c[0], `"model":"claude-test"`) || !strings.Contains(c[0], "a drafted answer") {
			t.Fatalf("drafted answer %v", c)
		}
		d.stub.events <- pending("s3", contract.RequestSampling, "sampling/createMessage", id, contract.SourceTUI, params)
		synctest_wait(d)
		d.key("ctrl+n")
		if c := hs.called("AnswerRequest s3"); len(c) != 1 || !strings.Contains(c[0], `reject="the person declined`) {
			t.Fatalf("decline %v", c)
		}
	})
}

// TestRequestTimeoutClosesTheDialog: a request that timed out closes its
// dialog with the reason on the status line; one of the preview's calls
// waits for ! instead of opening the dialog; esc on a sampling request
// leaves it for later and ! shows it again.
func TestRequestTimeoutClosesTheDialog(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		d.stub.events <- pending("t1", contract.RequestElicitation, "elicitation/create", "", contract.SourceAPI,
			`{"message":"Too slow","requestedSchema":{"type":"object","properties":{}}}`)
		synctest_wait(d)
		mustContain(t, d.screen(), "Too slow")
		d.stub.events <- contract.Event{Kind: contract.EventRequestAnswered, Detail: &contract.RequestAnswered{ID: "t1",
			Kind: contract.RequestElicitation, Outcome: contract.OutcomeTimedOut, Error: "no answer within 1m0s"}}
		synctest_wait(d)
		if _, ok := find[*requestDialog](&d.m.overlay); ok {
			t.Fatal("the dialog of a timed-out request stays open")
		}
		mustContain(t, d.m.status, "elicitation request t1 of zeta timed out before it was answered; the upstream was told: no answer within 1m0s")
		if !d.m.statusErr {
			t.Fatal("a timed-out request is not shown as an error")
		}

		ev := pending("p1", contract.RequestSampling, "sampling/createMessage", "preview-1", contract.SourcePreview,
			`{"messages":[{"role":"user","content":{"type":"text","text":"from the preview"}}],"maxTokens":5}`)
		d.stub.events <- ev
		synctest_wait(d)
		if _, ok := find[*requestDialog](&d.m.overlay); ok {
			t.Fatal("a preview call's request opened the dialog")
		}
		mustContain(t, d.screen(), "! answers it", "! answer the upstream")
		hs.pendReqs = []contract.PendingRequest{*ev.Detail.(*contract.PendingRequest)}
		d.key("!")
		mustContain(t, d.screen(), "from the preview")
		d.key("esc")
		if _, ok := find[*requestDialog](&d.m.overlay); ok {
			t.Fatal("esc did not leave the sampling request for later")
		}
		mustContain(t, d.screen(), "waits: ! shows it again")
		d.key("!")
		mustContain(t, d.screen(), "from the preview")
	})
}

// TestLongElicitationFormFollowsTheFocus: a form taller than the dialog
// shows the focused field as tab moves down it.
func TestLongElicitationFormFollowsTheFocus(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		var props []string
		for i := range 30 {
			props = append(props, fmt.Sprintf(`"field%02d":{"type":"string"}`, i))
		}
		d.stub.events <- pending("l1", contract.RequestElicitation, "elicitation/create", "", contract.SourceAPI,
			`{"message":"Many fields","requestedSchema":{"type":"object","properties":{`+strings.Join(props, ",")+`}}}`)
		synctest_wait(d)
		mustContain(t, d.screen(), "field00", "Form")
		mustNotContain(t, d.screen(), "field29")
		for range 29 {
			d.key("tab")
		}
		s := d.screen()
		mustContain(t, s, "› field29", "Form  ctrl+s")
		mustNotContain(t, s, "field00")
	})
}

// TestElicitationTitledChoices: oneOf [{const, title}] and the legacy
// enumNames are choices that show their titles and send their values.
func TestElicitationTitledChoices(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		d.stub.events <- pending("c1", contract.RequestElicitation, "elicitation/create", "", contract.SourceAPI,
			`{"message":"Pick","requestedSchema":{"type":"object","properties":{`+
				`"hero":{"type":"string","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Green Lantern"}],"default":"hero-1"},`+
				`"pet":{"type":"string","enum":["pet-1","pet-2"],"enumNames":["Cats","Dogs"],"default":"pet-1"}},"required":["hero","pet"]}}`)
		synctest_wait(d)
		mustContain(t, d.screen(), "Superman (hero-1)", "Cats (pet-1)")
		d.key("right")
		d.key("tab")
		d.key("right")
		mustContain(t, d.screen(), "Green Lantern (hero-2)", "Dogs (pet-2)")
		d.key("ctrl+s")
		if c := hs.called("AnswerRequest"); len(c) != 1 || !strings.Contains(c[0], `"content":{"hero":"hero-2","pet":"pet-2"}`) {
			t.Fatalf("answer %v", c)
		}
	})
}

// TestMultiSelectChoices: an array of enum items (items.enum, or
// items.anyOf of {const, title}) is a checkbox per choice: ←/→ move,
// space checks, the default is checked, the value is the checked list;
// the raw JSON view round-trips it.
func TestMultiSelectChoices(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		d.stub.events <- pending("m1", contract.RequestElicitation, "elicitation/create", "", contract.SourceAPI,
			`{"message":"Pick several","requestedSchema":{"type":"object","properties":{`+
				`"tools":{"type":"array","items":{"type":"string","enum":["Guitar","Piano","Drums"]},"default":["Guitar"]},`+
				`"fish":{"type":"array","items":{"anyOf":[{"const":"fish-1","title":"Tuna"},{"const":"fish-2","title":"Salmon"}]}}}}}`)
		synctest_wait(d)
		s := d.screen()
		mustContain(t, s, "1 of 3 chosen", "› [x] Guitar", "[ ] Piano", "[ ] Tuna (fish-1)", "[ ] Salmon (fish-2)")
		d.key("right")
		d.key("space") // Piano
		d.key("left")
		d.key("space") // Guitar off
		d.key("tab")
		d.key("right")
		d.key("space") // Salmon
		mustContain(t, d.screen(), "› [x] Salmon (fish-2)")
		f := d.m.overlay.front().(*requestDialog).form
		if err := f.toggleRaw(); err != nil {
			t.Fatal(err)
		}
		if v := f.rawArg.Value(); !strings.Contains(v, `"Piano"`) || strings.Contains(v, "Guitar") || !strings.Contains(v, `"fish-2"`) {
			t.Fatalf("raw JSON %s", v)
		}
		f.rawArg.SetValue(`{"tools":["Drums"],"fish":["fish-1"]}`)
		if err := f.toggleRaw(); err != nil {
			t.Fatal(err)
		}
		d.key("ctrl+s")
		if c := hs.called("AnswerRequest"); len(c) != 1 || !strings.Contains(c[0], `"content":{"fish":["fish-1"],"tools":["Drums"]}`) {
			t.Fatalf("answer %v", c)
		}
	})
}

// TestHostScreensGolden pins how the host side looks at 100x30: a running
// call's progress, the elicitation, URL and sampling dialogs (go test
// ./tui/ -run TestHostScreensGolden -update rewrites them).
func TestHostScreensGolden(t *testing.T) {
	var names, screens []string
	snap := func(name, screen string) { names, screens = append(names, name), append(screens, screen) }
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		id := startZeta(t, d)
		snap("progress", d.screen())
		d.stub.events <- pending("g1", contract.RequestElicitation, "elicitation/create", id, contract.SourceTUI,
			`{"message":"Please provide inputs for the following fields:","requestedSchema":{"type":"object","properties":{`+
				`"name":{"type":"string","title":"String","description":"Your full, legal name"},"check":{"type":"boolean","description":"Agree to the terms"},`+
				`"hero":{"type":"string","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Wonder Woman"}],"default":"hero-1"},`+
				`"fish":{"type":"array","items":{"anyOf":[{"const":"fish-1","title":"Tuna"},{"const":"fish-2","title":"Salmon"}]},"default":["fish-1"]}},"required":["name"]}}`)
		d.stub.events <- pending("g2", contract.RequestElicitation, "elicitation/create", id, contract.SourceTUI,
			`{"mode":"url","message":"Sign in to continue","url":"https://example.com/authorize?client=genui&state=`+strings.Repeat("0123456789", 12)+`","elicitationId":"e-1"}`)
		d.stub.events <- pending("g3", contract.RequestSampling, "sampling/createMessage", id, contract.SourceTUI,
			`{"messages":[{"role":"user","content":{"type":"text","text":"Resource trigger-sampling-request context: What is 2+2?"}}],`+
				`"systemPrompt":"You are a helpful test server.","maxTokens":100,"temperature":0.7,"modelPreferences":{"hints":[{"name":"claude-3-sonnet"}],"intelligencePriority":0.8}}`)
		synctest_wait(d)
		snap("elicitation", d.screen())
		d.key("ctrl+n")
		snap("url", d.screen())
		d.key("ctrl+n")
		d.typeText("Four.")
		snap("sampling", d.screen())
	})
	// Compared outside the bubble: t.Run may not be called inside one.
	for i, name := range names {
		t.Run(name, func(t *testing.T) { golden.RequireEqual(t, screens[i]) })
	}
}

// TestRequestsPendingAtStart: requests already pending when the TUI starts
// (or attaches) are queued and named on the status line; ! opens them.
func TestRequestsPendingAtStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hs := newHostStub()
		ev := pending("early", contract.RequestElicitation, "elicitation/create", "", contract.SourceAPI,
			`{"message":"asked before you came","requestedSchema":{"type":"object","properties":{}}}`)
		hs.pendReqs = []contract.PendingRequest{*ev.Detail.(*contract.PendingRequest)}
		d := newDriver(t, hs.stubAPI, func(o *Options) { o.API = hs })
		defer d.finish()
		if _, open := find[*requestDialog](&d.m.overlay); open {
			t.Fatal("a request pending at the start opened the dialog by itself")
		}
		mustContain(t, d.m.status, "1 request(s) of the upstream await an answer: ! answers them")
		d.key("!")
		mustContain(t, d.screen(), "asked before you came")
	})
}

// TestURLElicitationOnlyWebURLs: a file: or javascript: URL from the
// upstream never reaches the system opener: the dialog says why and y
// copies it; an https URL still opens (TestURLElicitationDialog).
func TestURLElicitationOnlyWebURLs(t *testing.T) {
	for _, u := range []string{"file:///etc/passwd", "javascript:alert(document.cookie)", "JAVASCRIPT:alert(1)", "vscode://x/y", "https:/no-host", " https://example.com"} {
		t.Run(u, func(t *testing.T) {
			inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
				params, _ := json.Marshal(map[string]any{"mode": "url", "message": "Sign in", "url": u, "elicitationId": "e-1"})
				d.stub.events <- pending("u1", contract.RequestElicitation, "elicitation/create", "", contract.SourceAPI, string(params))
				synctest_wait(d)
				mustContain(t, d.screen(), "open a URL", "genui opens only http and https URLs (y copies it)")
				mustNotContain(t, d.screen(), "· o open", "o open the URL")
				d.key("o")
				synctest_wait(d)
				if c := hs.called("OpenURL"); len(c) != 0 {
					t.Fatalf("the opener got %v", c)
				}
				mustContain(t, d.screen(), "not opened: ")
				d.key("y")
				if c := hs.called("Copy"); len(c) != 1 || c[0] != "Copy "+u {
					t.Fatalf("copy %v", c)
				}
			})
		})
	}
	// Whatever pane asks, the opener the TUI was given sees only web URLs.
	var got []string
	open := onlyWeb(func(u string) error { got = append(got, u); return nil })
	for _, u := range []string{"file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "https://example.com/a", "http://127.0.0.1:1/p"} {
		_ = open(u)
	}
	if strings.Join(got, " ") != "https://example.com/a http://127.0.0.1:1/p" {
		t.Fatalf("opened %v", got)
	}
}
