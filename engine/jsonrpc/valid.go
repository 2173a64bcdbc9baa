package jsonrpc

import "encoding/json"

// Valid reports whether b is one valid JSON value, exactly as json.Valid
// does (FuzzValid checks), in one tight pass: the proxy's fast path
// validates every frame it forwards, and encoding/json's scanner (a
// function call per byte) costs several microseconds on a cold cache
// between a read and the write that follows it. Nesting deeper than 256
// levels is left to json.Valid.
func Valid(b []byte) bool {
	ok, _ := validate(b, nil)
	return ok
}

// ScanValid is Scan and Valid in one pass: it reports whether b is valid
// JSON and an object, with its top-level members.
func ScanValid(b []byte) (t Top, ok bool) {
	ok, obj := validate(b, &t)
	return t, ok && obj
}

// validate checks b and, when t is not nil, records the members of a
// top-level object in t (obj reports that b is one).
func validate(b []byte, t *Top) (ok, obj bool) {
	end, ok, obj := validateAt(b, skipSpace(b, 0), t, false)
	return ok && skipSpace(b, end) == len(b), obj
}

// validValue checks the JSON value starting at b[i] (no space before it)
// and returns the index just past it; what follows is not looked at. It
// reports false for a value nested deeper than 256 levels (which Valid
// leaves to json.Valid) as well as for an invalid or cut-short one.
func validValue(b []byte, i int) (end int, ok bool) {
	end, ok, _ = validateAt(b, i, nil, true)
	return end, ok
}

// validateAt checks the value starting at b[i] and returns the index just
// past it; t and obj as for validate. one: the value need not be all of b
// (validValue), and too deep a nesting fails instead of going to
// json.Valid.
func validateAt(b []byte, i int, t *Top, one bool) (end int, ok, obj bool) {
	var stack [256]byte // '{' or '[' per open level
	depth := 0
	var key []byte                  // the top-level member being read
	vs := -1                        // where its value starts
	obj = i < len(b) && b[i] == '{' // ScanValid uses it only when ok
	for {
		// A value starts at b[i].
		if i >= len(b) {
			return 0, false, obj
		}
		if depth == 1 {
			vs = i
		}
		switch c := b[i]; {
		case c == '{' || c == '[':
			if depth == len(stack) {
				if one {
					return 0, false, obj
				}
				if t != nil {
					*t = Top{}
					var sok bool
					if *t, sok = Scan(b); !sok {
						return 0, false, false
					}
				}
				return len(b), json.Valid(b), obj
			}
			stack[depth] = c
			depth++
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				depth--
				i++
				goto afterValue
			}
			if c == '{' {
				goto key
			}
			continue
		case c == '"':
			var sok bool
			if i, sok = validString(b, i); !sok {
				return 0, false, obj
			}
		case c == '-' || c >= '0' && c <= '9':
			var nok bool
			if i, nok = validNumber(b, i); !nok {
				return 0, false, obj
			}
		case c == 't':
			if !hasLit(b, i, "true") {
				return 0, false, obj
			}
			i += 4
		case c == 'f':
			if !hasLit(b, i, "false") {
				return 0, false, obj
			}
			i += 5
		case c == 'n':
			if !hasLit(b, i, "null") {
				return 0, false, obj
			}
			i += 4
		default:
			return 0, false, obj
		}
	afterValue:
		if depth == 1 && vs >= 0 && t != nil && obj {
			t.set(key, b[vs:i:i])
			vs = -1
		}
		if depth == 0 {
			return i, true, obj
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, false, obj
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
			if stack[depth-1] == '{' {
				goto key
			}
			continue
		case stack[depth-1] + 2:
			depth--
			i++
			goto afterValue
		}
		return 0, false, obj
	key:
		// A member's key and colon at b[i], then its value.
		if i >= len(b) || b[i] != '"' {
			return 0, false, obj
		}
		ks := i + 1
		var kok bool
		if i, kok = validString(b, i); !kok {
			return 0, false, obj
		}
		if depth == 1 {
			key = b[ks : i-1 : i-1]
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return 0, false, obj
		}
		i = skipSpace(b, i+1)
	}
}

// strSafe marks the bytes a string may hold as they are (not '"', '\\'
// or a control character).
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

// validString checks the string starting at b[i] ('"') and returns the
// index just past it.
func validString(b []byte, i int) (int, bool) {
	i++
	for {
		for i < len(b) && strSafe[b[i]] {
			i++
		}
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case '"':
			return i + 1, true
		case '\\':
			if i+1 >= len(b) {
				return 0, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+5 >= len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return 0, false
				}
				i += 6
			default:
				return 0, false
			}
		default: // a control character
			return 0, false
		}
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// validNumber checks the number starting at b[i] and returns the index
// just past it: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	digits := func() bool {
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > s
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return 0, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return 0, false
		}
	}
	return i, true
}

func hasLit(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}
