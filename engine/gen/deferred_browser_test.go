package gen

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/genui-dev/genui/viewspec"
)

// recordsResult is a tool result whose records rich.js draws as a table and
// a plain drawing shows as formatted JSON.
const recordsResult = `{ content: [{ type: "text", text: JSON.stringify([{ name: "alpha", size: 1 }, { name: "beta", size: 2 }, { name: "gamma", size: 3 }]) }] }`

// drawnAs is how the frame drew the result.
type drawnAs struct {
	Table, Rich bool
	Note, Text  string
}

func (f *fixture) drawnAs() drawnAs {
	f.t.Helper()
	var d drawnAs
	_ = json.Unmarshal(f.frame(`(w, d) => ({Table: !!d.querySelector("#result table"), Rich: !!w.GenuiRich,
		Note: (d.getElementById("plain-note") || {}).textContent || "", Text: d.getElementById("result").innerText})`), &d)
	return d
}

// A host that does not pass a view's resource reads on (no serverResources)
// gets the page drawn plainly: every value of the result readable, and a
// note that says why; the page never asks the host for what it cannot do.
func TestPageDrawsPlainlyWithoutTheHostsResourceReads(t *testing.T) {
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n", "", 1)
	host = strings.Replace(host, "bridge.start();", "bridge.start();\nbridge.sendToolResult("+recordsResult+");", 1)
	if host == hostPage {
		t.Fatal("hostPage changed: no onReadResource to take out")
	}
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_items", Description: "Lists items.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.open("list_items")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	got := f.drawnAs()
	if got.Table || got.Rich {
		t.Errorf("drawn with the rich views (%+v) by a host that cannot have passed them on", got)
	}
	for _, want := range []string{`"name": "alpha"`, `"name": "gamma"`, `"size": 3`} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("the plain drawing lacks %s:\n%s", want, got.Text)
		}
	}
	if !strings.Contains(got.Note, "Drawn plainly") || !strings.Contains(got.Note, "serverResources") {
		t.Errorf("note %q; want it to say the page is drawn plainly because the host has no serverResources", got.Note)
	}
	var reads int
	f.eval(`window.hostLog.filter((e) => e.msg && e.msg.method === "resources/read").length`, &reads)
	if reads != 0 {
		t.Errorf("the page sent %d resources/read to a host without serverResources", reads)
	}
	if v := f.cspViolations(); len(v) > 0 {
		t.Errorf("CSP violations: %v", v)
	}
}

// A result that comes before the rich views is drawn plainly after a short
// wait, and drawn again with them when they come; the page then has no note.
func TestPageDrawsAgainWhenItsRichViewsComeLate(t *testing.T) {
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n",
		"  onReadResource: function (p) { return window.gate.then(function () { return readDeferred(p); }); },\n", 1)
	host = strings.Replace(host, "bridge.start();", "window.gate = new Promise(function (r) { window.openGate = r; });\nbridge.start();\nbridge.sendToolResult("+recordsResult+");", 1)
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_items", Description: "Lists items.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.openHandshake("list_items")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	if got := f.drawnAs(); got.Table || got.Rich || !strings.Contains(got.Text, `"name": "beta"`) || got.Note != "" {
		t.Fatalf("before the rich views came: %+v; want the records drawn plainly, no note yet", got)
	}
	f.eval(`(window.openGate(), true)`, new(bool))
	f.waitFrame(`(w, d) => !!d.querySelector("#result table")`)
	if got := f.drawnAs(); !got.Rich || got.Note != "" || !strings.Contains(got.Text, "gamma") {
		t.Errorf("after the rich views came: %+v; want the table, no note", got)
	}
	if v := f.cspViolations(); len(v) > 0 {
		t.Errorf("CSP violations: %v", v)
	}
}

// Whatever a host hands back for the page's rich views, only genui's own
// scripts run: the page names its deferred block by its SHA-256, and the
// loader runs nothing that hashes otherwise (the page's CSP cannot refuse
// it: it trusts what the loader inserts). A host that returns another
// script gets it refused and the page drawn plainly, saying why.
func TestPageRunsOnlyItsOwnRichViews(t *testing.T) {
	evil := "window.pwned = 1;"
	head := fmt.Sprintf(`{"parts":[["script",%d]]}`+"\n", len(evil))
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	_, _ = w.Write([]byte(head + evil))
	_ = w.Close()
	blob := base64.StdEncoding.EncodeToString(z.Bytes())
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n",
		`  onReadResource: function (p) { return { contents: [{ uri: p.uri, blob: "`+blob+`" }] }; },`+"\n", 1)
	host = strings.Replace(host, "bridge.start();", "bridge.start();\nbridge.sendToolResult("+recordsResult+");", 1)
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_items", Description: "Lists items.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.open("list_items")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && !!d.getElementById("plain-note")`)
	var pwned bool
	_ = json.Unmarshal(f.frame(`(w, d) => w.pwned === 1`), &pwned)
	if pwned {
		t.Fatal("the host's script ran in the page")
	}
	got := f.drawnAs()
	if got.Rich || !strings.Contains(got.Text, `"name": "alpha"`) || !strings.Contains(got.Note, "other scripts than the page names") {
		t.Errorf("after a foreign script: %+v; want the records drawn plainly and a note that the host returned other scripts", got)
	}
}

// Drawn plainly, a page still honours its view: the theme the spec asks
// for over the host's (genui's own palette, as rich.js would set it) and
// the fields it hides, which never show in the formatted data.
func TestPlainDrawingKeepsTheViewsThemeAndHiddenFields(t *testing.T) {
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n", "", 1)
	host = strings.Replace(host, "bridge.start();", "bridge.start();\n"+
		`bridge.sendToolResult({ content: [{ type: "text", text: "Found one." }], structuredContent: { name: "alpha", secret: "s3cr3t-value", nested: { api_key: "k3y-value", size: 2 } } });`, 1)
	spec := viewspec.New()
	spec.Theme = &viewspec.Theme{Scheme: "light"}
	spec.Hidden = []string{"secret", "/nested/api_key"}
	html, err := PageOptions{}.RenderSpec(Tool{Name: "find_item", Description: "Finds an item.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, ui := newFixtureHost(t, host)
	ui.addHTML("find_item", html)
	f.open("find_item")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	got := f.drawnAs()
	if got.Rich || !strings.Contains(got.Text, `"name": "alpha"`) || !strings.Contains(got.Text, `"size": 2`) || !strings.Contains(got.Text, "Found one.") {
		t.Fatalf("plain drawing: %+v; want the summary and the data", got)
	}
	if strings.Contains(got.Text, "s3cr3t-value") || strings.Contains(got.Text, "k3y-value") {
		t.Errorf("the plain drawing shows fields the view hides:\n%s", got.Text)
	}
	var theme struct{ Theme, Forced string }
	_ = json.Unmarshal(f.frame(`(w, d) => ({Theme: d.documentElement.getAttribute("data-theme"), Forced: d.documentElement.getAttribute("data-theme-forced") || ""})`), &theme)
	if theme.Theme != "light" || theme.Forced != "light" {
		t.Errorf("theme %+v on a dark host; want the spec's light theme, forced", theme)
	}
}

// A host's result that waits for the rich views when the user starts a
// call is not drawn over it: the page's state stays the call's until the
// call's result comes.
func TestResultWaitingForRichViewsGivesWayToACall(t *testing.T) {
	host := strings.Replace(hostPage, "  onReadResource: readDeferred,\n",
		"  onReadResource: function (p) { return window.gate.then(function () { return readDeferred(p); }); },\n", 1)
	host = strings.Replace(host, "bridge.start();", "window.gate = new Promise(function (r) { window.openGate = r; });\n"+
		"window.replies.push(new Promise(function (r) { window.answer = r; }));\nbridge.start();", 1)
	f, ui := newFixtureHost(t, host)
	ui.add(t, Tool{Name: "list_items", Description: "Lists items.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	f.openHandshake("list_items")
	f.eval(`(bridge.sendToolResult({ content: [{ type: "text", text: "from the host" }] }), true)`, nil)
	// Run as soon as the host's result is in (it then waits for the rich views, RICH_WAIT_MS).
	f.waitFrame(`(w, d) => { if (!w.performance.getEntriesByName("result-received").length) return false; d.getElementById("tool-form").requestSubmit(); return true; }`)
	// Past the host result's wait, the call (held by the host) is still running.
	f.waitFrame(`(w, d) => new Promise((r) => setTimeout(() => r(d.body.dataset.state === "loading" && !d.getElementById("result").innerText.includes("from the host")), 1500))`)
	f.eval(`(window.answer({ content: [{ type: "text", text: "from the call" }] }), window.openGate(), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && d.getElementById("result").innerText.includes("from the call")`)
}
