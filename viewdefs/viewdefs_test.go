package viewdefs

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

var reToolData = regexp.MustCompile(`(?s)<script type="application/json" id="tool-data">(.*?)</script>`)

// toolData extracts and decodes the page's #tool-data JSON.
func toolData(t *testing.T, page string) map[string]any {
	t.Helper()
	m := reToolData.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no tool-data script in page")
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
		t.Fatalf("tool-data is not JSON: %v\n%s", err, m[1])
	}
	return v["tool"].(map[string]any)
}

// TestPageEscapesHostileText: the offline page shows the tool's title,
// description and schema as text, never as markup.
func TestPageEscapesHostileText(t *testing.T) {
	hostile := `<img src=x onerror=alert(1)><script>alert(2)</script>`
	page, err := Rich(ToolData{
		Name: "get_forecast", Title: "Forecast & more", Description: hostile,
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"</script><b>":{"type":"string","description":"` + strings.ReplaceAll(hostile, `"`, `\"`) + `"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object"}`),
	}, ViewConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page, "<img src=x") || strings.Contains(page, "<script>alert") || strings.Contains(page, "</script><b>") {
		t.Errorf("hostile text reached the page unescaped")
	}
	if !strings.Contains(page, "&lt;img src=x onerror=alert(1)&gt;") || !strings.Contains(page, "Forecast &amp; more") {
		t.Errorf("description/title not escaped as text")
	}
	tool := toolData(t, page)
	if tool["name"] != "get_forecast" || tool["description"] != hostile {
		t.Errorf("tool-data = %v", tool)
	}
	props := tool["inputSchema"].(map[string]any)["properties"].(map[string]any)
	if _, ok := props["</script><b>"]; !ok {
		t.Errorf("schema property lost in JSON round trip: %v", props)
	}
	if tool["outputSchema"] == nil {
		t.Errorf("outputSchema missing")
	}
	// The App comes from the shim mcpshim.Inject adds (window.McpApps):
	// connect.js creates it and connects before anything is unpacked.
	if !strings.Contains(page, "<script data-genui-first>") || !strings.Contains(page, "window.McpApps.App(") ||
		strings.Contains(page, `type="module"`) || strings.Contains(page, "@modelcontextprotocol/ext-apps") {
		t.Errorf("page does not take its App from the shim in connect.js, or still has a module script")
	}
	if strings.Contains(page, "100vh") || strings.Contains(page, "innerHTML") {
		t.Errorf("page uses 100vh or innerHTML")
	}
}

func TestPageSchemaEdgeCases(t *testing.T) {
	for _, schema := range []string{"", "null", "  ", `{"type":"object"}`, `{"properties":{"a":{}}}`} {
		page, err := Rich(ToolData{Name: "t", InputSchema: json.RawMessage(schema)}, ViewConfig{})
		if err != nil {
			t.Errorf("schema %q: %v", schema, err)
			continue
		}
		toolData(t, page)
	}
}

func TestEmergency(t *testing.T) {
	page, err := Emergency(ToolData{Name: "x<y>", InputSchema: json.RawMessage(`{broken`)}, "LLM said <script>no</script>")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page, "<script>no") || strings.Contains(page, "x<y>") {
		t.Errorf("emergency page not escaped")
	}
	if !strings.Contains(page, "LLM said &lt;script&gt;no&lt;/script&gt;") {
		t.Errorf("reason missing")
	}
	if toolData(t, page)["name"] != "x<y>" {
		t.Errorf("tool-data name wrong")
	}
	if page, err = Emergency(ToolData{Name: "x"}, ""); err != nil || !strings.Contains(page, "unknown error") {
		t.Errorf("empty reason: %v", err)
	}
	if _, err := Emergency(ToolData{}, "r"); err == nil {
		t.Errorf("empty name: want error")
	}
}
