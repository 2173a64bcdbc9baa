package tui

import (
	"context"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// $EDITOR hand-off (ctrl+e in the call form): the text goes to a temporary
// file (a command), the editor runs on the terminal (tea.ExecProcess: the
// workbench steps aside and comes back), the file is read back (a
// command) and the form checks what came back. field "" is the whole
// arguments as one JSON object.

type (
	editorReadyMsg struct {
		tool, field, path, before string
		err                       error
	}
	editorExitedMsg struct {
		tool, field, path, before string
		err                       error
	}
	editorDoneMsg struct {
		tool, field, before, text string
		err                       error
	}
)

// editorCommand is the editor to run on path: $VISUAL, else $EDITOR (words
// split on spaces: "code -w"), else vi. It ends with the workbench (ctx).
func editorCommand(ctx context.Context, path string) *exec.Cmd {
	ed := strings.Fields(os.Getenv("VISUAL"))
	if len(ed) == 0 {
		ed = strings.Fields(os.Getenv("EDITOR"))
	}
	if len(ed) == 0 {
		ed = []string{"vi"}
	}
	return exec.CommandContext(ctx, ed[0], append(ed[1:], path)...)
}

// startEditor writes text to a temporary file named after the tool and
// field (ext gives editors the syntax).
func (s *shared) startEditor(tool, field, text, ext string) tea.Cmd {
	return func() tea.Msg {
		name := "genui-" + safeFileName(tool)
		if field != "" {
			name += "-" + safeFileName(field)
		}
		f, err := os.CreateTemp("", name+"-*"+ext)
		if err != nil {
			return editorReadyMsg{tool: tool, field: field, err: err}
		}
		_, werr := f.WriteString(text)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		return editorReadyMsg{tool: tool, field: field, path: f.Name(), before: text, err: werr}
	}
}

// runEditor hands the terminal to the editor.
func (s *shared) runEditor(msg editorReadyMsg) tea.Cmd {
	return s.execProcess(editorCommand(s.ctx, msg.path), func(err error) tea.Msg {
		return editorExitedMsg{tool: msg.tool, field: msg.field, path: msg.path, before: msg.before, err: err}
	})
}

// readEditor reads the file back and removes it.
func readEditor(msg editorExitedMsg) tea.Cmd {
	return func() tea.Msg {
		b, err := os.ReadFile(msg.path)
		_ = os.Remove(msg.path)
		if msg.err != nil {
			err = msg.err
		}
		return editorDoneMsg{tool: msg.tool, field: msg.field, before: msg.before, text: string(b), err: err}
	}
}

// editedText is what the editor left, less the final newline editors add
// when the text had none.
func editedText(before, after string) string {
	if !strings.HasSuffix(before, "\n") {
		after = strings.TrimSuffix(strings.TrimSuffix(after, "\n"), "\r")
	}
	return after
}
