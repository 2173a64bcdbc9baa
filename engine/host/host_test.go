package host_test

import (
	"context"
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
)

func scriptedUpstream(s *scripted) upstream.Config {
	return upstream.Config{Transport: "inprocess", InProcess: s.serve}
}

func demoUpstream() upstream.Config {
	return upstream.Config{Transport: "inprocess", InProcess: demo.ServeStdio}
}

func decode(t *testing.T, raw string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return m
}

// stripUI removes exactly what genui adds to a tool.
func stripUI(tool map[string]any) map[string]any {
	meta, _ := tool["_meta"].(map[string]any)
	if meta == nil {
		return tool
	}
	delete(meta, "ui/resourceUri")
	if ui, ok := meta["ui"].(map[string]any); ok {
		delete(ui, "resourceUri")
		if len(ui) == 0 {
			delete(meta, "ui")
		}
	}
	if len(meta) == 0 {
		delete(tool, "_meta")
	}
	return tool
}

func listTools(t *testing.T, c *pipeClient) map[string]map[string]any {
	t.Helper()
	var res struct {
		Tools []map[string]any `json:"tools"`
	}
	c.result("tools/list", nil, &res)
	out := map[string]map[string]any{}
	for _, tool := range res.Tools {
		out[tool["name"].(string)] = tool
	}
	return out
}

func TestToolsListKeepsEverythingAndAddsUI(t *testing.T) {
	s := newScripted()
	h := startHost(t, scriptedUpstream(s), host.UIMetaAlways)
	h.c.initialize(nil)
	tools := listTools(t, h.c)

	custom := tools["custom"]
	meta := custom["_meta"].(map[string]any)
	ui := meta["ui"].(map[string]any)
	if ui["resourceUri"] != "ui://custom" || meta["ui/resourceUri"] != "ui://custom" {
		t.Fatalf("UI linkage missing or wrong: %v", meta)
	}
	if !reflect.DeepEqual(stripUI(custom), decode(t, toolCustom)) {
		got, _ := json.Marshal(custom)
		t.Fatalf("custom tool changed beyond UI metadata:\n got %s\nwant %s", got, toolCustom)
	}
	if !reflect.DeepEqual(tools["own"], decode(t, toolOwnUI)) {
		t.Fatalf("tool with its own UI was changed: %v", tools["own"])
	}
	for _, name := range []string{host.ToolRefine, host.ToolList, host.ToolInspect, host.ToolRegenerate,
		host.ToolRefreshTools, host.ToolStatus, host.ToolPreview} {
		if _, ok := tools[name]; !ok {
			t.Errorf("wrapper tool %s missing", name)
		}
	}
}

func TestUIMetadataModes(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		caps   any
		wantUI bool
	}{
		{host.UIMetaNever, map[string]any{"extensions": map[string]any{host.ExtensionID: map[string]any{}}}, false},
		{host.UIMetaAuto, map[string]any{}, false},
		{host.UIMetaAuto, map[string]any{"extensions": map[string]any{host.ExtensionID: map[string]any{"mimeTypes": []string{contract.MIMEApp}}}}, true},
		{host.UIMetaAlways, map[string]any{}, true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			h := startHost(t, scriptedUpstream(newScripted()), tc.mode)
			h.c.initialize(tc.caps)
			tools := listTools(t, h.c)
			_, hasMeta := tools["slow"]["_meta"]
			if hasMeta != tc.wantUI {
				t.Fatalf("mode %s caps %v: UI metadata present=%v, want %v", tc.mode, tc.caps, hasMeta, tc.wantUI)
			}
			if !tc.wantUI && !reflect.DeepEqual(tools["custom"], decode(t, toolCustom)) {
				t.Fatalf("without UI metadata the tool must be verbatim: %v", tools["custom"])
			}
		})
	}
}

func TestCallResultVerbatim(t *testing.T) {
	h := startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways)
	h.c.initialize(nil)
	r := h.c.call("tools/call", map[string]any{"name": "custom", "arguments": map[string]any{"a": "x"}, "_meta": map[string]any{"k": 1}})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	want := `{"content":[{"type":"hologram","data":"zz","x-extra":[1]},{"type":"text","text":"hi"}],` +
		`"structuredContent":{"ok":true,"n":1.50},"_meta":{"com.example/trace":"t1"},"isError":false}`
	if !reflect.DeepEqual(decode(t, string(r.Result)), decode(t, want)) {
		t.Fatalf("result changed:\n got %s\nwant %s", r.Result, want)
	}
}

func TestResources(t *testing.T) {
	h := startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways)
	h.c.initialize(nil)
	var list struct {
		Resources []map[string]any `json:"resources"`
	}
	h.c.result("resources/list", nil, &list)
	uris := map[string]map[string]any{}
	for _, r := range list.Resources {
		uris[r["uri"].(string)] = r
	}
	for _, want := range []string{"ui://own/app", "file:///x", "ui://custom", "ui://slow", "ui://ask"} {
		if _, ok := uris[want]; !ok {
			t.Errorf("resources/list lacks %s: %v", want, list.Resources)
		}
	}
	if _, ok := uris["ui://own"]; ok {
		t.Error("genui must not add a UI for a tool that has its own")
	}

	var read struct {
		Contents []map[string]any `json:"contents"`
	}
	h.c.result("resources/read", map[string]any{"uri": "ui://custom"}, &read)
	if len(read.Contents) != 1 || read.Contents[0]["mimeType"] != contract.MIMEApp || read.Contents[0]["uri"] != "ui://custom" {
		t.Fatalf("ui://custom read: %v", read.Contents)
	}
	html, _ := read.Contents[0]["text"].(string)
	if !strings.Contains(html, "<html") || !strings.Contains(html, "custom") {
		t.Fatalf("ui://custom is not an HTML page for the tool: %.200s", html)
	}

	r := h.c.call("resources/read", map[string]any{"uri": "ui://own/app"})
	if r.Error != nil || !strings.Contains(string(r.Result), "connectDomains") {
		t.Fatalf("upstream's own UI must pass through verbatim: %s %v", r.Result, r.Error)
	}
	r = h.c.call("resources/read", map[string]any{"uri": "ui://nope"})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeResourceNotFound {
		t.Fatalf("unknown ui:// resource: want -32002, got %s %v", r.Result, r.Error)
	}
	r = h.c.call("prompts/list", nil)
	if r.Error != nil || !reflect.DeepEqual(decode(t, string(r.Result)), decode(t, `{"prompts":[{"name":"p","x-extra":true}]}`)) {
		t.Fatalf("prompts/list passthrough: %s %v", r.Result, r.Error)
	}
}

func TestCancellationReachesUpstream(t *testing.T) {
	s := newScripted()
	h := startHost(t, scriptedUpstream(s), host.UIMetaAlways)
	h.c.initialize(nil)
	ch, id := h.c.start("tools/call", map[string]any{"name": "slow"})
	s.waitCalled(t, "slow")
	h.c.send(jsonrpc.NewNotification("notifications/cancelled", json.RawMessage(`{"requestId":`+id+`,"reason":"user"}`)))
	if !testenv.Until(5*time.Second, func() bool { return len(s.cancelledIDs()) > 0 }) {
		t.Fatal("upstream never received notifications/cancelled")
	}
	select {
	case r := <-ch:
		t.Fatalf("a cancelled request must not be answered, got %v", r)
	case <-time.After(300 * time.Millisecond):
	}
	// The session still works.
	h.c.result("ping", nil, nil)
}

func TestSamplingRelayedToHost(t *testing.T) {
	s := newScripted()
	h := startHost(t, scriptedUpstream(s), host.UIMetaAlways)
	h.c.initialize(map[string]any{"sampling": map[string]any{}})
	ch, _ := h.c.start("tools/call", map[string]any{"name": "ask"})
	var req *jsonrpc.Message
	select {
	case req = <-h.c.reqs:
	case <-time.After(10 * time.Second):
		t.Fatal("sampling/createMessage never reached the host")
	}
	if req.Method != "sampling/createMessage" || !strings.Contains(string(req.Params), `"maxTokens":5`) {
		t.Fatalf("relayed request: %s %s", req.Method, req.Params)
	}
	h.c.send(jsonrpc.NewResult(req.ID, json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"sampled!"},"model":"m"}`)))
	select {
	case r := <-ch:
		if r.Error != nil || !strings.Contains(string(r.Result), "sampled!") {
			t.Fatalf("upstream did not get the host's answer: %s %v", r.Result, r.Error)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tools/call did not finish after the sampling answer")
	}
}

func TestMalformedInputGetsClearErrors(t *testing.T) {
	h := startHost(t, demoUpstream(), host.UIMetaAlways)
	h.c.initialize(nil)
	h.c.send([]byte(`{not json`))
	h.c.send([]byte(`{"jsonrpc":"1.0","id":99,"method":"ping"}`))
	h.c.send([]byte(`{"jsonrpc":"2.0","id":null,"method":"ping"}`))
	r := h.c.call("no/such/method", nil)
	if r.Error == nil || r.Error.Code != jsonrpc.CodeMethodNotFound {
		t.Fatalf("unknown method: %v", r.Error)
	}
	r = h.c.call("tools/call", map[string]any{"arguments": map[string]any{}})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("tools/call without name: %v", r.Error)
	}
	r = h.c.call("tools/call", map[string]any{"name": host.ToolInspect, "arguments": map[string]any{"toolName": "get_forcast"}})
	if r.Error != nil || !strings.Contains(string(r.Result), `"isError":true`) || !strings.Contains(string(r.Result), "get_forecast") {
		t.Fatalf("unknown tool name should suggest the close match: %s %v", r.Result, r.Error)
	}
	// The answers to the three bad lines: a request frame (id 99) is
	// handled on its own goroutine, concurrently with the requests above,
	// so its answer may come after theirs; wait for it (the bound only stops
	// a hang).
	deadline := time.After(time.Minute)
	for {
		h.c.mu.Lock()
		lines, change := slices.Clone(h.c.raw), h.c.change
		h.c.mu.Unlock()
		var parseErr, versionErr, nullIDErr bool
		for _, line := range lines {
			m, err := jsonrpc.Parse([]byte(line))
			if err != nil {
				t.Fatalf("host wrote a non-JSON-RPC line: %q", line)
			}
			if m.Error != nil && m.Error.Code == jsonrpc.CodeParseError && string(m.ID) == "null" {
				parseErr = true
			}
			if m.Error != nil && m.Error.Code == jsonrpc.CodeInvalidRequest && string(m.ID) == "99" {
				versionErr = true
			}
			if m.Error != nil && m.Error.Code == jsonrpc.CodeInvalidRequest && string(m.ID) == "null" && strings.Contains(m.Error.Message, "id must be") {
				nullIDErr = true
			}
		}
		if parseErr && versionErr && nullIDErr {
			break
		}
		select {
		case <-change:
		case <-deadline:
			t.Fatalf("want a parse error (id null), an invalid-request error (id 99) and one for the null id; lines: %v", lines)
		}
	}
	h.c.result("ping", nil, nil) // the session still works
}

func TestProgressFromDemo(t *testing.T) {
	h := startHost(t, demoUpstream(), host.UIMetaAlways)
	h.c.initialize(nil)
	r := h.c.call("tools/call", map[string]any{"name": "run_battery", "arguments": map[string]any{"cells": 2},
		"_meta": map[string]any{"progressToken": "tok-1"}})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	if _, err := h.c.waitNotif(func(m *jsonrpc.Message) bool {
		return m.Method == "notifications/progress" && strings.Contains(string(m.Params), `"tok-1"`)
	}, 5*time.Second); err != nil {
		t.Fatalf("progress did not reach the host: %v", err)
	}
}

func TestRemovedToolDisappears(t *testing.T) {
	s := newScripted()
	h := startHost(t, scriptedUpstream(s), host.UIMetaAlways)
	h.c.initialize(nil)
	h.c.result("resources/subscribe", map[string]any{"uri": "ui://ask"}, nil)
	if _, ok := listTools(t, h.c)["ask"]; !ok {
		t.Fatal("ask missing before removal")
	}
	s.setTools(toolCustom, toolOwnUI, toolSlow)
	s.notify("notifications/tools/list_changed", nil)
	if _, err := h.c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/tools/list_changed" }, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := h.c.waitNotif(func(m *jsonrpc.Message) bool {
		return m.Method == "notifications/resources/updated" && strings.Contains(string(m.Params), "ui://ask")
	}, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, ok := listTools(t, h.c)["ask"]; ok {
		t.Fatal("removed tool still listed")
	}
	r := h.c.call("resources/read", map[string]any{"uri": "ui://ask"})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeResourceNotFound || r.Error.Message != "Resource not found" {
		t.Fatalf("removed tool's UI: want -32002 Resource not found, got %v", r.Error)
	}
}

func TestExtraResourcesAreApps(t *testing.T) {
	h := startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways)
	h.srv.AddResource(host.ExtraResource{URI: "ui://genui/extra", Name: "genui extra", Description: "state",
		Read: func(context.Context) ([]byte, error) { return []byte(`{"tools":3,"x":"</script>"}`), nil }})
	h.c.initialize(nil)
	var list struct {
		Resources []map[string]any `json:"resources"`
	}
	h.c.result("resources/list", nil, &list)
	found := false
	for _, r := range list.Resources {
		if r["uri"] == "ui://genui/extra" {
			found = r["mimeType"] == contract.MIMEApp
		}
	}
	if !found {
		t.Fatalf("ui://genui/extra not listed as an MCP App: %v", list.Resources)
	}
	var read struct {
		Contents []map[string]any `json:"contents"`
	}
	h.c.result("resources/read", map[string]any{"uri": "ui://genui/extra"}, &read)
	if len(read.Contents) != 1 || read.Contents[0]["mimeType"] != contract.MIMEApp {
		t.Fatalf("ui://genui/extra read: %v", read.Contents)
	}
	page := read.Contents[0]["text"].(string)
	if !strings.Contains(page, `id="genui-data"`) || !strings.Contains(page, `"tools":3`) || strings.Contains(page, `"x":"</script>"`) {
		t.Fatalf("ui://genui/extra page must embed the JSON safely: %.400s", page)
	}
}

func TestRefreshToolsWrapperReportsDiff(t *testing.T) {
	s := newScripted()
	h := startHost(t, scriptedUpstream(s), host.UIMetaAlways)
	h.c.initialize(nil)
	listTools(t, h.c)
	changedSlow := `{"name":"slow","description":"now documented","inputSchema":{"type":"object"}}`
	s.setTools(toolCustom, changedSlow, `{"name":"fresh","inputSchema":{"type":"object"}}`)
	var res struct {
		StructuredContent contract.ToolDiff `json:"structuredContent"`
	}
	h.c.result("tools/call", map[string]any{"name": host.ToolRefreshTools, "arguments": map[string]any{}}, &res)
	d := res.StructuredContent
	if !reflect.DeepEqual(d.Added, []string{"fresh"}) || !reflect.DeepEqual(d.Changed, []string{"slow"}) ||
		!reflect.DeepEqual(d.Removed, []string{"ask", "own"}) || !reflect.DeepEqual(d.Unchanged, []string{"custom"}) {
		t.Fatalf("diff = %+v", d)
	}
	if _, err := h.c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/tools/list_changed" }, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	r := h.c.call("resources/read", map[string]any{"uri": "ui://ask"})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeResourceNotFound {
		t.Fatalf("removed tool's UI: %v", r.Error)
	}
	r = h.c.call("tools/call", map[string]any{"name": host.ToolInspect, "arguments": map[string]any{"toolName": "ask"}})
	if !strings.Contains(string(r.Result), `"isError":true`) {
		t.Fatalf("inspect of a removed tool should fail: %s", r.Result)
	}
}

func TestGenerationCarriesRequestID(t *testing.T) {
	h := startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways)
	h.c.initialize(nil)
	h.c.result("resources/read", map[string]any{"uri": "ui://custom"}, nil)
	var res struct {
		StructuredContent struct {
			Meta struct {
				RequestID string `json:"requestId"`
				UIType    string `json:"uiType"`
			} `json:"meta"`
		} `json:"structuredContent"`
	}
	h.c.result("tools/call", map[string]any{"name": host.ToolInspect, "arguments": map[string]any{"toolName": "custom"}}, &res)
	if m := res.StructuredContent.Meta; !strings.HasPrefix(m.RequestID, "r") || m.UIType == "" {
		t.Fatalf("cached UI metadata lacks the generating request's id: %+v", m)
	}
}

// silentUpstream reads everything and never answers, like a server that
// hangs on start.
func silentUpstream(ctx context.Context, r io.Reader, w io.Writer) error {
	_, err := io.Copy(io.Discard, r)
	return err
}

func TestSilentUpstreamFailsClearlyAndBounded(t *testing.T) {
	h := startHostOpts(t, upstream.Config{Transport: "inprocess", InProcess: silentUpstream},
		host.Options{ReadyTimeout: 300 * time.Millisecond}, func(o *engine.Options) { o.UpstreamWait = 300 * time.Millisecond })
	h.c.initialize(nil)
	for _, m := range []struct {
		method string
		params any
	}{
		{"tools/list", nil},
		{"tools/call", map[string]any{"name": "anything"}},
		{"resources/read", map[string]any{"uri": "ui://anything"}},
	} {
		start := time.Now()
		r := h.c.call(m.method, m.params)
		if r.Error == nil || r.Error.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(r.Error.Message, "not") {
			t.Errorf("%s against a silent upstream: %s %v, want a -32001 error", m.method, r.Result, r.Error)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %s; the wait must be bounded by the configured timeout", m.method, d)
		}
	}
	// _ui_status still answers: it is how a user finds out what is wrong.
	r := h.c.call("tools/call", map[string]any{"name": host.ToolStatus, "arguments": map[string]any{}})
	if r.Error != nil || !strings.Contains(string(r.Result), `"connected":false`) {
		t.Fatalf("_ui_status with a silent upstream: %s %v", r.Result, r.Error)
	}
}

// TestToolNamedStateGetsItsOwnUI: genui's own resources live under
// ui://genui/, so an upstream tool called "state" or "variables" keeps its
// own ui://<tool> UI, and genui's state is still at ui://genui/state.
func TestToolNamedStateGetsItsOwnUI(t *testing.T) {
	s := newScripted()
	s.setTools(`{"name":"state","description":"the state tool","inputSchema":{"type":"object"}}`,
		`{"name":"variables","description":"the variables tool","inputSchema":{"type":"object"}}`)
	h := startHost(t, scriptedUpstream(s), host.UIMetaAlways)
	h.c.initialize(nil)
	tools := listTools(t, h.c)
	for _, name := range []string{"state", "variables"} {
		meta, _ := tools[name]["_meta"].(map[string]any)
		ui, _ := meta["ui"].(map[string]any)
		if ui["resourceUri"] != "ui://"+name {
			t.Fatalf("tool %s: _meta %v, want resourceUri ui://%s", name, meta, name)
		}
		var read struct {
			Contents []map[string]any `json:"contents"`
		}
		h.c.result("resources/read", map[string]any{"uri": "ui://" + name}, &read)
		page, _ := read.Contents[0]["text"].(string)
		if strings.Contains(page, `id="genui-data"`) || !strings.Contains(page, name) {
			t.Fatalf("ui://%s is not the tool's own UI: %.300s", name, page)
		}
	}
	var own struct {
		Contents []map[string]any `json:"contents"`
	}
	h.c.result("resources/read", map[string]any{"uri": host.StateURI}, &own)
	if page, _ := own.Contents[0]["text"].(string); !strings.Contains(page, `id="genui-data"`) || !strings.Contains(page, `"upstream"`) {
		t.Fatalf("%s is not genui's state page: %.300s", host.StateURI, page)
	}
	var list struct {
		Resources []map[string]any `json:"resources"`
	}
	h.c.result("resources/list", nil, &list)
	uris := map[any]bool{}
	for _, r := range list.Resources {
		uris[r["uri"]] = true
	}
	for _, u := range []string{"ui://state", "ui://variables", host.StateURI, host.VariablesURI} {
		if !uris[u] {
			t.Errorf("resources/list lacks %s: %v", u, uris)
		}
	}
}
