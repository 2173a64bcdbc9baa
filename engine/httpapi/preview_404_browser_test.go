package httpapi

import (
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
)

// TestPreviewBrowserNoFailedRequests: loading a preview page and its UI
// frame answers every request the browser makes (the favicon included,
// which once logged a 404 on every preview page) and logs no error.
func TestPreviewBrowserNoFailedRequests(t *testing.T) {
	p := startPreview(t, demoConfig())
	ctx := browsertest.Start(t)
	var mu sync.Mutex
	var failed []string
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventResponseReceived:
			if ev.Response.Status >= 400 {
				failed = append(failed, ev.Response.URL+": "+ev.Response.StatusText)
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				failed = append(failed, "console: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	b := p.tab(t, ctx)
	b.open("/preview/get_forecast?conserve=0", "ready")
	b.waitFrame(`(w, d) => d.body.dataset.state === "ready"`)
	// Chromium asks for /favicon.ico once the page has loaded (a page that
	// names its icon inline asks nothing): wait for the load to end.
	b.poll(`document.readyState === "complete"`, 15*time.Second)
	mu.Lock()
	defer mu.Unlock()
	if len(failed) > 0 {
		t.Errorf("the preview page made requests that failed or logged errors:\n%s", strings.Join(failed, "\n"))
	}
}
