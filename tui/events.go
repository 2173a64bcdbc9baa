package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/genui-dev/genui/engine/contract"
)

// Engine events become tea messages in exactly one place: readEvents, the
// subscription reader. It is one goroutine at a time (the command is issued
// again after each batch), and it coalesces bursts: after the first event
// it gathers what else arrives within one frame (coalesceWindow), so the
// screen redraws at most ~30 times a second however fast events come.

// coalesceWindow is one frame at 30 redraws a second.
const coalesceWindow = 33 * time.Millisecond

// maxBatch bounds one batch (a burst larger than this is several frames).
const maxBatch = 4096

type (
	// eventsMsg is a batch of engine events from subscription gen;
	// closed says the subscription ended after them.
	eventsMsg struct {
		gen    int
		evs    []contract.Event
		closed bool
	}
	// subscribedMsg is a new subscription (or the failure to make one).
	subscribedMsg struct {
		gen  int
		ch   <-chan contract.Event
		api  contract.API
		base string
		err  error
	}
)

// readEvents waits for the next batch of events on ch.
func readEvents(gen int, ch <-chan contract.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return eventsMsg{gen: gen, closed: true}
		}
		batch := []contract.Event{ev}
		timer := time.NewTimer(coalesceWindow)
		defer timer.Stop()
		for len(batch) < maxBatch {
			select {
			case ev, ok := <-ch:
				if !ok {
					return eventsMsg{gen: gen, evs: batch, closed: true}
				}
				batch = append(batch, ev)
			case <-timer.C:
				return eventsMsg{gen: gen, evs: batch}
			}
		}
		return eventsMsg{gen: gen, evs: batch}
	}
}

// subscribe starts a new subscription to the current engine (ending the
// previous one).
func (m *Model) subscribe() tea.Cmd {
	if m.subCancel != nil {
		m.subCancel()
	}
	m.subGen++
	gen, api, base := m.subGen, m.api, m.base
	ctx, cancel := context.WithCancel(m.ctx)
	m.subCancel = cancel
	return func() tea.Msg {
		ch, err := api.Subscribe(ctx)
		return subscribedMsg{gen: gen, ch: ch, api: api, base: base, err: err}
	}
}

// eventRow is one line of the Events tab: a queued /wait event or an
// engine event.
type eventRow struct {
	time   time.Time
	kind   string // engine event kind, or "queued"
	label  string // what a queued event is (its type: ui/message, tools/call, ...)
	tool   string
	text   string // one-line summary
	qseq   int64  // queue sequence (queued rows)
	taken  bool   // an agent took it through /wait
	detail []byte // JSON shown when expanded
}

// trafficRow is one JSON-RPC message of the Traffic tab.
type trafficRow struct {
	time      time.Time
	dir       string
	kind      string
	method    string
	id        string
	latency   time.Duration
	size      int
	frame     []byte
	truncated bool
}

// logRow is one line of the Log tab.
type logRow struct {
	time      time.Time
	level     string
	component string
	msg       string
	attrs     string
}

// queuedRow turns a /wait queue event into a row.
func queuedRow(q contract.QueuedEvent) eventRow {
	text := "from " + q.Source
	if p := payloadSummary(q.Payload); p != "" {
		text += "  " + p
	}
	d, _ := json.Marshal(q)
	return eventRow{time: q.Time, kind: "queued", label: q.Type, tool: q.Tool, text: clean(text), qseq: q.Seq, detail: d}
}

// engineRow turns an engine event into a row.
func engineRow(ev contract.Event) eventRow {
	var text string
	switch d := ev.Detail.(type) {
	case *contract.ToolsChanged:
		text = fmt.Sprintf("+%d -%d ~%d tools", len(d.Diff.Added), len(d.Diff.Removed), len(d.Diff.Changed))
	case *contract.UIUpdated:
		text = fmt.Sprintf("%s → %s", d.Reason, orDash(d.UIType))
	case *contract.GenerationStarted:
		text = orDash(d.Generator)
		if d.Background {
			text += " (background)"
		}
	case *contract.GenerationFinished:
		text = fmt.Sprintf("%s by %s in %s", orDash(d.UIType), orDash(d.Generator), fmtDur(d.Duration))
		if d.FallbackReason != "" {
			text += " — fallback: " + d.FallbackReason
		}
	case *contract.GenerationFailed:
		text = d.Error
	case *contract.UpstreamChanged:
		text = d.Upstream.Target
		if d.Upstream.LastError != "" {
			text += " — " + d.Upstream.LastError
		}
	case *contract.QueueDrained:
		text = fmt.Sprintf("an agent took %d event(s) through /wait, %d pending", d.Count, d.Pending)
	case *contract.SessionsChanged:
		text = fmt.Sprintf("%d MCP session(s)", len(d.Sessions))
	case *contract.Lagged:
		text = fmt.Sprintf("fell behind by %d events; resubscribing", d.Pending)
	case *contract.Security:
		text = d.Detail
		if d.Action != "" {
			text += " — " + d.Action
		}
	}
	det, _ := json.Marshal(ev)
	return eventRow{time: ev.Time, kind: string(ev.Kind), tool: ev.Tool, text: clean(text), detail: det}
}

func newTrafficRow(ev contract.Event, t *contract.Traffic) trafficRow {
	return trafficRow{time: ev.Time, dir: t.Direction, kind: t.Kind, method: t.Method, id: string(t.ID),
		latency: t.Latency, size: t.Size, frame: t.Frame, truncated: t.Truncated}
}

func newLogRow(ev contract.Event, l *contract.LogRecord) logRow {
	var attrs []string
	keys := make([]string, 0, len(l.Attrs))
	for k := range l.Attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := l.Attrs[k]
		s, ok := v.(string)
		if !ok {
			b, _ := json.Marshal(v)
			s = string(b)
		}
		attrs = append(attrs, k+"="+s)
	}
	return logRow{time: ev.Time, level: l.Level, component: l.Component, msg: clean(l.Message), attrs: clean(strings.Join(attrs, " "))}
}

// payloadSummary is what a person wants from a queued event's payload:
// the text of a ui/message (or model context), a link's URL, else the
// compact JSON, cut to 200 bytes.
func payloadSummary(p json.RawMessage) string {
	if len(p) == 0 {
		return ""
	}
	var v struct {
		Text    string `json:"text"`
		URL     string `json:"url"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	var s string
	if json.Unmarshal(p, &v) == nil {
		var parts []string
		for _, c := range v.Content {
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
		switch {
		case len(parts) > 0:
			s = "“" + strings.Join(parts, " ") + "”"
		case v.Text != "":
			s = "“" + v.Text + "”"
		case v.URL != "":
			s = v.URL
		}
	}
	if s == "" {
		var buf bytes.Buffer
		if json.Compact(&buf, p) == nil {
			s = buf.String()
		} else {
			s = string(p)
		}
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
