package tui

import (
	"strings"
	"testing"
)

// Long text wraps at word boundaries: every word shorter than the width
// stays whole on one line, only a longer word is broken, and no line is
// wider than the width.
func TestWrapAllBreaksAtWords(t *testing.T) {
	text := "The server doesn't answer within the bound: it reports a timeout, and the call's result says so. " +
		"A_path_like_/very/long/segment/that/is/longer/than/the/width/of/the/pane is broken."
	for _, w := range []int{17, 23, 30, 41} {
		lines := wrapAll([]string{text}, w)
		for _, l := range lines {
			if cellWidth(l) > w {
				t.Fatalf("width %d: line %q is %d cells", w, l, cellWidth(l))
			}
		}
		joined := "\n" + strings.Join(lines, "\n") + "\n"
		for _, word := range strings.Fields(text) {
			if cellWidth(word) > w {
				continue
			}
			if !strings.Contains(strings.ReplaceAll(joined, "\n", " \n "), " "+word+" ") {
				t.Fatalf("width %d: the word %q is broken:\n%s", w, word, strings.Join(lines, "\n"))
			}
		}
		if w < 40 && !strings.Contains(joined, "\nA_path_like_/very") {
			t.Fatalf("width %d: the long word is not broken to fill lines:\n%s", w, strings.Join(lines, "\n"))
		}
	}
}
