package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
)

// officialPalettes reads the host style variables of the official ext-apps
// examples from the installed npm package server-basic-vanillajs (its
// mcp-app.html declares every spec colour variable as light-dark(light,
// dark), as the reference hosts send them): one palette per theme.
func officialPalettes(t *testing.T) map[string]map[string]string {
	t.Helper()
	p := filepath.Join(testenv.NPMDir(), "node_modules", "@modelcontextprotocol", "server-basic-vanillajs", "dist", "mcp-app.html")
	b, err := os.ReadFile(p)
	if err != nil {
		testenv.Missingf(t, "npm package @modelcontextprotocol/server-basic-vanillajs: %v", err)
	}
	decl := regexp.MustCompile(`(--color-[a-z-]+):\s*light-dark\(\s*(#[0-9a-fA-F]{3,8})\s*,\s*(#[0-9a-fA-F]{3,8})\s*\)`)
	out := map[string]map[string]string{"light": {}, "dark": {}}
	for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
		out["light"][m[1]], out["dark"][m[1]] = m[2], m[3]
	}
	for _, v := range []string{"--color-background-primary", "--color-text-primary", "--color-background-info", "--color-background-inverse"} {
		if out["light"][v] == "" {
			t.Fatalf("%s no longer declares %s: the palette this test relies on is gone", p, v)
		}
	}
	return out
}

// parseRGB reads Chromium's computed "rgb(r, g, b)" / "rgba(r, g, b, a)".
func parseRGB(t *testing.T, s string) [4]float64 {
	t.Helper()
	m := regexp.MustCompile(`rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("not an rgb colour: %q", s)
	}
	var c [4]float64
	for i := 0; i < 3; i++ {
		c[i], _ = strconv.ParseFloat(m[i+1], 64)
	}
	c[3] = 1
	if m[4] != "" {
		c[3], _ = strconv.ParseFloat(m[4], 64)
	}
	return c
}

// wcagContrast is the WCAG 2 contrast ratio of fg over bg (bg opaque).
func wcagContrast(fg, bg [4]float64) float64 {
	lum := func(c [4]float64) float64 {
		f := func(v float64) float64 {
			v /= 255
			if v <= 0.03928 {
				return v / 12.92
			}
			return math.Pow((v+0.055)/1.055, 2.4)
		}
		return 0.2126*f(c[0]) + 0.7152*f(c[1]) + 0.0722*f(c[2])
	}
	for i := 0; i < 3; i++ { // blend a translucent text colour over its background
		fg[i] = fg[i]*fg[3] + bg[i]*(1-fg[3])
	}
	a, b := lum(fg), lum(bg)
	return (math.Max(a, b) + 0.05) / (math.Min(a, b) + 0.05)
}

// TestButtonContrastUnderHostStyles: the Run button's text reads (>= 4.5:1)
// under the official examples' style variables in both themes, and under
// partial palettes real hosts send (only the pale info tint that once sat
// behind white text at 1.09:1; an inverse surface without its text colour).
func TestButtonContrastUnderHostStyles(t *testing.T) {
	official := officialPalettes(t)
	f, ui := newFixture(t)
	ui.add(t, forecastTool)
	f.open(forecastTool.Name)
	f.waitFrame(`(w, d) => d.body.dataset.state === "ready"`)

	cases := []struct {
		name, theme string
		vars        map[string]string
	}{
		{"official light", "light", official["light"]},
		{"official dark", "dark", official["dark"]},
		{"only the info tint, light", "light", map[string]string{"--color-background-info": official["light"]["--color-background-info"]}},
		{"only the info tint, dark", "dark", map[string]string{"--color-background-info": official["dark"]["--color-background-info"]}},
		{"inverse surface without its text, dark", "dark", map[string]string{
			"--color-background-primary": "#1e1e1e", "--color-text-primary": "#cccccc", "--color-background-inverse": "#ffffff"}},
		{"no variables, dark", "dark", map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			vars, _ := json.Marshal(tc.vars)
			// Replace every variable: unset ones go back to genui's defaults.
			f.eval(fmt.Sprintf(`(() => { const v = %s; for (const k of Object.keys(bridge.hostContext.styles.variables || {})) if (!(k in v)) v[k] = ""; bridge.setHostContext({theme: %q, styles: {variables: v}}); return true; })()`, vars, tc.theme), nil)
			var got struct{ Theme, Bg, Fg, Page string }
			waitFor := fmt.Sprintf(`(w, d) => d.documentElement.getAttribute("data-theme") === %q`, tc.theme)
			f.waitFrame(waitFor)
			if err := json.Unmarshal(f.frame(`(w, d) => { const b = d.getElementById("submit"); const cs = w.getComputedStyle(b);
				return {Theme: d.documentElement.getAttribute("data-theme"), Bg: cs.backgroundColor, Fg: cs.color,
				        Page: w.getComputedStyle(d.body).backgroundColor}; }`), &got); err != nil {
				t.Fatal(err)
			}
			page := parseRGB(t, got.Page)
			bg := parseRGB(t, got.Bg)
			for i := 0; i < 3; i++ {
				bg[i] = bg[i]*bg[3] + page[i]*(1-bg[3])
			}
			bg[3] = 1
			if c := wcagContrast(parseRGB(t, got.Fg), bg); c < 4.5 {
				t.Errorf("button text %s on %s (page %s): contrast %.2f:1, want >= 4.5:1", got.Fg, got.Bg, got.Page, c)
			}
		})
	}
}

// pageErrorRecorder keeps the frame's uncaught errors in window.pageErrors;
// withErrorRecorder puts it first in the page (under the host's header
// policy only, like violationRecorder).
const pageErrorRecorder = `<script>window.pageErrors = []; addEventListener("error", function (e) { window.pageErrors.push(String(e.message)); });
addEventListener("unhandledrejection", function (e) { window.pageErrors.push("unhandled rejection: " + String(e.reason)); });</script>`

func withErrorRecorder(t *testing.T, tool Tool) string {
	t.Helper()
	res, err := NewOffline().Generate(context.Background(), Request{Tool: tool})
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(res.HTML, "<head>")
	if i < 0 {
		t.Fatal("the page has no <head>")
	}
	return res.HTML[:i+len("<head>")] + pageErrorRecorder + res.HTML[i+len("<head>"):]
}

// TestModelOnlyToolHasNoRunButton: a tool UIs may not call (visibility
// ["model"]) gets no Run button, says why, its script runs to the end (no
// error: it once stopped at the missing button, so the form's submit
// handler never installed), and submitting its form (Enter in a field) is
// held and calls nothing; an app-visible tool keeps the button, and its
// Cancel stops a running call.
func TestModelOnlyToolHasNoRunButton(t *testing.T) {
	modelOnly := forecastTool
	modelOnly.Name = "model_only_forecast"
	modelOnly.Meta = json.RawMessage(`{"ui":{"visibility":["model"]}}`)
	both := forecastTool
	both.Name = "app_forecast"
	both.Meta = json.RawMessage(`{"ui":{"visibility":["model","app"]}}`)
	f, ui := newFixture(t)
	ui.addHTML(modelOnly.Name, withErrorRecorder(t, modelOnly))
	ui.addHTML(both.Name, withErrorRecorder(t, both))

	f.open(modelOnly.Name)
	f.waitFrame(`(w, d) => d.body.dataset.state === "ready"`)
	var page struct {
		Submit, Held, Cancel bool
		Note                 string
		Errors               []string
	}
	if err := json.Unmarshal(f.frame(`(w, d) => { d.querySelector("input[name=location], #fields input").value = "Paris";
		const ev = new SubmitEvent("submit", {cancelable: true}); d.getElementById("tool-form").dispatchEvent(ev);
		const n = d.getElementById("model-only"); const c = d.getElementById("cancel");
		return {Submit: !!d.getElementById("submit"), Held: ev.defaultPrevented, Cancel: !!c && !c.hidden,
		        Note: n ? n.textContent : "", Errors: w.pageErrors}; }`), &page); err != nil {
		t.Fatal(err)
	}
	if page.Submit || !strings.Contains(page.Note, "Only the model calls model_only_forecast") {
		t.Errorf("model-only page: submit button %v, note %q", page.Submit, page.Note)
	}
	if len(page.Errors) > 0 || !page.Held || page.Cancel {
		t.Errorf("model-only page: errors %q, submit held %v (want true: no navigation), a Cancel shown %v", page.Errors, page.Held, page.Cancel)
	}
	var calls []json.RawMessage
	f.eval("window.calls", &calls)
	if len(calls) != 0 {
		t.Errorf("the model-only page called the tool: %s", calls)
	}

	f.open(both.Name)
	f.waitFrame(`(w, d) => d.body.dataset.state === "ready"`)
	if s := f.frameText("#submit"); !strings.Contains(s, "Run app_forecast") {
		t.Errorf("app-visible tool: submit button %q", s)
	}
	// A reply that never comes: Cancel ends the call at once.
	f.eval(`(window.replies.push(new Promise(function () {})), true)`, nil)
	f.frame(`(w, d) => { d.querySelector("input[name=location], #fields input").value = "Paris"; d.getElementById("submit").click(); return true; }`)
	f.waitFrame(`(w, d) => { const c = d.getElementById("cancel"); return !!c && !c.hidden; }`)
	f.frame(`(w, d) => { d.getElementById("cancel").click(); return true; }`)
	f.waitFrame(`(w, d) => d.body.dataset.state === "ready" && d.getElementById("status").textContent.includes("Cancelled")`)
	var errs []string
	f.frameJSON(`(w, d) => w.pageErrors`, &errs)
	if len(errs) > 0 {
		t.Errorf("app-visible page: errors %q", errs)
	}
}

// basicHostPalette is what the ext-apps basic-host example sends as its
// hosts' style variables (examples/basic-host/src/host-styles.ts in
// modelcontextprotocol/ext-apps: the colour variables, light-dark(light,
// dark)); the npm packages installed here carry only part of it. Its
// secondary text on its secondary surface is 4.43:1 in the light theme.
var basicHostPalette = map[string][2]string{
	"--color-background-primary": {"#ffffff", "#1a1a1a"}, "--color-background-secondary": {"#f5f5f5", "#2d2d2d"},
	"--color-background-tertiary": {"#e5e5e5", "#404040"}, "--color-background-inverse": {"#1a1a1a", "#ffffff"},
	"--color-background-info": {"#eff6ff", "#1e3a5f"}, "--color-background-danger": {"#fef2f2", "#7f1d1d"},
	"--color-background-success": {"#f0fdf4", "#14532d"}, "--color-background-warning": {"#fefce8", "#713f12"},
	"--color-text-primary": {"#1f2937", "#f3f4f6"}, "--color-text-secondary": {"#6b7280", "#9ca3af"},
	"--color-text-tertiary": {"#9ca3af", "#6b7280"}, "--color-text-inverse": {"#f3f4f6", "#1f2937"},
	"--color-text-info": {"#1d4ed8", "#60a5fa"}, "--color-text-danger": {"#b91c1c", "#f87171"},
	"--color-text-success": {"#15803d", "#4ade80"}, "--color-text-warning": {"#a16207", "#fbbf24"},
	"--color-border-primary": {"#e5e7eb", "#404040"}, "--color-border-secondary": {"#d1d5db", "#525252"},
	"--color-ring-primary": {"#3b82f6", "#60a5fa"},
}

// TestContrastUnderBasicHostPalette: a result with a card of labelled
// values, a table and content badges reads at >= 4.5:1 under the
// basic-host's light and dark palettes (its summary labels and badges, drawn
// in the host's secondary text on its secondary surface, were 4.43:1).
func TestContrastUnderBasicHostPalette(t *testing.T) {
	f, ui := newFixture(t)
	ui.add(t, forecastTool)
	f.open(forecastTool.Name)
	f.waitFrame(`(w, d) => d.body.dataset.state === "ready"`)
	f.eval(`(bridge.sendToolInput({location: "Berlin"}), bridge.sendToolResult({content: [
		{type: "text", text: "Sunny in Berlin", annotations: {audience: ["user"], priority: 0.8, lastModified: "2025-06-01T10:00:00Z"}}],
		structuredContent: {city: "Berlin", country: "DE", updated: "2025-06-01", summary: {high_c: 23, low_c: 12, wind: "NW 12 km/h"},
		days: [{date: "2025-06-01", high_c: 23, low_c: 12, sky: "sunny"}, {date: "2025-06-02", high_c: 19, low_c: 11, sky: "rain"}]}}), true)`, nil)
	f.waitFrame(`(w, d) => d.body.dataset.state === "result" && !!d.querySelector(".badge")`)
	for i, theme := range []string{"light", "dark"} {
		vars := map[string]string{}
		for k, v := range basicHostPalette {
			vars[k] = v[i]
		}
		b, _ := json.Marshal(vars)
		f.eval(fmt.Sprintf(`(bridge.setHostContext({theme: %q, styles: {variables: %s}}), true)`, theme, b), nil)
		f.waitFrame(fmt.Sprintf(`(w, d) => d.documentElement.dataset.theme === %q && getComputedStyle(d.documentElement).getPropertyValue("--color-background-primary").trim().toLowerCase() === %q`, theme, vars["--color-background-primary"]))
		issues, err := browsertest.LowContrast(f.ctx, "#ui", 4.5)
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range issues {
			t.Errorf("basic-host %s palette: %s", theme, is)
		}
	}
}
