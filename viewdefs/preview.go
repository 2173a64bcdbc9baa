package viewdefs

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	template "github.com/DataDog/datadog-agent/pkg/template/html"
)

// previewHostJS is the preview page as an MCP host of its own calls:
// progress and Cancel, task status, the upstream's requests as dialogs,
// downloads (window.GenuiPreviewHost). Inlined readable: the preview is a
// developer's page.
//
//go:embed preview-host.js
var previewHostJS string

// PreviewData describes one browser preview page: the host page that loads a
// tool's UI from the UI origin in a sandboxed iframe and drives it with the
// mcpshim host bridge (see engine/httpapi's preview routes).
type PreviewData struct {
	// Tool is the previewed tool; Name must not be empty.
	Tool ToolData
	// ToolJSON is the tool definition as MCP hosts see it; the page sends it
	// as hostContext.toolInfo.tool. Empty means {"name": Tool.Name}.
	ToolJSON json.RawMessage
	// Visibility is the tool's _meta.ui.visibility (nil: model and app).
	Visibility []string
	// OwnUI is the upstream's own ui:// URI when the tool ships its own app.
	OwnUI string
	// FrameURL is the UI origin's /frame/{tool} URL the iframe loads.
	FrameURL string
	// Args is the text prefilled into the input box (normally a JSON object);
	// ArgsError explains why the deep-linked args were rejected, if they were.
	Args, ArgsError string
	// Call makes the page call the tool once the UI is ready.
	Call bool
	// Conserve enables one-live-tab mode (BroadcastChannel "genui-preview").
	Conserve bool
	// Tools are all tool names, for the tool switcher.
	Tools []string
	// HostJS is mcpshim.HostJS(), the host side of the bridge, inlined.
	HostJS string
	// TaskSupport is the tool's execution.taskSupport ("optional" offers a
	// "run as a task" choice; "required" runs every call as a task).
	TaskSupport string
	// Version is genui's version, shown in the header.
	Version string
}

// previewConfig is the JSON object the page script reads from #preview-data.
type previewConfig struct {
	Tool       string          `json:"tool"`
	ToolJSON   json.RawMessage `json:"toolJSON"`
	Visibility []string        `json:"visibility"`
	AppCalls   bool            `json:"appCalls"`
	OwnUI      string          `json:"ownUI,omitempty"`
	FrameURL   string          `json:"frameURL"`
	Call       bool            `json:"call"`
	Conserve   bool            `json:"conserve"`
	ArgsError  string          `json:"argsError,omitempty"`
	Version    string          `json:"version"`
	// TaskSupport is the tool's execution.taskSupport.
	TaskSupport string `json:"taskSupport,omitempty"`
}

// Preview renders the preview host page. Every tool name, title and
// description is escaped by html/template; data reaches the script only as
// JSON in a <script type="application/json"> element.
func Preview(d PreviewData) (string, error) {
	name := strings.TrimSpace(d.Tool.Name)
	if name == "" {
		return "", errors.New("viewdefs: preview: tool name is empty")
	}
	if d.FrameURL == "" {
		return "", errors.New("viewdefs: preview: frame URL is empty")
	}
	if strings.Contains(strings.ToLower(d.HostJS), "</script") {
		return "", errors.New("viewdefs: preview: host script contains a closing script tag")
	}
	toolJSON := d.ToolJSON
	if len(bytes.TrimSpace(toolJSON)) == 0 {
		toolJSON, _ = json.Marshal(map[string]string{"name": d.Tool.Name})
	} else if !json.Valid(toolJSON) {
		return "", fmt.Errorf("viewdefs: preview: tool %q: tool JSON is not valid JSON", d.Tool.Name)
	}
	cfg := previewConfig{Tool: d.Tool.Name, ToolJSON: toolJSON, Visibility: d.Visibility,
		AppCalls: visibleToApps(d.Visibility), OwnUI: d.OwnUI, FrameURL: d.FrameURL, Call: d.Call,
		Conserve: d.Conserve, ArgsError: d.ArgsError, Version: d.Version, TaskSupport: d.TaskSupport}
	vis := "model, app"
	if d.Visibility != nil {
		vis = strings.Join(d.Visibility, ", ")
		if vis == "" {
			vis = "none"
		}
	}
	return render("preview.html.tmpl", map[string]any{
		"Name": d.Tool.Name, "Title": d.Tool.Title, "Description": d.Tool.Description,
		"Visibility": vis, "AppCalls": cfg.AppCalls, "OwnUI": d.OwnUI,
		"Args": d.Args, "ArgsError": d.ArgsError, "Tools": d.Tools, "Version": d.Version,
		"Config": cfg, "HostJS": template.JS(d.HostJS), "TaskSupport": d.TaskSupport,
		"SurfaceJS": template.JS(previewHostJS), "FormJS": template.JS(FormJS()),
	})
}

func visibleToApps(v []string) bool {
	if v == nil {
		return true
	}
	for _, s := range v {
		if s == "app" {
			return true
		}
	}
	return false
}
