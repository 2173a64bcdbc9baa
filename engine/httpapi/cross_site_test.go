package httpapi

import (
	"net/http"
	"strings"
	"testing"
)

// TestCrossSiteRequestsRefused: the header rules behind the Chromium test
// (e2e TestCrossSitePagesCannotCallRefineOrDrain), one by one: a request
// that changes state or drains /wait is served only for genui's own
// origin or a program (no Origin, no Sec-Fetch-Site), and bodies must be
// JSON.
func TestCrossSiteRequestsRefused(t *testing.T) {
	p := startPreview(t, demoConfig())
	api := p.apiTS.URL
	other := "http://127.0.0.1:1" // another loopback port
	before := mustState(t, p.e).Events
	p.e.Push("test", "ui/message", "", map[string]string{"text": "for the agent"})
	for _, c := range []struct {
		method, path, body string
		headers            []string
		want               int
	}{
		{"POST", "/api/tool/get_current_weather", `{"location":"Paris"}`, []string{"Content-Type", "text/plain"}, 415},
		{"POST", "/api/tool/get_current_weather", `{"location":"Paris"}`, []string{"Content-Type", "application/x-www-form-urlencoded"}, 415},
		{"POST", "/api/tool/get_current_weather", `{"location":"Paris"}`, []string{"Origin", other}, 403},
		{"POST", "/api/tool/get_current_weather", `{"location":"Paris"}`, []string{"Origin", "null"}, 403},
		{"POST", "/api/tool/get_current_weather", `{"location":"Paris"}`, []string{"Sec-Fetch-Site", "same-site"}, 403},
		{"POST", "/api/preview/get_current_weather/call", `{"name":"get_current_weather","from":"host"}`, []string{"Content-Type", "text/plain", "Origin", api}, 415},
		{"POST", "/api/preview/get_forecast/refine", `{"feedback":"x"}`, []string{"Origin", other, "Sec-Fetch-Site", "same-site"}, 403},
		{"POST", "/api/tools/get_forecast/refine", `{"feedback":"x"}`, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"POST", "/api/refresh", "", []string{"Origin", other}, 403},
		{"GET", "/wait?timeout=0", "", []string{"Sec-Fetch-Site", "same-site", "Sec-Fetch-Dest", "image"}, 403},
		{"GET", "/wait?timeout=0", "", []string{"Origin", other}, 403},
		{"GET", "/api/tools/get_forecast/ui", "", []string{"Sec-Fetch-Site", "cross-site"}, 403},
	} {
		code, _, body := do(t, c.method, api+c.path, c.body, c.headers...)
		if code != c.want {
			t.Errorf("%s %s %v: %d %s, want %d", c.method, c.path, c.headers, code, strings.TrimSpace(body), c.want)
		}
	}
	if st := mustState(t, p.e); st.Events.Pushed != before.Pushed+1 || st.Events.Pending != before.Pending+1 {
		t.Errorf("refused requests reached the queue or drained it: %+v", st.Events)
	}
	// genui's own page and programs are served.
	for _, h := range [][]string{{"Origin", api, "Sec-Fetch-Site", "same-origin"}, nil} {
		if code, _, body := do(t, "POST", api+"/api/tool/_ui_list", "{}", h...); code != http.StatusOK {
			t.Errorf("POST /api/tool/_ui_list %v: %d %s", h, code, body)
		}
	}
	if code, _, body := do(t, "POST", api+"/api/refresh", ""); code != http.StatusOK {
		t.Errorf("POST /api/refresh without a body: %d %s", code, body)
	}
	if code, _, body := do(t, "GET", api+"/wait?timeout=0", "", "Sec-Fetch-Site", "none"); code != http.StatusOK || !strings.Contains(body, "for the agent") {
		t.Errorf("GET /wait typed in the address bar: %d %s", code, body)
	}
}
