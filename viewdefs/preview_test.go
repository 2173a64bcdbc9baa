package viewdefs

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPreviewEscapesAndValidates(t *testing.T) {
	hostile := `<img src=x onerror=alert(1)></script><script>alert(2)</script>`
	page, err := Preview(PreviewData{
		Tool:     ToolData{Name: "evil", Title: "<b>T</b>", Description: hostile},
		ToolJSON: json.RawMessage(`{"name":"evil","description":` + strings.Replace(`"X"`, "X", `\u003c/script>`, 1) + `}`),
		FrameURL: "http://127.0.0.1:1/frame/evil", Args: `{"q": "</textarea><b>x</b>"}`,
		Tools: []string{"evil", "<i>other</i>"}, HostJS: "window.McpHost = {};", Version: "0",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<img", "<b>", "<i>", "</textarea><b>", "alert(2)</script>"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains unescaped %q", bad)
		}
	}
	for _, want := range []string{"&lt;img src=x onerror=alert(1)&gt;", "&lt;b&gt;T&lt;/b&gt;", `"tool":"evil"`, "window.McpHost = {};"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if !strings.Contains(page, `<span class="badge" id="visibility"`) || !strings.Contains(page, "visibility: model, app") {
		t.Errorf("default visibility not shown as model, app")
	}

	for _, tc := range []struct {
		name string
		d    PreviewData
		want string
	}{
		{"no name", PreviewData{FrameURL: "x"}, "tool name is empty"},
		{"no frame", PreviewData{Tool: ToolData{Name: "a"}}, "frame URL is empty"},
		{"bad tool JSON", PreviewData{Tool: ToolData{Name: "a"}, FrameURL: "x", ToolJSON: json.RawMessage(`{`)}, "not valid JSON"},
		{"script end in host JS", PreviewData{Tool: ToolData{Name: "a"}, FrameURL: "x", HostJS: "</SCRIPT>"}, "closing script tag"},
	} {
		if _, err := Preview(tc.d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}

	model, err := Preview(PreviewData{Tool: ToolData{Name: "m"}, FrameURL: "x", Visibility: []string{"model"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(model, `"appCalls":false`) || !strings.Contains(model, `class="badge warn"`) {
		t.Errorf("model-only visibility not flagged")
	}
}
