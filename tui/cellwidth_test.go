package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCellWidthIsStringWidth: the fast path counts like ansi.StringWidth.
func TestCellWidthIsStringWidth(t *testing.T) {
	st := NewStyles(true, false)
	for _, s := range []string{"", "abc", st.Key.Render("key") + " " + st.Muted.Render("value"), "\x1b[1;38;2;1;2;3mx\x1b[m",
		"tab\there", "wide 日本語", "● rich ✎1", st.Selected.Render("› get_forecast"), "\x1b]8;;http://x\x07link\x1b]8;;\x07", "\x1b["} {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
}
