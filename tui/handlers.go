package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/genui-dev/genui/engine/contract"
)

// The handlers of Update: each returns the commands its message needs and
// changes nothing outside the model.

func (m *Model) handleResize(msg tea.WindowSizeMsg) tea.Cmd {
	m.width, m.height = max(msg.Width, 20), max(msg.Height, 8)
	m.help.SetWidth(m.width)
	return nil
}

func (m *Model) handleBackground(msg tea.BackgroundColorMsg) tea.Cmd {
	if m.darkKnown && m.styles.Dark == msg.IsDark() {
		return nil
	}
	m.darkKnown = true
	if m.styles.Dark == msg.IsDark() {
		return nil
	}
	m.styles = NewStyles(msg.IsDark(), m.opts.NoColor)
	m.applyStyles()
	for _, d := range m.docs {
		d.style = "" // highlight again with the new palette
	}
	return m.highlight()
}

// applyStyles hands the styles to the bubbles components.
func (m *Model) applyStyles() {
	st := m.styles
	m.help.Styles.ShortKey, m.help.Styles.ShortDesc, m.help.Styles.ShortSeparator = st.HelpKey, st.HelpDesc, st.HelpSep
	m.help.Styles.FullKey, m.help.Styles.FullDesc, m.help.Styles.FullSeparator = st.HelpKey, st.HelpDesc, st.HelpSep
	m.help.Styles.Ellipsis = st.HelpSep
	m.list.filter.SetStyles(inputStyles(st))
	for _, f := range m.forms {
		f.setStyles(st)
	}
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.confirm != nil:
		return m.confirmKey(msg)
	case m.refine != nil:
		return m.refineKey(msg)
	case m.list.filtering:
		return m.filterKey(msg)
	case m.formActive && m.tab == tabCall:
		return m.formKey(msg)
	case m.showHelp:
		if key.Matches(msg, m.keys.Quit) {
			return m.quit()
		}
		m.showHelp = false
		return nil
	}
	return m.browseKey(msg)
}

func (m *Model) quit() tea.Cmd {
	m.quitting = true
	if m.subCancel != nil {
		m.subCancel()
	}
	return tea.Quit
}

// browseKey handles the normal mode.
func (m *Model) browseKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	tool := m.selected()
	for i, b := range k.Tabs {
		if key.Matches(msg, b) {
			return m.setTab(i)
		}
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.Filter):
		m.list.filtering = true
		m.list.filter.SetValue(m.list.query)
		m.list.filter.CursorEnd()
		m.focus = focusList
		return m.list.filter.Focus()
	case key.Matches(msg, k.NextTab):
		return m.setTab((m.tab + 1) % numTabs)
	case key.Matches(msg, k.PrevTab):
		return m.setTab((m.tab + numTabs - 1) % numTabs)
	case key.Matches(msg, k.FocusList):
		m.focus = focusList
	case key.Matches(msg, k.FocusPane):
		m.focus = focusPane
	case key.Matches(msg, k.Up):
		return m.moveBy(-1)
	case key.Matches(msg, k.Down):
		return m.moveBy(1)
	case key.Matches(msg, k.PageUp):
		return m.pageBy(-1)
	case key.Matches(msg, k.PageDown):
		return m.pageBy(1)
	case key.Matches(msg, k.Top):
		return m.moveBy(-1 << 30)
	case key.Matches(msg, k.Bottom):
		return m.moveBy(1 << 30)
	case key.Matches(msg, k.Enter):
		return m.enter()
	case key.Matches(msg, k.Back):
		m.back()
	case key.Matches(msg, k.Generate):
		if tool == "" {
			return m.noTool()
		}
		m.busy[tool] = "generating"
		m.tab = tabUI
		return tea.Batch(m.fetchUI(tool, true), m.spinTick())
	case key.Matches(msg, k.Refine):
		if tool == "" {
			return m.noTool()
		}
		return m.openRefine(tool)
	case key.Matches(msg, k.Regenerate):
		if tool == "" {
			return m.noTool()
		}
		m.busy[tool] = "regenerating"
		return tea.Batch(m.doRegenerate(tool, false), m.spinTick())
	case key.Matches(msg, k.RegenerateClear):
		if tool == "" {
			return m.noTool()
		}
		n := 0
		if t, ok := m.list.selectedTool(); ok {
			n = t.Refinements
		}
		m.confirm = &confirmBox{tool: tool, prompt: fmt.Sprintf("Regenerate %s and clear its %d refinement(s)? y/n", tool, n)}
	case key.Matches(msg, k.Preview):
		if tool == "" {
			return m.noTool()
		}
		m.busyAll++
		return tea.Batch(m.doPreview(tool, false), m.spinTick())
	case key.Matches(msg, k.CopyURL):
		if tool == "" {
			return m.noTool()
		}
		m.busyAll++
		return m.doPreview(tool, true)
	case key.Matches(msg, k.Call):
		if tool == "" {
			return m.noTool()
		}
		cmd := m.setTab(tabCall)
		if f := m.formFor(tool); f != nil {
			m.formActive = true
			m.focus = focusPane
			return tea.Batch(cmd, f.focus())
		}
		return cmd
	case key.Matches(msg, k.RefreshTools):
		m.busyAll++
		m.setStatus("refreshing the upstream's tools…", false)
		return tea.Batch(m.doRefresh(), m.spinTick())
	case key.Matches(msg, k.Export):
		if tool == "" {
			return m.noTool()
		}
		m.busy[tool] = "exporting"
		return tea.Batch(m.doExport(tool), m.spinTick())
	case key.Matches(msg, k.ToggleDiff):
		if tool == "" {
			return m.noTool()
		}
		if m.changes[tool] == nil {
			m.setStatus("no refine or regenerate of "+tool+" yet: nothing to diff", false)
			return nil
		}
		m.showDiff[tool] = !m.showDiff[tool]
		m.panes[tabUI] = scroller{}
		return m.setTab(tabUI)
	case key.Matches(msg, k.Attach):
		return m.attach()
	}
	return nil
}

func (m *Model) noTool() tea.Cmd {
	m.setStatus("no tool selected", true)
	return nil
}

// setTab shows pane i and fetches what it needs.
func (m *Model) setTab(i int) tea.Cmd {
	m.tab = i
	if i != tabCall {
		m.formActive = false
	}
	tool := m.selected()
	switch i {
	case tabVars:
		return m.fetchVars()
	case tabUI:
		return m.ensureUI(tool)
	case tabCall:
		m.formFor(tool)
	case tabDetail:
		if _, ok := m.inspect[tool]; !ok {
			return m.fetchInspect(tool)
		}
	}
	return nil
}

// ensureUI fetches a tool's UI for the UI tab when one is cached (it never
// generates one by itself: that is g).
func (m *Model) ensureUI(tool string) tea.Cmd {
	if tool == "" || m.docs[tool] != nil || m.busy[tool] != "" {
		return nil
	}
	t, ok := m.list.selectedTool()
	if !ok || t.Name != tool {
		return nil
	}
	switch t.UI.State {
	case contract.UIStateCached, contract.UIStateFallback, contract.UIStateOwn:
		m.busy[tool] = "loading"
		return tea.Batch(m.fetchUI(tool, false), m.spinTick())
	}
	return nil
}

// selectionChanged fetches what the new tool's panes show.
func (m *Model) selectionChanged(prev string) tea.Cmd {
	tool := m.selected()
	if tool == prev {
		return nil
	}
	m.panes[tabDetail], m.panes[tabUI] = scroller{}, scroller{}
	var cmds []tea.Cmd
	if _, ok := m.inspect[tool]; !ok {
		cmds = append(cmds, m.fetchInspect(tool))
	}
	if m.tab == tabUI {
		cmds = append(cmds, m.ensureUI(tool))
	}
	if m.tab == tabCall {
		m.formFor(tool)
		m.formActive = false
	}
	return tea.Batch(cmds...)
}

// moveBy moves the focused list (tools, or the pane's rows) by d.
func (m *Model) moveBy(d int) tea.Cmd {
	if m.focus == focusList {
		prev := m.selected()
		m.list.move(d)
		return m.selectionChanged(prev)
	}
	m.scrollPane(m.tab, d)
	return nil
}

func (m *Model) pageBy(d int) tea.Cmd {
	page := max(m.bodyHeight()-4, 1)
	if m.focus == focusList {
		return m.moveBy(d * page)
	}
	m.scrollPane(m.tab, d*page)
	return nil
}

// scrollPane moves pane tab's cursor (panes with rows) or first line.
func (m *Model) scrollPane(tab, d int) {
	p := &m.panes[tab]
	n := m.paneRows(tab)
	switch tab {
	case tabEvents, tabTraffic, tabLog, tabVars:
		if p.follow {
			p.cursor = n - 1
		}
		p.cursor = clamp(p.cursor+d, 0, n-1)
		p.follow = (tab == tabEvents || tab == tabTraffic || tab == tabLog) && p.cursor >= n-1
	default:
		p.offset = clamp(p.offset+d, 0, max(0, n-1))
	}
}

// enter opens or expands what is selected.
func (m *Model) enter() tea.Cmd {
	if m.focus == focusList {
		m.focus = focusPane
		return nil
	}
	switch m.tab {
	case tabEvents:
		m.evOpen = !m.evOpen
	case tabTraffic:
		m.trOpen = !m.trOpen
	case tabVars:
		m.vars.toggle(m.panes[tabVars].cursor)
	case tabCall:
		if f := m.formFor(m.selected()); f != nil {
			m.formActive = true
			return f.focus()
		}
	}
	return nil
}

// back closes what is open, then returns to the tool list.
func (m *Model) back() {
	switch {
	case m.tab == tabEvents && m.evOpen:
		m.evOpen = false
	case m.tab == tabTraffic && m.trOpen:
		m.trOpen = false
	case m.focus == focusPane:
		m.focus = focusList
	case m.list.query != "":
		m.list.setQuery("")
	default:
		m.status = ""
	}
}

// openRefine opens the feedback box with the tool's earlier feedback.
func (m *Model) openRefine(tool string) tea.Cmd {
	rb := &refineBox{tool: tool, area: newRefineArea(m.styles)}
	if in, ok := m.inspect[tool]; ok {
		for _, r := range in.History {
			rb.history = append(rb.history, r.Feedback)
		}
	}
	rb.pos = len(rb.history)
	m.refine = rb
	return rb.area.Focus()
}

func (m *Model) refineKey(msg tea.KeyPressMsg) tea.Cmd {
	rb, k := m.refine, m.keys
	switch {
	case key.Matches(msg, k.Send):
		fb := strings.TrimSpace(rb.area.Value())
		if fb == "" {
			m.setStatus("feedback is empty: type what to change, or esc", true)
			return nil
		}
		m.refine = nil
		m.busy[rb.tool] = "refining"
		m.setStatus("refining "+rb.tool+": "+fb, false)
		return tea.Batch(m.doRefine(rb.tool, fb), m.spinTick())
	case key.Matches(msg, k.Cancel):
		m.refine = nil
		return nil
	case key.Matches(msg, k.HistoryPrev):
		if rb.pos > 0 {
			if rb.pos == len(rb.history) {
				rb.draft = rb.area.Value()
			}
			rb.pos--
			rb.area.SetValue(rb.history[rb.pos])
		}
		return nil
	case key.Matches(msg, k.HistoryNext):
		if rb.pos < len(rb.history) {
			rb.pos++
			if rb.pos == len(rb.history) {
				rb.area.SetValue(rb.draft)
			} else {
				rb.area.SetValue(rb.history[rb.pos])
			}
		}
		return nil
	}
	var cmd tea.Cmd
	rb.area, cmd = rb.area.Update(msg)
	return cmd
}

func (m *Model) confirmKey(msg tea.KeyPressMsg) tea.Cmd {
	c := m.confirm
	switch {
	case key.Matches(msg, m.keys.Yes):
		m.confirm = nil
		m.busy[c.tool] = "regenerating"
		return tea.Batch(m.doRegenerate(c.tool, true), m.spinTick())
	case key.Matches(msg, m.keys.No):
		m.confirm = nil
		m.setStatus("cancelled", false)
	}
	return nil
}

func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	l := &m.list
	switch {
	case msg.String() == "enter":
		l.filtering = false
		l.filter.Blur()
		return nil
	case key.Matches(msg, m.keys.Back):
		l.filtering = false
		l.filter.Blur()
		prev := m.selected()
		l.filter.SetValue("")
		l.setQuery("")
		return m.selectionChanged(prev)
	case msg.String() == "up" || msg.String() == "down":
		prev := m.selected()
		if msg.String() == "up" {
			l.move(-1)
		} else {
			l.move(1)
		}
		return m.selectionChanged(prev)
	}
	prev := m.selected()
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	l.setQuery(l.filter.Value())
	return tea.Batch(cmd, m.selectionChanged(prev))
}

func (m *Model) formKey(msg tea.KeyPressMsg) tea.Cmd {
	tool := m.selected()
	f := m.formFor(tool)
	if f == nil {
		m.formActive = false
		return nil
	}
	k := m.keys
	switch {
	case msg.String() == "enter":
		args, err := f.arguments()
		if err != nil {
			m.setStatus(err.Error(), true)
			return nil
		}
		m.busy[tool] = "calling"
		m.results[tool] = &callResult{args: string(args), running: true}
		m.panes[tabCall] = scroller{}
		return tea.Batch(m.doCall(tool, args), m.spinTick())
	case key.Matches(msg, k.Cancel):
		m.formActive = false
		f.blur()
		return nil
	case key.Matches(msg, k.NextField):
		return f.move(1)
	case key.Matches(msg, k.PrevField):
		return f.move(-1)
	case key.Matches(msg, k.Toggle) && f.choosing():
		f.toggle(msg.String() == "left")
		return nil
	}
	return f.update(msg)
}

func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case m.refine != nil:
		var cmd tea.Cmd
		m.refine.area, cmd = m.refine.area.Update(msg)
		return cmd
	case m.list.filtering:
		var cmd tea.Cmd
		m.list.filter, cmd = m.list.filter.Update(msg)
		m.list.setQuery(m.list.filter.Value())
		return cmd
	case m.formActive && m.tab == tabCall:
		if f := m.formFor(m.selected()); f != nil {
			return f.update(msg)
		}
	}
	return nil
}

// Mouse: the wheel scrolls what is under the pointer; a click selects a
// tool, a tab, or a row of the pane.

func (m *Model) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	ms := msg.Mouse()
	d := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		d = -3
	case tea.MouseWheelDown:
		d = 3
	default:
		return nil
	}
	l := m.layout()
	if ms.X < l.listW {
		prev := m.selected()
		m.list.offset = clamp(m.list.offset+d, 0, max(0, len(m.list.visible)-m.list.rows(l.bodyH-2)))
		m.list.cursor = clamp(m.list.cursor, m.list.offset, m.list.offset+m.list.rows(l.bodyH-2)-1)
		m.list.cursor = clamp(m.list.cursor, 0, len(m.list.visible)-1)
		return m.selectionChanged(prev)
	}
	m.scrollPane(m.tab, d)
	return nil
}

func (m *Model) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	ms := msg.Mouse()
	if ms.Button != tea.MouseLeft {
		return nil
	}
	l := m.layout()
	y := ms.Y - l.bodyY
	switch {
	case y < 0 || y >= l.bodyH:
		return nil
	case ms.X < l.listW:
		m.focus = focusList
		row := y - 1 // the border
		if m.list.filtering || m.list.query != "" {
			row--
		}
		if row < 0 {
			return nil
		}
		i := m.list.offset + row
		if i >= len(m.list.visible) {
			return nil
		}
		prev := m.selected()
		m.list.cursor = i
		return m.selectionChanged(prev)
	case y == 0: // the tab bar
		x := ms.X - l.listW
		for i, r := range l.tabX {
			if x >= r[0] && x < r[1] {
				return m.setTab(i)
			}
		}
		return nil
	default:
		m.focus = focusPane
		row := y - 2 // tab bar and border
		p := &m.panes[m.tab]
		switch m.tab {
		case tabEvents, tabTraffic, tabLog, tabVars:
			if row >= 0 {
				n := m.paneRows(m.tab)
				p.cursor = clamp(p.offset+row, 0, n-1)
				p.follow = false
			}
		}
	}
	return nil
}

// Engine events.

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
			m.traffic.Push(newTrafficRow(ev, d))
			continue
		case *contract.LogRecord:
			m.logs.Push(newLogRow(ev, d))
			continue
		case *contract.GenerationProgress:
			continue
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
			if doc := m.docs[ev.Tool]; doc != nil && doc.view.CacheKey != d.CacheKey && m.busy[ev.Tool] == "" {
				delete(m.docs, ev.Tool)
			}
			inspectAgain[ev.Tool] = true
		case *contract.ToolsChanged:
			cmds = append(cmds, m.fetchTools())
		}
		refetch = true
		m.events.Push(engineRow(ev))
		if ev.Kind == contract.EventGenerationFinished || ev.Kind == contract.EventGenerationFailed {
			inspectAgain[ev.Tool] = true
		}
	}
	if refetch {
		cmds = append(cmds, m.fetchState())
	}
	for t := range inspectAgain {
		if t != "" {
			if _, ok := m.inspect[t]; ok || t == m.selected() {
				cmds = append(cmds, m.fetchInspect(t))
			}
		}
	}
	if sel := m.selected(); inspectAgain[sel] && m.tab == tabUI {
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
func (m *Model) addQueued(q contract.QueuedEvent) {
	if q.Seq != 0 {
		if _, dup := m.seenQueue[q.Seq]; dup {
			return
		}
		m.seenQueue[q.Seq] = 1
		if len(m.seenQueue) > 4*maxEvents {
			m.seenQueue = map[int64]int{q.Seq: 1}
		}
	}
	row := queuedRow(q)
	row.taken = q.Seq != 0 && q.Seq <= m.lastTaken
	m.events.Push(row)
}

// markTaken marks queued rows up to seq as delivered to an agent.
func (m *Model) markTaken(seq int64) {
	if seq <= m.lastTaken {
		return
	}
	m.lastTaken = seq
	for i := m.events.Len() - 1; i >= 0; i-- {
		r := m.events.Ptr(i)
		if r.kind != "queued" || r.qseq > seq {
			continue
		}
		if r.taken {
			break
		}
		r.taken = true
	}
}

// streamEnded handles the end of the event stream: attached, the server is
// gone (banner, reconnect with backoff); in-process, the engine stopped.
func (m *Model) streamEnded(why string) tea.Cmd {
	m.currentCh = nil
	if m.quitting || m.attaching {
		return nil // we end it: quitting, or leaving the in-process engine
	}
	if m.mode == Attached {
		if !m.lost {
			m.lost, m.retry = true, 0
			m.lostErr = why
		}
		return m.scheduleReconnect()
	}
	m.setStatus("the engine stopped: "+why, true)
	return nil
}

// backoff is the wait before reconnect attempt n: 250 ms doubling to 5 s.
func backoff(n int) time.Duration {
	d := 250 * time.Millisecond
	for i := 0; i < n && d < 5*time.Second; i++ {
		d *= 2
	}
	return min(d, 5*time.Second)
}

func (m *Model) scheduleReconnect() tea.Cmd {
	d := backoff(m.retry)
	m.retryAt = m.now().Add(d)
	gen := m.subGen
	return m.tick(d, func(time.Time) tea.Msg { return reconnectMsg{gen: gen} })
}

func (m *Model) handleReconnect(msg reconnectMsg) tea.Cmd {
	if msg.gen != m.subGen || !m.lost || m.quitting {
		return nil
	}
	m.retry++
	return m.resubscribe()
}

func (m *Model) handleSubscribed(msg subscribedMsg) tea.Cmd {
	if msg.gen != m.subGen {
		return nil
	}
	if msg.err != nil {
		if m.mode == Attached {
			if !m.lost {
				m.lost, m.retry = true, 0
			}
			m.lostErr = errText(msg.err)
			return m.scheduleReconnect()
		}
		m.setStatus("subscribing to engine events: "+errText(msg.err), true)
		return nil
	}
	m.currentCh = msg.ch
	cmds := []tea.Cmd{readEvents(msg.gen, msg.ch)}
	if msg.api != nil && msg.api != m.api {
		m.api, m.base = msg.api, msg.base
	}
	if m.lost {
		m.lost, m.retry, m.lostErr = false, 0, ""
		m.setStatus("reconnected to "+m.base, false)
		m.docs = map[string]*uiDoc{}
		m.inspect = map[string]contract.Inspection{}
		// It may be another process (a restarted genui numbers its queue
		// from 1 again): take its pending events as new.
		m.seenQueue, m.lastTaken = map[int64]int{}, 0
		m.events.Push(eventRow{time: m.now(), kind: "reconnected", text: "the events below come from the genui at " + m.base})
		cmds = append(cmds, m.fetchState(), m.fetchTools(), m.fetchPending(), m.fetchInspect(m.selected()))
	}
	return tea.Batch(cmds...)
}

// Results of engine calls.

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
	// A tool whose schema changed gets a fresh form.
	for name, f := range m.forms {
		if t, ok := infos[name]; !ok || string(t.InputSchema) != f.schema {
			delete(m.forms, name)
		}
	}
	m.infos = infos
	return nil
}

func (m *Model) handleInspect(msg inspectMsg) tea.Cmd {
	if msg.err != nil {
		if !m.lost && msg.tool == m.selected() {
			m.setStatus("inspect "+msg.tool+": "+errText(msg.err), true)
		}
		return nil
	}
	m.inspect[msg.tool] = msg.in
	return nil
}

func (m *Model) handleUI(msg uiMsg) tea.Cmd {
	delete(m.busy, msg.tool)
	if msg.err != nil {
		m.setStatus("UI of "+msg.tool+": "+errText(msg.err), true)
		return nil
	}
	m.docs[msg.tool] = msg.doc
	hl := m.highlight(msg.tool)
	if msg.explicit {
		v := msg.doc.view
		from := "generated"
		if v.FromCache {
			from = "from the cache"
		}
		m.setStatus(fmt.Sprintf("UI of %s: %s, %s (%d bytes)", msg.tool, orDash(v.Meta.UIType), from, len(v.HTML)), false)
		m.showDiff[msg.tool] = false
	}
	return tea.Batch(m.fetchState(), m.fetchInspect(msg.tool), hl)
}

func (m *Model) handleChange(msg changeMsg) tea.Cmd {
	delete(m.busy, msg.tool)
	if msg.err != nil {
		m.setStatus(msg.tool+": "+errText(msg.err), true)
		return nil
	}
	ch := msg.cv.ch
	m.changes[msg.tool] = msg.cv
	m.showDiff[msg.tool] = true
	m.docs[msg.tool] = msg.doc
	m.panes[tabUI] = scroller{}
	if msg.tool == m.selected() {
		m.tab = tabUI
	}
	what := "regenerated"
	if ch.Reason == "refine" {
		what = fmt.Sprintf("refined (%d refinement(s))", ch.Refinements)
	} else if ch.RefinementsCleared {
		what = "regenerated, refinements cleared"
	}
	lines := fmt.Sprintf("+%d −%d lines", msg.cv.added, msg.cv.gone)
	if ch.OldHTML == "" {
		lines = "its first UI"
	}
	m.setStatus(fmt.Sprintf("%s %s: %s in %s", msg.tool, what, lines, fmtDur(ch.Duration)), false)
	return tea.Batch(m.fetchState(), m.fetchInspect(msg.tool), m.highlight(msg.tool))
}

func (m *Model) handleCall(msg callMsg) tea.Cmd {
	delete(m.busy, msg.tool)
	r := m.results[msg.tool]
	if r == nil {
		r = &callResult{}
		m.results[msg.tool] = r
	}
	r.running = false
	if msg.err != nil {
		r.err = errText(msg.err)
		r.lines = nil
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
	if msg.copy {
		m.setStatus("copied "+msg.url, false)
		return m.opts.Copy(msg.url)
	}
	m.setStatus("opened "+msg.url, false)
	return nil
}

func (m *Model) handleExport(msg exportMsg) tea.Cmd {
	delete(m.busy, msg.tool)
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

func (m *Model) handlePoll(pollMsg) tea.Cmd {
	cmds := []tea.Cmd{m.pollTick()}
	if m.lost || m.quitting || m.attaching {
		return tea.Batch(cmds...)
	}
	cmds = append(cmds, m.fetchState())
	if m.tab == tabVars {
		cmds = append(cmds, m.fetchVars())
	}
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
		if cur := m.docs[k]; cur != nil && cur.view.HTML == d.view.HTML {
			m.docs[k] = d
		}
	}
	return nil
}
