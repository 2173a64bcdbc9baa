package jsonrpc

import "encoding/json"

// ResultArrayStream validates a long response frame while it is read and
// finds the elements of one array in its result (result.tools of a
// tools/list answer) as they arrive, so that neither waits for the last
// byte: 100,000 tools are one 36 MB line, and validating it, then
// splitting the array, each took a pass over it after it was read.
//
// A FrameReader feeds it each piece of a long line (FrameReader.Stream);
// Finish then says whether the line is a frame of that shape, valid as a
// whole, and where the elements are. It is an optimisation only: anything
// it does not follow (another shape, a member given twice, an escaped
// key, an element over maxStreamCarry, JSON that is not valid) makes
// Finish report false, and the caller reads the line the ordinary way,
// which then finds what is wrong.
//
// How it validates: each element is validated on its own (where it lies
// in a piece, or copied together when it spans two), the separators
// between them are checked, and the rest of the line (the bytes before the
// array and after it, kept) is validated with an empty array in the
// array's place. A JSON text is valid exactly when that holds.
type ResultArrayStream struct {
	key string // the result member whose array is followed

	state int
	n     int    // bytes fed so far (offset of the next byte in the line)
	head  []byte // the line so far, while looking for the array
	open  int    // offset of the array's '['
	close int    // offset just past its ']'
	carry []byte // an element (or its start) cut by the end of a piece
	carAt int    // the line offset of carry[0]
	spare []byte // carry's other buffer
	elems []int  // start and end offset of each element, in pairs
	tail  int    // bytes fed after the array
}

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

// Reset starts a new line.
func (s *ResultArrayStream) Reset() {
	s.state, s.n, s.open, s.close, s.tail = streamHead, 0, 0, 0, 0
	s.head, s.carry = s.head[:0], s.carry[:0]
	s.elems = s.elems[:0]
	if cap(s.elems) > 1<<16 { // a big list's offsets are not kept for the next
		s.elems = nil
	}
	if cap(s.carry) > 64<<10 || cap(s.spare) > 64<<10 {
		s.carry, s.spare = nil, nil
	}
}

// Write feeds the next piece of the line (which may include the line's
// end). p is not kept.
func (s *ResultArrayStream) Write(p []byte) {
	base := s.n
	s.n += len(p)
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
		s.open, s.state = at, streamFirst
		s.elements(s.head[at+1:], at+1) // copies what it carries
		s.head = s.head[:0]
		return
	}
	for len(p) > 0 {
		switch {
		case s.state == streamFailed:
			return
		case s.state == streamTail:
			s.addTail(len(p))
			return
		case len(s.carry) == 0:
			s.elements(p, base)
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
		p, base = p[n:], base+n
		end, ok := validValue(s.carry, 0)
		if ok && end < len(s.carry) {
			at := s.carAt
			s.elems = append(s.elems, at, at+end)
			s.state = streamSep
			rest := s.carry[end:]
			s.carry, s.spare = s.spare[:0], s.carry
			s.elements(rest, at+end) // may start a new carry, in the other buffer
		}
	}
}

// elements reads array content b at line offset base: elements, the
// separators and the closing bracket; an element cut by b's end is carried
// to the next piece.
func (s *ResultArrayStream) elements(b []byte, base int) {
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
				s.closeArray(b[i+1:], base+i+1)
				return
			}
			s.state = streamFailed
			return
		case streamFirst:
			if b[i] == ']' {
				s.closeArray(b[i+1:], base+i+1)
				return
			}
		}
		end, ok := validValue(b, i)
		if !ok || end == len(b) {
			// Cut short (or invalid: the carry finds out, or the
			// ordinary read after Finish does).
			s.carry = append(s.carry[:0], b[i:]...)
			s.carAt = base + i
			return
		}
		s.elems = append(s.elems, base+i, base+end)
		s.state = streamSep
		i = end
	}
}

func (s *ResultArrayStream) closeArray(rest []byte, at int) {
	s.close, s.state = at, streamTail
	s.addTail(len(rest))
}

// addTail counts n bytes after the array (Finish reads them from the line).
func (s *ResultArrayStream) addTail(n int) {
	if s.tail += n; s.tail > maxStreamHead {
		s.state = streamFailed
	}
}

// StreamedResult is what a ResultArrayStream found in a valid line.
type StreamedResult struct {
	// Top is the frame's top-level members; Top.Result is the result
	// member as a slice of the line.
	Top Top
	// Elems are the array's elements, slices of the line.
	Elems []json.RawMessage
	// Rest is the result with the array left empty ("key":[]), for
	// reading its other members without walking the elements again.
	Rest []byte
}

// Finish reports whether line (the frame just read whole, whose bytes
// were all fed to Write, then its line end) is a valid JSON object with no
// member given twice or escaped, and with an array result.<key>, and
// returns what it found. The returned slices alias line, except Rest.
func (s *ResultArrayStream) Finish(line []byte) (StreamedResult, bool) {
	if s.state != streamTail || s.close > len(line) || s.n < len(line) || s.n-len(line) > 2 {
		return StreamedResult{}, false
	}
	// The stand-in: the line with an empty array where the array is.
	head, tail := line[:s.open], line[s.close:]
	stand := make([]byte, 0, len(head)+2+len(tail))
	stand = append(append(append(stand, head...), '[', ']'), tail...)
	top, ok := ScanValid(stand)
	if !ok || top.Other || top.Dup || top.Result == nil || top.Method != nil {
		return StreamedResult{}, false
	}
	// Where each member is (ScanValid's slices do not say), in the line.
	grow := s.close - s.open - 2 // the array's bytes beyond "[]"
	var r StreamedResult
	resStart, resEnd := -1, -1
	EachMemberAt(stand, func(key []byte, start, end int) bool {
		v := line[start:end:end]
		if start > s.open {
			v = line[start+grow : end+grow : end+grow]
		}
		switch string(key) {
		case "jsonrpc":
			r.Top.JSONRPC = v
		case "id":
			r.Top.ID = v
		case "params":
			r.Top.Params = v
		case "error":
			r.Top.Error = v
		case "result":
			resStart, resEnd = start, end
		}
		return true
	})
	// The placeholder must be the result's one member named key.
	if resStart < 0 || resStart > s.open || s.open+2 > resEnd {
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
	if keys != 1 || at != s.open {
		return StreamedResult{}, false
	}
	r.Top.Result = line[resStart : resEnd+grow : resEnd+grow]
	r.Rest = stand[resStart:resEnd:resEnd]
	r.Elems = make([]json.RawMessage, len(s.elems)/2)
	for k := range r.Elems {
		a, b := s.elems[2*k], s.elems[2*k+1]
		r.Elems[k] = line[a:b:b]
	}
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
