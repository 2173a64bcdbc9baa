package httpapi

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestPreviewScreenshots writes docs/preview-<tool>.png: the preview of a
// few demo tools with a call made. It is a documentation helper, not a
// check, so it only runs when asked:
//
//	GENUI_SCREENSHOTS=1 go test ./engine/httpapi -run TestPreviewScreenshots
//
// GENUI_SCREENSHOT_THEME=dark takes them in the dark theme.
func TestPreviewScreenshots(t *testing.T) {
	if os.Getenv("GENUI_SCREENSHOTS") != "1" {
		t.Skip("set GENUI_SCREENSHOTS=1 to write docs/preview-*.png")
	}
	theme := os.Getenv("GENUI_SCREENSHOT_THEME")
	if theme != "dark" {
		theme = "light"
	}
	dir := filepath.Join("..", "..", "docs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := startPreview(t, demoConfig())
	b := p.tab(t, browsertest.Start(t))
	browsertest.Run(t, b.ctx, 10*time.Second, chromedp.EmulateViewport(1280, 900))
	for _, tc := range []struct{ tool, args string }{
		{"get_forecast", `{"location":"Lisbon","days":7}`},
		{"datastore_search", `{"q":"lamp","sort":"price desc","limit":8}`},
		{"get_current_weather", `{"location":"Berlin"}`},
	} {
		b.open("/preview/"+tc.tool+"?conserve=0"+argsQuery(tc.args)+"&call=1", "result")
		if theme == "dark" {
			b.eval(`(() => { const s = document.getElementById("theme"); s.value = "dark"; s.dispatchEvent(new Event("change")); return true; })()`)
		}
		// The frame settles its reported height: unchanged for 300 ms.
		last, since := "", time.Now()
		settled := func() bool {
			if h := b.eval(`document.getElementById("ui").getBoundingClientRect().height`); h != last {
				last, since = h, time.Now()
			}
			return time.Since(since) >= 300*time.Millisecond
		}
		if !testenv.Until(20*time.Second, settled) {
			t.Fatalf("%s: the frame's height never settled (last %s)", tc.tool, last)
		}
		ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "preview-"+tc.tool+".png")
		if theme == "dark" {
			name = filepath.Join(dir, "preview-"+tc.tool+"-dark.png")
		}
		if err := os.WriteFile(name, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", name, len(png))
	}
}
