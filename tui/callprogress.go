package tui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// A call from the Call pane is followed like MCP Inspector follows one: it
// carries a call id the TUI makes (CallRequest.CallID), the upstream's
// notifications/progress arrive as EventCallProgress for that id and draw a
// progress bar with the message under the running call, a task-augmented
// call shows its task's status, and ctrl+x cancels it (CancelCall: the
// upstream gets notifications/cancelled or tasks/cancel, the call ends at
// once with a "cancelled" result).

// newCallID names a call in its events and in CancelCall. It is random so
// that two TUIs attached to one genui never share one.
func newCallID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "tui-" + hex.EncodeToString(b[:])
}

// callProgress is what the Call pane shows of a running call's progress.
type callProgress struct {
	progress float64
	total    *float64
	message  string
	steps    int // progress notifications seen
}

// cancelMsg is CancelCall's answer.
type cancelMsg struct {
	tool, callID string
	err          error
}

// runningCall is the call ctrl+x cancels: the selected tool's, else the
// only one running ("" when there is none or it is ambiguous, with why).
func (s *shared) runningCall() (tool string, why string) {
	sel := s.selected()
	if t := s.peek(sel); t != nil && t.result != nil && t.result.running {
		return sel, ""
	}
	var running []string
	for name, t := range s.tools {
		if t.result != nil && t.result.running {
			running = append(running, name)
		}
	}
	switch len(running) {
	case 0:
		return "", "no call is running"
	case 1:
		return running[0], ""
	}
	slices.Sort(running)
	return "", "several calls run (" + strings.Join(running, ", ") + "): select the tool whose call to cancel"
}

// cancelCall cancels tool's running call.
func (s *shared) cancelCall(tool string) tea.Cmd {
	t := s.peek(tool)
	if t == nil || t.result == nil || !t.result.running {
		s.setStatus("no call of "+tool+" is running", false)
		return nil
	}
	r := t.result
	if r.cancelling {
		return nil
	}
	r.cancelling = true
	s.setStatus("cancelling the call of "+tool+"…", false)
	api, id := s.api, r.callID
	ctx, cancel := s.callCtx(quickCall)
	return func() tea.Msg {
		defer cancel()
		return cancelMsg{tool: tool, callID: id, err: api.CancelCall(ctx, id)}
	}
}

func (m *Model) handleCancel(msg cancelMsg) tea.Cmd {
	t := m.peek(msg.tool)
	if t == nil || t.result == nil || t.result.callID != msg.callID {
		return nil
	}
	if msg.err != nil && t.result.running {
		t.result.cancelling = false
		if contract.AsError(msg.err) != nil && contract.AsError(msg.err).Code == contract.CodeNotFound {
			return nil // it ended on its own meanwhile: its result is on its way
		}
		m.setStatus("cancel the call of "+msg.tool+": "+errText(msg.err), true)
	}
	return nil
}

// isCancelled reports whether a call failed because it was cancelled.
func isCancelled(err error) bool {
	if e := contract.AsError(err); e != nil {
		return e.Code == contract.CodeCancelled
	}
	return errors.Is(err, context.Canceled)
}

// callEvent applies a call's streaming events to the Call pane's result:
// progress and task status. It reports whether the event was a call's.
func (s *shared) callEvent(ev contract.Event) bool {
	var id string
	switch d := ev.Detail.(type) {
	case *contract.CallProgress:
		id = d.CallID
	case *contract.TaskStatus:
		id = d.CallID
	default:
		return false
	}
	tool, ok := s.calls[id]
	if !ok {
		return false
	}
	t := s.peek(tool)
	if t == nil || t.result == nil || t.result.callID != id || !t.result.running {
		return true
	}
	r := t.result
	switch d := ev.Detail.(type) {
	case *contract.CallProgress:
		if r.progress == nil {
			r.progress = &callProgress{}
		}
		p := r.progress
		p.progress, p.total, p.steps = d.Progress, d.Total, p.steps+1
		if d.Message != "" {
			p.message = clean(d.Message)
		}
	case *contract.TaskStatus:
		task := d.Task
		r.task = &task
	}
	return true
}

// progressLines draws a running call: a bar with progress/total (or an
// indeterminate bar when the upstream gives no total), its message, and a
// task's status, in w cells.
func (s *shared) progressLines(r *callResult, tool string, w int) []string {
	st := s.styles
	head := s.spinner() + " calling " + tool
	if r.cancelling {
		head = s.spinner() + " cancelling the call of " + tool
	}
	out := wrapStyled(st.Accent, head+" "+r.args, w)
	if r.task != nil {
		line := "task " + clean(r.task.TaskID) + ": " + clean(r.task.Status)
		if r.task.StatusMessage != "" {
			line += " — " + clean(r.task.StatusMessage)
		}
		out = append(out, wrapStyled(st.Muted, line, w)...)
	}
	barW := max(min(w-24, 40), 10)
	p := r.progress
	var bar, count string
	switch {
	case p == nil:
		bar = s.indeterminate(barW)
		count = "no progress reported yet"
	case p.total != nil && *p.total > 0:
		frac := min(max(p.progress / *p.total, 0), 1)
		full := int(frac*float64(barW) + 0.5)
		bar = st.Accent.Render(strings.Repeat("█", full)) + st.Faint.Render(strings.Repeat("░", barW-full))
		count = fmt.Sprintf("%s/%s (%d%%)", num(p.progress), num(*p.total), int(frac*100+0.5))
	default:
		bar = s.indeterminate(barW)
		count = num(p.progress)
	}
	out = append(out, " "+bar+" "+count)
	if p != nil && p.message != "" {
		out = append(out, wrapStyled(st.Text, " "+p.message, w)...)
	}
	out = append(out, wrapStyled(st.Muted, " ctrl+x cancels the call", w)...)
	return out
}

// indeterminate is a bar without a total: a block that moves with the
// spinner (still in static screens).
func (s *shared) indeterminate(w int) string {
	st := s.styles
	block := max(w/5, 2)
	pos := 0
	if !s.opts.Static {
		pos = s.spin % (w - block + 1)
	}
	return st.Faint.Render(strings.Repeat("░", pos)) + st.Accent.Render(strings.Repeat("█", block)) +
		st.Faint.Render(strings.Repeat("░", w-block-pos))
}

// num prints a progress value: an integer without decimals.
func num(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprint(int64(f))
	}
	return fmt.Sprintf("%.2f", f)
}

// progressText is "progress/total" or "progress".
func progressText(p *callProgress) string {
	if p.total != nil {
		return num(p.progress) + "/" + num(*p.total)
	}
	return num(p.progress)
}

// prefixed is p+s, or "" when s is.
func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}
