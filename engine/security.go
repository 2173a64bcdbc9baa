package engine

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/registry"
)

// maxSecurityText bounds the URL and detail a report may carry.
const maxSecurityText = 2000

// ReportSecurity records what a host saw a tool's UI do that a page must
// never do (the preview reports a frame that navigated, or tried to
// navigate, away from itself: a way to carry results out in a URL). An
// LLM page that did it is dropped from the cache and not generated again
// until the UI is refined or regenerated, so every host gets the offline
// UI; hosts are told the UI changed. The report becomes an EventSecurity
// event (the TUI's Events pane, /events, the /wait queue) and an error in
// the log. It returns the event as recorded, Action saying what was done.
func (e *Engine) ReportSecurity(ctx context.Context, tool string, ev contract.Security) (contract.Security, error) {
	t, err := e.LookupTool(ctx, tool)
	if err != nil {
		return contract.Security{}, err
	}
	if ev.Kind != contract.SecurityNavigation {
		return contract.Security{}, contract.Errorf(contract.CodeInvalidArgument, "unknown security report kind %q (known: %s)", ev.Kind, contract.SecurityNavigation)
	}
	if ev.Source == "" {
		ev.Source = contract.SourcePreview
	}
	ev.URL, ev.Detail = bounded(ev.URL), bounded(ev.Detail)
	ev.Action = ""
	changed := false
	switch {
	case t.OwnUI != "":
		ev.UIType = "own"
		ev.Action = "the upstream's own UI (" + t.OwnUI + ") is not genui's to replace; the host dropped the frame"
	default:
		var key string
		ev.UIType, key, changed = e.ui.dropUnsafe(t, "security: "+ev.Detail)
		ev.CacheKey = key
		if changed {
			ev.Action = "the LLM page was dropped: the offline UI is served until the UI is refined or regenerated"
		} else {
			ev.Action = "the host reloads the UI"
		}
	}
	e.log.Error("a UI navigated its frame away", "tool", t.Name, "source", ev.Source, "url", ev.URL, "detail", ev.Detail,
		"uiType", ev.UIType, "action", ev.Action)
	e.hub.publish(contract.EventSecurity, t.Name, &ev)
	if changed {
		e.hub.publish(contract.EventUIUpdated, t.Name, &contract.UIUpdated{Reason: "security", CacheKey: ev.CacheKey, UIType: gen.UITypeOfflineRich})
	}
	return ev, nil
}

// dropUnsafe drops the tool's current LLM page (and the pages a refinement
// would edit or keep) and marks its generation failed with reason, so the
// offline UI is served and no generation starts again for the same key.
// It returns the type and key of the UI that was served and whether it was
// an LLM page that was dropped.
func (u *uiService) dropUnsafe(t *registry.Tool, reason string) (uiType, key string, dropped bool) {
	k := u.key(t)
	ent, ok := u.cache.Peek(k)
	if !ok {
		return "", string(k), false
	}
	if !gen.IsLLMPage(ent.Meta.UIType) {
		return ent.Meta.UIType, string(k), false
	}
	u.cache.Delete(k)
	u.gs.mu.Lock()
	defer u.gs.mu.Unlock()
	if u.gs.status == nil {
		u.gs.status = map[string]*genStatus{}
	}
	st := &genStatus{GenerationStatus: contract.GenerationStatus{Key: string(k), State: contract.GenFailed,
		Provider: ent.Meta.Provider, FallbackReason: reason}}
	if cur := u.gs.status[t.Name]; cur != nil && cur.State == contract.GenRunning && cur.cancel != nil {
		cur.cancel()
	}
	u.gs.status[t.Name] = st
	delete(u.gs.lastLLM, t.Name)
	delete(u.gs.previous, t.Name)
	return ent.Meta.UIType, string(k), true
}

func bounded(s string) string {
	s = strings.ToValidUTF8(s, "�")
	if utf8.RuneCountInString(s) <= maxSecurityText {
		return s
	}
	r := []rune(s)
	return string(r[:maxSecurityText]) + fmt.Sprintf(" …[%d more characters]", len(r)-maxSecurityText)
}
