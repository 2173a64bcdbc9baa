package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/internal/llmtest"
)

// TestReportSecurityDropsTheLLMPage: a host reports that a tool's LLM page
// navigated its frame: the page is dropped, the offline UI is served (no
// new generation for the same key), and the report is a security event,
// a UI update for hosts and a /wait queue entry.
func TestReportSecurityDropsTheLLMPage(t *testing.T) {
	r := newLLMRig(t, llmtest.Reply{Text: llmtest.ForecastPage}, nil)
	read(t, r.e, "get_forecast")
	waitFor(t, "the LLM page", hangGuard, func() bool { return r.e.ui.generations()["get_forecast"].State == contract.GenDone })
	if ui := read(t, r.e, "get_forecast"); ui.Meta.UIType != gen.UITypeLLM {
		t.Fatalf("served %s", ui.Meta.UIType)
	}
	got := collect(r.e, contract.EventSecurity, contract.EventUIUpdated)
	ctx := context.Background()
	ev, err := r.e.ReportSecurity(ctx, "get_forecast", contract.Security{Kind: contract.SecurityNavigation,
		URL: "http://127.0.0.1:9999/plain?d=secret", Detail: "the page tried to navigate to http://127.0.0.1:9999/plain?d=secret (blocked)"})
	if err != nil {
		t.Fatal(err)
	}
	if ev.UIType != gen.UITypeLLM || !strings.Contains(ev.Action, "offline UI is served") || ev.Source != contract.SourcePreview {
		t.Fatalf("event = %+v", ev)
	}
	evs := got()
	if len(evs) != 2 || evs[0].Kind != contract.EventSecurity || evs[1].Kind != contract.EventUIUpdated {
		t.Fatalf("events = %+v", evs)
	}
	ui := read(t, r.e, "get_forecast")
	if ui.Meta.UIType != gen.UITypeOfflineRich || !strings.Contains(ui.Meta.FallbackReason, "security: the page tried to navigate") {
		t.Fatalf("after the report: %s (%q)", ui.Meta.UIType, ui.Meta.FallbackReason)
	}
	time.Sleep(200 * time.Millisecond)
	if n := r.srv.Count(); n != 1 {
		t.Errorf("%d provider requests: the same page must not be generated again at once", n)
	}
	q, err := r.e.PendingEvents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	queued := false
	for _, e := range q {
		queued = queued || e.Type == string(contract.EventSecurity)
	}
	if !queued {
		t.Errorf("the security event is not on the /wait queue: %+v", q)
	}
	if _, err := r.e.ReportSecurity(ctx, "get_forecast", contract.Security{Kind: "xss"}); contract.AsError(err).Code != contract.CodeInvalidArgument {
		t.Errorf("an unknown kind: %v", err)
	}
	if _, err := r.e.ReportSecurity(ctx, "nope", contract.Security{Kind: contract.SecurityNavigation}); contract.AsError(err).Code != contract.CodeUnknownTool {
		t.Errorf("an unknown tool: %v", err)
	}
}
