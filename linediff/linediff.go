// Package linediff is the one walk over go-udiff's unified hunks: two texts
// in, the lines of their unified diff out, each with its op. The develop
// loop's result diff (engine/resultdiff) and the TUI's UI diff both read it;
// it imports go-udiff and the standard library only, so the TUI may.
package linediff

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// The ops of a Line.
const (
	Hunk   = '@' // a hunk header, "@@ -from,count +to,count @@"
	Kept   = ' ' // a context line, in both texts
	Delete = '-' // a line only the first text has
	Insert = '+' // a line only the second text has
)

// Line is one line of a unified diff: Op is Hunk, Kept, Delete or Insert;
// Text is the header, or the line without its line ending.
type Line struct {
	Op   byte
	Text string
}

// Unified is the line diff of a and b (go-udiff's line-level LCS) as
// unified hunks with context lines of context around each change: a
// header line, then the hunk's lines. Equal texts have no lines.
func Unified(a, b string, context int) ([]Line, error) {
	u, err := udiff.ToUnifiedDiff("before", "after", a, udiff.Lines(a, b), context)
	if err != nil {
		return nil, err
	}
	var out []Line
	for _, h := range u.Hunks {
		from, to := 0, 0
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Delete:
				from++
			case udiff.Insert:
				to++
			default:
				from++
				to++
			}
		}
		out = append(out, Line{Op: Hunk, Text: fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.FromLine, from, h.ToLine, to)})
		for _, l := range h.Lines {
			op := byte(Kept)
			switch l.Kind {
			case udiff.Delete:
				op = Delete
			case udiff.Insert:
				op = Insert
			}
			out = append(out, Line{Op: op, Text: strings.TrimRight(l.Content, "\r\n")})
		}
	}
	return out, nil
}
