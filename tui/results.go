package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// The results of engine calls (commands.go): each handler puts what came
// back into the shared data and says so in the status line.

func (m *Model) handleState(msg stateMsg) tea.Cmd {
	m.statePend = false
	var cmds []tea.Cmd
	if m.stateAgain {
		m.stateAgain = false
		cmds = append(cmds, m.fetchState())
	}
	if msg.gen != m.subGen && m.haveState {
		return tea.Batch(cmds...)
	}
	if msg.err != nil {
		if !m.lost && m.mode == InProcess {
			m.setStatus("state: "+errText(msg.err), true)
		}
		return tea.Batch(cmds...)
	}
	prev := m.selected()
	m.state, m.haveState = msg.st, true
	m.list.setTools(msg.st.Tools)
	cmds = append(cmds, m.selectionChanged(prev))
	if m.isBusy() {
		cmds = append(cmds, m.spinTick())
	}
	return tea.Batch(cmds...)
}

func (m *Model) handleTools(msg toolsMsg) tea.Cmd {
	if msg.err != nil {
		if !m.lost {
			m.setStatus("tools: "+errText(msg.err), true)
		}
		return nil
	}
	infos := make(map[string]contract.ToolInfo, len(msg.tools))
	for _, t := range msg.tools {
		infos[t.Name] = t
	}
	for name, t := range m.tools {
		info, ok := infos[name]
		// A tool whose schema changed gets a fresh form.
		if t.form != nil && (!ok || string(info.InputSchema) != t.form.schema) {
			t.form = nil
		}
		t.info, t.hasInfo = info, ok
	}
	for name, info := range infos {
		t := m.tool(name)
		t.info, t.hasInfo = info, true
	}
	return nil
}

func (m *Model) handleInspect(msg inspectMsg) tea.Cmd {
	if msg.err != nil {
		if !m.lost && msg.tool == m.selected() {
			m.setStatus("inspect "+msg.tool+": "+errText(msg.err), true)
		}
		return nil
	}
	t := m.tool(msg.tool)
	t.inspect, t.hasInspect = msg.in, true
	return nil
}

func (m *Model) handleUI(msg uiMsg) tea.Cmd {
	t := m.tool(msg.tool)
	t.busy = ""
	if msg.err != nil {
		m.setStatus("UI of "+msg.tool+": "+errText(msg.err), true)
		return nil
	}
	t.doc = msg.doc
	hl := m.highlight(msg.tool)
	if msg.explicit {
		v := msg.doc.view
		from := "generated"
		if v.FromCache {
			from = "from the cache"
		}
		m.setStatus(fmt.Sprintf("UI of %s: %s, %s (%d bytes)", msg.tool, orDash(v.Meta.UIType), from, len(v.HTML)), false)
		t.showDiff = false
	}
	return tea.Batch(m.fetchState(), m.fetchInspect(msg.tool), hl)
}

// handleChangeUpgraded shows what a refine changed once its LLM page is in:
// the page served before the refine against the new one (not the interim
// offline UI), unless another change came since.
func (m *Model) handleChangeUpgraded(msg changeUpgradedMsg) tea.Cmd {
	t := m.tool(msg.tool)
	if t.change != msg.of {
		return nil
	}
	if msg.err != nil {
		m.setStatus("UI of "+msg.tool+": "+errText(msg.err), true)
		return nil
	}
	t.change, t.doc = msg.cv, msg.doc
	c, _ := m.pane(paneUI).Update(uiResetMsg{})
	m.setStatus(fmt.Sprintf("%s: the %s page is in: +%d −%d lines against the page served before", msg.tool,
		orDash(msg.cv.ch.Meta.UIType), msg.cv.added, msg.cv.gone), false)
	return c
}

func (m *Model) handleChange(msg changeMsg) tea.Cmd {
	t := m.tool(msg.tool)
	t.busy = ""
	var ce *contract.Error
	if errors.As(msg.err, &ce) && ce.Code == contract.CodeNotUnderstood && msg.feedback != "" {
		// Nothing was recorded: the developer decides.
		tool, fb := msg.tool, msg.feedback
		m.setStatus(tool+": the offline generator did not understand “"+fb+"”; nothing recorded", false)
		m.overlay.push(newConfirmDialog(m.shared, fmt.Sprintf("%s: %s. Record “%s” anyway (it changes the cache key; an LLM may read it later)? y/n",
			tool, strings.TrimSuffix(ce.Message, " (nothing recorded: send it again to record it anyway)"), fb), func() tea.Cmd {
			m.setBusy(tool, "refining")
			return tea.Batch(m.doRefine(tool, fb, false), m.spinTick())
		}))
		return nil
	}
	if msg.err != nil {
		m.setStatus(msg.tool+": "+errText(msg.err), true)
		return nil
	}
	ch := msg.cv.ch
	t.change, t.showDiff, t.doc = msg.cv, true, msg.doc
	c, _ := m.pane(paneUI).Update(uiResetMsg{})
	cmds := []tea.Cmd{c}
	if msg.tool == m.selected() {
		cmds = append(cmds, m.show(paneUI))
	}
	what := "regenerated"
	switch {
	case ch.Reason == "refine":
		what = fmt.Sprintf("refined (%d refinement(s))", ch.Refinements)
	case ch.Reason == "drop":
		what = fmt.Sprintf("dropped “%s” (%d refinement(s) left)", ch.Feedback, ch.Refinements)
	case ch.RefinementsCleared:
		what = "regenerated, refinements cleared"
	}
	lines := fmt.Sprintf("+%d −%d lines", msg.cv.added, msg.cv.gone)
	if ch.OldHTML == "" {
		lines = "its first UI"
	}
	m.setStatus(fmt.Sprintf("%s %s: %s in %s", msg.tool, what, lines, fmtDur(ch.Duration)), false)
	return tea.Batch(append(cmds, m.fetchState(), m.fetchInspect(msg.tool), m.highlight(msg.tool))...)
}

func (m *Model) handleCall(msg callMsg) tea.Cmd {
	t := m.tool(msg.tool)
	r := t.result
	if r == nil {
		r = &callResult{}
		t.result = r
	}
	delete(m.calls, msg.callID)
	if msg.callID != "" && r.callID != "" && r.callID != msg.callID {
		return nil // an older call's answer
	}
	t.busy = ""
	r.running, r.cancelling = false, false
	if msg.err != nil {
		r.err = errText(msg.err)
		r.lines = nil
		if isCancelled(msg.err) {
			r.cancelled = true
			m.setStatus("the call of "+msg.tool+" was cancelled (the upstream was told)", false)
			return nil
		}
		m.setStatus("call "+msg.tool+": "+r.err, true)
		return nil
	}
	r.res, r.lines, r.err = msg.res, msg.lines, ""
	if msg.res.IsError {
		m.setStatus(fmt.Sprintf("%s returned an error result (isError) in %s", msg.tool, fmtDur(msg.res.Duration)), true)
	} else {
		m.setStatus(fmt.Sprintf("called %s in %s", msg.tool, fmtDur(msg.res.Duration)), false)
	}
	return nil
}

func (m *Model) handleRefresh(msg refreshMsg) tea.Cmd {
	m.busyAll = max(m.busyAll-1, 0)
	if msg.err != nil {
		m.setStatus("refresh tools: "+errText(msg.err), true)
		return nil
	}
	d := msg.diff
	if d.Empty() {
		m.setStatus(fmt.Sprintf("tools refreshed: no change (%d tools)", len(d.Unchanged)), false)
	} else {
		m.setStatus(fmt.Sprintf("tools refreshed: %d added, %d removed, %d changed", len(d.Added), len(d.Removed), len(d.Changed)), false)
	}
	return tea.Batch(m.fetchTools(), m.fetchState())
}

func (m *Model) handlePreview(msg previewMsg) tea.Cmd {
	m.busyAll = max(m.busyAll-1, 0)
	if msg.err != nil {
		m.setStatus("preview of "+msg.tool+": "+errText(msg.err), true)
		return nil
	}
	switch {
	case msg.copy:
		m.setStatus("copied "+msg.url, false)
		return m.opts.Copy(msg.url)
	case msg.openErr != nil:
		// No browser here (a server, a container, ssh): the URL is what the
		// developer needs, on screen and on the clipboard.
		m.logs.Push(logRow{time: m.now(), level: "WARN", component: "tui", msg: "no browser opened: " + clean(errText(msg.openErr))})
		m.setStatus("no browser opened ("+errText(msg.openErr)+"); copied the URL: "+msg.url, false)
		return m.opts.Copy(msg.url)
	}
	m.setStatus("opened "+msg.url, false)
	return nil
}

func (m *Model) handleExport(msg exportMsg) tea.Cmd {
	m.tool(msg.tool).busy = ""
	if msg.err != nil {
		m.setStatus("export "+msg.tool+": "+errText(msg.err), true)
		return nil
	}
	m.setStatus(fmt.Sprintf("exported %s to %s (%d bytes)", msg.tool, msg.path, msg.size), false)
	return nil
}

func (m *Model) handlePending(msg pendingMsg) tea.Cmd {
	if msg.err != nil {
		if !m.lost {
			m.setStatus("reading the /wait queue: "+errText(msg.err), true)
		}
		return nil
	}
	for _, q := range msg.evs {
		m.addQueued(q)
	}
	return nil
}

func (m *Model) handleVars(msg varsMsg) tea.Cmd {
	if msg.err != nil {
		if !m.lost {
			m.setStatus("variables: "+errText(msg.err), true)
		}
		return nil
	}
	m.vars.set(msg.v)
	return nil
}

func (m *Model) handlePoll(msg pollMsg) tea.Cmd {
	cmds := []tea.Cmd{m.pollTick()}
	if m.lost || m.quitting || m.attaching {
		return tea.Batch(cmds...)
	}
	cmds = append(cmds, m.fetchState(), m.toComponents(msg))
	if m.mode == InProcess && m.opts.Dir != "" && m.opts.Dial != nil && !m.attaching {
		cmds = append(cmds, m.discover())
	}
	return tea.Batch(cmds...)
}

func (m *Model) handleSpin(spinMsg) tea.Cmd {
	m.spinning = false
	m.spin++
	if m.isBusy() {
		return m.spinTick()
	}
	return nil
}

func (m *Model) handleRehighlight(msg rehighlightMsg) tea.Cmd {
	for k, d := range msg.docs {
		if t := m.peek(k); t != nil && t.doc != nil && t.doc.view.HTML == d.view.HTML {
			t.doc = d
		}
	}
	return nil
}
