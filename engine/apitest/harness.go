// Package apitest is the conformance suite of contract.API and the harness it
// runs on: a real engine over the built-in demo upstream (in-process), its
// MCP host and its HTTP side server on httptest servers. Run the suite
// against any implementation; the in-process engine and apiclient must pass
// it identically (see conformance_test.go). Front-end tests (the TUI) use
// the harness too. RunHost (suite_host.go) is the host half: progress,
// cancel, tasks, the upstream's requests answered, roots, resources and
// prompts, against npm's server-everything (StartEverything records what
// reaches its stdin, so a test can prove notifications/cancelled arrived).
package apitest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/httpapi"
	"github.com/genui-dev/genui/engine/upstream"
)

// Harness is a running engine with its host and side server.
type Harness struct {
	E    *engine.Engine
	Host *host.Server
	Side *httpapi.Server
	// APIURL and UIURL are the side server's two origins.
	APIURL, UIURL string
	api, ui       *httptest.Server
}

// Option changes the engine's options before it starts.
type Option func(*engine.Options)

// WithRoots configures the roots genui answers roots/list with (none
// by default).
func WithRoots(roots ...contract.Root) Option {
	return func(o *engine.Options) { o.Roots = roots }
}

// Start runs an engine over the demo upstream (unless an option says
// otherwise) with its host and side server, waits for the upstream's tools
// and stops everything when the test ends.
func Start(t testing.TB, opts ...Option) *Harness {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("GENUI_TEST_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	o := engine.Options{
		Upstream: upstream.Config{Transport: "inprocess", InProcess: demo.ServeStdio,
			BackoffMin: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond},
		Dir:       t.TempDir(),
		ChecksDir: filepath.Join(t.TempDir(), "genui-checks"),
		Logger:    log,
	}
	for _, f := range opts {
		f(&o)
	}
	e, err := engine.New(o)
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{E: e}
	h.Host = host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log, OpenBrowser: func(string) error { return nil }})
	h.Side = httpapi.New(httpapi.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Host: h.Host, Logger: log})
	h.api = httptest.NewServer(h.Side.Handler())
	h.ui = httptest.NewServer(h.Side.UIHandler())
	h.APIURL, h.UIURL = h.api.URL, h.ui.URL
	h.Side.SetBases(h.UIURL, h.APIURL)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	t.Cleanup(func() {
		// Event streams and long polls stay open: cut them, then close.
		h.api.CloseClientConnections()
		h.ui.CloseClientConnections()
		h.api.Close()
		h.ui.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("engine did not stop within 10 s")
		}
	})
	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer wcancel()
	if err := e.Registry().WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	return h
}

// Wait long-polls the agents' /wait queue once (timeout in seconds) and
// returns the status and body.
func (h *Harness) Wait(t testing.TB, timeout string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, h.APIURL+"/wait?timeout="+timeout, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}
