package jsonrpc

import (
	"bytes"
)

// Top holds the raw values of a frame's top-level members, found by Scan
// in one pass over its bytes without decoding anything: the proxy's fast
// path reads a frame's method, id and params this way and forwards the
// bytes as they are.
type Top struct {
	JSONRPC, ID, Method, Params, Result, Error []byte // nil when absent
	// Other is set when the object has any other member, or a key that
	// is escaped (whose meaning Scan does not work out).
	Other bool
	// Dup is set when a member is given twice (encoding/json keeps the
	// last; Scan keeps the first, so callers must not rely on either).
	Dup bool
}

// Scan finds the top-level members of the JSON object b. It does not
// validate the values (json.Valid does that); ok is false when b is not an
// object or is cut short where Scan looks. Keys match exactly (encoding/json
// also matches them case-insensitively: "Method" is Other here).
func Scan(b []byte) (t Top, ok bool) {
	ok = EachMember(b, func(key, v []byte) bool {
		t.set(key, v)
		return true
	})
	return t, ok
}

// EachMember calls f with the key (raw, unquoted, escapes left as they
// are) and raw value of each top-level member of the JSON object b, in
// order, until f returns false. It reports false when b is not an object
// or is cut short where it looks (values are not validated: json.Valid
// does that).
func EachMember(b []byte, f func(key, value []byte) bool) bool {
	return EachMemberAt(b, func(key []byte, start, end int) bool { return f(key, b[start:end:end]) })
}

// EachMemberAt is EachMember with each value given as its offsets in b
// (b[start:end]), for callers that keep positions rather than slices.
func EachMemberAt(b []byte, f func(key []byte, start, end int) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		ks := i + 1
		j, ok := skipString(b, i)
		if !ok {
			return false
		}
		key := b[ks : j-1 : j-1]
		i = skipSpace(b, j)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		vs := i
		if i, ok = skipValue(b, i); !ok {
			return false
		}
		if !f(key, vs, i) {
			return true
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
}

// eachElement walks the array starting at b[i] ('[') and returns the index
// just past it (-1 when f stopped it early).
func eachElement(b []byte, i int, f func(value []byte) bool) (int, bool) {
	if i >= len(b) || b[i] != '[' {
		return 0, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		if i >= len(b) {
			return 0, false
		}
		vs := i
		var ok bool
		if i, ok = skipValue(b, i); !ok || i == vs {
			return 0, false
		}
		if !f(b[vs:i:i]) {
			return -1, true
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// ArrayMember splits the object b in one pass: the elements of its
// member key, which must be an array, go to elem (slices of b); every
// other member goes to other. A tools/list page of 100,000 tools is
// walked once, not once to find "tools" and again to split it. It reports
// false when b is not an object, key is not an array, or b is cut short
// (values are not validated); found says whether key was there. A null
// key counts as an empty array, as encoding/json decodes it.
func ArrayMember(b []byte, key string, elem func(value []byte), other func(key, value []byte)) (found, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return false, skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return found, false
		}
		ks := i + 1
		j, sok := skipString(b, i)
		if !sok {
			return found, false
		}
		k := b[ks : j-1 : j-1]
		i = skipSpace(b, j)
		if i >= len(b) || b[i] != ':' {
			return found, false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return found, false
		}
		if string(k) == key && hasLit(b, i, "null") {
			found = true // null decodes as an empty slice
			i += 4
		} else if string(k) == key {
			found = true
			var aok bool
			if i, aok = eachElement(b, i, func(v []byte) bool { elem(v); return true }); !aok {
				return found, false
			}
		} else {
			vs := i
			var vok bool
			if i, vok = skipValue(b, i); !vok {
				return found, false
			}
			other(k, b[vs:i:i])
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return found, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return found, skipSpace(b, i+1) == len(b)
		default:
			return found, false
		}
	}
}

func (t *Top) set(key, v []byte) {
	var dst *[]byte
	switch string(key) {
	case "jsonrpc":
		dst = &t.JSONRPC
	case "id":
		dst = &t.ID
	case "method":
		dst = &t.Method
	case "params":
		dst = &t.Params
	case "result":
		dst = &t.Result
	case "error":
		dst = &t.Error
	default:
		t.Other = true
		return
	}
	if *dst != nil {
		t.Dup = true
		return
	}
	*dst = v
}

// Member returns the raw value of the top-level member key of the JSON
// object b (nil when absent, when b is not an object, or when key is given
// more than once), in one scan without decoding. Escaped keys never match.
func Member(b []byte, key string) []byte {
	var found []byte
	n := 0
	if !EachMember(b, func(k, v []byte) bool {
		if string(k) == key {
			found = v
			n++
		}
		return true
	}) || n != 1 {
		return nil
	}
	return found
}

// PlainString returns the contents of the JSON string s when it needs no
// unescaping (no backslash, no control character); ok is false otherwise.
func PlainString(s []byte) ([]byte, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return nil, false
	}
	in := s[1 : len(s)-1]
	for _, c := range in {
		if c == '\\' || c == '"' || c < 0x20 {
			return nil, false
		}
	}
	return in, true
}

// PlainInt parses a JSON number that is a plain decimal integer (no
// fraction, exponent, leading zero or plus sign) that fits in an int64.
func PlainInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	s := b
	if s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if b[0] == '-' {
		n = -n
	}
	return n, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at b[i] ('"').
func skipString(b []byte, i int) (int, bool) {
	start := i + 1
	i = start
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return 0, false
		}
		i += j
		n := 0
		for k := i - 1; k >= start && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i + 1, true
		}
		i++
	}
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) (int, bool) {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				j, ok := skipString(b, i)
				if !ok {
					return 0, false
				}
				i = j
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	}
	for i < len(b) { // number, true, false, null
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i, true
		}
		i++
	}
	return i, true
}
