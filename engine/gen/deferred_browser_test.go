package gen

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
