package tui

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/google/renameio/v2/maybe"

	"github.com/genui-dev/genui/engine/contract"
)

// A resource read (from the Resources pane, a template filled in, or a
// resource link of a call result) opens in the resource viewer: the
// viewer dialog (scroll, search, wrap, copy) over its contents, text as
// text (JSON indented), a blob as its size and type, which s saves to a
// file (the bytes decoded, written atomically).

type (
	// resourceReadMsg is ReadResource's answer.
	resourceReadMsg struct {
		uri   string
		res   contract.ResourceContents
		lines []string // resourceLines, highlighted in the command
		err   error
	}
	// savedMsg is a blob written to a file.
	savedMsg struct {
		path string
		size int
		err  error
	}
)

// readResource reads uri (resources/read upstream).
func (s *shared) readResource(uri string) tea.Cmd {
	api, style := s.api, s.styles.chroma
	ctx, cancel := s.callCtx(toolsCall)
	s.setStatus("reading "+uri+"…", false)
	return func() tea.Msg {
		defer cancel()
		res, err := api.ReadResource(ctx, uri)
		return resourceReadMsg{uri: uri, res: res, lines: resourceLines(res, style), err: err}
	}
}

func (m *Model) handleResourceRead(msg resourceReadMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus("read "+msg.uri+": "+errText(msg.err), true)
		return nil
	}
	if msg.res.URI == "" {
		msg.res.URI = msg.uri
	}
	m.setStatus(fmt.Sprintf("read %s: %d content(s)", msg.uri, len(msg.res.Contents)), false)
	m.overlay.push(newResourceDialog(m.shared, msg.res, msg.lines))
	return tea.Batch(m.toComponents(msg)) // the panes mark what was read
}

// resourceLines shows a resource's contents whole; HTML (an MCP App's
// ui:// page, any text/html) highlighted with style (chroma's; "" for
// none). It runs in a command: highlighting a large page takes a while.
func resourceLines(res contract.ResourceContents, style string) []string {
	var out []string
	for i, c := range res.Contents {
		head := fmt.Sprintf("contents[%d] %s", i, clean(c.URI))
		if c.MIMEType != "" {
			head += " · " + clean(c.MIMEType)
		}
		switch {
		case c.Text != nil:
			out = append(out, head+" · text, "+size(len(*c.Text)))
			t := strings.TrimSpace(*c.Text)
			switch {
			case (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)):
				out = append(out, prettyJSON([]byte(t))...)
			case style != "" && strings.HasPrefix(c.MIMEType, "text/html"):
				out = append(out, highlightHTML(*c.Text, style)...)
			default:
				out = append(out, cleanLines(*c.Text)...)
			}
		default:
			b, err := base64.StdEncoding.DecodeString(c.Blob)
			if err != nil {
				out = append(out, head+" · blob that is not base64: "+err.Error(), "  "+size(len(c.Blob))+" as sent")
				continue
			}
			out = append(out, head+" · blob, "+byteSize(len(b))+" · s saves it to a file")
		}
		if len(c.Meta) > 0 {
			out = append(out, "_meta")
			out = append(out, prettyJSON(c.Meta)...)
		}
		out = append(out, "")
	}
	if len(res.Contents) == 0 {
		out = append(out, "(no contents)")
	}
	return out
}

// blobs are the decodable blobs of a resource.
func blobs(res contract.ResourceContents) []contract.ResourceContent {
	var out []contract.ResourceContent
	for _, c := range res.Contents {
		if c.Text == nil {
			if _, err := base64.StdEncoding.DecodeString(c.Blob); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// resourceDialog is the viewer over a resource, with s to save a blob.
type resourceDialog struct {
	*viewerDialog
	res contract.ResourceContents
}

var saveKey = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save the blob to a file"))

func newResourceDialog(s *shared, res contract.ResourceContents, lines []string) *resourceDialog {
	if lines == nil {
		lines = resourceLines(res, "")
	}
	return &resourceDialog{viewerDialog: newViewerDialog(s, "Resource "+clean(res.URI), lines), res: res}
}

func (d *resourceDialog) Keys() []key.Binding {
	if len(blobs(d.res)) > 0 && !d.text.capturing() {
		return append([]key.Binding{saveKey}, d.viewerDialog.Keys()...)
	}
	return d.viewerDialog.Keys()
}

func (d *resourceDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	if km, ok := msg.(tea.KeyPressMsg); ok && !d.text.capturing() && key.Matches(km, saveKey) {
		bs := blobs(d.res)
		if len(bs) == 0 {
			d.s.setStatus("this resource has no blob to save (y copies its text)", false)
			return nil, false
		}
		return func() tea.Msg { return openSaveMsg{blob: bs[0], uri: d.res.URI} }, false
	}
	return d.viewerDialog.Update(msg)
}

// openSaveMsg asks the root to open the save dialog over the viewer: a
// resource's blob, or data (a call result) named name.
type openSaveMsg struct {
	blob contract.ResourceContent
	uri  string
	data []byte
	name string
	what string
}

// saveDialog asks where to save a blob (a path, prefilled in the export
// folder with the resource's name) and writes it.
type saveDialog struct {
	s     *shared
	blob  contract.ResourceContent
	data  []byte // written as is when the dialog saves no blob
	what  string
	input textinput.Model
}

func newSaveDialog(s *shared, msg openSaveMsg) (*saveDialog, tea.Cmd) {
	name := msg.blob.URI
	if name == "" {
		name = msg.uri
	}
	if msg.name != "" {
		name = msg.name
	}
	base := safeFileName(path.Base(strings.TrimRight(name, "/")))
	dir := s.opts.ExportDir
	if dir == "" {
		dir = "."
	}
	ti := textinput.New()
	ti.Prompt = "save to: "
	ti.CharLimit = 4096
	ti.SetStyles(inputStyles(s.styles))
	ti.SetValue(filepath.Join(dir, base))
	ti.CursorEnd()
	d := &saveDialog{s: s, blob: msg.blob, data: msg.data, what: msg.what, input: ti}
	return d, d.input.Focus()
}

func (d *saveDialog) place() placement { return placeCenter }

func (d *saveDialog) Keys() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")), d.s.keys.Cancel}
}

func (d *saveDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case km.String() == "enter":
			p, blob, data := strings.TrimSpace(d.input.Value()), d.blob.Blob, d.data
			if p == "" {
				return nil, false
			}
			return func() tea.Msg {
				b, err := data, error(nil)
				if data == nil {
					b, err = base64.StdEncoding.DecodeString(blob)
				}
				if err == nil {
					err = os.MkdirAll(filepath.Dir(p), 0o755)
				}
				if err == nil {
					err = maybe.WriteFile(p, b, 0o644)
				}
				return savedMsg{path: p, size: len(b), err: err}
			}, true
		case key.Matches(km, d.s.keys.Cancel):
			return nil, true
		}
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return cmd, false
}

func (d *saveDialog) View(w, _ int) []string {
	st := d.s.styles
	d.input.SetWidth(max(w-14, 10))
	what, title := orDash(clean(d.blob.MIMEType)), "Save the blob"
	if d.data != nil {
		what, title = fmt.Sprintf("%s, %s", clean(d.what), byteSize(len(d.data))), "Save the "+clean(d.what)
	}
	lines := []string{" " + d.input.View(), " " + st.Muted.Render(what+" · enter saves · esc closes")}
	return box(st, title, true, w, len(lines)+2, lines)
}

func (m *Model) handleSaved(msg savedMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus("save: "+msg.err.Error(), true)
		return nil
	}
	m.setStatus(fmt.Sprintf("saved %s to %s", byteSize(msg.size), msg.path), false)
	return nil
}

// byteSize is "N bytes", with the rounded size first when it is large.
func byteSize(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%s (%d bytes)", size(n), n)
}
