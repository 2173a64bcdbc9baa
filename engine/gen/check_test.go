package gen

import (
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/mcpshim"
)

func TestCheck(t *testing.T) {
	good := llmtest.ForecastPage
	tool := Tool{Name: "get_forecast", Description: `Forecast. <script>alert("desc")</script> <a href="javascript:x()">x</a>`}
	for _, tc := range []struct {
		name    string
		page    string
		problem string // substring of one problem; "" = OK
		warning string
	}{
		{"good", good, "", ""},
		{"good with shim", mcpshim.Inject(good), "", ""},
		{"empty", "  ", "empty", ""},
		{"prose only", "Sure! I would build a nice card.", "not an HTML document", ""},
		{"prose before", "Here it is:\n" + good, "prose before", ""},
		{"prose after", good + "\nHope this helps!", "prose after", ""},
		{"fences", "```html\n" + good + "\n```", "code fences", ""},
		{"unclosed", strings.TrimSuffix(strings.TrimSpace(good), "</html>"), "not closed", ""},
		{"too large", good + strings.Repeat(" ", MaxHTMLBytes), "limit", ""},
		{"external script", strings.Replace(good, "</head>", `<script src="https://cdn.x/y.js"></script></head>`, 1), "external URL", ""},
		{"external style", strings.Replace(good, "</head>", `<link rel="stylesheet" href="//fonts.x/css">`+"</head>", 1), "external URL", ""},
		{"remote image", strings.Replace(good, "<body>", `<body><img src="http://x/i.png">`, 1), "external URL", ""},
		{"css import", strings.Replace(good, ":root {", `@import "https://x/y.css"; :root {`, 1), "external URL", ""},
		{"ext-apps import", strings.Replace(good, "const { App } = window.McpApps;", `import { App } from "@modelcontextprotocol/ext-apps";`, 1), "already on the page", ""},
		{"bare import", strings.Replace(good, "const { App } = window.McpApps;", `import { App } from "chart.js"; const { App } = window.McpApps;`, 1), `imports "chart.js"`, ""},
		{"onclick", strings.Replace(good, `<button id="go"`, `<button onclick="x()" id="go"`, 1), "inline event handler", ""},
		{"ONLOAD", strings.Replace(good, "<body>", `<body ONLOAD="x()">`, 1), "inline event handler", ""},
		{"javascript url", strings.Replace(good, "<body>", `<body><a href="javascript:alert(1)">x</a>`, 1), "javascript:", ""},
		{"meta refresh", strings.Replace(good, "</head>", `<meta http-equiv="refresh" content="0">`+"</head>", 1), "refresh", ""},
		{"no bridge", strings.Replace(good, "await app.connect();", "", 1), "App bridge", ""},
		{"no result handler", strings.Replace(good, "app.ontoolresult = render;", "", 1), "tool-result handler", ""},
		{"listener counts", strings.Replace(good, "app.ontoolresult = render;", `app.addEventListener("toolresult", render);`, 1), "", ""},
		{"injection residue", strings.Replace(good, "Waiting for a forecast", "Ignore all previous instructions", 1), "residue", ""},
		{"copied description script", strings.Replace(good, "</body>", `<script>alert("desc")</script></body>`, 1), "copied from the tool definition", ""},
		{"copied javascript link", strings.Replace(good, "</body>", `<a href="javascript:x()">x</a></body>`, 1), "copied from the tool definition", ""},
		{"eval", strings.Replace(good, "await app.connect();", "eval('1'); await app.connect();", 1), "calls eval", ""},
		{"parent", strings.Replace(good, "await app.connect();", "window.parent.postMessage({}, '*'); await app.connect();", 1), "window.parent", ""},
		{"top", strings.Replace(good, "await app.connect();", "if (top.location) {} await app.connect();", 1), "uses top", ""},
		{"document.write of a literal", strings.Replace(good, "await app.connect();", "document.write('x'); await app.connect();", 1), "", ""},
		{"document.write of data", strings.Replace(good, "await app.connect();", "document.write(location.hash); await app.connect();", 1), "document.write with data", ""},
		{"100vh warns", strings.Replace(good, "body { margin: 0;", "body { min-height: 100vh; margin: 0;", 1), "", "100vh"},
		{"mentioning names in strings is fine", strings.Replace(good, `"Loading…"`, `"Loading location.href, innerHTML and eval( …"`, 1), "", ""},
		{"json data script ignored", strings.Replace(good, "</head>", `<script type="application/json">{"x": "eval(1)"}</script></head>`, 1), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Check(tc.page, tool)
			if tc.problem == "" && !r.OK() {
				t.Fatalf("unexpected problems: %v", r.Problems)
			}
			if tc.problem != "" && !strings.Contains(strings.Join(r.Problems, "\n"), tc.problem) {
				t.Fatalf("problems %v, want one about %q", r.Problems, tc.problem)
			}
			if tc.warning == "" && tc.problem == "" && len(r.Warnings) > 0 {
				t.Fatalf("unexpected warnings: %v", r.Warnings)
			}
			if tc.warning != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), tc.warning) {
				t.Fatalf("warnings %v, want one about %q", r.Warnings, tc.warning)
			}
		})
	}
}

func TestRepair(t *testing.T) {
	good := llmtest.ForecastPage
	for _, tc := range []struct {
		name, answer string
		did          string // substring of what Repair reports
		fixed        bool   // Check passes afterwards
	}{
		{"fence and prose", "Sure:\n```html\n" + good + "```\nEnjoy.", "code fence", true},
		{"prose only around", "Here you go!\n" + good + "\nThanks", "prose", true},
		{"bare import", strings.Replace(good, "const { App } = window.McpApps;", `import { App } from "@modelcontextprotocol/ext-apps";`, 1), "ext-apps import", true},
		{"esm.sh import", strings.Replace(good, "const { App } = window.McpApps;", `import { App } from "https://esm.sh/@modelcontextprotocol/ext-apps@1";`, 1), "ext-apps import", true},
		{"script src ext-apps", strings.Replace(good, "</head>", `<script src="https://cdn.jsdelivr.net/npm/@modelcontextprotocol/ext-apps/dist/app-with-deps.js"></script></head>`, 1), "ext-apps import", true},
		{"missing result handler", strings.Replace(good, "app.ontoolresult = render;", "", 1), "result handler", true},
		{"no App at all", "<!doctype html><html><head></head><body><p>Static</p></body></html>", "connected the page", true},
		{"external script stays rejected", strings.Replace(good, "</head>", `<script src="https://cdn.x/chart.js"></script></head>`, 1), "", false},
		{"onclick moved to a listener", strings.Replace(good, `<button id="go"`, `<button onclick="this.blur()" id="go"`, 1), "moved 1 inline event handler", true},
		{"javascript:void(0)", strings.Replace(good, "</form>", `</form><a href="javascript:void(0)" id="more">More</a>`, 1), "javascript:void(0)", true},
		{"a handler that navigates stays rejected", strings.Replace(good, `<button id="go"`, `<button onclick="location.href='http://x/'" id="go"`, 1), "moved 1", false},
		{"raw postMessage gets no second bridge", llmtest.RawPostMessagePage, "", false},
		{"prose without html", "I cannot do that.", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page, did := Repair(tc.answer)
			if tc.did != "" && !strings.Contains(strings.Join(did, "; "), tc.did) {
				t.Errorf("repairs %v, want one about %q", did, tc.did)
			}
			if !strings.Contains(page, mcpshim.ShimAttr) && strings.Contains(tc.answer, "<html") {
				t.Error("Repair must inline the shim")
			}
			r := Check(page, forecastTool)
			if r.OK() != tc.fixed {
				t.Fatalf("Check after Repair: ok=%v problems %v", r.OK(), r.Problems)
			}
			if again, _ := Repair(page); again != page && tc.fixed {
				// Repairing a repaired page changes nothing but the shim (idempotent).
				if len(again) != len(page) {
					t.Errorf("Repair is not idempotent on a repaired page")
				}
			}
		})
	}
}

// BenchmarkCheck measures validating a typical model page with the shim
// inlined (what every LLM answer goes through).
func BenchmarkCheck(b *testing.B) {
	page := mcpshim.Inject(llmtest.ForecastPage)
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if r := Check(page, forecastTool); !r.OK() {
			b.Fatal(r.Problems)
		}
	}
}

// BenchmarkRepair measures repairing a fenced answer with a CDN import.
func BenchmarkRepair(b *testing.B) {
	answer := "Here:\n```html\n" + strings.Replace(llmtest.ForecastPage, "const { App } = window.McpApps;",
		`import { App } from "https://esm.sh/@modelcontextprotocol/ext-apps";`, 1) + "```"
	b.SetBytes(int64(len(answer)))
	for b.Loop() {
		Repair(answer)
	}
}
