// Package browsertest starts headless Debian Chromium for tests through
// chromedp, with the flags genui's browser tests rely on and a fresh profile.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/genui-dev/genui/internal/testenv"
)

// ChromiumPath is where the Debian chromium package installs the browser.
const ChromiumPath = "/usr/bin/chromium"

// StartTimeout bounds how long the browser may take to come up.
const StartTimeout = 60 * time.Second

// Start launches headless Chromium with a fresh user-data-dir and returns a
// browser context for chromedp.Run. The browser is closed and its profile
// removed by t.Cleanup. If Chromium is missing the test is skipped, or fails
// when CI=true. extra adds allocator options (e.g. a --host-resolver-rules
// flag) after genui's own.
func Start(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	testenv.SkipShort(t, "chromium")
	path := ChromiumPath
	if p := os.Getenv("GENUI_CHROMIUM"); p != "" {
		path = p
	}
	if _, err := exec.LookPath(path); err != nil {
		testenv.Missingf(t, "headless Chromium not found at %s: %v (Debian package chromium)", path, err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1600),
		chromedp.WSURLReadTimeout(StartTimeout),
	}
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelCtx()
		cancelAlloc() // kills the browser if still running and waits for it
	})

	// The first Run starts the browser; its context must outlive the call, so
	// bound it with a timer instead of a context deadline.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("start headless Chromium: %v", err)
		}
	case <-time.After(StartTimeout):
		cancelCtx()
		t.Fatalf("headless Chromium did not start within %s", StartTimeout)
	}
	return ctx
}

// Tab opens another tab in the browser of ctx (a context from Start or Tab),
// closed when the test ends. Each tab's renderer is a process of its own, so
// tests that check many pages can check them in several tabs at once.
func Tab(t testing.TB, ctx context.Context) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	// The first Run opens the tab, whose life is its context's: bounded by a
	// timer, not a deadline on that context.
	opened := make(chan error, 1)
	go func() { opened <- chromedp.Do(tab) }()
	select {
	case err := <-opened:
		if err != nil {
			t.Fatalf("open a browser tab: %v", err)
		}
	case <-time.After(StartTimeout):
		cancel()
		t.Fatalf("a browser tab did not open within %s", StartTimeout)
	}
	return tab
}

// Run runs chromedp actions on the browser context with a deadline and fails
// the test on error.
func Run(t testing.TB, ctx context.Context, timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := chromedp.Do(rctx, actions...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// Poll waits until the JavaScript expression expr is true in the page and
// fails the test after timeout.
func Poll(t testing.TB, ctx context.Context, expr string, timeout time.Duration) {
	t.Helper()
	if err := PollErr(ctx, expr, timeout); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// PollErr waits until expr is true in the page, at most timeout, and says
// why it is not. A navigation meanwhile (the page's execution context
// replaced, which fails the page's poll with "Cannot find context with
// specified id", "Execution context was destroyed" or "Inspected target
// navigated or closed") does not end the
// wait: the poll starts again in the new document, as a wait for
// something a navigation brings must.
func PollErr(ctx context.Context, expr string, timeout time.Duration) error {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		_, err := chromedp.Run(rctx, chromedp.Poll[bool](expr))
		if err == nil || rctx.Err() != nil || !contextReplaced(err) {
			return err
		}
		retry := time.NewTimer(20 * time.Millisecond)
		select {
		case <-rctx.Done():
			retry.Stop()
			return err
		case <-retry.C:
		}
	}
}

// contextReplaced reports whether err is a page's evaluation lost to a
// navigation.
func contextReplaced(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Cannot find context with specified id") || strings.Contains(s, "Execution context was destroyed") ||
		strings.Contains(s, "Inspected target navigated or closed")
}
