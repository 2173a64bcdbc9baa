package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestStartLoadsAPageAndReachesAnIframe(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>t</title><p id="p">hello</p><script>document.getElementById("p").textContent += " js"</script>`))
	})
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><input id="i"><button id="b" onclick="document.body.dataset.clicked = document.getElementById('i').value">go</button>`))
	}))
	defer inner.Close()
	mux.HandleFunc("GET /frame", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><iframe id="f" sandbox="allow-scripts" src="` + inner.URL + `"></iframe>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx := Start(t)
	Run(t, ctx, 20*time.Second, chromedp.Navigate(srv.URL))
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	text, err := chromedp.Run(tctx, chromedp.Text(chromedp.CSS("#p")))
	if err != nil {
		t.Fatal(err)
	}
	if text != "hello js" {
		t.Fatalf("text = %q, want %q", text, "hello js")
	}

	Run(t, ctx, 20*time.Second, chromedp.Navigate(srv.URL+"/frame"))
	WaitFrame(t, ctx, "#f", `(w, d) => !!d.getElementById("b")`, 10*time.Second)
	FrameType(t, ctx, "#f", "#i", "typed")
	FrameClick(t, ctx, "#f", "#b")
	WaitFrame(t, ctx, "#f", `(w, d) => d.body.dataset.clicked === "typed"`, 10*time.Second)
	if got := string(MustFrameEval(t, ctx, "#f", `(w, d) => w.origin`)); got != `"null"` {
		t.Errorf("sandboxed frame origin = %s, want \"null\"", got)
	}
}

// A poll for what a navigation brings survives the navigation: the page's
// own poll dies with its document, and PollErr starts it again in the new
// one.
func TestPollSurvivesANavigation(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>first</title><script>setTimeout(() => { location.href = "/second"; }, 300)</script>`))
	})
	mux.HandleFunc("GET /second", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>second</title>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx := Start(t)
	Run(t, ctx, 20*time.Second, chromedp.Navigate(srv.URL))
	if err := PollErr(ctx, `document.title === "second"`, 20*time.Second); err != nil {
		t.Fatalf("poll across a navigation: %v", err)
	}
}
