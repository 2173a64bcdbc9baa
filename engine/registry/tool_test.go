package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

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
