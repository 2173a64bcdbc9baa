package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/internal/browsertest"
)

// TestPreviewUIMessageSeenOnEventsStillOnWait: a UI's ui/message, sent from
// a real preview in Chromium, reaches a watcher on GET /events (what an
// attached TUI sees) and is still returned by the agent's next /wait:
// watching never consumes.
func TestPreviewUIMessageSeenOnEventsStillOnWait(t *testing.T) {
	p := startPreview(t, demoConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	watch, err := apiclient.New(p.apiTS.URL, nil).Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := p.tab(t, browsertest.Start(t))
	b.open("/preview/get_forecast?conserve=0", "ready")
	b.frame(`async (w) => { await w.genuiApp.sendMessage({role: "user", content: [{type: "text", text: "hello from the UI"}]}); return true; }`)

	var seen contract.QueuedEvent
	for seen.Seq == 0 {
		select {
		case ev, ok := <-watch:
			if !ok {
				t.Fatal("/events closed before the ui/message")
			}
			if q, isQ := ev.Detail.(*contract.Queued); isQ && ev.Kind == contract.EventQueued && q.Event.Type == "ui/message" {
				seen = q.Event
			}
		case <-ctx.Done():
			t.Fatal("no queued ui/message on /events within 60 s")
		}
	}
	if seen.Tool != "get_forecast" || seen.Source != "preview" || !strings.Contains(string(seen.Payload), "hello from the UI") {
		t.Fatalf("queued event on /events: %+v", seen)
	}

	resp, err := http.Get(p.apiTS.URL + "/wait?timeout=5")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var got []contract.QueuedEvent
	if resp.StatusCode != 200 || json.Unmarshal(body, &got) != nil {
		t.Fatalf("/wait: %d %s", resp.StatusCode, body)
	}
	found := false
	for _, ev := range got {
		found = found || ev.Seq == seen.Seq && ev.Type == "ui/message"
	}
	if !found {
		t.Fatalf("/wait does not return the ui/message (seq %d) the watcher saw: %s", seen.Seq, body)
	}
}
