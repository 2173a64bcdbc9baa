package tui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/genui-dev/genui/engine/apitest"
	"github.com/genui-dev/genui/engine/contract"
)

// TestHistoryPane runs the whole program over a real engine on the demo:
// a call recorded earlier, the server's answer changes (set_units), and
// from the History pane r re-runs the call and shows how the result
// changed; d compares two runs; e puts a call's arguments in the Call
// form; p pins a call as a check.
func TestHistoryPane(t *testing.T) {
	hs := apitest.Start(t)
	ctx := t.Context()
	call := func(tool, args string) contract.CallResult {
		t.Helper()
		r, err := hs.E.CallTool(ctx, contract.CallRequest{Name: tool, Arguments: json.RawMessage(args), Source: contract.SourceAPI})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := call("get_current_weather", `{"location":"Berlin"}`)
	m := New(Options{API: hs.E, Mode: InProcess, Base: hs.APIURL, Static: true, Dark: boolPtr(true), NoColor: true,
		PollInterval: 50 * time.Millisecond, OpenURL: func(string) error { return nil }, Copy: func(string) tea.Cmd { return nil }})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 40))
	term := newTerm(140, 40, tm.Output())
	keys := func(ks ...string) {
		for _, k := range ks {
			tm.Send(keyPress(k))
		}
	}
	term.waitFor(t, "the demo's tools", has("Tools 8/8", "8 Hist"))
	keys("8")
	term.waitFor(t, "the recorded call", has("History · 1", "#1", "api", "get_current_weather", "Berlin: 24.6°C"))

	// The server's answer changes: temperatures in °F from now on.
	call("set_units", `{"units":"imperial"}`)
	term.waitFor(t, "the second call", has("History · 2", "#2", "set_units"))
	keys("l", "down", "enter") // focus the pane, select #1, open it
	term.waitFor(t, "the opened call", has("#1 get_current_weather · api", "Arguments", `"location": "Berlin"`, `"units": "metric"`))

	keys("r")
	s := term.waitFor(t, "the re-run's diff", has("Re-run of #1 as #3", `~ /structuredContent/units: "metric" → "imperial"`,
		"~ /structuredContent/temperature: 24.6 →"))
	if !strings.Contains(s, "generation 1") {
		t.Fatalf("the diff does not say which upstream answered:\n%s", s)
	}
	keys("esc")
	term.waitFor(t, "the new entry", has("History · 3", "#3", "re-ran #1 as #3"))
	// The re-run's entry is selected: p right away pins it, not #1.
	keys("p")
	term.waitFor(t, "the re-run's check name", has("pin as check:", "get_current_weather-3"))
	keys("esc")
	term.waitFor(t, "the pin left", func(s string) bool { return !strings.Contains(s, "pin as check:") })

	// d on the re-run compares it with its previous run, #1.
	keys("home", "d")
	term.waitFor(t, "the comparison", has("#1 → #3 get_current_weather", `"metric" → "imperial"`))
	keys("esc")

	// e: the arguments of #1 in the Call form.
	keys("down", "down", "e")
	term.waitFor(t, "the call form with #1's arguments", has("get_current_weather · Call", "Berlin", "the arguments of #1 are in the form"))
	keys("esc", "8")

	// p pins #3 as a check.
	keys("l", "home", "p")
	term.waitFor(t, "the check name", has("pin as check:", "get_current_weather-3"))
	keys("enter")
	term.waitFor(t, "the pinned check", has("pinned get_current_weather-3"))
	list, err := hs.E.Checks(ctx)
	if err != nil || len(list) != 1 || list[0].Tool != "get_current_weather" || !strings.Contains(string(list[0].Result), "imperial") {
		t.Fatalf("checks after p: %+v %v", list, err)
	}
	if first.HistoryID != 1 {
		t.Fatalf("the first call's history id %d", first.HistoryID)
	}
	keys("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
