package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/upstream"
)

// TestOfflinePagesOfEarlierVersionsMigrate: a tool with a refinement and a
// cached offline page of the format before view specs (no spec in its
// metadata, stored under an earlier key) gets a page made again, with a
// log line; the refinement, stored as text, still applies, now as a spec
// edit with its outcome; a seen result makes a field one level down
// resolvable.
func TestOfflinePagesOfEarlierVersionsMigrate(t *testing.T) {
	logs, lmu := &bytes.Buffer{}, &sync.Mutex{}
	logger := slog.New(slog.NewJSONHandler(lockedWriter{lmu, logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e, err := New(Options{Upstream: upstream.Config{Transport: "inprocess", InProcess: rawUpstream(forecastResult, forecastToolJSON)},
		Dir: t.TempDir(), PersistCache: true, Generator: gen.NewOffline(), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := e.tools.WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ui.refine.Add("get_forecast", "dark theme, hide the conditions", contract.SourceTUI); err != nil {
		t.Fatal(err)
	}
	// The page of the earlier format, as a genui of TemplateVersion 10 cached it.
	if err := e.ui.cache.Put(cache.Entry{Key: cache.MakeKey("get_forecast", "old", "old", "old"), Tool: "get_forecast",
		HTML: "<!doctype html><html><body>old page</body></html>", Meta: contract.UIMeta{UIType: gen.UITypeOfflineRich}}); err != nil {
		t.Fatal(err)
	}
	e.ObserveResult("get_forecast", json.RawMessage(`{"location":"Oslo"}`), json.RawMessage(forecastResult), 10*time.Millisecond)
	ui, err := e.UI(context.Background(), "get_forecast")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ui.HTML, "old page") || len(ui.Meta.Spec) == 0 {
		t.Fatalf("the page was not made again with a spec: %s", ui.Meta.Spec)
	}
	var spec struct {
		Principal string   `json:"principal"`
		Hidden    []string `json:"hidden"`
		Theme     struct {
			Scheme string `json:"scheme"`
		} `json:"theme"`
	}
	if err := json.Unmarshal(ui.Meta.Spec, &spec); err != nil {
		t.Fatal(err)
	}
	if spec.Principal != "/days" || strings.Join(spec.Hidden, ",") != "conditions" || spec.Theme.Scheme != "dark" {
		t.Errorf("spec %s", ui.Meta.Spec)
	}
	if len(ui.Meta.Outcomes) != 1 || ui.Meta.Outcomes[0].Status != "applied" {
		t.Errorf("outcomes %+v", ui.Meta.Outcomes)
	}
	lmu.Lock()
	defer lmu.Unlock()
	if !strings.Contains(logs.String(), "UI regenerated: the cached page predates view specs") {
		t.Errorf("no log line says the earlier page was made again:\n%s", logs.String())
	}
}
