package e2e_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// wrapperTools are genui's own tools (architecture.md, "Wrapper tools").
var wrapperTools = []string{"_ui_refine", "_ui_list", "_ui_inspect", "_ui_regenerate", "_ui_refresh_tools", "_ui_status", "_ui_preview"}

// everythingCall says how TestFidelityEverything calls one server-everything
// tool. Tools not listed get mcptest.ExampleArgs of their schema.
type everythingCall struct {
	args  any
	times int    // calls in a row (toggles: on, then off again); default 1
	skip  string // why the tool is not called
}

var everythingCalls = map[string]everythingCall{
	"echo":                   {args: map[string]any{"message": "hello from genui e2e"}},
	"get-annotated-message":  {args: map[string]any{"messageType": "error", "includeImage": true}},
	"get-env":                {args: map[string]any{}}, // same env on both sides: genui must pass its env through
	"get-resource-links":     {args: map[string]any{"count": 4}},
	"get-resource-reference": {args: map[string]any{"resourceType": "Text", "resourceId": 2}}, // text carries a wall-clock time: normalized
	"get-structured-content": {args: map[string]any{"location": "Chicago"}},
	"get-sum":                {args: map[string]any{"a": 2, "b": 40}},
	"get-tiny-image":         {args: map[string]any{}},
	"gzip-file-as-resource": {args: map[string]any{
		"name":       "hello.txt.gz",
		"data":       "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte("hello genui\n")),
		"outputType": "resource",
	}}, // a data: URI, so no network; gzip output is deterministic
	"toggle-simulated-logging":       {args: map[string]any{}, times: 2},
	"toggle-subscriber-updates":      {args: map[string]any{}, times: 2},
	"trigger-long-running-operation": {args: map[string]any{"duration": 0.2, "steps": 2}},
	// Requires task augmentation: a plain call is an error, and the error
	// must come back unchanged.
	"simulate-research-query": {args: map[string]any{"topic": "genui"}},

	"get-roots-list":                    {skip: "needs roots from the host"},
	"trigger-sampling-request":          {skip: "needs sampling from the host"},
	"trigger-sampling-request-async":    {skip: "needs sampling from the host"},
	"trigger-elicitation-request":       {skip: "needs elicitation from the host"},
	"trigger-elicitation-request-async": {skip: "needs elicitation from the host"},
	"trigger-url-elicitation":           {skip: "needs elicitation from the host"},
}

// everythingPrompts are deterministic prompts/get arguments.
var everythingPrompts = map[string]map[string]string{
	"simple-prompt":      nil,
	"args-prompt":        {"city": "Berlin", "state": "Brandenburg"},
	"completable-prompt": {"department": "Engineering", "name": "Alice"},
	"resource-prompt":    {"resourceType": "Text", "resourceId": "2"},
}

// TestFidelityEverything compares npm's server-everything spoken to directly
// with the same server behind `genui mcp`: a host must see the same tools
// (plus only genui's UI metadata and _ui_* tools), results, progress,
// resources, templates and prompts.
func TestFidelityEverything(t *testing.T) {
	testenv.GenuiBinary(t) // build (or fail) before starting anything
	up := everythingCmd(t)
	direct := session(t, exec.Command(up[0], up[1:]...), hostHandler())
	proxied, _ := genuiMCP(t, append([]string{"--"}, up...)...)
	ctx := bounded(t, 2*time.Minute)

	for name, c := range map[string]*mcptest.Client{"direct": direct, "genui": proxied} {
		if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
			t.Fatalf("%s initialize: %v", name, err)
		}
	}
	directTools := directToolList(ctx, t, direct)
	proxiedTools := proxiedToolList(ctx, t, proxied, directTools)

	t.Run("tools/list", func(t *testing.T) {
		checkToolsEqual(t, directTools, proxiedTools)
		for _, name := range wrapperTools {
			if _, ok := proxiedTools[name]; !ok {
				t.Errorf("genui lacks wrapper tool %q", name)
			}
		}
	})

	t.Run("tools/call", func(t *testing.T) {
		var succeeded []string // upstream calls that returned a non-error result
		defer func() {
			// Guard against a comparison of nothing but matching errors.
			if len(succeeded) < 10 {
				t.Errorf("only %d tools succeeded upstream (%v); the comparison proves little", len(succeeded), succeeded)
			}
		}()
		for _, name := range sortedKeys(directTools) {
			call, ok := everythingCalls[name]
			if call.skip != "" {
				t.Logf("not calling %s: %s", name, call.skip)
				continue
			}
			if !ok {
				var tool mcptest.Tool
				_ = json.Unmarshal(directTools[name], &tool)
				call.args = mcptest.ExampleArgs(tool.InputSchema)
				t.Logf("%s is new in this server-everything: calling it with %v", name, call.args)
			}
			for i := 0; i < max(call.times, 1); i++ {
				want := outcome(ctx, t, direct, "tools/call", map[string]any{"name": name, "arguments": call.args})
				got := outcome(ctx, t, proxied, "tools/call", map[string]any{"name": name, "arguments": call.args})
				if r, ok := want.(map[string]any)["result"].(map[string]any); ok && r["isError"] != true {
					succeeded = append(succeeded, name)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("tools/call %s (call %d) differs:\n genui: %s\nupstream: %s", name, i+1, clip([]byte(mustJSON(got))), clip([]byte(mustJSON(want))))
				}
			}
		}
	})

	t.Run("progress", func(t *testing.T) {
		for _, token := range []any{"fidelity-progress", 4242} {
			checkProgressEqual(ctx, t, direct, proxied, token, 0.3)
		}
	})

	t.Run("resources", func(t *testing.T) {
		want := listByKey(ctx, t, direct, "resources/list", "resources", "uri")
		got := listByKey(ctx, t, proxied, "resources/list", "resources", "uri")
		for uri, w := range want {
			g, ok := got[uri]
			if !ok {
				t.Errorf("genui resources/list lacks upstream resource %s", uri)
			} else if !reflect.DeepEqual(g, w) {
				t.Errorf("resource %s differs:\n genui: %s\nupstream: %s", uri, mustJSON(g), mustJSON(w))
			}
		}
		for uri := range got {
			if _, ok := want[uri]; !ok && !strings.HasPrefix(uri, "ui://") {
				t.Errorf("genui lists resource %s, neither upstream's nor ui://", uri)
			}
		}
		for name := range directTools {
			if _, ok := got["ui://"+name]; !ok {
				t.Errorf("genui resources/list lacks ui://%s", name)
			}
		}
		uris := []string{"demo://resource/dynamic/text/1", "demo://resource/dynamic/blob/2", "demo://resource/session/hello.txt.gz"}
		for _, uri := range sortedKeys(want) {
			if strings.HasPrefix(uri, "demo://resource/static/") && len(uris) < 6 {
				uris = append(uris, uri)
			}
		}
		for _, uri := range uris {
			w := outcome(ctx, t, direct, "resources/read", map[string]any{"uri": uri})
			g := outcome(ctx, t, proxied, "resources/read", map[string]any{"uri": uri})
			if !reflect.DeepEqual(g, w) {
				t.Errorf("resources/read %s differs:\n genui: %s\nupstream: %s", uri, clip([]byte(mustJSON(g))), clip([]byte(mustJSON(w))))
			}
		}
	})

	t.Run("resources/templates/list", func(t *testing.T) {
		want := listItems(ctx, t, direct, "resources/templates/list", "resourceTemplates")
		got := listItems(ctx, t, proxied, "resources/templates/list", "resourceTemplates")
		if len(want) == 0 {
			t.Fatal("upstream has no resource templates; the comparison would prove nothing")
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("templates differ:\n genui: %s\nupstream: %s", mustJSON(got), mustJSON(want))
		}
	})

	t.Run("prompts", func(t *testing.T) {
		want := listItems(ctx, t, direct, "prompts/list", "prompts")
		got := listItems(ctx, t, proxied, "prompts/list", "prompts")
		if len(want) == 0 {
			t.Fatal("upstream has no prompts; the comparison would prove nothing")
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("prompts/list differs:\n genui: %s\nupstream: %s", mustJSON(got), mustJSON(want))
		}
		for _, p := range want {
			name, _ := p.(map[string]any)["name"].(string)
			args, ok := everythingPrompts[name]
			if !ok {
				args = promptArgs(p)
			}
			params := map[string]any{"name": name}
			if args != nil {
				params["arguments"] = args
			}
			w := outcome(ctx, t, direct, "prompts/get", params)
			g := outcome(ctx, t, proxied, "prompts/get", params)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("prompts/get %s differs:\n genui: %s\nupstream: %s", name, mustJSON(g), mustJSON(w))
			}
		}
		complete := map[string]any{
			"ref":      map[string]any{"type": "ref/prompt", "name": "completable-prompt"},
			"argument": map[string]any{"name": "department", "value": "E"},
		}
		if w, g := outcome(ctx, t, direct, "completion/complete", complete), outcome(ctx, t, proxied, "completion/complete", complete); !reflect.DeepEqual(g, w) {
			t.Errorf("completion/complete differs:\n genui: %s\nupstream: %s", mustJSON(g), mustJSON(w))
		}
	})

	for name, c := range map[string]*mcptest.Client{"direct": direct, "genui": proxied} {
		if err := c.CheckStdout(); err != nil {
			t.Errorf("%s stdout is not pure JSON-RPC: %v", name, err)
		}
	}
}

// directToolList waits for server-everything's post-initialize
// tools/list_changed (it registers capability-dependent tools then) and
// returns its tools by name.
func directToolList(ctx context.Context, t *testing.T, c *mcptest.Client) map[string]json.RawMessage {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := c.WaitNotification(wctx, "notifications/tools/list_changed", nil); err != nil {
		t.Fatalf("server-everything sent no tools/list_changed after initialize: %v", err)
	}
	items, err := c.ListAll(ctx, "tools/list", "tools")
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]json.RawMessage{}
	for _, raw := range items {
		tools[toolName(raw)] = raw
	}
	return tools
}

// proxiedToolList polls genui's tools/list (up to 10 s) until every upstream
// tool is there, since genui may learn of the upstream's late tools after the
// host's initialize.
func proxiedToolList(ctx context.Context, t *testing.T, c *mcptest.Client, want map[string]json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var tools map[string]json.RawMessage
	var missing []string
	all := func() bool {
		items, err := c.ListAll(ctx, "tools/list", "tools")
		if err != nil {
			t.Fatal(err)
		}
		tools = map[string]json.RawMessage{}
		for _, raw := range items {
			tools[toolName(raw)] = raw
		}
		missing = missing[:0]
		for name := range want {
			if _, ok := tools[name]; !ok {
				missing = append(missing, name)
			}
		}
		return len(missing) == 0
	}
	if !testenv.Until(10*time.Second, all) {
		sort.Strings(missing)
		t.Logf("after 10 s genui still lacks %v", missing)
	}
	return tools
}

// stripUIMeta checks genui's UI linkage on a tool that had none upstream
// (_meta.ui.resourceUri and the legacy _meta["ui/resourceUri"], both
// "ui://<name>") and returns the tool without exactly those keys (and
// without _meta.ui / _meta when they end up empty).
func stripUIMeta(t *testing.T, name string, tool any) any {
	t.Helper()
	m, ok := tool.(map[string]any)
	if !ok {
		t.Fatalf("tool %q is not an object", name)
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	meta, _ := m["_meta"].(map[string]any)
	ui, _ := meta["ui"].(map[string]any)
	want := "ui://" + name
	if got := ui["resourceUri"]; got != want {
		t.Errorf("tool %q: _meta.ui.resourceUri = %v, want %q", name, got, want)
	}
	if got := meta["ui/resourceUri"]; got != want {
		t.Errorf("tool %q: _meta[\"ui/resourceUri\"] = %v, want %q", name, got, want)
	}
	newMeta := map[string]any{}
	for k, v := range meta {
		if k != "ui" && k != "ui/resourceUri" {
			newMeta[k] = v
		}
	}
	newUI := map[string]any{}
	for k, v := range ui {
		if k != "resourceUri" {
			newUI[k] = v
		}
	}
	if len(newUI) > 0 {
		newMeta["ui"] = newUI
	}
	delete(out, "_meta")
	if len(newMeta) > 0 {
		out["_meta"] = newMeta
	}
	return out
}

// outcome sends a request and returns what a host would compare: the
// normalized result, or the error object.
func outcome(ctx context.Context, t *testing.T, c *mcptest.Client, method string, params any) any {
	t.Helper()
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, rpcErr, err := c.Request(rctx, method, params)
	if err != nil {
		t.Fatalf("%s %v: %v", method, params, err)
	}
	if rpcErr != nil {
		e := map[string]any{"code": rpcErr.Code, "message": rpcErr.Message}
		if len(rpcErr.Data) > 0 {
			e["data"] = decode(t, rpcErr.Data)
		}
		return map[string]any{"error": e}
	}
	return map[string]any{"result": normalize(decode(t, res))}
}

// progressFor returns the params of every notifications/progress received
// for token, in order.
func progressFor(t *testing.T, c *mcptest.Client, token any) []any {
	t.Helper()
	want, _ := json.Marshal(token)
	var out []any
	for _, n := range c.Notifications() {
		if n.Method != "notifications/progress" {
			continue
		}
		var p struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		}
		if json.Unmarshal(n.Params, &p) == nil && string(p.ProgressToken) == string(want) {
			out = append(out, decode(t, n.Params))
		}
	}
	return out
}

// listItems returns every item of a paginated list, decoded.
func listItems(ctx context.Context, t *testing.T, c *mcptest.Client, method, key string) []any {
	t.Helper()
	items, err := c.ListAll(ctx, method, key)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]any, len(items))
	for i, raw := range items {
		out[i] = decode(t, raw)
	}
	return out
}

// listByKey indexes a list's items by a string field.
func listByKey(ctx context.Context, t *testing.T, c *mcptest.Client, method, key, field string) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, item := range listItems(ctx, t, c, method, key) {
		k, _ := item.(map[string]any)[field].(string)
		out[k] = item
	}
	return out
}

// promptArgs gives every required argument of a prompt the value "example".
func promptArgs(prompt any) map[string]string {
	args := map[string]string{}
	list, _ := prompt.(map[string]any)["arguments"].([]any)
	for _, a := range list {
		m, _ := a.(map[string]any)
		if req, _ := m["required"].(bool); req {
			name, _ := m["name"].(string)
			args[name] = "example"
		}
	}
	return args
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkProgressEqual calls server-everything's trigger-long-running-operation
// (3 steps over duration seconds) with progressToken token on both clients:
// results are equal, and genui delivers exactly the upstream's 3 progress
// notifications (progress precedes the response on the wire, so it is all
// there when the call returns).
func checkProgressEqual(ctx context.Context, t *testing.T, direct, proxied *mcptest.Client, token any, duration float64) {
	t.Helper()
	params := map[string]any{
		"name":      "trigger-long-running-operation",
		"arguments": map[string]any{"duration": duration, "steps": 3},
		"_meta":     map[string]any{"progressToken": token},
	}
	want := outcome(ctx, t, direct, "tools/call", params)
	got := outcome(ctx, t, proxied, "tools/call", params)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("result differs: genui %s, upstream %s", mustJSON(got), mustJSON(want))
	}
	wantP, gotP := progressFor(t, direct, token), progressFor(t, proxied, token)
	if len(wantP) != 3 {
		t.Fatalf("upstream sent %d progress notifications for %v, want 3", len(wantP), token)
	}
	if !reflect.DeepEqual(gotP, wantP) {
		t.Errorf("progress for token %v (%T) differs:\n genui: %s\nupstream: %s", token, token, mustJSON(gotP), mustJSON(wantP))
	}
}
