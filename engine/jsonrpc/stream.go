package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// ResultArrayStream validates a long response frame while it is read and
// finds the elements of one array in its result (result.tools of a
// tools/list answer) as they arrive, so that neither waits for the last
// byte: 100,000 tools are one 36 MB line, and validating it, then
// splitting the array, each took a pass over it after it was read.
//
// It is fed the pieces of a line (through a FrameReader's LineWatcher)
// and keeps slices of them: the pieces must stay valid and unchanged.
// Finish then says whether the line is a frame of that shape, valid as a
// whole, and gives the elements. It is an optimisation only: anything it
// does not follow (another shape, a member given twice, an escaped key, an
// element over maxStreamCarry, JSON that is not valid) makes Finish report
// false, and the line is read the ordinary way, which then finds what is
// wrong.
//
// How it validates: each element is validated on its own (where it lies
// in a piece, or copied together when it spans two), the separators
// between them are checked, and the rest of the line (the bytes before the
// array and after it, kept) is validated with an empty array in the
// array's place. A JSON text is valid exactly when that holds.
type ResultArrayStream struct {
	key string // the result member whose array is followed

	state int
	head  []byte            // the line before the array (while looking: all fed so far)
	tail  []byte            // the line after the array
	carry []byte            // an element (or its start) cut by the end of a piece
	elems []json.RawMessage // the elements found so far
	sent  int               // how many of them onFound has had
	// onFound gets the elements found by each Write (SetOnFound).
	onFound func(elems []json.RawMessage)
}

// SetOnFound makes each Write hand the elements it found to f, in order,
// before Finish (a consumer can work on them while the rest arrives). The
// slice is f's to keep; the elements are valid JSON each, but whether the
// line as a whole is valid only Finish says.
func (s *ResultArrayStream) SetOnFound(f func(elems []json.RawMessage)) { s.onFound = f }

// The stream's states.
const (
	streamHead   = iota // looking for the array
	streamFirst         // after '[': an element or ']'
	streamElem          // after ',': an element
	streamSep           // after an element: ',' or ']'
	streamTail          // after ']'
	streamFailed        // not followed; Finish reports false
)

// Bounds of what a stream holds: the line before its array and after it
// (a frame's id, jsonrpc and other members), and one element cut by the
// end of a piece (a tool with a large schema). Past them the stream gives
// up and the line is read the ordinary way.
const (
	maxStreamHead  = 256 << 10
	maxStreamCarry = 4 << 20
)

// NewResultArrayStream follows the array result.<key>.
func NewResultArrayStream(key string) *ResultArrayStream {
	return &ResultArrayStream{key: key}
}

// Reset starts a new line. What Finish returned stays as it is.
func (s *ResultArrayStream) Reset() {
	s.state, s.sent = streamHead, 0
	s.head, s.tail, s.elems = nil, nil, nil // handed out by Finish, or small
	s.carry = s.carry[:0]
	if cap(s.carry) > 64<<10 {
		s.carry = nil
	}
}

// Write feeds the next piece of the line (which may include the line's
// end). The elements found in p are slices of it: p must stay valid and
// unchanged.
func (s *ResultArrayStream) Write(p []byte) {
	s.write(p)
	if s.onFound != nil && len(s.elems) > s.sent {
		n := len(s.elems)
		s.onFound(s.elems[s.sent:n:n])
		s.sent = n
	}
}

func (s *ResultArrayStream) write(p []byte) {
	if s.state == streamHead {
		if len(s.head)+len(p) > maxStreamHead {
			s.state = streamFailed
			return
		}
		s.head = append(s.head, p...)
		at, found, more := resultArrayAt(s.head, s.key)
		switch {
		case more:
			return
		case !found:
			s.state = streamFailed
			return
		}
		// The elements in head keep slices of it: head is not written
		// again (Reset drops it).
		s.state = streamFirst
		s.elements(s.head[at+1 : len(s.head) : len(s.head)])
		s.head = s.head[:at:at]
		return
	}
	for len(p) > 0 {
		switch {
		case s.state == streamFailed:
			return
		case s.state == streamTail:
			s.addTail(p)
			return
		case len(s.carry) == 0:
			s.elements(p)
			return
		}
		// Complete the cut element: add to it, in growing steps, until it
		// validates with a byte after it (a number may go on).
		n := min(len(p), max(len(s.carry), 512))
		if len(s.carry)+n > maxStreamCarry {
			s.state = streamFailed
			return
		}
		s.carry = append(s.carry, p[:n]...)
		end, ok := validValue(s.carry, 0)
		if !ok || end == len(s.carry) {
			p = p[n:]
			continue
		}
		s.elems = append(s.elems, bytes.Clone(s.carry[:end]))
		s.state = streamSep
		p = p[n-(len(s.carry)-end):] // what follows the element is read in place
		s.carry = s.carry[:0]
	}
}

// elements reads array content b: elements, the separators and the
// closing bracket; an element cut by b's end is carried to the next piece.
func (s *ResultArrayStream) elements(b []byte) {
	i := 0
	for {
		i = skipSpace(b, i)
		if i >= len(b) || s.state == streamFailed || s.state == streamTail {
			return
		}
		switch s.state {
		case streamSep:
			switch b[i] {
			case ',':
				s.state = streamElem
				i++
				continue
			case ']':
				s.addTail(b[i+1:])
				return
			}
			s.state = streamFailed
			return
		case streamFirst:
			if b[i] == ']' {
				s.addTail(b[i+1:])
				return
			}
		}
		end, ok := validValue(b, i)
		if !ok || end == len(b) {
			// Cut short (or invalid: the carry finds out, or the
			// ordinary read after Finish does).
			s.carry = append(s.carry[:0], b[i:]...)
			return
		}
		s.elems = append(s.elems, b[i:end:end])
		s.state = streamSep
		i = end
	}
}

// addTail keeps p, bytes after the array.
func (s *ResultArrayStream) addTail(p []byte) {
	s.state = streamTail
	if len(s.tail)+len(p) > maxStreamHead {
		s.state = streamFailed
		return
	}
	s.tail = append(s.tail, p...)
}

// StreamedResult is what a ResultArrayStream found in a valid line.
type StreamedResult struct {
	// Top is the frame's top-level members except Result (copies).
	Top Top
	// Elems are the array's elements, slices of the pieces fed (an
	// element that spanned two is a copy).
	Elems []json.RawMessage
	// Rest is the result with the array left empty ("key":[]), for
	// reading its other members without walking the elements again.
	Rest []byte
}

// Finish reports whether the line fed since Reset, with its line end, is
// a valid JSON object with no member given twice or escaped, and with an
// array result.<key>, and returns what it found.
func (s *ResultArrayStream) Finish() (StreamedResult, bool) {
	if s.state != streamTail {
		return StreamedResult{}, false
	}
	// The stand-in: the line with an empty array where the array is.
	tail := bytes.TrimRight(s.tail, "\r\n")
	open := len(s.head)
	stand := make([]byte, 0, len(s.head)+2+len(tail))
	stand = append(append(append(stand, s.head...), '[', ']'), tail...)
	top, ok := ScanValid(stand)
	if !ok || top.Other || top.Dup || top.Result == nil || top.Method != nil {
		return StreamedResult{}, false
	}
	resStart, resEnd := -1, -1
	EachMemberAt(stand, func(key []byte, start, end int) bool {
		if string(key) == "result" {
			resStart, resEnd = start, end
		}
		return true
	})
	// The placeholder must be the result's one member named key.
	if resStart < 0 || resStart > open || open+2 > resEnd {
		return StreamedResult{}, false
	}
	keys, at := 0, -1
	EachMemberAt(stand[resStart:resEnd], func(key []byte, start, _ int) bool {
		if string(key) == s.key {
			keys++
			at = resStart + start
		}
		return true
	})
	if keys != 1 || at != open {
		return StreamedResult{}, false
	}
	top.Result = nil
	r := StreamedResult{Top: top, Elems: s.elems, Rest: stand[resStart:resEnd:resEnd]}
	s.elems = nil
	return r, true
}

// resultArrayAt finds, in the start of a frame, where the value of member
// key of the top-level member "result" begins, if it is an array: found
// with its offset, or more when b is too short to tell (members are only
// skipped, not validated: Finish validates).
func resultArrayAt(b []byte, key string) (at int, found, more bool) {
	i, ok, more := memberValue(b, skipSpace(b, 0), "result")
	if !ok {
		return 0, false, more
	}
	if i >= len(b) {
		return 0, false, true
	}
	if b[i] != '{' {
		return 0, false, false
	}
	i, ok, more = memberValue(b, i, key)
	if !ok {
		return 0, false, more
	}
	if i >= len(b) {
		return 0, false, true
	}
	return i, b[i] == '[', false
}

// memberValue walks the object starting at b[i] to the value of member
// key: ok with its offset, or more when b ends first.
func memberValue(b []byte, i int, key string) (at int, ok, more bool) {
	if i >= len(b) {
		return 0, false, true
	}
	if b[i] != '{' {
		return 0, false, false
	}
	i = skipSpace(b, i+1)
	for {
		if i >= len(b) {
			return 0, false, true
		}
		if b[i] != '"' {
			return 0, false, false
		}
		ks := i + 1
		j, sok := skipString(b, i)
		if !sok {
			return 0, false, true
		}
		k := b[ks : j-1]
		i = skipSpace(b, j)
		if i >= len(b) {
			return 0, false, true
		}
		if b[i] != ':' {
			return 0, false, false
		}
		i = skipSpace(b, i+1)
		if string(k) == key {
			return i, true, false
		}
		if i >= len(b) {
			return 0, false, true
		}
		var vok bool
		if i, vok = skipValue(b, i); !vok {
			return 0, false, true
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, false, true
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		default:
			return 0, false, false // '}' before key, or not an object
		}
	}
}
