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

	"github.com/genui-dev/genui/engine"
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
		evs    []engine.Event
		closed bool
	}
	// subscribedMsg is a new subscription (or the failure to make one).
	subscribedMsg struct {
		gen  int
		ch   <-chan engine.Event
		api  engine.API
		base string
		err  error
	}
)

// readEvents waits for the next batch of events on ch.
func readEvents(gen int, ch <-chan engine.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return eventsMsg{gen: gen, closed: true}
		}
		batch := []engine.Event{ev}
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
func queuedRow(q engine.QueuedEvent) eventRow {
	text := "from " + q.Source
	if p := payloadSummary(q.Payload); p != "" {
		text += "  " + p
	}
	d, _ := json.Marshal(q)
	return eventRow{time: q.Time, kind: "queued", label: q.Type, tool: q.Tool, text: clean(text), qseq: q.Seq, detail: d}
}

// engineRow turns an engine event into a row.
func engineRow(ev engine.Event) eventRow {
	var text string
	switch d := ev.Detail.(type) {
	case *engine.ToolsChanged:
		text = fmt.Sprintf("+%d -%d ~%d tools", len(d.Diff.Added), len(d.Diff.Removed), len(d.Diff.Changed))
	case *engine.UIUpdated:
		text = fmt.Sprintf("%s → %s", d.Reason, orDash(d.UIType))
	case *engine.GenerationStarted:
		text = orDash(d.Generator)
		if d.Background {
			text += " (background)"
		}
	case *engine.GenerationFinished:
		text = fmt.Sprintf("%s by %s in %s", orDash(d.UIType), orDash(d.Generator), fmtDur(d.Duration))
		if d.FallbackReason != "" {
			text += " — fallback: " + d.FallbackReason
		}
	case *engine.GenerationFailed:
		text = d.Error
	case *engine.UpstreamChanged:
		text = d.Upstream.Target
		if d.Upstream.LastError != "" {
			text += " — " + d.Upstream.LastError
		}
	case *engine.QueueDrained:
		text = fmt.Sprintf("an agent took %d event(s) through /wait, %d pending", d.Count, d.Pending)
	case *engine.SessionsChanged:
		text = fmt.Sprintf("%d MCP session(s)", len(d.Sessions))
	case *engine.Lagged:
		text = fmt.Sprintf("fell behind by %d events; resubscribing", d.Pending)
	}
	det, _ := json.Marshal(ev)
	return eventRow{time: ev.Time, kind: string(ev.Kind), tool: ev.Tool, text: clean(text), detail: det}
}

func newTrafficRow(ev engine.Event, t *engine.Traffic) trafficRow {
	return trafficRow{time: ev.Time, dir: t.Direction, kind: t.Kind, method: t.Method, id: string(t.ID),
		latency: t.Latency, size: t.Size, frame: t.Frame, truncated: t.Truncated}
}

func newLogRow(ev engine.Event, l *engine.LogRecord) logRow {
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

func (m *Model) handleEvents(msg eventsMsg) tea.Cmd {
	if msg.gen != m.subGen {
		return nil // an old subscription's last words
	}
	var cmds []tea.Cmd
	refetch, lagged := false, false
	inspectAgain := map[string]bool{}
	for _, ev := range msg.evs {
		switch d := ev.Detail.(type) {
		case *engine.Traffic:
			m.traffic.Push(newTrafficRow(ev, d))
			continue
		case *engine.LogRecord:
			m.logs.Push(newLogRow(ev, d))
			continue
		case *engine.GenerationProgress:
			continue
		case *engine.Queued:
			m.addQueued(d.Event)
			continue
		case *engine.QueueDrained:
			m.markTaken(d.LastSeq)
		case *engine.Lagged:
			lagged = true
		case *engine.UIUpdated:
			// A UI changed (here, by an agent, or by a preview): what the
			// panes hold of it is stale.
			if t := m.peek(ev.Tool); t != nil && t.doc != nil && t.doc.view.CacheKey != d.CacheKey && t.busy == "" {
				t.doc = nil
			}
			inspectAgain[ev.Tool] = true
		case *engine.ToolsChanged:
			cmds = append(cmds, m.fetchTools())
		}
		refetch = true
		m.events.Push(engineRow(ev))
		if ev.Kind == engine.EventGenerationFinished || ev.Kind == engine.EventGenerationFailed {
			inspectAgain[ev.Tool] = true
		}
	}
	if refetch {
		cmds = append(cmds, m.fetchState())
	}
	for t := range inspectAgain {
		if t != "" {
			if d := m.peek(t); (d != nil && d.hasInspect) || t == m.selected() {
				cmds = append(cmds, m.fetchInspect(t))
			}
		}
	}
	if sel := m.selected(); inspectAgain[sel] && m.showing(paneUI) {
		cmds = append(cmds, m.ensureUI(sel))
	}
	switch {
	case lagged:
		m.setStatus("the event stream fell behind; resubscribed (some traffic or log lines were skipped)", false)
		cmds = append(cmds, m.subscribe(), m.fetchPending())
	case msg.closed:
		cmds = append(cmds, m.streamEnded("the event stream ended"))
	default:
		cmds = append(cmds, readEvents(msg.gen, m.currentCh))
	}
	return tea.Batch(cmds...)
}

// addQueued adds a /wait queue event once (PendingEvents and EventQueued
// may both report it).
func (s *shared) addQueued(q engine.QueuedEvent) {
	if q.Seq != 0 {
		if _, dup := s.seenQueue[q.Seq]; dup {
			return
		}
		s.seenQueue[q.Seq] = 1
		if len(s.seenQueue) > 4*maxEvents {
			s.seenQueue = map[int64]int{q.Seq: 1}
		}
	}
	row := queuedRow(q)
	row.taken = q.Seq != 0 && q.Seq <= s.lastTaken
	s.events.Push(row)
}

// markTaken marks queued rows up to seq as delivered to an agent.
func (s *shared) markTaken(seq int64) {
	if seq <= s.lastTaken {
		return
	}
	s.lastTaken = seq
	for i := s.events.Len() - 1; i >= 0; i-- {
		r := s.events.Ptr(i)
		if r.kind != "queued" || r.qseq > seq {
			continue
		}
		if r.taken {
			break
		}
		r.taken = true
	}
}
