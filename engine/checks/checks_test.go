package checks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

func TestFormatIsStable(t *testing.T) {
	c := contract.Check{Name: "forecast", Tool: "get_forecast", Arguments: json.RawMessage(`{"z":1,"a":{"y":2.50,"b":"<x>"}}`),
		Ignore: []string{"/structuredContent/at"}, Result: json.RawMessage(`{"content":[{"type":"text","text":"hi"}],"isError":false}`)}
	got, err := Format(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "name": "forecast",
  "tool": "get_forecast",
  "arguments": {
    "a": {
      "b": "<x>",
      "y": 2.50
    },
    "z": 1
  },
  "ignore": [
    "/structuredContent/at"
  ],
  "result": {
    "content": [
      {
        "text": "hi",
        "type": "text"
      }
    ],
    "isError": false
  }
}
`
	if string(got) != want {
		t.Fatalf("format:\n%s\nwant:\n%s", got, want)
	}
	// Formatting what it wrote changes nothing.
	var back contract.Check
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := Format(back)
	if string(again) != string(got) {
		t.Fatalf("not stable:\n%s", again)
	}
}

func TestWriteAndRead(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "checks"))
	c := contract.Check{Name: "a", Tool: "t", Arguments: json.RawMessage(`{}`), Result: json.RawMessage(`{"content":[]}`)}
	if w, err := s.Write(c, false); err != nil || !w {
		t.Fatalf("write: %v %v", w, err)
	}
	if w, err := s.Write(c, false); err != nil || w {
		t.Fatalf("writing the same again: %v %v", w, err)
	}
	c2 := c
	c2.Result = json.RawMessage(`{"content":[1]}`)
	if _, err := s.Write(c2, false); err == nil {
		t.Fatal("replaced a check without replace")
	}
	for _, bad := range []contract.Check{
		{Name: "../x", Tool: "t", Arguments: json.RawMessage(`{}`), Result: json.RawMessage(`{}`)},
		{Name: "x", Tool: "", Arguments: json.RawMessage(`{}`), Result: json.RawMessage(`{}`)},
		{Name: "x", Tool: "t", Arguments: json.RawMessage(`[]`), Result: json.RawMessage(`{}`)},
		{Name: "x", Tool: "t", Arguments: json.RawMessage(`{}`), Result: json.RawMessage(`{`)},
		{Name: "x", Tool: "t", Arguments: json.RawMessage(`{}`), Result: json.RawMessage(`{}`), Ignore: []string{"a[b]"}},
	} {
		if _, err := s.Write(bad, true); err == nil {
			t.Errorf("wrote %+v", bad)
		}
	}
	got, err := s.Get("a")
	if err != nil || got.Tool != "t" || got.File != filepath.Join(s.Dir(), "a.json") {
		t.Fatalf("get: %+v %v", got, err)
	}
	if _, err := s.Get("nope"); contract.AsError(err).Code != contract.CodeNotFound {
		t.Fatalf("missing check: %v", err)
	}
}

func TestRun(t *testing.T) {
	s := NewStore(t.TempDir())
	results := map[string]string{
		"get_forecast": `{"structuredContent":{"temp":21,"at":"10:00"}}`,
		"get_battery":  `{"content":[{"type":"text","text":"80%"}]}`,
		"set_units":    `{"content":[{"type":"text","text":"ok"}]}`,
	}
	write := func(name, tool, expect string, ignore ...string) {
		if _, err := s.Write(contract.Check{Name: name, Tool: tool, Arguments: json.RawMessage(`{}`), Result: json.RawMessage(expect), Ignore: ignore}, false); err != nil {
			t.Fatal(err)
		}
	}
	write("forecast", "get_forecast", `{"structuredContent":{"temp":21,"at":"09:00"}}`, "structuredContent.at")
	write("battery", "get_battery", `{"content":[{"type":"text","text":"80%"}]}`)
	write("units", "set_units", `{"content":[{"type":"text","text":"ok"}]}`)
	write("broken", "fails", `{}`)
	if err := os.WriteFile(filepath.Join(s.Dir(), "garbled.json"), []byte(`{"name": "garbled", `), 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
		if r, ok := results[tool]; ok {
			return json.RawMessage(r), nil
		}
		return nil, errors.New("tool " + tool + " failed")
	}
	rep, err := s.Run(context.Background(), call, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Equal != 3 || rep.Changed != 0 || rep.Failed != 2 || rep.OK() {
		t.Fatalf("report %+v", rep)
	}
	// forecast differs only under its ignore path.
	if o := rep.Outcomes[2]; o.Name != "forecast" || o.Status != contract.CheckEqual || o.Diff == nil || o.Diff.Ignored != 1 {
		t.Fatalf("forecast: %+v", o)
	}
	if o := rep.Outcomes[1]; o.Name != "broken" || !strings.Contains(o.Error, "tool fails failed") {
		t.Fatalf("broken: %+v", o)
	}
	if o := rep.Outcomes[3]; o.Name != "garbled" || o.Status != contract.CheckFailed || !strings.Contains(o.Error, "cannot read") {
		t.Fatalf("garbled: %+v", o)
	}

	// The server's answer changes: the check says how; --update rewrites
	// that file and only that one.
	results["get_battery"] = `{"content":[{"type":"text","text":"75%"}]}`
	rep, _ = s.Run(context.Background(), call, RunOptions{Names: []string{"battery", "units"}})
	if rep.Changed != 1 || rep.Equal != 1 || rep.OK() {
		t.Fatalf("after the change: %+v", rep)
	}
	text := Report(rep)
	if !strings.Contains(text, `~ /content/0/text: "80%" → "75%"`) || !strings.Contains(text, "1 equal, 1 changed, 0 failed") {
		t.Fatalf("report:\n%s", text)
	}
	stat := func(n string) time.Time {
		fi, err := os.Stat(filepath.Join(s.Dir(), n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{"battery", "units", "forecast"} {
		if err := os.Chtimes(filepath.Join(s.Dir(), n+".json"), old, old); err != nil {
			t.Fatal(err)
		}
	}
	rep, _ = s.Run(context.Background(), call, RunOptions{Names: []string{"battery", "units", "forecast"}, Update: true})
	if rep.Updated != 1 || !rep.OK() {
		t.Fatalf("update: %+v", rep)
	}
	if !stat("battery").After(old) || !stat("units").Equal(old) || !stat("forecast").Equal(old) {
		t.Fatal("--update rewrote more than the changed check")
	}
	if c, _ := s.Get("battery"); !strings.Contains(string(c.Result), "75%") {
		t.Fatalf("updated check: %s", c.Result)
	}
	if rep, _ := s.Run(context.Background(), call, RunOptions{Names: []string{"battery"}}); !rep.OK() || rep.Equal != 1 {
		t.Fatalf("after update: %+v", rep)
	}
	if _, err := s.Run(context.Background(), call, RunOptions{Names: []string{"nope"}}); contract.AsError(err).Code != contract.CodeNotFound {
		t.Fatalf("unknown name: %v", err)
	}
}
