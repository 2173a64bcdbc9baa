package gen

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/llmtest"
)

// TestLLMPageInBrowser: pages a stand-in provider wrote, as the chain
// serves them (generated, repaired from a CDN import, repaired with an
// injected result handler), pass the checks offline UIs pass in headless
// Chromium: the ui/initialize handshake under the default CSP in a
// sandboxed cross-origin iframe, and a real demo result rendered.
func TestLLMPageInBrowser(t *testing.T) {
	cdn := strings.Replace(llmtest.ForecastPage, "const { App } = window.McpApps;",
		`import { App } from "https://unpkg.com/@modelcontextprotocol/ext-apps@0.4.0/dist/src/app-with-deps.js";`, 1)
	noHandler := strings.Replace(llmtest.ForecastPage, "app.ontoolresult = render;", "", 1)
	f, ui := newFixture(t)
	for _, tc := range []struct {
		name, answer string
		chain        []string
		rendered     string // frame condition once the result arrived
	}{
		{"generated", llmtest.ForecastPage, []string{"generated"},
			`(w, d) => d.body.dataset.state === "result" && d.getElementById("days").textContent.includes("2026-01-16")`},
		{"cdn-import", cdn, []string{"generated!", "repaired"},
			`(w, d) => d.body.dataset.state === "result" && d.getElementById("days").textContent.includes("2026-01-16")`},
		{"no-result-handler", noHandler, []string{"generated!", "repaired"},
			`(w, d) => { const e = d.getElementById("genui-result"); return !!e && e.textContent.includes("2026-01-16"); }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newWireRig(t, llmtest.Anthropic, llmtest.Reply{Text: tc.answer}, nil)
			res := r.generate(tc.name)
			wantChain(t, res, tc.chain...)
			name := "get_forecast_" + tc.name
			ui.addHTML(name, res.HTML)
			f.open(name) // waits for the handshake

			var log []hostMsg
			f.eval("window.hostLog", &log)
			var init struct {
				AppInfo         map[string]any `json:"appInfo"`
				AppCapabilities map[string]any `json:"appCapabilities"`
				ProtocolVersion string         `json:"protocolVersion"`
			}
			if len(log) == 0 || log[0].Msg.Method != "ui/initialize" || json.Unmarshal(log[0].Msg.Params, &init) != nil ||
				init.AppInfo == nil || init.AppCapabilities == nil || init.ProtocolVersion == "" {
				t.Fatalf("first message is not a valid ui/initialize: %+v", log)
			}

			oslo := demoRPC(t, "tools/call", map[string]any{"name": "get_forecast", "arguments": map[string]any{"location": "Oslo", "days": 2}})
			f.eval(fmt.Sprintf(`(bridge.sendToolInput({location: "Oslo", days: 2}), bridge.sendToolResult(%s), true)`, oslo), nil)
			f.waitFrame(tc.rendered)

			if tc.name == "generated" {
				// The page's own form calls the tool through the host.
				paris := demoRPC(t, "tools/call", map[string]any{"name": "get_forecast", "arguments": map[string]any{"location": "Paris"}})
				f.eval(fmt.Sprintf(`window.replies.push(%s)`, paris), nil)
				browsertest.FrameType(t, f.ctx, "#ui", "#location", "Paris")
				browsertest.FrameClick(t, f.ctx, "#ui", "#go")
				f.poll(`window.calls.length === 1`)
				f.waitFrame(`(w, d) => d.getElementById("status").textContent.includes("Paris")`)
			}
			// No errors reported by the page (CSP violations surface as
			// console errors the bridge logs; the frame must not have thrown).
			var errs []string
			for _, m := range log {
				if m.Msg.Method == "notifications/message" && regexp.MustCompile(`"level":"error"`).Match(m.Msg.Params) {
					errs = append(errs, string(m.Msg.Params))
				}
			}
			if len(errs) > 0 {
				t.Errorf("the page logged errors: %v", errs)
			}
		})
	}
}
