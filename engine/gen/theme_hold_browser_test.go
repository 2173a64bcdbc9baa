package gen

import (
	"encoding/json"
	"strings"
	"testing"
)

// The offline page sets the system's theme before its styles are in (so the
// host's, usually the same, changes nothing) and takes it back when the host
// sends none: the page then follows the system's theme as it changes.
func TestOfflinePageFollowsTheSystemWhenTheHostSendsNoTheme(t *testing.T) {
	noTheme := strings.Replace(hostPage, `theme: "dark", `, "", 1)
	if noTheme == hostPage {
		t.Fatal("hostPage no longer sets a theme")
	}
	f, ui := newFixtureHost(t, noTheme)
	ui.add(t, Tool{Name: "get_forecast", Description: "Weather forecast for a city.", InputSchema: json.RawMessage(forecastSchema)})
	f.open("get_forecast")
	f.waitFrame(`(w, d) => d.body.dataset.state === "ready"`)
	var root struct {
		Theme       *string
		ColorScheme string
	}
	_ = json.Unmarshal(f.frame(`(w, d) => ({Theme: d.documentElement.getAttribute("data-theme"), ColorScheme: d.documentElement.style.colorScheme})`), &root)
	if root.Theme != nil || root.ColorScheme != "" {
		t.Errorf("root data-theme = %v, color-scheme = %q after a host without a theme; want neither (the system's theme followed)", root.Theme, root.ColorScheme)
	}
}

// The page's content is held out of layout until the host's input or result
// comes, and shown then, or soon after the handshake when none comes.
func TestOfflinePageShowsItsContent(t *testing.T) {
	// A host that sends the input and the result with the handshake.
	withResult := strings.Replace(hostPage, "bridge.start();", `bridge.start();
bridge.sendToolInput({ location: "Oslo" });
bridge.sendToolResult({ content: [{ type: "text", text: "Sunny, 21 degrees" }] });`, 1)
	f, ui := newFixtureHost(t, withResult)
	ui.add(t, Tool{Name: "get_forecast", Description: "Weather forecast for a city.", InputSchema: json.RawMessage(forecastSchema)})
	f.open("get_forecast")
	f.waitFrame(`(w, d) => d.body.dataset.state === "result"`)
	var got struct {
		Held    bool
		Display string
		Text    string
		Value   string
	}
	_ = json.Unmarshal(f.frame(`(w, d) => ({Held: d.body.hasAttribute("data-genui-held"), Display: getComputedStyle(d.querySelector("main")).display,
		Text: d.getElementById("result").innerText, Value: d.getElementById("f-location").value})`), &got)
	if got.Held || got.Display == "none" || !strings.Contains(got.Text, "Sunny, 21 degrees") || got.Value != "Oslo" {
		t.Errorf("after input and result: %+v; want the content shown, the result drawn and the form filled", got)
	}

	// A host that sends neither: the form is shown after the handshake.
	f2, ui2 := newFixture(t)
	ui2.add(t, Tool{Name: "get_forecast", Description: "Weather forecast for a city.", InputSchema: json.RawMessage(forecastSchema)})
	f2.open("get_forecast")
	f2.waitFrame(`(w, d) => !d.body.hasAttribute("data-genui-held") && getComputedStyle(d.querySelector("main")).display !== "none" && d.getElementById("f-location").offsetWidth > 0`)
}
