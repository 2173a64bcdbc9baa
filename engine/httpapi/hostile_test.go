package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/browsertest"
)

// TestHostileToolNameIsTextEverywhere: a tool name with markup shows as
// text on the preview page and inside the generated UI, and runs nothing in
// either; /variables and /state carry it as data.
func TestHostileToolNameIsTextEverywhere(t *testing.T) {
	p := startPreview(t, testUpstreamConfig())
	b := p.tab(t, browsertest.Start(t))
	b.open("/preview/"+url.PathEscape(hostileName)+"?conserve=0", "ready")
	var page struct {
		Pwned any    `json:"pwned"`
		Title string `json:"title"`
		Imgs  int    `json:"imgs"`
	}
	if err := json.Unmarshal([]byte(b.eval(`({pwned: window.pwned === undefined ? null : window.pwned,
		title: document.getElementById("tool-title").textContent + " " + document.title,
		imgs: document.querySelectorAll("img").length})`)), &page); err != nil {
		t.Fatal(err)
	}
	if page.Pwned != nil || page.Imgs != 0 || !strings.Contains(page.Title, hostileName) {
		t.Fatalf("preview page: %+v, want the name as text and nothing run", page)
	}
	var frame struct {
		Pwned any    `json:"pwned"`
		Text  string `json:"text"`
		Imgs  int    `json:"imgs"`
	}
	if err := json.Unmarshal(b.frame(`(w, d) => ({pwned: w.pwned === undefined ? null : w.pwned,
		text: d.body.textContent, imgs: d.querySelectorAll("img").length})`), &frame); err != nil {
		t.Fatal(err)
	}
	if frame.Pwned != nil || frame.Imgs != 0 || !strings.Contains(frame.Text, hostileName) {
		t.Fatalf("generated UI: pwned=%v imgs=%d, name shown=%v", frame.Pwned, frame.Imgs, strings.Contains(frame.Text, hostileName))
	}
	for _, path := range []string{"/state", "/variables"} {
		req, _ := http.NewRequest("GET", p.apiTS.URL+path, nil)
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil || !containsString(doc, hostileName) {
			t.Errorf("%s lacks the tool name as JSON data (%v)", path, err)
		}
	}
}

// containsString reports whether a decoded JSON value holds s as a string.
func containsString(v any, s string) bool {
	switch x := v.(type) {
	case string:
		return x == s
	case []any:
		for _, e := range x {
			if containsString(e, s) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if containsString(e, s) {
				return true
			}
		}
	}
	return false
}
