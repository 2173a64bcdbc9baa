package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// RedactedValue replaces a redacted value in a recorded call.
const RedactedValue = "[redacted]"

// maxRedactDepth bounds the nesting redact walks; a value nested deeper
// (hostile input) is replaced whole.
const maxRedactDepth = 256

// redactor hides values of recorded arguments and results before they are
// written (history.redact). A rule without a dot is a key name, matched
// at any depth in both; a rule starting with "arguments." or "result." is
// a path from that root, one key (or array index) per dot. Names and
// path segments are path.Match globs compared case-insensitively with '_'
// and '-' ignored, so "*token" matches access_token and X-Auth-Token.
//
// It runs in the writer goroutine over every recorded value, so it scans
// the JSON bytes once without decoding them (a token decoder made an
// entry 35 times slower to write) and copies them only when something
// matches.
type redactor struct {
	keys  []glob
	paths map[string][][]glob // root -> segment lists
}

// glob is one normalized pattern: path.Match, or for the usual patterns
// made only of '*' and text, a prefix/suffix/contains check.
type glob struct {
	pattern string
	parts   [][]byte // split at '*' when simple
	simple  bool
}

func newGlob(p string) (glob, error) {
	p = normKey(p)
	if _, err := path.Match(p, ""); err != nil || p == "" {
		return glob{}, fmt.Errorf("bad pattern")
	}
	g := glob{pattern: p}
	if !strings.ContainsAny(p, `?[\`) {
		g.simple = true
		for _, part := range strings.Split(p, "*") {
			g.parts = append(g.parts, []byte(part))
		}
	}
	return g, nil
}

// match reports whether the normalized key k matches.
func (g glob) match(k string) bool { return g.matchBytes([]byte(k)) }

// matchBytes is match for a key the scanner normalized into its buffer
// (no allocation for the usual patterns).
func (g glob) matchBytes(k []byte) bool {
	if !g.simple {
		ok, _ := path.Match(g.pattern, string(k))
		return ok
	}
	if len(g.parts) == 1 {
		return string(k) == g.pattern
	}
	first, last := g.parts[0], g.parts[len(g.parts)-1]
	if len(k) < len(first)+len(last) || !bytes.HasPrefix(k, first) || !bytes.HasSuffix(k, last) {
		return false
	}
	mid := k[len(first) : len(k)-len(last)]
	for _, p := range g.parts[1 : len(g.parts)-1] {
		i := bytes.Index(mid, p)
		if i < 0 {
			return false
		}
		mid = mid[i+len(p):]
	}
	return true
}

// appendNorm appends normKey(raw) for a key's raw JSON text (without
// quotes), decoding escapes first when it has any.
func appendNorm(b, raw []byte) []byte {
	if bytes.IndexByte(raw, '\\') >= 0 {
		var s string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) == nil {
			return append(b, normKey(s)...)
		}
	}
	for _, c := range raw {
		switch {
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 0x80: // not ASCII: strings.ToLower's way
			return append(b[:0], normKey(string(raw))...)
		default:
			b = append(b, c)
		}
	}
	return b
}

func newRedactor(rules []string) (*redactor, error) {
	r := &redactor{paths: map[string][][]glob{}}
	for _, rule := range rules {
		rule = strings.TrimSpace(rule)
		if rule == "" {
			continue
		}
		segs := strings.Split(rule, ".")
		globs := make([]glob, len(segs))
		for i, s := range segs {
			g, err := newGlob(s)
			if err != nil {
				return nil, fmt.Errorf("history: redact rule %q: not a key name or a dotted path of globs", rule)
			}
			globs[i] = g
		}
		if len(segs) == 1 {
			r.keys = append(r.keys, globs[0])
			continue
		}
		root := segs[0]
		if root != "arguments" && root != "result" {
			return nil, fmt.Errorf("history: redact rule %q: a path starts with \"arguments.\" or \"result.\"", rule)
		}
		r.paths[root] = append(r.paths[root], globs[1:])
	}
	if len(r.keys) == 0 && len(r.paths) == 0 {
		return nil, nil
	}
	return r, nil
}

// normKey is how keys and rules are compared: lower case, without '_' and
// '-'.
func normKey(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '_' || c == '-' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	s = strings.ToLower(s)
	if strings.ContainsAny(s, "_-") {
		s = strings.NewReplacer("_", "", "-", "").Replace(s)
	}
	return s
}

// redact returns v (valid JSON under root) with the matching values
// replaced by RedactedValue, and whether anything was; v itself when
// nothing was.
func (r *redactor) redact(root string, v []byte) ([]byte, bool) {
	if r == nil || len(v) == 0 {
		return v, false
	}
	sc := scanner{r: r, v: v, paths: r.paths[root]}
	if _, ok := sc.value(skipSpace(v, 0), 0); !ok {
		// Nested too deep to walk: nothing of it is kept.
		return strconv.AppendQuote(nil, RedactedValue), true
	}
	if sc.out == nil {
		return v, false
	}
	return append(sc.out, v[sc.copied:]...), true
}

// scanner walks one valid JSON value; out (nil until something matches)
// holds v up to copied with matching values replaced.
type scanner struct {
	r      *redactor
	v      []byte
	paths  [][]glob
	at     []string // the path, kept only when there are path rules
	out    []byte
	copied int
	key    []byte // the current key, normalized
}

func skipSpace(v []byte, i int) int {
	for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r') {
		i++
	}
	return i
}

// value scans the value at i, returning the index after it.
func (s *scanner) value(i, depth int) (int, bool) {
	if i >= len(s.v) {
		return i, true
	}
	switch s.v[i] {
	case '{':
		return s.object(i, depth+1)
	case '[':
		return s.array(i, depth+1)
	case '"':
		return s.str(i), true
	}
	for i < len(s.v) {
		switch s.v[i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return i, true
		}
		i++
	}
	return i, true
}

// str returns the index after the string starting at i.
func (s *scanner) str(i int) int {
	for i++; i < len(s.v); i++ {
		switch s.v[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

func (s *scanner) object(i, depth int) (int, bool) {
	if depth > maxRedactDepth {
		return i, false
	}
	i = skipSpace(s.v, i+1)
	for i < len(s.v) && s.v[i] != '}' {
		end := s.str(i)
		s.key = appendNorm(s.key[:0], s.v[i+1:max(i+1, end-1)])
		i = skipSpace(s.v, end)
		i = skipSpace(s.v, i+1) // the ':'
		if len(s.paths) > 0 {
			s.at = append(s.at, string(s.key))
		}
		start := i
		var ok bool
		if s.matches() {
			i, ok = s.value(i, depth)
			if !ok { // too deep below a value that goes anyway
				ok = true
				i = s.skipDeep(start)
			}
			s.out = append(s.out, s.v[s.copied:start]...)
			s.out = strconv.AppendQuote(s.out, RedactedValue)
			s.copied = i
		} else if i, ok = s.value(i, depth); !ok {
			return i, false
		}
		if len(s.paths) > 0 {
			s.at = s.at[:len(s.at)-1]
		}
		i = skipSpace(s.v, i)
		if i < len(s.v) && s.v[i] == ',' {
			i = skipSpace(s.v, i+1)
		}
	}
	return i + 1, true
}

func (s *scanner) array(i, depth int) (int, bool) {
	if depth > maxRedactDepth {
		return i, false
	}
	i = skipSpace(s.v, i+1)
	for n := 0; i < len(s.v) && s.v[i] != ']'; n++ {
		if len(s.paths) > 0 {
			s.at = append(s.at, strconv.Itoa(n))
		}
		start := i
		var ok bool
		if len(s.paths) > 0 && s.matchesPath() {
			if i, ok = s.value(i, depth); !ok {
				i = s.skipDeep(start)
			}
			s.out = append(s.out, s.v[s.copied:start]...)
			s.out = strconv.AppendQuote(s.out, RedactedValue)
			s.copied = i
		} else if i, ok = s.value(i, depth); !ok {
			return i, false
		}
		if len(s.paths) > 0 {
			s.at = s.at[:len(s.at)-1]
		}
		i = skipSpace(s.v, i)
		if i < len(s.v) && s.v[i] == ',' {
			i = skipSpace(s.v, i+1)
		}
	}
	return i + 1, true
}

// skipDeep returns the index after the value at i without a depth bound
// (brackets counted, strings skipped).
func (s *scanner) skipDeep(i int) int {
	depth := 0
	for i < len(s.v) {
		switch s.v[i] {
		case '"':
			i = s.str(i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return i
}

// matches reports whether the value under s.key (at s.at) is hidden.
func (s *scanner) matches() bool {
	for _, g := range s.r.keys {
		if g.matchBytes(s.key) {
			return true
		}
	}
	return len(s.paths) > 0 && s.matchesPath()
}

func (s *scanner) matchesPath() bool {
	for _, p := range s.paths {
		if len(p) != len(s.at) {
			continue
		}
		all := true
		for i, g := range p {
			if !g.match(s.at[i]) { // normalized when pushed
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// keyInText finds the object keys of a value's start (a truncated value
// is not JSON any more). Compiled on first use: its bounded repetition
// makes a 140 KB program, which every genui start paid at init.
var keyInText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"((?:[^"\\]|\\.){1,200})"\s*:`) })

// prefixHolds reports whether a truncated value's start has a key a rule
// names (its last segment, for paths): such a start is not kept.
func (r *redactor) prefixHolds(prefix []byte) bool {
	if r == nil {
		return false
	}
	for _, m := range keyInText().FindAllSubmatch(prefix, -1) {
		key := normKey(string(m[1]))
		for _, k := range r.keys {
			if k.match(key) {
				return true
			}
		}
		for _, ps := range r.paths {
			for _, p := range ps {
				if p[len(p)-1].match(key) {
					return true
				}
			}
		}
	}
	return false
}
