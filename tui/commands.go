package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/google/renameio/v2/maybe"
)

// Every engine call is a command returning one of these messages; the
// model changes only when Update receives them.

type (
	stateMsg struct {
		gen int
		st  contract.State
		err error
	}
	toolsMsg struct {
		gen   int
		tools []contract.ToolInfo
		err   error
	}
	inspectMsg struct {
		tool string
		in   contract.Inspection
		err  error
	}
	uiMsg struct {
		tool string
		doc  *uiDoc
		err  error
		// explicit: the user asked (g), so say so in the status line.
		explicit bool
	}
	changeMsg struct {
		tool     string
		cv       *changeView
		doc      *uiDoc // the new UI, highlighted
		err      error
		feedback string // a refine's feedback (asked again when not understood)
	}
	// changeUpgradedMsg: the LLM page an interim change stood in for
	// arrived; cv is the change from the page served before it (of's
	// OldHTML) to that page.
	changeUpgradedMsg struct {
		tool string
		of   *changeView
		cv   *changeView
		doc  *uiDoc
		err  error
	}
	callMsg struct {
		tool   string
		callID string
		res    contract.CallResult
		lines  []string
		err    error
	}
	refreshMsg struct {
		diff contract.ToolDiff
		err  error
	}
	previewMsg struct {
		tool, url string
		copy      bool
		err       error // no URL
		openErr   error // the URL, but no browser opened
	}
	exportMsg struct {
		tool, path string
		size       int
		err        error
	}
	pendingMsg struct {
		gen int
		evs []contract.QueuedEvent
		err error
	}
	varsMsg struct {
		v   contract.Variables
		err error
	}
	pollMsg        struct{}
	spinMsg        struct{}
	rehighlightMsg struct{ docs map[string]*uiDoc }
	discoverMsg    struct{ base string }
	reconnectMsg   struct{ gen int }
	attachedMsg    struct {
		api  contract.API
		base string
		err  error
	}
)

// Bounds of the engine calls (a refine with a slow LLM takes minutes).
const (
	quickCall    = 5 * time.Second
	toolsCall    = 15 * time.Second
	generateCall = 5 * time.Minute
)

// call runs f with a bounded context derived from the model's.
func (m *shared) callCtx(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(m.ctx, d)
}

func (m *shared) fetchState() tea.Cmd {
	if m.statePend {
		m.stateAgain = true
		return nil
	}
	m.statePend = true
	api, gen := m.api, m.subGen
	ctx, cancel := m.callCtx(quickCall)
	return func() tea.Msg {
		defer cancel()
		st, err := api.State(ctx)
		return stateMsg{gen: gen, st: st, err: err}
	}
}

func (m *shared) fetchTools() tea.Cmd {
	api, gen := m.api, m.subGen
	ctx, cancel := m.callCtx(toolsCall)
	return func() tea.Msg {
		defer cancel()
		ts, err := api.Tools(ctx)
		return toolsMsg{gen: gen, tools: ts, err: err}
	}
}

func (m *shared) fetchPending() tea.Cmd {
	api, gen := m.api, m.subGen
	ctx, cancel := m.callCtx(quickCall)
	return func() tea.Msg {
		defer cancel()
		evs, err := api.PendingEvents(ctx)
		return pendingMsg{gen: gen, evs: evs, err: err}
	}
}

func (m *shared) fetchInspect(tool string) tea.Cmd {
	if tool == "" {
		return nil
	}
	api := m.api
	ctx, cancel := m.callCtx(toolsCall)
	return func() tea.Msg {
		defer cancel()
		in, err := api.Inspect(ctx, tool)
		return inspectMsg{tool: tool, in: in, err: err}
	}
}

func (m *shared) fetchVars() tea.Cmd {
	api := m.api
	ctx, cancel := m.callCtx(quickCall)
	return func() tea.Msg {
		defer cancel()
		v, err := api.Variables(ctx)
		return varsMsg{v: v, err: err}
	}
}

// fetchUI reads a tool's UI (generating it when nothing is cached).
func (m *shared) fetchUI(tool string, explicit bool) tea.Cmd {
	api := m.api
	ctx, cancel := m.callCtx(generateCall)
	return func() tea.Msg {
		defer cancel()
		v, err := api.ReadableUI(ctx, tool)
		if err != nil {
			return uiMsg{tool: tool, err: err, explicit: explicit}
		}
		return uiMsg{tool: tool, doc: plainDoc(v), explicit: explicit}
	}
}

// doRefine refines a tool's UI; requireUnderstood asks the engine to
// refuse (record nothing) feedback the offline generator cannot read.
func (m *shared) doRefine(tool, feedback string, requireUnderstood bool) tea.Cmd {
	api := m.api
	ctx, cancel := m.callCtx(generateCall)
	return func() tea.Msg {
		defer cancel()
		ch, err := api.Refine(ctx, contract.RefineRequest{Tool: tool, Feedback: feedback, Source: contract.SourceTUI,
			RequireUnderstood: requireUnderstood})
		msg := newChangeMsg(ctx, api, tool, ch, err)
		msg.feedback = feedback
		return msg
	}
}

func (m *shared) doRegenerate(tool string, clear bool) tea.Cmd {
	api := m.api
	ctx, cancel := m.callCtx(generateCall)
	return func() tea.Msg {
		defer cancel()
		ch, err := api.Regenerate(ctx, contract.RegenerateRequest{Tool: tool, ClearRefinements: clear, Source: contract.SourceTUI})
		return newChangeMsg(ctx, api, tool, ch, err)
	}
}

// doDrop drops refinement index (feedback is its text, checked by the
// engine) of a tool's history.
func (m *shared) doDrop(tool string, index int, feedback string) tea.Cmd {
	api := m.api
	ctx, cancel := m.callCtx(generateCall)
	return func() tea.Msg {
		defer cancel()
		ch, err := api.DropRefinement(ctx, contract.DropRefinementRequest{Tool: tool, Index: index, Feedback: feedback,
			Source: contract.SourceTUI})
		return newChangeMsg(ctx, api, tool, ch, err)
	}
}

// newChangeMsg diffs a change and reads the new UI as a person reads it
// (in the command, not Update).
func newChangeMsg(ctx context.Context, api contract.API, tool string, ch contract.UIChange, err error) changeMsg {
	if err != nil {
		return changeMsg{tool: tool, err: err}
	}
	v := contract.UIView{Tool: ch.Tool, URI: contract.UIURI(ch.Tool), MIMEType: contract.MIMEApp, HTML: ch.HTML,
		CacheKey: ch.CacheKey, Meta: ch.Meta}
	if r, err := api.ReadableUI(ctx, tool); err == nil && r.CacheKey == ch.CacheKey {
		v = r
	}
	return changeMsg{tool: tool, cv: newChangeView(ch), doc: plainDoc(v)}
}

// doUpgradeChange reads the LLM page that of's interim UI stood in for and
// diffs it against the page served before of's refine.
func (m *shared) doUpgradeChange(tool string, of *changeView) tea.Cmd {
	api := m.api
	ctx, cancel := m.callCtx(toolsCall)
	return func() tea.Msg {
		defer cancel()
		v, err := api.ReadableUI(ctx, tool)
		if err != nil {
			return changeUpgradedMsg{tool: tool, of: of, err: err}
		}
		ch := of.ch
		ch.HTML, ch.CacheKey, ch.Meta, ch.Notes = v.HTML, v.CacheKey, v.Meta, v.Meta.Warnings
		return changeUpgradedMsg{tool: tool, of: of, cv: newChangeView(ch), doc: plainDoc(v)}
	}
}

func (m *shared) doCall(tool string, args json.RawMessage, callID string) tea.Cmd {
	api := m.api
	ctx, cancel := m.callCtx(generateCall)
	return func() tea.Msg {
		defer cancel()
		res, err := api.CallTool(ctx, contract.CallRequest{Name: tool, Arguments: args, Source: contract.SourceTUI, CallID: callID})
		if err != nil {
			return callMsg{tool: tool, callID: callID, err: err}
		}
		return callMsg{tool: tool, callID: callID, res: res, lines: resultLines(res.Result)}
	}
}

func (m *shared) doRefresh() tea.Cmd {
	api := m.api
	ctx, cancel := m.callCtx(toolsCall * 2)
	return func() tea.Msg {
		defer cancel()
		d, err := api.RefreshTools(ctx)
		return refreshMsg{diff: d, err: err}
	}
}

// doPreview asks for the preview URL, then opens it (or copies it).
func (m *shared) doPreview(tool string, copyIt bool) tea.Cmd {
	api, open := m.api, m.opts.OpenURL
	ctx, cancel := m.callCtx(toolsCall)
	return func() tea.Msg {
		defer cancel()
		p, err := api.Preview(ctx, tool)
		if err != nil {
			return previewMsg{tool: tool, copy: copyIt, err: err}
		}
		if !copyIt {
			if err := open(p.URL); err != nil {
				return previewMsg{tool: tool, url: p.URL, openErr: err}
			}
		}
		return previewMsg{tool: tool, url: p.URL, copy: copyIt}
	}
}

// doExport writes a tool's UI to ExportDir/<tool>.html (atomically: a
// temporary file renamed into place).
func (m *shared) doExport(tool string) tea.Cmd {
	api, dir := m.api, m.opts.ExportDir
	ctx, cancel := m.callCtx(generateCall)
	return func() tea.Msg {
		defer cancel()
		if dir == "" {
			return exportMsg{tool: tool, err: fmt.Errorf("no export folder (run with --dir)")}
		}
		v, err := api.UI(ctx, tool)
		if err != nil {
			return exportMsg{tool: tool, err: err}
		}
		path := filepath.Join(dir, safeFileName(tool)+".html")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return exportMsg{tool: tool, err: err}
		}
		if err := maybe.WriteFile(path, []byte(v.HTML), 0o644); err != nil {
			return exportMsg{tool: tool, err: err}
		}
		return exportMsg{tool: tool, path: path, size: len(v.HTML)}
	}
}

// highlight highlights the fetched UIs of tools (all when none named) with
// the current palette, in the background: a UI shows at once in plain text
// and in color when this returns (chroma takes a few hundred ms on a
// 100 KB page).
func (m *shared) highlight(tools ...string) tea.Cmd {
	style := m.styles.chroma
	if style == "" {
		return nil
	}
	docs := map[string]*uiDoc{}
	for k, t := range m.tools {
		d := t.doc
		if d == nil || d.style == style {
			continue
		}
		if len(tools) == 0 || slices.Contains(tools, k) {
			docs[k] = d
		}
	}
	if len(docs) == 0 {
		return nil
	}
	return func() tea.Msg {
		out := map[string]*uiDoc{}
		for k, d := range docs {
			out[k] = &uiDoc{view: d.view, lines: highlightHTML(d.view.HTML, style), style: style}
		}
		return rehighlightMsg{docs: out}
	}
}

// plainDoc is a UI's HTML as plain lines, until highlighted.
func plainDoc(v contract.UIView) *uiDoc { return &uiDoc{view: v, lines: cleanLines(v.HTML)} }

// safeFileName turns a tool name into a file name.
func safeFileName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), ".")
	if s == "" {
		s = "tool"
	}
	return s
}

// prettyJSON indents JSON and splits it into clean lines (raw text when it
// is not JSON).
func prettyJSON(b []byte) []string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return cleanLines(string(b))
	}
	return cleanLines(buf.String())
}

// errText is an error for the status line.
func errText(err error) string {
	if e, ok := err.(*contract.Error); ok {
		return e.Message
	}
	return err.Error()
}

// resultLines shows a CallToolResult the way a person reads it: each
// content block (text that holds JSON is indented), then the structured
// content; anything else as indented JSON.
func resultLines(raw json.RawMessage) []string {
	var r struct {
		Content []struct {
			Type     string          `json:"type"`
			Text     string          `json:"text"`
			MIMEType string          `json:"mimeType"`
			Data     string          `json:"data"`
			URI      string          `json:"uri"`
			Resource json.RawMessage `json:"resource"`
			// Annotations show as badges on the block's head line.
			Annotations *struct {
				Audience     []string `json:"audience"`
				Priority     *float64 `json:"priority"`
				LastModified string   `json:"lastModified"`
			} `json:"annotations"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Meta              json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || (r.Content == nil && r.StructuredContent == nil) {
		return prettyJSON(raw)
	}
	var out []string
	for i, c := range r.Content {
		head := fmt.Sprintf("content[%d] %s", i, c.Type)
		if a := c.Annotations; a != nil {
			var badges []string
			if len(a.Audience) > 0 {
				badges = append(badges, "audience "+clean(strings.Join(a.Audience, ", ")))
			}
			if a.Priority != nil {
				badges = append(badges, fmt.Sprintf("priority %g", *a.Priority))
			}
			if a.LastModified != "" {
				badges = append(badges, "modified "+clean(a.LastModified))
			}
			if len(badges) > 0 {
				head += " [" + strings.Join(badges, " · ") + "]"
			}
		}
		switch c.Type {
		case "text":
			out = append(out, head)
			t := strings.TrimSpace(c.Text)
			if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
				out = append(out, prettyJSON([]byte(t))...)
			} else {
				out = append(out, cleanLines(c.Text)...)
			}
		case "image", "audio":
			out = append(out, fmt.Sprintf("%s %s, %s base64", head, c.MIMEType, size(len(c.Data))))
		case "resource_link":
			out = append(out, head+" "+clean(c.URI)+"  (o opens it)")
		case "resource":
			// An embedded resource: its text, or a blob's size (o opens
			// it, where s saves it), never the base64.
			var e contract.ResourceContent
			if json.Unmarshal(c.Resource, &e) != nil {
				out = append(out, head)
				out = append(out, prettyJSON(c.Resource)...)
				continue
			}
			head += " " + clean(e.URI)
			if e.MIMEType != "" {
				head += " · " + clean(e.MIMEType)
			}
			if e.Text != nil {
				out = append(out, head+"  (o opens it)")
				out = append(out, cleanLines(*e.Text)...)
			} else {
				out = append(out, head+fmt.Sprintf(" · blob, %s base64  (o opens it, s there saves it)", size(len(e.Blob))))
			}
		default:
			out = append(out, head)
			b, _ := json.Marshal(c)
			if len(c.Resource) > 0 {
				b = c.Resource
			}
			out = append(out, prettyJSON(b)...)
		}
	}
	if len(r.StructuredContent) > 0 && string(r.StructuredContent) != "null" {
		out = append(out, "structuredContent")
		out = append(out, prettyJSON(r.StructuredContent)...)
	}
	if len(r.Meta) > 0 {
		out = append(out, "_meta")
		out = append(out, prettyJSON(r.Meta)...)
	}
	return out
}
