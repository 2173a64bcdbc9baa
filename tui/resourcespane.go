package tui

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

var resourcesPaneSpec = paneSpec{id: paneResources, name: "Resources", short: "Res",
	about: "the upstream's resources and resource templates (read, fill in, subscribe) and the roots genui answers roots/list with",
	new:   newResourcesPane}

// resourcesPane lists the upstream's resources and resource templates, and
// the roots genui gives the upstream. enter reads a resource (the resource
// viewer: text, JSON, a blob's size with s to save it) or fills in a
// template's arguments and reads what it names; s subscribes to a resource
// (resources/subscribe) and the row shows when the upstream says it
// changed; i shows a row whole; L loads the lists again (they also reload
// when the upstream says they changed).
type resourcesPane struct {
	s         *shared
	list      itemList
	loaded    bool
	loading   bool
	err       string
	resources []contract.Resource
	templates []contract.ResourceTemplate
	roots     []contract.Root
	rootsErr  string
	// subscribed and updated are per URI: subscribed here, and the
	// resource-updated events seen (how many, the last one's time).
	subscribed map[string]bool
	updated    map[string]resourceUpdate
}

type resourceUpdate struct {
	count int
	last  time.Time
}

type (
	// resourcesMsg is the lists (Resources, ResourceTemplates, Roots).
	resourcesMsg struct {
		resources []contract.Resource
		templates []contract.ResourceTemplate
		roots     []contract.Root
		err       error
		rootsErr  error
	}
	// rootsSetMsg is SetRoots' answer.
	rootsSetMsg struct {
		roots []contract.Root
		err   error
	}
	// subscribeMsg is (Un)SubscribeResource's answer.
	subscribeMsg struct {
		uri string
		on  bool
		err error
	}
	// resourceEventMsg is a resource-updated or list-changed event for
	// the Resources and Prompts panes.
	resourceEventMsg struct{ ev contract.Event }
)

var resKeys = struct{ subscribe, info, reload, roots key.Binding }{
	roots:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit the roots")),
	subscribe: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "subscribe/unsubscribe")),
	info:      key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "the row whole (raw JSON)")),
	reload:    key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "load the lists again")),
}

func newResourcesPane(s *shared) pane {
	return &resourcesPane{s: s, subscribed: map[string]bool{}, updated: map[string]resourceUpdate{}}
}

func (p *resourcesPane) Keys() []key.Binding {
	k := p.s.keys
	return []key.Binding{k.Enter, resKeys.subscribe, resKeys.info, resKeys.reload, resKeys.roots}
}

func (p *resourcesPane) load() tea.Cmd {
	if p.loading {
		return nil
	}
	p.loading = true
	api := p.s.api
	ctx, cancel := p.s.callCtx(toolsCall)
	return func() tea.Msg {
		defer cancel()
		var msg resourcesMsg
		msg.resources, msg.err = api.Resources(ctx)
		if msg.err == nil {
			var err error
			msg.templates, err = api.ResourceTemplates(ctx)
			if err != nil && !unsupported(err) {
				msg.err = err
			}
		}
		msg.roots, msg.rootsErr = api.Roots(ctx)
		return msg
	}
}

// unsupported reports whether an error says the upstream (or this API)
// has no such list: shown as an empty list, not as a failure.
func unsupported(err error) bool {
	e := contract.AsError(err)
	return e != nil && e.Code == contract.CodeUnavailable
}

// rows: the resources, then the templates.
func (p *resourcesPane) n() int { return len(p.resources) + len(p.templates) }

// rowKey names row i across reloads ("" past the rows).
func (p *resourcesPane) rowKey(i int) string {
	switch {
	case i < len(p.resources):
		return "r " + p.resources[i].URI
	case i < p.n():
		return "t " + p.templates[i-len(p.resources)].URITemplate
	}
	return ""
}

func (p *resourcesPane) Update(msg tea.Msg) (tea.Cmd, bool) {
	s := p.s
	switch msg := msg.(type) {
	case paneShownMsg:
		if !p.loaded {
			return p.load(), false
		}
	case engineChangedMsg:
		// Subscriptions were the old engine's.
		p.subscribed, p.updated = map[string]bool{}, map[string]resourceUpdate{}
		if p.loaded {
			return p.load(), false
		}
	case resourcesMsg:
		p.loading, p.loaded = false, true
		p.err, p.rootsErr = "", ""
		if msg.err != nil {
			p.err = errText(msg.err)
		}
		if msg.rootsErr != nil {
			p.rootsErr = errText(msg.rootsErr)
		}
		// The cursor stays on the row it was on when the lists reload.
		sel := p.rowKey(p.list.cursor)
		p.resources, p.templates, p.roots = msg.resources, msg.templates, msg.roots
		for i := range p.n() {
			if sel != "" && p.rowKey(i) == sel {
				p.list.cursor = i
			}
		}
	case subscribeMsg:
		if msg.err != nil {
			s.setStatus(fmt.Sprintf("subscribe %s: %s", msg.uri, errText(msg.err)), true)
			return nil, false
		}
		if msg.on {
			p.subscribed[msg.uri] = true
			s.setStatus("subscribed to "+msg.uri+": its row shows when the upstream says it changed", false)
		} else {
			delete(p.subscribed, msg.uri)
			s.setStatus("unsubscribed from "+msg.uri, false)
		}
	case resourceEventMsg:
		switch d := msg.ev.Detail.(type) {
		case *contract.ResourceUpdated:
			u := p.updated[d.URI]
			u.count++
			u.last = msg.ev.Time
			if u.last.IsZero() {
				u.last = s.now()
			}
			p.updated[d.URI] = u
		case *contract.ListChanged:
			if d.List == "resources" && p.loaded {
				return p.load(), false
			}
		}
	case tea.KeyPressMsg:
		if p.list.key(s.keys, msg, p.n()) {
			return nil, true
		}
		switch {
		case key.Matches(msg, s.keys.Enter):
			return p.open(), true
		case key.Matches(msg, resKeys.subscribe):
			return p.toggleSubscribe(), true
		case key.Matches(msg, resKeys.info):
			return p.info(), true
		case key.Matches(msg, resKeys.reload):
			s.setStatus("loading the resources again…", false)
			return p.load(), true
		case key.Matches(msg, resKeys.roots):
			return p.editRoots(), true
		}
	case rootsSetMsg:
		if msg.err != nil {
			s.setStatus("roots: "+errText(msg.err), true)
		} else {
			s.setStatus(fmt.Sprintf("roots: %d, sent to the upstream (roots/list_changed)", len(msg.roots)), false)
		}
		return p.load(), false
	}
	return nil, false
}

// editRoots opens a dialog with the roots genui answers roots/list with,
// comma-separated; what is sent replaces them (SetRoots), and the
// upstream hears roots/list_changed.
func (p *resourcesPane) editRoots() tea.Cmd {
	s := p.s
	uris := make([]string, len(p.roots))
	for i, r := range p.roots {
		uris[i] = r.URI
	}
	about := []string{"folders or file:// URIs, comma-separated; empty: none",
		"the server hears roots/list_changed (a host's own roots still answer its calls)"}
	d, cmd := newArgsDialog(s, "Roots", about, []argSpec{{name: "roots", desc: "folders or file:// URIs", def: strings.Join(uris, ", ")}},
		func(a map[string]string) tea.Cmd {
			roots, err := parseRoots(a["roots"])
			if err != nil {
				s.setStatus("roots: "+err.Error(), true)
				return nil
			}
			api := s.api
			ctx, cancel := s.callCtx(quickCall)
			return func() tea.Msg {
				defer cancel()
				got, err := api.SetRoots(ctx, roots)
				return rootsSetMsg{roots: got, err: err}
			}
		})
	return tea.Batch(func() tea.Msg { return pushDialogMsg{d} }, cmd)
}

// parseRoots reads comma-separated folders (relative to the working
// directory) or file:// URIs as roots named after their last element.
func parseRoots(text string) ([]contract.Root, error) {
	roots := []contract.Root{}
	for _, f := range strings.Split(text, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.HasPrefix(f, "file://") {
			name := strings.TrimRight(f, "/")
			roots = append(roots, contract.Root{URI: f, Name: name[strings.LastIndexByte(name, '/')+1:]})
			continue
		}
		if strings.Contains(f, "://") {
			return nil, fmt.Errorf("%q: a root is a folder or a file:// URI", clean(f))
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
		roots = append(roots, contract.Root{URI: u.String(), Name: filepath.Base(abs)})
	}
	return roots, nil
}

func (p *resourcesPane) open() tea.Cmd {
	s := p.s
	i := p.list.cursor
	switch {
	case i < len(p.resources):
		return s.readResource(p.resources[i].URI)
	case i < p.n():
		t := p.templates[i-len(p.resources)]
		var args []argSpec
		for _, a := range t.Arguments {
			args = append(args, argSpec{name: a, required: true})
		}
		about := []string{clean(t.URITemplate)}
		if t.Description != "" {
			about = append(about, clean(t.Description))
		}
		d, cmd := newArgsDialog(s, "Read "+clean(t.Name), about, args, func(a map[string]string) tea.Cmd {
			return s.readResource(t.Expand(a))
		})
		if s.serverDeclares("completions") {
			d.complete = &contract.CompleteRequest{Ref: contract.CompleteResource, URI: t.URITemplate}
		}
		return tea.Batch(func() tea.Msg { return pushDialogMsg{d} }, cmd)
	}
	return nil
}

// pushDialogMsg asks the root to open a dialog (a pane cannot reach the
// overlay).
type pushDialogMsg struct{ d dialog }

func (p *resourcesPane) toggleSubscribe() tea.Cmd {
	i := p.list.cursor
	if i >= len(p.resources) {
		p.s.setStatus("s subscribes to a resource (a template names many)", false)
		return nil
	}
	uri := p.resources[i].URI
	on := !p.subscribed[uri]
	api := p.s.api
	ctx, cancel := p.s.callCtx(quickCall)
	return func() tea.Msg {
		defer cancel()
		var err error
		if on {
			err = api.SubscribeResource(ctx, uri)
		} else {
			err = api.UnsubscribeResource(ctx, uri)
		}
		return subscribeMsg{uri: uri, on: on, err: err}
	}
}

func (p *resourcesPane) info() tea.Cmd {
	i := p.list.cursor
	var title string
	var raw []byte
	switch {
	case i < len(p.resources):
		title, raw = "Resource "+clean(p.resources[i].URI), p.resources[i].Raw
	case i < p.n():
		t := p.templates[i-len(p.resources)]
		title, raw = "Resource template "+clean(t.URITemplate), t.Raw
	default:
		return nil
	}
	lines := prettyJSON(raw)
	return func() tea.Msg { return openViewerMsg{title: title, lines: lines} }
}

func (p *resourcesPane) View(w, h int, focused bool) paneView {
	st := p.s.styles
	var lines []listLine
	sec := func(t string) { lines = append(lines, listLine{text: p.s.section(t), row: -1}) }
	muted := func(t string) { lines = append(lines, listLine{text: st.Muted.Render(" " + t), row: -1}) }
	sec("Roots")
	switch {
	case p.rootsErr != "":
		muted("roots: " + p.rootsErr)
	case len(p.roots) == 0 && p.loaded:
		muted("none from genui (e adds some; a host's own roots are passed on in host mode)")
	}
	for _, r := range p.roots {
		t := clean(r.URI)
		if r.Name != "" {
			t += "  " + clean(r.Name)
		}
		muted(t)
	}
	sec(fmt.Sprintf("Resources (%d)", len(p.resources)))
	switch {
	case p.loading && !p.loaded:
		muted(p.s.spinner() + " loading…")
	case p.err != "":
		lines = append(lines, listLine{text: st.Err.Render(" " + p.err), row: -1})
	case len(p.resources) == 0:
		muted("none")
	}
	for i, r := range p.resources {
		// The marks first: a long URI must not push them out of view.
		t := clean(r.Name)
		if r.Name == "" {
			t = clean(r.URI)
		}
		if p.subscribed[r.URI] {
			t += "  " + st.Info.Render("● subscribed")
		}
		if u, ok := p.updated[r.URI]; ok {
			t += "  " + st.Warn.Render(fmt.Sprintf("↻ updated %s ×%d", u.last.Format("15:04:05"), u.count))
		}
		if r.Name != "" {
			t += "  " + st.Muted.Render(clean(r.URI))
		}
		if r.MIMEType != "" {
			t += "  " + st.Muted.Render(clean(r.MIMEType))
		}
		lines = append(lines, listLine{text: t, row: i})
	}
	sec(fmt.Sprintf("Resource templates (%d)", len(p.templates)))
	if len(p.templates) == 0 && p.loaded && p.err == "" {
		muted("none")
	}
	for i, t := range p.templates {
		lines = append(lines, listLine{text: clean(t.Name) + "  " + st.Muted.Render(clean(t.URITemplate)), row: len(p.resources) + i})
	}
	out, sc := p.list.render(st, lines, p.details(w), w, h, focused)
	return paneView{title: fmt.Sprintf("Resources %d · templates %d", len(p.resources), len(p.templates)), lines: out, sc: sc}
}

// details is the selected row whole.
func (p *resourcesPane) details(w int) []string {
	st := p.s.styles
	i := p.list.cursor
	var out []string
	field := func(label, v string) {
		if v != "" {
			out = append(out, wrapStyled(st.Text, label+" "+clean(v), w)...)
		}
	}
	switch {
	case i < len(p.resources):
		r := p.resources[i]
		field("uri", r.URI)
		field("title", r.Title)
		field("description", r.Description)
		field("mime type", r.MIMEType)
		if r.Size != nil {
			field("size", fmt.Sprintf("%s (%d bytes)", size(int(*r.Size)), *r.Size))
		}
		if p.subscribed[r.URI] {
			field("subscribed", "yes (s unsubscribes)")
		}
		if u, ok := p.updated[r.URI]; ok {
			field("updated", fmt.Sprintf("%d time(s), last at %s", u.count, u.last.Format("15:04:05")))
		}
		if len(r.Annotations) > 0 {
			field("annotations", strings.Join(prettyJSON(r.Annotations), " "))
		}
		out = append(out, st.Muted.Render("enter reads it · s subscribes · i shows it whole"))
	case i < p.n():
		t := p.templates[i-len(p.resources)]
		field("uri template", t.URITemplate)
		field("arguments", strings.Join(t.Arguments, ", "))
		field("description", t.Description)
		field("mime type", t.MIMEType)
		out = append(out, st.Muted.Render("enter fills in its arguments and reads what it names"))
	}
	return out
}

// resourceEvent passes resource and list events to the panes.
func resourceEvent(ev contract.Event) tea.Cmd {
	return func() tea.Msg { return resourceEventMsg{ev: ev} }
}
