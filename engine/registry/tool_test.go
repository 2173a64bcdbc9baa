package registry_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/registry"
)

// TestNullMetaGetsUI: "_meta": null is how many JSON encoders write an
// absent field (pydantic without exclude_none, Go *map with no omitempty).
// It means "no metadata"; genui must still link the tool to its UI.
// WithUIMeta once unmarshalled null into its map (setting it to nil) and then
// leaves the tool without UI metadata.
func TestNullMetaGetsUI(t *testing.T) {
	tool, err := registry.Parse(json.RawMessage(`{"name":"n","inputSchema":{"type":"object"},"_meta":null}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tool.WithUIMeta()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if string(got.Meta["ui/resourceUri"]) != `"ui://n"` || !strings.Contains(string(got.Meta["ui"]), `"resourceUri":"ui://n"`) {
		t.Fatalf("tool with _meta null has no UI linkage: %s", raw)
	}
}

// TestUIMetaEdgeCases guards _meta handling the review checked and
// found correct.
func TestUIMetaEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		raw, wantURI string // wantURI "" = tool must be unchanged
	}{
		{`{"name":"a b/c?d#e%f","inputSchema":{}}`, "ui://a%20b%2Fc%3Fd%23e%25f"},
		{`{"name":"x","_meta":{"ui":null}}`, "ui://x"},
		{`{"name":"x","_meta":{"ui":{"visibility":["app"]},"k":1}}`, "ui://x"},
		{`{"name":"x","_meta":"oops"}`, ""},
		{`{"name":"x","_meta":{"ui":{"resourceUri":"ui://own"}}}`, ""},
	} {
		tool, err := registry.Parse(json.RawMessage(tc.raw))
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		raw, err := tool.WithUIMeta()
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		if tc.wantURI == "" {
			if string(raw) != tc.raw {
				t.Errorf("%s changed to %s", tc.raw, raw)
			}
			continue
		}
		if !strings.Contains(string(raw), `"resourceUri":"`+tc.wantURI+`"`) {
			t.Errorf("%s: got %s, want resourceUri %s", tc.raw, raw, tc.wantURI)
		}
		if name, ok := contract.ToolFromURI(tc.wantURI); !ok || name != tool.Name {
			t.Errorf("ToolFromURI(%s) = %q, %v; want %q", tc.wantURI, name, ok, tool.Name)
		}
	}
}

// TestParseReadsFieldsInPlace: the fields genui reads are slices of Raw
// (one copy of each tool's JSON is kept), decoded as encoding/json would.
func TestParseReadsFieldsInPlace(t *testing.T) {
	raw := `{ "name" : "a\u00e9b", "title":"T \"q\"", "description":null, "inputSchema" : {"type":"object"},
		"outputSchema":{"type":"object","properties":{"x":{}}},"annotations":{"readOnlyHint":true},"x":[1],"title":"T2"}`
	tool, err := registry.Parse(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Name, Title, Description               string
		InputSchema, OutputSchema, Annotations json.RawMessage
	}
	if err := json.Unmarshal([]byte(raw), &want); err != nil {
		t.Fatal(err)
	}
	if tool.Name != want.Name || tool.Title() != want.Title || tool.Description() != want.Description {
		t.Errorf("name %q title %q description %q, want %q %q %q", tool.Name, tool.Title(), tool.Description(), want.Name, want.Title, want.Description)
	}
	for _, f := range []struct {
		got, want json.RawMessage
	}{{tool.InputSchema(), want.InputSchema}, {tool.OutputSchema(), want.OutputSchema}, {tool.Annotations(), want.Annotations}} {
		if string(f.got) != string(f.want) {
			t.Errorf("got %s, want %s", f.got, f.want)
		}
		if len(f.got) > 0 && &f.got[0] != &tool.Raw[strings.Index(string(tool.Raw), string(f.got))] {
			t.Errorf("%s is a copy, not a slice of Raw", f.got)
		}
	}
	if tool.Meta() != nil || tool.OutputSchema() == nil {
		t.Errorf("meta %s, outputSchema %s", tool.Meta(), tool.OutputSchema())
	}
	if got, want := tool.Hash(), cache.ToolHash(cache.ToolIdentity{Name: want.Name, Description: want.Description,
		InputSchema: want.InputSchema, OutputSchema: want.OutputSchema}); got != want {
		t.Errorf("hash %s, want %s", got, want)
	}
	for _, bad := range []string{`[]`, `{"name":1}`, `{"title":"x"}`, `{"name":"x","title":5}`, `{"name":"x","description":{}}`, `{"name":"x",}`, `{"name":""}`} {
		if _, err := registry.Parse(json.RawMessage(bad)); err == nil {
			t.Errorf("Parse(%s) accepted it", bad)
		}
	}
}

// TestWithUIMetaAppendsToToolsWithoutMeta: the fast path (a tool without
// _meta gets it appended to its bytes) gives what the general one does.
func TestWithUIMetaAppendsToToolsWithoutMeta(t *testing.T) {
	for _, raw := range []string{`{"name":"x"}`, "{\"name\":\"x/y\",\"inputSchema\":{\"type\":\"object\"} \n }", `{"name":"<&>","title":"t"}`} {
		tool, err := registry.Parse(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		got, err := tool.WithUIMeta()
		if err != nil {
			t.Fatal(err)
		}
		var obj, orig map[string]any
		if err := json.Unmarshal(got, &obj); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		_ = json.Unmarshal([]byte(raw), &orig)
		uri := contract.UIURI(tool.Name)
		meta, _ := obj["_meta"].(map[string]any)
		ui, _ := meta["ui"].(map[string]any)
		if ui["resourceUri"] != uri || meta["ui/resourceUri"] != uri || len(meta) != 2 || len(ui) != 1 {
			t.Errorf("%s: _meta %v", got, meta)
		}
		delete(obj, "_meta")
		if b1, b2 := fmt.Sprint(obj), fmt.Sprint(orig); b1 != b2 {
			t.Errorf("%s: fields %s, want %s", got, b1, b2)
		}
	}
}

// TestAppendJSONIsJSON: AppendJSON writes exactly JSON's bytes after what
// dst holds, for tools with and without _meta, with their own UI, left
// without one, with names whose URI JSON escapes, and with space before
// the closing brace.
func TestAppendJSONIsJSON(t *testing.T) {
	raws := []string{
		`{"name":"plain","inputSchema":{"type":"object"}}`,
		`{"name":"spaced","inputSchema":{"type":"object"} 	
}`,
		`{"name":"a&b<c>d","inputSchema":{"type":"object"}}`,
		`{"name":"größe ✓","inputSchema":{"type":"object"}}`,
		`{"name":"with_meta","inputSchema":{"type":"object"},"_meta":{"x":1}}`,
		`{"name":"own","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://own/app"}}}`,
		`{"name":"empty"}`,
	}
	for _, raw := range raws {
		tool, err := registry.Parse(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		for _, disabled := range []bool{false, true} {
			tool.UIDisabled = disabled
			for _, withUI := range []bool{false, true} {
				want := append([]byte("[1,"), tool.JSON(withUI)...)
				got := tool.AppendJSON([]byte("[1,"), withUI)
				if string(got) != string(want) {
					t.Errorf("%s (disabled %v, withUI %v):\n got %s\nwant %s", raw, disabled, withUI, got, want)
				}
				var v struct {
					Meta struct {
						UI struct {
							ResourceURI string `json:"resourceUri"`
						} `json:"ui"`
						Legacy string `json:"ui/resourceUri"`
					} `json:"_meta"`
				}
				if err := json.Unmarshal(got[3:], &v); err != nil {
					t.Fatalf("%s: %s is not JSON: %v", raw, got, err)
				}
				if withUI && tool.HasGeneratedUI() && (v.Meta.UI.ResourceURI != contract.UIURI(tool.Name) || v.Meta.Legacy != contract.UIURI(tool.Name)) {
					t.Errorf("%s: _meta names %q and %q, want %q", raw, v.Meta.UI.ResourceURI, v.Meta.Legacy, contract.UIURI(tool.Name))
				}
			}
		}
	}
}
