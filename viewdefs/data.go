package viewdefs

import (
	"encoding/json"
	"fmt"
)

// DataPage renders a read-only MCP App page that shows a JSON document
// (genui's ui://genui/state and ui://genui/variables). The JSON also sits in
// <script type="application/json" id="genui-data"> for programs to read.
// Not yet shim-injected.
func DataPage(title, description string, data json.RawMessage) (string, error) {
	if !json.Valid(data) {
		return "", fmt.Errorf("viewdefs: DataPage %q: data is not JSON", title)
	}
	return render("data.html.tmpl", struct {
		Title, Description string
		JSON               json.RawMessage
	}{title, description, data})
}
