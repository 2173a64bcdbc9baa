package tui

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// copyToClipboard puts text on the clipboard: OSC 52 through the terminal
// (most terminals take it; tmux only with set-clipboard on), and inside
// tmux also tmux's paste buffer (load-buffer -w passes it on to the outer
// terminal's clipboard when tmux may), so prefix+] pastes it whatever the
// tmux settings.
func copyToClipboard(text string) tea.Cmd {
	cmds := []tea.Cmd{tea.SetClipboard(text)}
	if os.Getenv("TMUX") != "" {
		cmds = append(cmds, tmuxCopy(text))
	}
	return tea.Batch(cmds...)
}

// tmuxCopy loads text into tmux's paste buffer (bounded: a wedged tmux
// server must not hold the command).
func tmuxCopy(text string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "tmux", "load-buffer", "-w", "-")
		cmd.Stdin = strings.NewReader(text)
		if cmd.Run() != nil {
			// tmux before 3.2 has no -w.
			cmd = exec.CommandContext(ctx, "tmux", "load-buffer", "-")
			cmd.Stdin = strings.NewReader(text)
			_ = cmd.Run()
		}
		return nil
	}
}
