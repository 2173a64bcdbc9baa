package tui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// finder is a pane's search (/): its line at the bottom of the pane takes
// the keys while open and searches as you type; enter keeps the query (n
// and N walk the matches, which are highlighted), esc clears it.
type finder struct {
	input   textinput.Model
	editing bool
	query   string // the query in effect, lower case ("" none)
}

func newFinder(st Styles) finder {
	ti := textinput.New()
	ti.Prompt = "/ "
	ti.Placeholder = "search"
	ti.CharLimit = 200
	ti.SetStyles(inputStyles(st))
	return finder{input: ti}
}

// active reports whether a query is in effect or being typed.
func (f *finder) active() bool { return f.editing || f.query != "" }

// open starts typing a query (the last one to edit).
func (f *finder) open() tea.Cmd {
	f.editing = true
	f.input.SetValue(f.query)
	f.input.CursorEnd()
	return f.input.Focus()
}

// clear drops the query.
func (f *finder) clear() {
	f.editing, f.query = false, ""
	f.input.SetValue("")
	f.input.Blur()
}

// findResult is what a key did to the finder.
type findResult int

const (
	findNone    findResult = iota // not the finder's key
	findTyped                     // the query changed: jump to the first match from here
	findNext                      // n: the next match
	findPrev                      // N: the previous match
	findHandled                   // taken, nothing to move
)

// update takes a key or paste while typing, and / n N esc otherwise.
func (f *finder) update(k KeyMap, msg tea.Msg) (tea.Cmd, findResult) {
	if f.editing {
		if km, ok := msg.(tea.KeyPressMsg); ok {
			switch {
			case km.String() == "enter":
				f.editing = false
				f.input.Blur()
				return nil, findTyped // stays on the match typing found
			case key.Matches(km, k.Back):
				f.clear()
				return nil, findHandled
			}
		}
		var cmd tea.Cmd
		f.input, cmd = f.input.Update(msg)
		q := strings.ToLower(f.input.Value())
		if q == f.query {
			return cmd, findHandled
		}
		f.query = q
		return cmd, findTyped
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, findNone
	}
	switch {
	case key.Matches(km, k.Search):
		return f.open(), findHandled
	case f.query != "" && key.Matches(km, k.SearchNext):
		return nil, findNext
	case f.query != "" && key.Matches(km, k.SearchPrev):
		return nil, findPrev
	case f.query != "" && key.Matches(km, k.Back):
		f.clear()
		return nil, findHandled
	}
	return nil, findNone
}

// containsFold reports whether s contains lower (already lower case),
// ignoring case.
func containsFold(s, lower string) bool {
	if lower == "" {
		return true
	}
	if !isASCII(lower) {
		return strings.Contains(strings.ToLower(s), lower)
	}
	// An ASCII query: compare byte by byte, folding ASCII letters, without
	// allocating (ASCII bytes never occur inside a multi-byte character).
	n := len(lower)
	first := lower[0]
	for i := 0; i+n <= len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != first {
			continue
		}
		j := 1
		for ; j < n; j++ {
			d := s[i+j]
			if 'A' <= d && d <= 'Z' {
				d += 'a' - 'A'
			}
			if d != lower[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// footer is the search line under the pane: the input while typing, else
// the query with where the cursor is among the matches.
func (f *finder) footer(st Styles, w, cur, total int) string {
	if f.editing {
		f.input.SetWidth(max(w-24, 4))
		return f.input.View() + st.Muted.Render(fmt.Sprintf("  %d match(es)", total))
	}
	if f.query == "" {
		return ""
	}
	pos := "no match"
	if total > 0 {
		pos = fmt.Sprintf("%d/%d", cur, total)
		if cur == 0 {
			pos = fmt.Sprintf("%d matches", total)
		}
	}
	return st.Key.Render("/ "+clean(f.query)) + st.Muted.Render("  "+pos+" · n next · N previous · esc clears")
}

// highlight marks every occurrence of q (lower case) in line: the line is
// drawn plain with the matches in the Match style.
func highlight(st Styles, line, q string) string {
	if q == "" {
		return line
	}
	plain := ansi.Strip(line)
	lower := strings.ToLower(plain)
	if len(lower) != len(plain) || !strings.Contains(lower, q) {
		return line
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, q)
		if i < 0 {
			b.WriteString(st.Text.Render(plain))
			break
		}
		b.WriteString(st.Text.Render(plain[:i]))
		b.WriteString(st.Match.Render(plain[i : i+len(q)]))
		plain, lower = plain[i+len(q):], lower[i+len(q):]
	}
	return b.String()
}

// absSet is the rows of a ring buffer that pass a test, kept up to date as
// rows arrive and leave without testing a row twice: their absolute
// numbers (rows dropped before them + index), ascending. A change of key
// (another query or filter, rows reordered) starts over.
type absSet struct {
	key     string
	abs     []int64
	scanned int64 // rows tested so far (absolute)
	valid   bool
}

// sync brings the set up to date with a ring holding n rows after dropped
// ones; keep tests row i (0 = the oldest held).
func (a *absSet) sync(key string, dropped int64, n int, keep func(i int) bool) {
	if !a.valid || key != a.key {
		a.key, a.abs, a.scanned, a.valid = key, a.abs[:0], dropped, true
	}
	if k := sort.Search(len(a.abs), func(j int) bool { return a.abs[j] >= dropped }); k > 0 {
		a.abs = append(a.abs[:0], a.abs[k:]...)
	}
	a.scanned = max(a.scanned, dropped)
	for end := dropped + int64(n); a.scanned < end; a.scanned++ {
		if keep(int(a.scanned - dropped)) {
			a.abs = append(a.abs, a.scanned)
		}
	}
}

// has reports whether absolute row x is in the set.
func (a *absSet) has(x int64) bool {
	k := sort.Search(len(a.abs), func(j int) bool { return a.abs[j] >= x })
	return k < len(a.abs) && a.abs[k] == x
}

// next is the first row after x (before it, when back), and whether
// there is one; wrap goes around the end.
func (a *absSet) next(x int64, back bool) (int64, bool) {
	if len(a.abs) == 0 {
		return 0, false
	}
	if back {
		k := sort.Search(len(a.abs), func(j int) bool { return a.abs[j] >= x })
		if k == 0 {
			return a.abs[len(a.abs)-1], true
		}
		return a.abs[k-1], true
	}
	k := sort.Search(len(a.abs), func(j int) bool { return a.abs[j] > x })
	if k == len(a.abs) {
		return a.abs[0], true
	}
	return a.abs[k], true
}

// rank is x's position among the set, from 1 (0 when not in it).
func (a *absSet) rank(x int64) int {
	k := sort.Search(len(a.abs), func(j int) bool { return a.abs[j] >= x })
	if k < len(a.abs) && a.abs[k] == x {
		return k + 1
	}
	return 0
}
