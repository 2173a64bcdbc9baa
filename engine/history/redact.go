package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// RedactedValue replaces a redacted value in a recorded call.
const RedactedValue = "[redacted]"

// redactor hides values of recorded arguments and results before they are
// written (history.redact). A rule without a dot is a key name, matched
// at any depth in both; a rule starting with "arguments." or "result." is
// a path from that root, one key (or array index) per dot. Names and
// path segments are path.Match globs compared case-insensitively with '_'
// and '-' ignored, so "*token" matches access_token and X-Auth-Token.
type redactor struct {
	keys  []string
	paths map[string][][]string // root -> segment lists
}

func newRedactor(rules []string) (*redactor, error) {
	r := &redactor{paths: map[string][][]string{}}
	for _, rule := range rules {
		rule = strings.TrimSpace(rule)
		if rule == "" {
			continue
		}
		segs := strings.Split(rule, ".")
		for _, s := range segs {
			if _, err := path.Match(normKey(s), ""); err != nil || s == "" {
				return nil, fmt.Errorf("history: redact rule %q: not a key name or a dotted path of globs", rule)
			}
		}
		if len(segs) == 1 {
			r.keys = append(r.keys, normKey(rule))
			continue
		}
		root := segs[0]
		if root != "arguments" && root != "result" {
			return nil, fmt.Errorf("history: redact rule %q: a path starts with arguments. or result.", rule)
		}
		norm := make([]string, len(segs)-1)
		for i, s := range segs[1:] {
			norm[i] = normKey(s)
		}
		r.paths[root] = append(r.paths[root], norm)
	}
	if len(r.keys) == 0 && len(r.paths) == 0 {
		return nil, nil
	}
	return r, nil
}

// normKey is how keys and rules are compared: lower case, without '_' and
// '-'.
func normKey(s string) string {
	s = strings.ToLower(s)
	if strings.ContainsAny(s, "_-") {
		s = strings.NewReplacer("_", "", "-", "").Replace(s)
	}
	return s
}

// matches reports whether the value at at (the root's path, the last
// element the key) is to be hidden.
func (r *redactor) matches(root string, at []string) bool {
	key := normKey(at[len(at)-1])
	for _, k := range r.keys {
		if ok, _ := path.Match(k, key); ok {
			return true
		}
	}
	for _, p := range r.paths[root] {
		if len(p) != len(at) {
			continue
		}
		all := true
		for i, seg := range p {
			if ok, _ := path.Match(seg, normKey(at[i])); !ok {
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

// redact returns v (valid JSON under root) with the matching values
// replaced by RedactedValue, and whether anything was; v itself when
// nothing was.
func (r *redactor) redact(root string, v []byte) ([]byte, bool) {
	if r == nil || len(v) == 0 {
		return v, false
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var out bytes.Buffer
	out.Grow(len(v))
	changed, err := r.walk(dec, &out, root, nil, 0)
	if err != nil || !changed {
		return v, false
	}
	return out.Bytes(), true
}

var errTooDeep = errors.New("too deep")

// walk copies one value from dec to out, hiding what matches.
func (r *redactor) walk(dec *json.Decoder, out *bytes.Buffer, root string, at []string, depth int) (bool, error) {
	if depth > 200 {
		return false, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	delim, isDelim := tok.(json.Delim)
	if !isDelim {
		switch x := tok.(type) {
		case string:
			out.Write(appendString(out.AvailableBuffer(), x))
		case json.Number:
			out.WriteString(x.String())
		case bool:
			out.WriteString(strconv.FormatBool(x))
		default:
			out.WriteString("null")
		}
		return false, nil
	}
	changed := false
	switch delim {
	case '{':
		out.WriteByte('{')
		for first := true; dec.More(); first = false {
			kt, err := dec.Token()
			if err != nil {
				return false, err
			}
			key, _ := kt.(string)
			if !first {
				out.WriteByte(',')
			}
			out.Write(appendString(out.AvailableBuffer(), key))
			out.WriteByte(':')
			here := append(at[:len(at):len(at)], key)
			if r.matches(root, here) {
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return false, err
				}
				out.WriteString(strconv.Quote(RedactedValue))
				changed = true
				continue
			}
			c, err := r.walk(dec, out, root, here, depth+1)
			if err != nil {
				return false, err
			}
			changed = changed || c
		}
		out.WriteByte('}')
	case '[':
		out.WriteByte('[')
		for i := 0; dec.More(); i++ {
			if i > 0 {
				out.WriteByte(',')
			}
			c, err := r.walk(dec, out, root, append(at[:len(at):len(at)], strconv.Itoa(i)), depth+1)
			if err != nil {
				return false, err
			}
			changed = changed || c
		}
		out.WriteByte(']')
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return false, err
	}
	return changed, nil
}

// keyInText finds the object keys of a value's start (a truncated value
// is not JSON any more).
var keyInText = regexp.MustCompile(`"((?:[^"\\]|\\.){1,200})"\s*:`)

// prefixHolds reports whether a truncated value's start has a key a rule
// names (its last segment, for paths): such a start is not kept.
func (r *redactor) prefixHolds(prefix []byte) bool {
	if r == nil {
		return false
	}
	for _, m := range keyInText.FindAllSubmatch(prefix, -1) {
		key := normKey(string(m[1]))
		for _, k := range r.keys {
			if ok, _ := path.Match(k, key); ok {
				return true
			}
		}
		for _, ps := range r.paths {
			for _, p := range ps {
				if ok, _ := path.Match(p[len(p)-1], key); ok {
					return true
				}
			}
		}
	}
	return false
}
