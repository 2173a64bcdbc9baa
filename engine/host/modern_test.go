package host_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
)

// modern builds the params of a 2026-07-28 request: fields plus the
// per-request _meta envelope with caps (nil: {}) and, optionally, a log
// level.
func modern(fields map[string]any, caps any, logLevel string) map[string]any {
	if caps == nil {
		caps = map[string]any{}
	}
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "test", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": caps,
	}
	if logLevel != "" {
		meta["io.modelcontextprotocol/logLevel"] = logLevel
	}
	out := map[string]any{"_meta": meta}
	for k, v := range fields {
		out[k] = v
	}
	return out
}

func resultMap(t *testing.T, m *jsonrpc.Message) map[string]json.RawMessage {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("error %d %s", m.Error.Code, m.Error.Message)
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(m.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestModernResultsCarryTheRevisionFields: over stdio, modern requests get
// resultType on every result, ttlMs/cacheScope on cacheable ones, genui's
// serverInfo, the upstream's result otherwise verbatim; server/discover
// lists the revision; resource not found is -32602; removed methods are
// -32601; an unknown revision gets -32022 with the supported list.
func TestModernResultsCarryTheRevisionFields(t *testing.T) {
	h := startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways)
	c := h.c

	d := resultMap(t, c.call("server/discover", modern(nil, nil, "")))
	if string(d["resultType"]) != `"complete"` || !strings.Contains(string(d["supportedVersions"]), `"2026-07-28"`) ||
		!strings.Contains(string(d["capabilities"]), `"prompts"`) || string(d["ttlMs"]) != "0" || string(d["cacheScope"]) != `"private"` ||
		!strings.Contains(string(d["_meta"]), `"io.modelcontextprotocol/serverInfo":{"name":"genui"`) {
		t.Fatalf("server/discover: %s", mustJSON(d))
	}
	for _, method := range []string{"tools/list", "resources/list", "prompts/list", "resources/templates/list"} {
		r := resultMap(t, c.call(method, modern(nil, nil, "")))
		if string(r["resultType"]) != `"complete"` || string(r["ttlMs"]) != "0" || string(r["cacheScope"]) != `"private"` ||
			!strings.Contains(string(r["_meta"]), `"name":"genui"`) {
			t.Errorf("%s: %s", method, mustJSON(r))
		}
	}
	call := resultMap(t, c.call("tools/call", modern(map[string]any{"name": "custom", "arguments": map[string]any{"a": "x"}}, nil, "")))
	if string(call["resultType"]) != `"complete"` || string(call["structuredContent"]) != `{"ok":true,"n":1.50}` ||
		!strings.Contains(string(call["content"]), `"hologram"`) || !strings.Contains(string(call["_meta"]), `"com.example/trace":"t1"`) {
		t.Errorf("tools/call result not verbatim plus resultType: %s", mustJSON(call))
	}
	if _, ok := call["ttlMs"]; ok {
		t.Errorf("tools/call is not cacheable, yet has ttlMs: %s", mustJSON(call))
	}
	read := resultMap(t, c.call("resources/read", modern(map[string]any{"uri": "ui://custom"}, nil, "")))
	if string(read["resultType"]) != `"complete"` || string(read["ttlMs"]) != "0" || !strings.Contains(string(read["contents"]), "text/html;profile=mcp-app") {
		t.Errorf("resources/read ui://custom: %.300s", mustJSON(read))
	}

	if m := c.call("resources/read", modern(map[string]any{"uri": "ui://nope"}, nil, "")); m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown resource: %s %v, want -32602", m.Result, m.Error)
	}
	for _, method := range []string{"ping", "logging/setLevel", "resources/subscribe"} {
		if m := c.call(method, modern(map[string]any{"uri": "ui://custom", "level": "info"}, nil, "")); m.Error == nil || m.Error.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("%s in 2026-07-28: %s %v, want -32601", method, m.Result, m.Error)
		}
	}
	bad := modern(nil, nil, "")
	bad["_meta"].(map[string]any)["io.modelcontextprotocol/protocolVersion"] = "1900-01-01"
	m := c.call("tools/list", bad)
	if m.Error == nil || m.Error.Code != host.CodeUnsupportedVersion || !strings.Contains(string(m.Error.Data), `"supported":["2026-07-28"`) ||
		!strings.Contains(string(m.Error.Data), `"requested":"1900-01-01"`) {
		t.Fatalf("unknown revision: %s %+v", m.Result, m.Error)
	}
}

// TestModernNotificationsOnlyOnListen: a modern stdio client hears change
// notifications only through subscriptions/listen, tagged with the listen
// request's id, acknowledged first; notifications/cancelled ends the listen
// without a response, and Shutdown ends one with the graceful result.
func TestModernNotificationsOnlyOnListen(t *testing.T) {
	up := newScripted()
	h := startHost(t, scriptedUpstream(up), host.UIMetaAlways)
	c := h.c
	resultMap(t, c.call("tools/list", modern(nil, nil, "")))

	// No listen yet: a tools change is not announced.
	up.setTools(toolCustom, toolSlow)
	up.notify("notifications/tools/list_changed", nil)
	if n, err := c.waitNotif(func(m *jsonrpc.Message) bool { return strings.HasSuffix(m.Method, "list_changed") }, time.Second); err == nil {
		t.Fatalf("a modern client got an unsolicited %s", n.Method)
	}

	listenDone, listenID := c.start("subscriptions/listen", modern(map[string]any{"notifications": map[string]any{
		"toolsListChanged": true, "promptsListChanged": true, "resourceSubscriptions": []string{"ui://custom", "file:///x"}}}, nil, ""))
	ack, err := c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/subscriptions/acknowledged" }, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// The scripted upstream announces no prompt changes and has no resource
	// subscriptions: ui://custom is genui's; prompts and file:///x are
	// not honored.
	if want := `{"_meta":{"io.modelcontextprotocol/subscriptionId":` + listenID + `},"notifications":{"toolsListChanged":true,"resourceSubscriptions":["ui://custom"]}}`; string(ack.Params) != want {
		t.Fatalf("acknowledgement %s, want %s", ack.Params, want)
	}
	up.setTools(toolCustom)
	up.notify("notifications/tools/list_changed", nil)
	n, err := c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/tools/list_changed" }, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(n.Params), `"io.modelcontextprotocol/subscriptionId":`+listenID) {
		t.Fatalf("list_changed not tagged with the subscription: %s", n.Params)
	}
	// resources/list_changed was not asked for.
	if _, err := c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/resources/list_changed" }, 300*time.Millisecond); err == nil {
		t.Fatal("resources/list_changed delivered though the filter did not ask for it")
	}
	// A refinement of ui://custom: resources/updated, tagged.
	resultMap(t, c.call("tools/call", modern(map[string]any{"name": "_ui_refine", "arguments": map[string]any{"toolName": "custom", "feedback": "dark theme"}}, nil, "")))
	if n, err := c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/resources/updated" }, 5*time.Second); err != nil ||
		!strings.Contains(string(n.Params), `"uri":"ui://custom"`) || !strings.Contains(string(n.Params), `"io.modelcontextprotocol/subscriptionId":`+listenID) {
		t.Fatalf("resources/updated for ui://custom: %v %v", n, err)
	}

	// The client cancels the listen: no response.
	c.send(jsonrpc.NewNotification("notifications/cancelled", json.RawMessage(`{"requestId":`+listenID+`}`)))
	select {
	case m := <-listenDone:
		t.Fatalf("a cancelled listen got a response: %s %v", m.Result, m.Error)
	case <-time.After(500 * time.Millisecond):
	}

	// A second listen ends gracefully at Shutdown.
	second, secondID := c.start("subscriptions/listen", modern(map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil, ""))
	if _, err := c.waitNotif(func(m *jsonrpc.Message) bool {
		return m.Method == "notifications/subscriptions/acknowledged" && strings.Contains(string(m.Params), ":"+secondID+"}")
	}, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	h.srv.Shutdown()
	select {
	case m := <-second:
		r := resultMap(t, m)
		if string(r["resultType"]) != `"complete"` || !strings.Contains(string(r["_meta"]), `"io.modelcontextprotocol/subscriptionId":`+secondID) {
			t.Fatalf("graceful listen result: %s", m.Result)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Shutdown did not end the listen")
	}
}

// TestModernLogLevelGatesLogMessages: upstream log messages reach a modern
// request only when it set io.modelcontextprotocol/logLevel, at that level
// or above.
func TestModernLogLevelGatesLogMessages(t *testing.T) {
	up := newRevUpstream(1)
	h := startHost(t, upstream.Config{Transport: "inprocess", InProcess: up.serve}, host.UIMetaAlways)
	c := h.c
	flood := map[string]any{"name": "flood", "arguments": map[string]any{"n": 2, "size": 10}}
	resultMap(t, c.call("tools/call", modern(flood, nil, "")))
	if _, err := c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/message" }, 300*time.Millisecond); err == nil {
		t.Fatal("log messages delivered to a request that did not ask for them")
	}
	resultMap(t, c.call("tools/call", modern(flood, nil, "error")))
	if _, err := c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/message" }, 300*time.Millisecond); err == nil {
		t.Fatal("info messages delivered to a request that asked for error and above")
	}
	resultMap(t, c.call("tools/call", modern(flood, nil, "info")))
	if _, err := c.waitNotif(func(m *jsonrpc.Message) bool {
		return m.Method == "notifications/message" && strings.Contains(string(m.Params), "flood-done")
	}, 5*time.Second); err != nil {
		t.Fatalf("log messages for a request at info: %v", err)
	}
}

// TestModernSamplingIsAMultiRoundTrip: the upstream's sampling request
// during a modern tools/call becomes an input_required result; the retry
// with inputResponses and requestState completes the call with the
// client's answer. requestState is single-use and bound to its request; a
// client that did not declare sampling is never asked.
func TestModernSamplingIsAMultiRoundTrip(t *testing.T) {
	h := startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways)
	c := h.c
	sampling := map[string]any{"sampling": map[string]any{}}
	ask := map[string]any{"name": "ask", "arguments": map[string]any{}}

	first := resultMap(t, c.call("tools/call", modern(ask, sampling, "")))
	var ir struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		} `json:"inputRequests"`
		RequestState string `json:"requestState"`
	}
	b, _ := json.Marshal(first)
	_ = json.Unmarshal(b, &ir)
	if ir.ResultType != "input_required" || len(ir.InputRequests) != 1 || ir.RequestState == "" {
		t.Fatalf("first round: %s", b)
	}
	var key string
	for k, r := range ir.InputRequests {
		key = k
		if r.Method != "sampling/createMessage" || !strings.Contains(string(r.Params), `"maxTokens":5`) {
			t.Fatalf("input request %s: %s %s", k, r.Method, r.Params)
		}
	}
	answer := map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": "from the client"}, "model": "m"}

	// Bound to its request: another tool's retry is refused (and does not
	// consume the state).
	wrong := c.call("tools/call", modern(map[string]any{"name": "custom", "arguments": map[string]any{},
		"requestState": ir.RequestState, "inputResponses": map[string]any{key: answer}}, sampling, ""))
	if wrong.Error == nil || wrong.Error.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("requestState on another request: %s %v", wrong.Result, wrong.Error)
	}
	retry := modern(map[string]any{"name": "ask", "arguments": map[string]any{},
		"requestState": ir.RequestState, "inputResponses": map[string]any{key: answer}}, sampling, "")
	final := resultMap(t, c.call("tools/call", retry))
	if string(final["resultType"]) != `"complete"` || !strings.Contains(string(final["content"]), "from the client") {
		t.Fatalf("final round: %s", mustJSON(final))
	}
	if again := c.call("tools/call", retry); again.Error == nil || again.Error.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("a used requestState was accepted again: %s %v", again.Result, again.Error)
	}

	// No sampling capability: the client is not asked; the upstream hears
	// a refusal and the call completes with it.
	plain := resultMap(t, c.call("tools/call", modern(ask, nil, "")))
	if string(plain["resultType"]) != `"complete"` || !strings.Contains(string(plain["content"]), "did not declare the capability") {
		t.Fatalf("call without the sampling capability: %s", mustJSON(plain))
	}
}

// modernPost POSTs a modern request to /mcp with the revision's headers
// (hdr overrides them; "" removes one).
// waitModernTools polls a modern tools/list until its body holds want
// (bounded: 10 s).
func waitModernTools(t *testing.T, base, want string) {
	t.Helper()
	var body []byte
	holds := func() bool {
		_, body = modernPost(t, base, "tools/list", modern(nil, nil, ""), nil)
		return strings.Contains(string(body), want)
	}
	if !testenv.Until(10*time.Second, holds) {
		t.Fatalf("tools/list never held %s: %s", want, body)
	}
}

func modernPost(t *testing.T, base string, method string, params map[string]any, hdr map[string]string) (*http.Response, []byte) {
	t.Helper()
	body := jsonrpc.NewRequest(json.RawMessage(`1`), method, json.RawMessage(mustJSON(params)))
	req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestModernHTTP: stateless streamable HTTP. No session is minted; the
// request metadata headers must match the body (400 HeaderMismatch
// otherwise, Base64 sentinel values decoded, x-mcp-header parameters
// checked); unsupported revisions are 400, unknown methods 404.
func TestModernHTTP(t *testing.T) {
	up := newScripted()
	up.setTools(toolCustom, `{"name":"regional","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"q":{"type":"string"}}}}`)
	ts, _ := startHTTPUp(t, scriptedUpstream(up))

	resp, body := modernPost(t, ts.URL, "tools/list", modern(nil, nil, ""), map[string]string{"Mcp-Session-Id": "ignored"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") != "" || !strings.Contains(string(body), `"resultType":"complete"`) {
		t.Fatalf("tools/list: %d session %q %.200s", resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), body)
	}
	call := func(name string, hdr map[string]string, args map[string]any) (int, string) {
		resp, body := modernPost(t, ts.URL, "tools/call", modern(map[string]any{"name": name, "arguments": args}, nil, ""), hdr)
		return resp.StatusCode, string(body)
	}
	cases := []struct {
		what       string
		tool       string
		hdr        map[string]string
		args       map[string]any
		wantStatus int
		wantInBody string
	}{
		{"all headers", "custom", map[string]string{"Mcp-Name": "custom"}, nil, 200, `"resultType":"complete"`},
		{"Base64 Mcp-Name", "custom", map[string]string{"Mcp-Name": "=?base64?Y3VzdG9t?="}, nil, 200, `"resultType":"complete"`},
		{"no Mcp-Name", "custom", nil, nil, 400, `-32020`},
		{"other Mcp-Name", "custom", map[string]string{"Mcp-Name": "regional"}, nil, 400, `-32020`},
		{"no Mcp-Method", "custom", map[string]string{"Mcp-Name": "custom", "Mcp-Method": ""}, nil, 400, `-32020`},
		{"other Mcp-Method", "custom", map[string]string{"Mcp-Name": "custom", "Mcp-Method": "tools/list"}, nil, 400, `-32020`},
		{"no protocol header", "custom", map[string]string{"Mcp-Name": "custom", "Mcp-Protocol-Version": ""}, nil, 400, `-32020`},
		{"param header matches", "regional", map[string]string{"Mcp-Name": "regional", "Mcp-Param-Region": "us-west1"}, map[string]any{"region": "us-west1", "q": "x"}, 200, `"resultType":"complete"`},
		{"param header missing", "regional", map[string]string{"Mcp-Name": "regional"}, map[string]any{"region": "us-west1"}, 400, `Mcp-Param-Region`},
		{"param header differs", "regional", map[string]string{"Mcp-Name": "regional", "Mcp-Param-Region": "eu"}, map[string]any{"region": "us-west1"}, 400, `Mcp-Param-Region`},
		{"param absent, no header", "regional", map[string]string{"Mcp-Name": "regional"}, map[string]any{"q": "x"}, 200, `"resultType":"complete"`},
	}
	for _, tc := range cases {
		status, body := call(tc.tool, tc.hdr, tc.args)
		if status != tc.wantStatus || !strings.Contains(body, tc.wantInBody) {
			t.Errorf("%s: %d %.300s; want %d with %q", tc.what, status, body, tc.wantStatus, tc.wantInBody)
		}
	}

	bad := modern(nil, nil, "")
	bad["_meta"].(map[string]any)["io.modelcontextprotocol/protocolVersion"] = "2099-01-01"
	if resp, body := modernPost(t, ts.URL, "tools/list", bad, map[string]string{"Mcp-Protocol-Version": "2099-01-01"}); resp.StatusCode != 400 || !strings.Contains(string(body), "-32022") {
		t.Errorf("unsupported revision: %d %s", resp.StatusCode, body)
	}
	if resp, body := modernPost(t, ts.URL, "ping", modern(nil, nil, ""), nil); resp.StatusCode != 404 || !strings.Contains(string(body), "-32601") {
		t.Errorf("ping (removed): %d %s", resp.StatusCode, body)
	}
	if resp, body := modernPost(t, ts.URL, "subscriptions/listen", modern(map[string]any{"notifications": map[string]any{}}, nil, ""),
		map[string]string{"Accept": "application/json"}); resp.StatusCode != http.StatusNotAcceptable {
		t.Errorf("listen without SSE: %d %s", resp.StatusCode, body)
	}
}

// TestModernHTTPListen: subscriptions/listen over HTTP answers with an SSE
// stream: the acknowledgement, then the change notifications asked for,
// tagged; Shutdown ends it with the graceful result. A POST whose header
// names the revision but whose body lacks the envelope is a mismatch.
func TestModernHTTPListen(t *testing.T) {
	up := newScripted()
	ts, srv := startHTTPUp(t, scriptedUpstream(up))
	// The change below must be a change: wait until genui has listed the
	// upstream's first tool set (slow is in it, not in the next one), or a
	// first listing that runs late sees the new set and nothing changes.
	waitModernTools(t, ts.URL, `"name":"slow"`)

	params := modern(map[string]any{"notifications": map[string]any{"toolsListChanged": true, "resourcesListChanged": true}}, nil, "")
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(string(jsonrpc.NewRequest(json.RawMessage(`"L1"`), "subscriptions/listen", json.RawMessage(mustJSON(params))))))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	events, _, resp := openSSE(t, req)
	if events == nil {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("listen: %d %s", resp.StatusCode, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("listen answered with %q, session %q", ct, resp.Header.Get("Mcp-Session-Id"))
	}
	ack := nextEvent(t, events, "the acknowledgement")
	if ack.id != "" || !strings.Contains(ack.data, `"notifications/subscriptions/acknowledged"`) || !strings.Contains(ack.data, `"io.modelcontextprotocol/subscriptionId":"L1"`) {
		t.Fatalf("first event %+v", ack)
	}
	up.setTools(toolCustom)
	up.notify("notifications/tools/list_changed", nil)
	for _, want := range []string{"notifications/tools/list_changed", "notifications/resources/list_changed"} {
		ev := nextEvent(t, events, want)
		if !strings.Contains(ev.data, want) || !strings.Contains(ev.data, `"io.modelcontextprotocol/subscriptionId":"L1"`) {
			t.Fatalf("want %s tagged, got %+v", want, ev)
		}
	}
	srv.Shutdown()
	end := nextEvent(t, events, "the graceful result")
	if !strings.Contains(end.data, `"id":"L1"`) || !strings.Contains(end.data, `"resultType":"complete"`) || !strings.Contains(end.data, `"io.modelcontextprotocol/subscriptionId":"L1"`) {
		t.Fatalf("graceful end %+v", end)
	}
	if ev, ok := <-events; ok {
		t.Fatalf("the stream goes on after the graceful result: %+v", ev)
	}

	body := jsonrpc.NewRequest(json.RawMessage(`2`), "tools/list", json.RawMessage(`{}`))
	req, _ = http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/list")
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r2.Body)
	r2.Body.Close()
	if r2.StatusCode != 400 || !strings.Contains(string(b), "-32020") {
		t.Fatalf("modern header without the envelope: %d %s", r2.StatusCode, b)
	}
}

// TestModernProgressOnTheRequestStream: a modern tools/call with a
// progress token gets its progress (with its own token) before the result:
// on stdio as notifications, over HTTP as an SSE response that the first
// notification opens.
func TestModernProgressOnTheRequestStream(t *testing.T) {
	params := func() map[string]any {
		p := modern(map[string]any{"name": "progress", "arguments": map[string]any{"who": "M", "hold_ms": 10}}, nil, "")
		p["_meta"].(map[string]any)["progressToken"] = "mine"
		return p
	}
	up := newRevUpstream(1)
	h := startHost(t, upstream.Config{Transport: "inprocess", InProcess: up.serve}, host.UIMetaAlways)
	res := resultMap(t, h.c.call("tools/call", params()))
	if !strings.Contains(string(res["content"]), "done M") {
		t.Fatalf("stdio result: %s", mustJSON(res))
	}
	if n, err := h.c.waitNotif(func(m *jsonrpc.Message) bool { return m.Method == "notifications/progress" }, 5*time.Second); err != nil ||
		!strings.Contains(string(n.Params), `"progressToken":"mine"`) {
		t.Fatalf("stdio progress: %v %v", n, err)
	}

	up2 := newRevUpstream(1)
	ts, _ := startHTTPUp(t, upstream.Config{Transport: "inprocess", InProcess: up2.serve})
	resp, body := modernPost(t, ts.URL, "tools/call", params(), map[string]string{"Mcp-Name": "progress"})
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("HTTP: %s %s, want an SSE response", resp.Header.Get("Content-Type"), body)
	}
	frames := sseFrames(body)
	if len(frames) != 2 || frames[0].Method != "notifications/progress" || !strings.Contains(string(frames[0].Params), `"progressToken":"mine"`) ||
		!strings.Contains(string(frames[1].Result), `"resultType":"complete"`) {
		t.Fatalf("HTTP SSE frames: %s", body)
	}
	if strings.Contains(string(body), "id: ") {
		t.Fatalf("the stateless revision has no SSE event ids: %s", body)
	}
}
