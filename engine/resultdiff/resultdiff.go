// Package resultdiff compares two JSON values (tool results, tool schemas)
// structurally: path by path (JSON Pointers), arrays aligned by their
// longest common subsequence, text that holds JSON compared as JSON, other
// changed multi-line text as a line diff. Paths can be ignored (volatile
// fields: timestamps, ids), as JSON Pointers or in a simple dotted syntax.
// The history's comparisons (RerunCall, CompareCalls), the checks and the
// tool diff after a restart all use it.
package resultdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/linediff"
)

// Bounds of a diff, so a hostile or huge result cannot blow it up.
const (
	// MaxChanges bounds the changes listed (ResultDiff.Changes); the rest
	// are counted in a last change at path "" of kind "changed" that says
	// how many more there are.
	MaxChanges = 500
	// maxValue bounds Old and New of one change.
	maxValue = 2 << 10
	// maxLCS bounds the cells of an array alignment (longer arrays are
	// compared index by index).
	maxLCS = 250_000
	// maxDepth bounds nesting (JSON inside text inside JSON ...).
	maxDepth = 200
)

// Compare reports how b differs from a, leaving out differences under the
// ignore paths (see ParsePath). Both must be JSON; a value that is not is
// compared as text.
func Compare(a, b json.RawMessage, ignore []string) (contract.ResultDiff, error) {
	var ig [][]string
	for _, p := range ignore {
		segs, err := ParsePath(p)
		if err != nil {
			return contract.ResultDiff{}, err
		}
		ig = append(ig, segs)
	}
	av, bv := decode(a), decode(b)
	d := &differ{ignore: ig}
	d.walk(nil, av, bv, 0)
	out := contract.ResultDiff{Equal: len(d.changes) == 0 && d.more == 0, Changes: d.changes, Ignored: d.ignored}
	if d.more > 0 {
		msg, _ := json.Marshal(fmt.Sprintf("%d more change(s) not listed", d.more))
		out.Changes = append(out.Changes, contract.PathChange{Path: "", Kind: contract.ChangeChanged, New: msg})
	}
	return out, nil
}

// decode reads raw as a JSON value with numbers kept as written; what is
// not JSON becomes its text.
func decode(raw json.RawMessage) any {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return string(raw)
	}
	return v
}

type differ struct {
	ignore  [][]string
	changes []contract.PathChange
	more    int
	ignored int
}

// ignored reports whether path is under an ignore path.
func (d *differ) isIgnored(path []string) bool {
	for _, ig := range d.ignore {
		if len(ig) > len(path) {
			continue
		}
		match := true
		for i, s := range ig {
			if s != "*" && s != path[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func (d *differ) add(path []string, kind string, a, b any, lines []string) {
	if d.isIgnored(path) {
		d.ignored++
		return
	}
	if len(d.changes) >= MaxChanges {
		d.more++
		return
	}
	c := contract.PathChange{Path: Pointer(path), Kind: kind, Lines: lines}
	if kind != contract.ChangeAdded {
		c.Old = encode(a)
	}
	if kind != contract.ChangeRemoved {
		c.New = encode(b)
	}
	d.changes = append(d.changes, c)
}

// encode is v as compact JSON, cut to maxValue (then a string that says
// how long it was).
func encode(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage(strconv.Quote(fmt.Sprint(v)))
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	if len(b) <= maxValue {
		return json.RawMessage(b)
	}
	cut := string(b[:maxValue])
	cut = strings.ToValidUTF8(cut, "")
	s, _ := json.Marshal(fmt.Sprintf("%s… (%d bytes in all)", cut, len(b)))
	return s
}

func (d *differ) walk(path []string, a, b any, depth int) {
	if depth > maxDepth {
		if !equal(a, b) {
			d.add(path, contract.ChangeChanged, a, b, nil)
		}
		return
	}
	if d.isIgnored(path) {
		if !equal(a, b) {
			d.ignored++
		}
		return
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			d.add(path, contract.ChangeChanged, a, b, nil)
			return
		}
		keys := make([]string, 0, len(av)+len(bv))
		for k := range av {
			keys = append(keys, k)
		}
		for k := range bv {
			if _, ok := av[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			x, inA := av[k]
			y, inB := bv[k]
			p := append(path[:len(path):len(path)], k)
			switch {
			case !inB:
				d.add(p, contract.ChangeRemoved, x, nil, nil)
			case !inA:
				d.add(p, contract.ChangeAdded, nil, y, nil)
			default:
				d.walk(p, x, y, depth+1)
			}
		}
	case []any:
		bv, ok := b.([]any)
		if !ok {
			d.add(path, contract.ChangeChanged, a, b, nil)
			return
		}
		d.walkArray(path, av, bv, depth)
	case string:
		bv, ok := b.(string)
		if !ok {
			d.add(path, contract.ChangeChanged, a, b, nil)
			return
		}
		if av == bv {
			return
		}
		// Text that holds JSON (a result serialised into content[].text)
		// is compared as JSON.
		if ja, jb, ok := bothJSON(av, bv); ok {
			d.walk(path, ja, jb, depth+1)
			return
		}
		if strings.Contains(av, "\n") || strings.Contains(bv, "\n") {
			d.add(path, contract.ChangeChanged, a, b, LineDiff(av, bv))
			return
		}
		d.add(path, contract.ChangeChanged, a, b, nil)
	default:
		if !equal(a, b) {
			d.add(path, contract.ChangeChanged, a, b, nil)
		}
	}
}

// bothJSON decodes two strings that each hold a JSON object or array.
func bothJSON(a, b string) (any, any, bool) {
	isDoc := func(s string) bool {
		s = strings.TrimSpace(s)
		return len(s) > 1 && (s[0] == '{' || s[0] == '[')
	}
	if !isDoc(a) || !isDoc(b) {
		return nil, nil, false
	}
	ja, jb := decode(json.RawMessage(a)), decode(json.RawMessage(b))
	if _, isStr := ja.(string); isStr {
		return nil, nil, false
	}
	if _, isStr := jb.(string); isStr {
		return nil, nil, false
	}
	return ja, jb, true
}

// walkArray aligns the arrays by their longest common subsequence of equal
// elements; between matches, elements are paired by position (and
// compared), the rest added or removed. Paths name the element's index in
// the new array (added, changed) or the old one (removed).
func (d *differ) walkArray(path []string, a, b []any, depth int) {
	idx := func(i int) []string { return append(path[:len(path):len(path)], strconv.Itoa(i)) }
	if len(a)*len(b) > maxLCS {
		n := min(len(a), len(b))
		for i := 0; i < n; i++ {
			d.walk(idx(i), a[i], b[i], depth+1)
		}
		for i := n; i < len(a); i++ {
			d.add(idx(i), contract.ChangeRemoved, a[i], nil, nil)
		}
		for i := n; i < len(b); i++ {
			d.add(idx(i), contract.ChangeAdded, nil, b[i], nil)
		}
		return
	}
	pairs := lcs(a, b)
	ai, bi := 0, 0
	gap := func(aEnd, bEnd int) {
		for ai < aEnd && bi < bEnd {
			d.walk(idx(bi), a[ai], b[bi], depth+1)
			ai, bi = ai+1, bi+1
		}
		for ; ai < aEnd; ai++ {
			d.add(idx(ai), contract.ChangeRemoved, a[ai], nil, nil)
		}
		for ; bi < bEnd; bi++ {
			d.add(idx(bi), contract.ChangeAdded, nil, b[bi], nil)
		}
	}
	for _, p := range pairs {
		gap(p[0], p[1])
		ai, bi = p[0]+1, p[1]+1
	}
	gap(len(a), len(b))
}

// lcs returns the index pairs of a longest common subsequence of equal
// elements.
func lcs(a, b []any) [][2]int {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return nil
	}
	// Canonical forms make the n*m comparisons cheap.
	ka, kb := make([]string, n), make([]string, m)
	for i, v := range a {
		ka[i] = canonical(v)
	}
	for j, v := range b {
		kb[j] = canonical(v)
	}
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ka[i] == kb[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case ka[i] == kb[j]:
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case t[i+1][j] >= t[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// canonical is v as JSON with sorted keys (encoding/json sorts map keys)
// and numbers normalised, for equality.
func canonical(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(normNumbers(v))
	return buf.String()
}

// normNumbers rewrites numbers so 1, 1.0 and 1e0 compare equal.
func normNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			return x // integers as written: big ones stay exact
		}
		if f, err := strconv.ParseFloat(string(x), 64); err == nil {
			if f == float64(int64(f)) && f < 1<<53 && f > -(1<<53) {
				return json.Number(strconv.FormatInt(int64(f), 10))
			}
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normNumbers(e)
		}
		return out
	}
	return v
}

// equal compares two decoded values (numbers by value).
func equal(a, b any) bool {
	if an, ok := a.(json.Number); ok {
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		if an == bn {
			return true
		}
		return normNumbers(an) == normNumbers(bn)
	}
	switch a.(type) {
	case map[string]any, []any:
		return canonical(a) == canonical(b)
	}
	return a == b
}

// LineDiff is a line diff of two texts: unified hunks with 2 lines of
// context ("@@ -1,3 +1,3 @@", " kept", "-old", "+new"), at most 400 lines
// (then a last line says how many more).
func LineDiff(a, b string) []string {
	lines, err := linediff.Unified(a, b, 2)
	if err != nil {
		return []string{"(no line diff: " + err.Error() + ")"}
	}
	const most = 400
	var out []string
	for _, l := range lines[:min(len(lines), most)] {
		if l.Op == linediff.Hunk {
			out = append(out, l.Text)
		} else {
			out = append(out, string(l.Op)+l.Text)
		}
	}
	if len(lines) > most {
		out = append(out, fmt.Sprintf("(%d more diff lines)", len(lines)-most))
	}
	return out
}

// Pointer renders path segments as a JSON Pointer (RFC 6901).
func Pointer(path []string) string {
	var b strings.Builder
	for _, s := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s))
	}
	return b.String()
}

// ParsePath reads a path: a JSON Pointer ("/structuredContent/items/0/id",
// "" or "/" for the whole value) or the simple syntax
// ("structuredContent.items[0].id", "items[*].id", `meta["a.b"]`). "*"
// matches any key or index.
func ParsePath(p string) ([]string, error) {
	p = strings.TrimSpace(p)
	if p == "" || p == "/" {
		return []string{}, nil
	}
	if strings.HasPrefix(p, "/") {
		parts := strings.Split(p[1:], "/")
		for i, s := range parts {
			if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(s, "~0", ""), "~1", ""), "~") {
				return nil, fmt.Errorf("path %q: %q is not a valid JSON Pointer segment (~ must be ~0 or ~1)", p, s)
			}
			parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
		}
		return parts, nil
	}
	var segs []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			segs = append(segs, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '.':
			if cur.Len() == 0 && (i == 0 || p[i-1] != ']') {
				return nil, fmt.Errorf("path %q: empty name before '.' at %d", p, i)
			}
			flush()
		case '[':
			flush()
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: '[' at %d is not closed", p, i)
			}
			inner := p[i+1 : i+end]
			if len(inner) >= 2 && (inner[0] == '"' || inner[0] == '\'') {
				// A quoted key may hold ']' or '.': find its closing quote.
				q := inner[0]
				close := strings.IndexByte(p[i+2:], q)
				if close < 0 {
					return nil, fmt.Errorf("path %q: quote at %d is not closed", p, i+1)
				}
				key := p[i+2 : i+2+close]
				rest := i + 2 + close + 1
				if rest >= len(p) || p[rest] != ']' {
					return nil, fmt.Errorf("path %q: expected ']' after the quoted key at %d", p, rest)
				}
				segs = append(segs, key)
				i = rest
				continue
			}
			if inner != "*" {
				if _, err := strconv.Atoi(inner); err != nil {
					return nil, fmt.Errorf("path %q: [%s] is neither an index, * nor a quoted key", p, inner)
				}
			}
			segs = append(segs, inner)
			i += end
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	if len(segs) == 0 {
		return nil, fmt.Errorf("path %q names nothing", p)
	}
	return segs, nil
}
