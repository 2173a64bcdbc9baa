package tui

import (
	"bytes"
	"context"
	"crypto/sha256"
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

// eventRow is one line of the Events pane: an engine event, a /wait queue
// event, or both (an engine event the engine also queued for agents is one
// row, marked ⧗ while pending and ✓ once an agent took it).
type eventRow struct {
	time      time.Time
	kind      string // engine event kind, or the queued event's type (ui/message, tools/call, ...)
	tool      string
	text      string // one-line summary
	queueOnly bool   // a queued event with no engine event of its own
	qseq      int64  // the queue's sequence number (0: not queued)
	taken     bool   // an agent took it through /wait
	detail    []byte // JSON shown when opened
	queued    []byte // the queued event's JSON (merged rows)
	// readable is what a person reads first when it is opened (a tool
	// diff, a build's output), before the JSON.
	readable []string
}

// trafficRow is one JSON-RPC message of the Traffic pane.
type trafficRow struct {
	time      time.Time
	dir       string
	session   string
	kind      string
	method    string
	tool      string // the tool a tools/call (or its answer, its cancellation) names
	requestID string // the request a notifications/cancelled gives up on
	id        string
	latency   time.Duration
	size      int
	frame     []byte
	truncated bool
	gap       int64 // kind trafficGap: how many frames are missing here
}

// logRow is one line of the Log pane.
type logRow struct {
	time      time.Time
	level     string
	component string
	msg       string
	attrList  [][2]string // the attributes, cleaned, sorted by key
}

// attrs is the attributes as one line: key=value ...
func (r logRow) attrs() string {
	var b strings.Builder
	for i, a := range r.attrList {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a[0])
		b.WriteByte('=')
		b.WriteString(a[1])
	}
	return b.String()
}

// queuedRow turns a /wait queue event into a row.
func queuedRow(q contract.QueuedEvent) eventRow {
	text := "from " + q.Source
	if p := payloadSummary(q.Payload); p != "" {
		text += "  " + p
	}
	d, _ := json.Marshal(q)
	return eventRow{time: q.Time, kind: q.Type, queueOnly: true, tool: q.Tool, text: clean(text), qseq: q.Seq, detail: d}
}

// engineRow turns an engine event into a row.
func engineRow(ev contract.Event) eventRow {
	var text string
	var readable []string
	switch d := ev.Detail.(type) {
	case *contract.ToolsChanged:
		text = fmt.Sprintf("+%d -%d ~%d tools", len(d.Diff.Added), len(d.Diff.Removed), len(d.Diff.Changed))
		for _, c := range d.Diff.Changes {
			if c.Kind == contract.ChangeChanged {
				text += fmt.Sprintf(" · %s: %s", c.Tool, strings.Join(c.Fields, ", "))
			}
			readable = append(readable, c.Text()...)
		}
	case *contract.UpstreamRestart:
		text = d.Summary()
		readable = restartLines(d)
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
			// The reason with the server's last stderr lines, one per line.
			readable = cleanLines(d.Upstream.LastError)
		}
	case *contract.QueueDrained:
		text = fmt.Sprintf("an agent took %d event(s) through /wait, %d pending", d.Count, d.Pending)
	case *contract.SessionsChanged:
		text = fmt.Sprintf("%d MCP session(s)", len(d.Sessions))
	case *contract.Lagged:
		text = fmt.Sprintf("fell behind by %d events; resubscribing", d.Pending)
	case *contract.CallStarted:
		text = "from " + d.Source
		if d.Task {
			text += " (as a task)"
		}
	case *contract.CallFinished:
		switch {
		case d.Cancelled:
			text = "cancelled"
		case d.Error != "":
			text = "failed: " + d.Error
		case d.IsError:
			text = "isError result"
		default:
			text = "done"
		}
		text = fmt.Sprintf("%s in %s", text, fmtDur(d.Duration))
	case *contract.TaskStatus:
		b, _ := json.Marshal(d.Task)
		text = "task " + string(b)
	case *contract.PendingRequest:
		text = fmt.Sprintf("%s %s awaits an answer (request %s)", d.Kind, d.Method, d.ID)
	case *contract.RequestAnswered:
		text = fmt.Sprintf("%s request %s %s", d.Kind, d.ID, d.Outcome)
		if d.By != "" {
			text += " by " + d.By
		}
	case *contract.ResourceUpdated:
		text = d.URI
	case *contract.ListChanged:
		text = d.List + " changed"
	case *contract.Security:
		text = d.Detail
		if d.Action != "" {
			text += " — " + d.Action
		}
	}
	det, _ := json.Marshal(ev)
	return eventRow{time: ev.Time, kind: string(ev.Kind), tool: ev.Tool, text: clean(text), detail: det, readable: readable}
}

// restartLines is a watched restart's step for a person: what changed in
// the tools, path by path, or the build's output.
func restartLines(d *contract.UpstreamRestart) []string {
	var out []string
	if d.Error != "" {
		out = append(out, d.Error)
	}
	for _, c := range d.Changes {
		out = append(out, c.Text()...)
	}
	if len(d.Regenerated) > 0 {
		out = append(out, "UIs generated again: "+strings.Join(d.Regenerated, ", "))
	}
	if d.Output != "" {
		out = append(out, "build output:")
		out = append(out, cleanLines(d.Output)...)
	}
	return out
}

func newTrafficRow(ev contract.Event, t *contract.Traffic) trafficRow {
	return trafficRow{time: ev.Time, dir: t.Direction, session: t.Session, kind: t.Kind, method: t.Method, tool: t.Tool,
		requestID: string(t.RequestID), id: string(t.ID), latency: t.Latency, size: t.Size, frame: t.Frame, truncated: t.Truncated}
}

func newLogRow(ev contract.Event, l *contract.LogRecord) logRow {
	keys := make([]string, 0, len(l.Attrs))
	for k := range l.Attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	list := make([][2]string, 0, len(keys))
	for _, k := range keys {
		v := l.Attrs[k]
		s, ok := v.(string)
		if !ok {
			b, _ := json.Marshal(v)
			s = string(b)
		}
		list = append(list, [2]string{clean(k), clean(s)})
	}
	return logRow{time: ev.Time, level: l.Level, component: l.Component, msg: clean(l.Message), attrList: list}
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
		case *contract.Traffic:
			m.addTraffic(ev, d)
			continue
		case *contract.LogRecord:
			m.logs.Push(newLogRow(ev, d))
			continue
		case *contract.CallProgress:
			m.callEvent(ev)
			continue // streaming: the Call pane shows it as a progress bar
		case *contract.GenerationProgress:
			continue // streaming: the panes that run them show progress
		case *contract.TaskStatus:
			m.callEvent(ev)
		case *contract.Queued:
			m.addQueued(d.Event)
			continue
		case *contract.QueueDrained:
			m.markTaken(d.LastSeq)
		case *contract.Lagged:
			lagged = true
		case *contract.UIUpdated:
			// A UI changed (here, by an agent, or by a preview): what the
			// panes hold of it is stale.
			if t := m.peek(ev.Tool); t != nil && t.doc != nil && t.doc.view.CacheKey != d.CacheKey && t.busy == "" {
				t.doc = nil
			}
			// The LLM page a refine's interim UI stood in for: what changed
			// is now the page served before the refine against it.
			if t := m.peek(ev.Tool); t != nil && d.Reason == "upgrade" && t.change != nil && t.change.interim() {
				cmds = append(cmds, m.doUpgradeChange(ev.Tool, t.change))
			}
			inspectAgain[ev.Tool] = true
		case *contract.ToolsChanged:
			cmds = append(cmds, m.fetchTools())
		case *contract.PendingRequest:
			cmds = append(cmds, m.requestPending(d))
		case *contract.RequestAnswered:
			cmds = append(cmds, m.requestGone(d))
		case *contract.ResourceUpdated, *contract.ListChanged:
			cmds = append(cmds, resourceEvent(ev))
		case *contract.UpstreamRestart:
			// A watched upstream's restart, step by step, on the status line.
			m.setStatus("upstream: "+d.Summary(), d.Error != "")
		}
		refetch = true
		m.insertEvent(engineRow(ev))
		if ev.Kind == contract.EventGenerationFinished || ev.Kind == contract.EventGenerationFailed {
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
// may both report it, and a re-attached genui reports again what it still
// holds). An engine event the engine queued for agents (it publishes the
// event, then queues it) marks the event's row instead of adding one.
func (s *shared) addQueued(q contract.QueuedEvent) {
	if q.Seq != 0 {
		if _, dup := s.seenQueue[q.Seq]; dup {
			return
		}
		s.seenQueue[q.Seq] = 1
		if len(s.seenQueue) > 4*maxEvents {
			s.seenQueue = map[int64]int{q.Seq: 1}
		}
	}
	id := fmt.Sprintf("%d|%d|%s|%s|%s|%x", q.Seq, q.Time.UnixNano(), q.Source, q.Type, q.Tool, sha256.Sum256(q.Payload))
	if s.queuedIDs[id] {
		return
	}
	if len(s.queuedIDs) > 4*maxEvents {
		clear(s.queuedIDs)
	}
	s.queuedIDs[id] = true
	taken := q.Seq != 0 && q.Seq <= s.lastTaken
	if q.Source == contract.SourceEngine {
		for i := s.events.Len() - 1; i >= max(0, s.events.Len()-32); i-- {
			r := s.events.Ptr(i)
			if !r.queueOnly && r.qseq == 0 && r.kind == q.Type && r.tool == q.Tool {
				r.qseq, r.taken = q.Seq, taken
				r.queued, _ = json.Marshal(q)
				return
			}
		}
	}
	row := queuedRow(q)
	row.taken = taken
	s.insertEvent(row)
}

// insertEvent adds a row in time order: events fetched late (the /wait
// queue of a genui attached to, or re-attached after a restart) go where
// their time puts them, not at the end.
func (s *shared) insertEvent(row eventRow) {
	s.events.Push(row)
	for i := s.events.Len() - 1; i > 0; i-- {
		prev, cur := s.events.Ptr(i-1), s.events.Ptr(i)
		if !prev.time.After(cur.time) {
			break
		}
		*prev, *cur = *cur, *prev
		s.eventsReordered++
	}
}

// markTaken marks queued rows up to seq as delivered to an agent.
func (s *shared) markTaken(seq int64) {
	if seq <= s.lastTaken {
		return
	}
	s.lastTaken = seq
	for i := s.events.Len() - 1; i >= 0; i-- {
		if r := s.events.Ptr(i); r.qseq != 0 && r.qseq <= seq {
			r.taken = true
		}
	}
}
