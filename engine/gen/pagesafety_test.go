package gen

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
)

// TestCheckRejectsAliasedSinks (issue 34 items 1 and 3): the ways a page
// reaches WebRTC or a script- or markup-making method without naming the
// call plainly are rejected under their rule.
func TestCheckRejectsAliasedSinks(t *testing.T) {
	for name, tc := range map[string]struct {
		code string
		rule RuleID
	}{
		"RTCPeerConnection alias":   {`const P = RTCPeerConnection; new P({});`, RuleNoNetwork},
		"webkitRTCPeerConnection":   {`new window.webkitRTCPeerConnection({});`, RuleNoNetwork},
		"RTCDataChannel":            {`statusEl.title = typeof RTCDataChannel;`, RuleNoNetwork},
		"RTCRtpSender":              {`RTCRtpSender.getCapabilities("audio");`, RuleNoNetwork},
		"WebTransport":              {`new WebTransport("https://x/");`, RuleNoNetwork},
		"RTC spelled from pieces":   {`new window["RTC" + "PeerConnection"]({});`, RuleNoNetwork},
		"Reflect.construct":         {`Reflect.construct(RTCPeerConnection, [{}]);`, RuleNoNetwork},
		"bound createElement":       {`document.createElement.bind(document)("script");`, RulePlainNames},
		"createElement.call":        {`document.createElement.call(document, "script");`, RulePlainNames},
		"createElement.apply":       {`document.createElement.apply(document, ["script"]);`, RulePlainNames},
		"Reflect.apply":             {`Reflect.apply(document.createElement, document, ["script"]);`, RulePlainNames},
		"createElement in a const":  {`const ce = document.createElement; ce.call(document, "script");`, RulePlainNames},
		"destructured":              {`const { createElement } = document; createElement("script");`, RulePlainNames},
		"insertAdjacentHTML bound":  {`statusEl.insertAdjacentHTML.bind(statusEl)("beforeend", statusEl.title);`, RulePlainNames},
		"write applied":             {`document.write.apply(document, [statusEl.title]);`, RulePlainNames},
		"Reflect.set innerHTML":     {`Reflect.set(statusEl, "innerHTML", statusEl.title);`, RuleDataNotMarkup},
		"defineProperty innerHTML":  {`Object.defineProperty(statusEl, "innerHTML", { value: statusEl.title });`, RuleDataNotMarkup},
		"descriptor of innerHTML":   {`Object.getOwnPropertyDescriptor(Element.prototype, "innerHTML").set.call(statusEl, statusEl.title);`, RuleDataNotMarkup},
		"Reflect.set computed name": {`Reflect.set(statusEl, statusEl.id, statusEl.title);`, RulePlainNames},
		"contentWindow":             {`daysEl.contentWindow;`, RuleSelfContained},
		"window[0]":                 {`window[0];`, RuleSelfContained},
		"location.assign as value":  {`const go = location.assign; go.call(location, "http://x/");`, RuleNoNavigation},
	} {
		page := breakRule(connectLine, tc.code+connectLine)
		rep := Check(page, Tool{})
		found := false
		for _, f := range rep.Findings {
			found = found || f.Rule == tc.rule
		}
		if !found {
			t.Errorf("%s: no %s finding (findings %v)", name, tc.rule, rep.Findings)
		}
	}
	for _, page := range []string{llmtest.AliasedSinksPage(), llmtest.WebRTCLeakPages("127.0.0.1:9")["alias"]} {
		if rep := Check(page, Tool{}); rep.OK() {
			t.Errorf("a hostile page passes the checks:\n%s", page)
		}
	}
}

// TestCheckAcceptsWhatThePromptAllows (issue 32, HTML mode defect a): a
// helper that makes elements with a computed tag and attribute names, and
// a <pre> showing Markdown with ``` lines, are valid pages; the cases a
// helper could still hide (a literal script tag, an on* attribute) and
// fences around the document are still found.
func TestCheckAcceptsWhatThePromptAllows(t *testing.T) {
	helper := `function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}
const svg = document.createElementNS("http://www.w3.org/2000/svg", ["svg", "path"][0]);
statusEl.append(el("span", { class: "badge", "data-id": statusEl.id }, statusEl.title), svg);
`
	fenced := "<pre id=\"md\">Example:\n```js\nconst a = 1;\n```\n</pre>"
	keep := map[string]string{
		"computed tag and attribute names": breakRule(connectLine, helper+connectLine),
		"fences inside a pre":              breakRule("<body>", "<body>"+fenced),
		"details.open read":                breakRule(connectLine, `const d = document.createElement("details"); if (d.open) d.open = false;`+connectLine),
		"a data field named RTC...":        breakRule(connectLine, `const dev = { RTCTime: 1 }; statusEl.title = String(dev.RTCTime);`+connectLine),
	}
	for name, page := range keep {
		if rep := Check(page, Tool{}); len(rep.Findings) > 0 {
			t.Errorf("%s: findings %v", name, rep.Findings)
		}
	}
	for name, tc := range map[string]struct {
		page string
		rule RuleID
	}{
		"literal script tag": {breakRule(connectLine, `document.createElement("script");`+connectLine), RuleSelfContained},
		"literal on* name":   {breakRule(connectLine, `statusEl.setAttribute("on" + "click", "x()");`+connectLine), RuleInlineHandlers},
		"fenced document":    {"```html\n" + llmtest.ForecastPage + "\n```", RuleDocument},
	} {
		found := false
		for _, f := range Check(tc.page, Tool{}).Findings {
			found = found || f.Rule == tc.rule && (tc.rule != RuleDocument || strings.Contains(f.Message, "fences"))
		}
		if !found {
			t.Errorf("%s: no %s finding", name, tc.rule)
		}
	}
}

// TestInjectGuardedPutsTheGuardFirst: whatever a model puts before its
// <head> (a script, a comment, a doctype after a comment), genui's shim
// element with the guard is the document's first script, the page's
// doctype stays first, its CSP has no 'strict-dynamic', and the served
// page still passes the checks.
func TestInjectGuardedPutsTheGuardFirst(t *testing.T) {
	pre := "<!-- hi -->\n<!DOCTYPE html>\n<script>window.__genuiNavigationGuard = true;</script>\n"
	page := pre + strings.TrimPrefix(llmtest.ForecastPage, "<!doctype html>\n")
	served := servedLLMPage(page)
	if !strings.HasPrefix(served, "<!DOCTYPE html><html><head>\n<meta http-equiv=\"Content-Security-Policy\"") {
		t.Fatalf("served page starts %.200q", served)
	}
	if g, s := strings.Index(served, pagecsp.GuardedMark), strings.Index(served, "__genuiNavigationGuard"); g < 0 || g > s {
		t.Fatalf("the guard (%d) is not before the page's first script (%d)", g, s)
	}
	if strings.Contains(served, "'strict-dynamic'") {
		t.Error("a model-written page's policy has 'strict-dynamic'")
	}
	if again := servedLLMPage(served); again != served {
		t.Error("serving a served page again changes it")
	}
	if mcpshim.Inject(served) != mcpshim.InjectGuarded(served) {
		t.Error("Inject drops the guard of a guarded page")
	}
	if rep := Check(served, forecastTool); !rep.OK() {
		t.Errorf("the served page fails the checks: %v", rep.Problems)
	}
	// A refine prompt shows the model its own page, without genui's parts.
	if got := stripShim(servedLLMPage(llmtest.ForecastPage)); got != llmtest.ForecastPage {
		t.Errorf("the page a refine prompt shows is not the model's:\n%.300s", got)
	}
}

// TestPromptNamesBridgeMethodsAndClipboard (issue 32, HTML mode defect f):
// the system prompt names every bridge method a page may need and says
// that the clipboard is blocked in the frame.
func TestPromptNamesBridgeMethodsAndClipboard(t *testing.T) {
	p, err := LoadPrompts("")
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	for _, want := range []string{"app.readServerResource({ uri })", "app.downloadFile({ contents: [", "app.openLink({ url })",
		"app.getHostCapabilities()", "The clipboard is blocked in the frame", `document.execCommand("copy")`} {
		if !strings.Contains(sys, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
}

// TestGenerationStatusNamesWhatHappened (issue 32, HTML mode defect d): a
// generation that runs out of its budget says it timed out after N s; one
// cancelled with ErrSuperseded says it was superseded; one cancelled
// otherwise says cancelled; none of the last two is a TIMEOUT.
func TestGenerationStatusNamesWhatHappened(t *testing.T) {
	held := holdUntilEnd(t)
	r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage, Release: held}, func(c *Config) {
		htmlMode(c)
		c.Budget = time.Second
	})
	res := r.generateWithinBudget("timeout")
	if res.Error == nil || res.Error.Class != ErrTimeout || !strings.Contains(res.Error.Message, "timed out after 1 s") {
		t.Errorf("over budget: %+v", res.Error)
	}
	for _, tc := range []struct {
		cause error
		class ErrorClass
		says  string
	}{
		{ErrSuperseded, ErrCancelled, "superseded after"},
		{nil, ErrCancelled, "cancelled after"},
	} {
		r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: llmtest.ForecastPage, Release: held}, htmlMode)
		ctx, cancel := context.WithCancelCause(context.Background())
		go func() {
			// Once the request is with the provider (bounded: a request
			// that never comes fails the test on its outcome).
			testenv.Until(30*time.Second, func() bool { return r.srv.Count() > 0 })
			cancel(tc.cause)
		}()
		o := <-r.llm.Start(ctx, Request{Tool: forecastTool, Key: "k"}, nil)
		if e := o.Result.Error; e == nil || e.Class != tc.class || !strings.Contains(e.Message, tc.says) {
			t.Errorf("cancelled with %v: %+v", tc.cause, e)
		}
		if strings.Contains(string(r.logs.Bytes()), "TIMEOUT") {
			t.Errorf("cancelled with %v: logged as a timeout", tc.cause)
		}
	}
}
