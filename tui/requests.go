package tui

import (
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// Requests awaiting an answer: the upstream asked genui's surfaces for
// something (elicitation/create, sampling/createMessage) during a call. The
// TUI keeps the ones it may answer in a queue (shared.requests, oldest
// first) and shows the oldest in the request dialog (requestdialog.go).
// It opens by itself for a request of a call this TUI made, and for one
// nobody else will answer (a call from the HTTP API, or from a host that
// did not declare the capability); a request of a preview's call or of
// another TUI's call waits in the queue for `!` (the help bar says so).
// When a request stops pending (answered here or elsewhere, timed out,
// withdrawn), it leaves the queue; if it was on screen the status line says
// why.

type (
	// requestsMsg is PendingRequests' answer (the `!` key).
	requestsMsg struct {
		reqs []contract.PendingRequest
		err  error
		// quiet: fetched at the start or after attaching: queued and
		// said on the status line, the dialog not opened.
		quiet bool
	}
	// answerMsg is AnswerRequest's answer.
	answerMsg struct {
		id, what string
		err      error
	}
	// draftMsg is DraftSamplingAnswer's answer.
	draftMsg struct {
		id    string
		draft contract.SamplingDraft
		err   error
	}
)

// ownsRequest reports whether a pending request opens the dialog by itself.
func (s *shared) ownsRequest(r *contract.PendingRequest) bool {
	if _, ok := s.calls[r.CallID]; ok && r.CallID != "" {
		return true
	}
	switch r.Source {
	case contract.SourcePreview, contract.SourceTUI:
		return false // that surface answers it (or another TUI's call)
	}
	return true
}

// request returns the queued request with id.
func (s *shared) request(id string) *contract.PendingRequest {
	for _, r := range s.requests {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// addRequest queues a pending request (once) and reports whether the
// dialog should open for it.
func (s *shared) addRequest(r *contract.PendingRequest) bool {
	if r == nil || r.ID == "" || s.request(r.ID) != nil {
		return false
	}
	if r.Elicitation == nil && r.Sampling == nil {
		r.ParsePendingParams()
	}
	if len(s.requests) >= maxRequests {
		s.setStatus(fmt.Sprintf("more than %d requests await an answer: request %s is not shown (it times out upstream)", maxRequests, r.ID), true)
		return false
	}
	s.requests = append(s.requests, r)
	return s.ownsRequest(r)
}

// maxRequests bounds the queue.
const maxRequests = 256

// dropRequest removes a request from the queue.
func (s *shared) dropRequest(id string) {
	for i, r := range s.requests {
		if r.ID == id {
			s.requests = append(s.requests[:i], s.requests[i+1:]...)
			return
		}
	}
}

// requestLabel is "the elicitation request of tool X" for the status line.
func requestLabel(r *contract.PendingRequest) string {
	what := "the " + r.Kind + " request " + r.ID
	if r.Tool != "" {
		what += " of " + r.Tool
	}
	return what
}

// requestPending handles EventRequestPending.
func (m *Model) requestPending(r *contract.PendingRequest) tea.Cmd {
	if !m.addRequest(r) {
		if m.request(r.ID) != nil {
			m.setStatus(fmt.Sprintf("%s (%s) awaits an answer: ! answers it", requestLabel(r), orDash(r.Source)), false)
		}
		return nil
	}
	return m.openRequests()
}

// requestGone handles EventRequestAnswered: the request left, and if the
// person was looking at it, the status line says why.
func (m *Model) requestGone(a *contract.RequestAnswered) tea.Cmd {
	r := m.request(a.ID)
	if r == nil {
		return nil
	}
	d, open := find[*requestDialog](&m.overlay)
	shown := open && d.current() == r
	m.dropRequest(a.ID)
	var focus tea.Cmd
	if open {
		focus = d.sync()
		if len(m.requests) == 0 {
			m.overlay.remove(d)
		}
	}
	if !shown {
		return focus
	}
	switch a.Outcome {
	case contract.OutcomeTimedOut:
		m.setStatus(fmt.Sprintf("%s timed out before it was answered; the upstream was told: %s", requestLabel(r), orDash(a.Error)), true)
	case contract.OutcomeWithdrawn:
		m.setStatus(fmt.Sprintf("%s was withdrawn (its call ended or the upstream stopped waiting)", requestLabel(r)), true)
	default:
		if a.By != contract.SourceTUI {
			m.setStatus(fmt.Sprintf("%s was %s by %s", requestLabel(r), a.Outcome, orDash(a.By)), false)
		}
	}
	return nil
}

// openRequests shows the request dialog (in front) if anything is queued.
func (m *Model) openRequests() tea.Cmd {
	if len(m.requests) == 0 {
		m.setStatus("no request awaits an answer", false)
		return nil
	}
	if d, ok := find[*requestDialog](&m.overlay); ok {
		d.sync()
		if m.overlay.front() != d {
			m.overlay.remove(d)
			m.overlay.push(d)
		}
		return d.focus()
	}
	d := newRequestDialog(m.shared)
	m.overlay.push(d)
	return d.focus()
}

// fetchRequests asks the engine for what is pending (`!`: requests from
// before this TUI attached, or missed while the event stream lagged).
func (s *shared) fetchRequests() tea.Cmd { return s.requestsCmd(false) }

func (s *shared) requestsCmd(quiet bool) tea.Cmd {
	api := s.api
	ctx, cancel := s.callCtx(quickCall)
	return func() tea.Msg {
		defer cancel()
		reqs, err := api.PendingRequests(ctx)
		return requestsMsg{reqs: reqs, err: err, quiet: quiet}
	}
}

func (m *Model) handleRequests(msg requestsMsg) tea.Cmd {
	if msg.err != nil {
		if !msg.quiet {
			m.setStatus("pending requests: "+errText(msg.err), true)
		}
		return nil
	}
	live := map[string]bool{}
	for i := range msg.reqs {
		r := msg.reqs[i]
		live[r.ID] = true
		m.addRequest(&r)
	}
	for _, r := range append([]*contract.PendingRequest(nil), m.requests...) {
		if !live[r.ID] {
			m.dropRequest(r.ID)
		}
	}
	if msg.quiet {
		if n := len(m.requests); n > 0 {
			m.setStatus(fmt.Sprintf("%d request(s) of the upstream await an answer: ! answers them", n), false)
		}
		return nil
	}
	return m.openRequests()
}

// answer sends an answer to the upstream's request.
func (s *shared) answer(id, what string, a contract.Answer) tea.Cmd {
	api := s.api
	a.ID, a.Source = id, contract.SourceTUI
	ctx, cancel := s.callCtx(quickCall)
	return func() tea.Msg {
		defer cancel()
		return answerMsg{id: id, what: what, err: api.AnswerRequest(ctx, a)}
	}
}

func (m *Model) handleAnswer(msg answerMsg) tea.Cmd {
	r := m.request(msg.id)
	label := "request " + msg.id
	if r != nil {
		label = requestLabel(r)
	}
	if msg.err != nil {
		e := contract.AsError(msg.err)
		if e == nil || (e.Code != contract.CodeNotFound && e.Code != contract.CodeConflict) {
			m.setStatus(label+": the answer was not sent: "+errText(msg.err), true)
			if d, ok := find[*requestDialog](&m.overlay); ok {
				d.sending = false
				d.refuse(msg.id, e)
			}
			return nil
		}
		m.setStatus(label+" is no longer pending: "+errText(msg.err), true)
	} else {
		m.setStatus(label+": "+msg.what, false)
	}
	m.dropRequest(msg.id)
	if d, ok := find[*requestDialog](&m.overlay); ok {
		focus := d.sync() // the next one, its input focused
		if len(m.requests) == 0 {
			m.overlay.remove(d)
		}
		return focus
	}
	return nil
}

// draft asks genui's LLM provider what it would answer a sampling request.
func (s *shared) draft(id string) tea.Cmd {
	api := s.api
	ctx, cancel := s.callCtx(generateCall)
	return func() tea.Msg {
		defer cancel()
		d, err := api.DraftSamplingAnswer(ctx, id)
		return draftMsg{id: id, draft: d, err: err}
	}
}

// remaining is how long until a request times out, for its dialog.
func (s *shared) remaining(r *contract.PendingRequest) string {
	if r.Deadline.IsZero() {
		return ""
	}
	d := r.Deadline.Sub(s.now()).Round(time.Second)
	if d <= 0 {
		return "its time is up"
	}
	return "times out in " + fmtDur(d)
}

// samplingMessages reads a sampling request's messages for display: each
// message's role and its content blocks (text as text, anything else as
// indented JSON), whole.
func samplingMessages(raw json.RawMessage) []string {
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &msgs) != nil {
		return prettyJSON(raw)
	}
	var out []string
	for i, m := range msgs {
		out = append(out, fmt.Sprintf("[%d] %s", i, clean(m.Role)))
		var blocks []json.RawMessage
		if json.Unmarshal(m.Content, &blocks) != nil {
			blocks = []json.RawMessage{m.Content}
		}
		for _, b := range blocks {
			var t struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				MIMEType string `json:"mimeType"`
				Data     string `json:"data"`
			}
			if json.Unmarshal(b, &t) == nil {
				switch t.Type {
				case "text":
					out = append(out, indent(cleanLines(t.Text), "  ")...)
					continue
				case "image", "audio": // the size, not the base64
					out = append(out, fmt.Sprintf("  %s %s, %s base64", t.Type, clean(t.MIMEType), size(len(t.Data))))
					continue
				}
			}
			out = append(out, indent(prettyJSON(b), "  ")...)
		}
	}
	return out
}

// engineChangedMsg tells the panes the engine is another one (attached, or
// a restarted genui): what they loaded from the old one is stale.
type engineChangedMsg struct{}

// engineChanged forgets the old engine's pending requests (its upstream
// is gone or no longer waits) and has the panes load again.
func (m *Model) engineChanged() tea.Cmd {
	m.requests = nil
	if d, ok := find[*requestDialog](&m.overlay); ok {
		m.overlay.remove(d)
	}
	return tea.Batch(func() tea.Msg { return engineChangedMsg{} }, m.requestsCmd(true))
}
