package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// streamIn feeds line (plus a newline) to a fresh stream in pieces cut at
// cuts (offsets, ascending) and finishes it.
func streamIn(line []byte, cuts []int) (StreamedResult, bool) {
	s := NewResultArrayStream("tools")
	fed := append(bytes.Clone(line), '\n')
	at := 0
	for _, c := range cuts {
		if c > at && c < len(fed) {
			s.Write(fed[at:c])
			at = c
		}
	}
	s.Write(fed[at:])
	return s.Finish()
}

// checkStream: whatever the pieces, a stream that finishes with a result
// agrees with the ordinary reading of the line (ScanValid, then
// ArrayMember over the result): the line is valid, has no duplicate or
// escaped member, and the elements and members are the same slices.
func checkStream(t *testing.T, line []byte, cuts []int) bool {
	t.Helper()
	got, ok := streamIn(line, cuts)
	if !ok {
		return false
	}
	top, tok := ScanValid(line)
	if !tok || top.Other || top.Dup || top.Method != nil {
		t.Fatalf("stream took %q (cuts %v), which the ordinary read refuses (ok %v, %+v)", line, cuts, tok, top)
	}
	for _, m := range [][2][]byte{{got.Top.ID, top.ID}, {got.Top.JSONRPC, top.JSONRPC}, {got.Top.Params, top.Params},
		{got.Top.Error, top.Error}} {
		if !bytes.Equal(m[0], m[1]) || (m[0] == nil) != (m[1] == nil) {
			t.Fatalf("stream of %q (cuts %v): member %q, the ordinary read %q", line, cuts, m[0], m[1])
		}
	}
	var want [][]byte
	others := 0
	found, aok := ArrayMember(top.Result, "tools", func(v []byte) { want = append(want, v) }, func(_, _ []byte) { others++ })
	if !found || !aok {
		t.Fatalf("stream took %q, whose result has no tools array", line)
	}
	if len(got.Elems) != len(want) {
		t.Fatalf("stream of %q (cuts %v): %d elements, want %d", line, cuts, len(got.Elems), len(want))
	}
	for i := range want {
		if !bytes.Equal(got.Elems[i], want[i]) {
			t.Fatalf("stream of %q: element %d is %q, want %q", line, i, got.Elems[i], want[i])
		}
	}
	rest := 0
	if _, rok := ArrayMember(got.Rest, "tools", func([]byte) { t.Fatalf("Rest %q has elements", got.Rest) }, func(_, _ []byte) { rest++ }); !rok || rest != others {
		t.Fatalf("Rest %q: %d other members, want %d", got.Rest, rest, others)
	}
	return true
}

// toolsLine is a tools/list answer with n tools.
func toolsLine(n int, before, after string) []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":7,"result":{` + before + `"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","description":"does \"%d\" things \u00e9","inputSchema":{"type":"object","properties":{"n":{"type":"number","default":%d.5e1}}},"x":[true,false,null,-0]}`, i, i, i)
	}
	b.WriteString(`]` + after + `}}`)
	return []byte(b.String())
}

// TestResultArrayStreamFollowsAnswers: tools/list answers of several
// shapes, cut into pieces everywhere, are followed (so the fast path is
// taken) and agree with the ordinary read.
func TestResultArrayStreamFollowsAnswers(t *testing.T) {
	lines := [][]byte{
		toolsLine(0, "", ""),
		toolsLine(1, "", ""),
		toolsLine(40, `"_meta":{"a":[1,{"b":"]"}]},`, `,"nextCursor":"c,]\"2"`),
		[]byte(`{"result":{"tools":[ 1 , "x" ,{"name":"a"} ,[ ] , 2e5 ] } ,"jsonrpc":"2.0","id":"s"}`),
		[]byte(" {\"id\":1,\"result\":{\"tools\":[1234567]}}\r"),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, line := range lines {
		if !checkStream(t, line, nil) {
			t.Fatalf("stream did not follow %q in one piece", line)
		}
		for c := 1; c <= len(line); c++ { // every single cut
			if !checkStream(t, line, []int{c}) {
				t.Fatalf("stream did not follow %q cut at %d", line, c)
			}
		}
		for range 200 { // many small pieces
			var cuts []int
			for at := 0; at < len(line); at += 1 + r.IntN(40) {
				cuts = append(cuts, at)
			}
			if !checkStream(t, line, cuts) {
				t.Fatalf("stream did not follow %q cut at %v", line, cuts)
			}
		}
	}
}

// TestResultArrayStreamRefuses: what the ordinary read must decide (or
// refuse) is never taken by the stream, wherever the line is cut.
func TestResultArrayStreamRefuses(t *testing.T) {
	for _, s := range []string{
		`{"id":1,"result":{"tools":[{"name":"a"},]}}`,             // trailing comma
		`{"id":1,"result":{"tools":[{"name":"a"} {"name":"b"}]}}`, // no comma
		`{"id":1,"result":{"tools":[{"name":"a\x01"}]}}`,          // control character
		`{"id":1,"result":{"tools":[{"name":"a"}]}`,               // cut short
		`{"id":1,"result":{"tools":[{"name":"a"}]}}}`,             // extra close
		`{"id":1,"result":{"tools":[{"name":"a"}]},"id":2}`,       // duplicate id
		`{"id":1,"result":{"tools":[1],"tools":[2]}}`,             // duplicate tools
		`{"id":1,"result":{"tools":[1]},"result":{"tools":[2]}}`,  // duplicate result
		`{"id":1,"res\u0075lt":{"tools":[1]}}`,                    // escaped key
		`{"id":1,"Result":{"tools":[1]}}`,                         // other member
		`{"id":1,"method":"x","result":{"tools":[1]}}`,            // a request
		`{"id":1,"result":{"tools":{"a":1}}}`,                     // not an array
		`{"id":1,"result":{"tools":[1]},"x" 2}`,                   // broken tail
		`{"id":1 "result":{"tools":[1]}}`,                         // broken head
		`{"id":1,"result":{"tools":[01]}}`,                        // bad number
		`{"id":1,"result":{"tools":[1` + strings.Repeat(" ", 10) + `2]}}`,
		`[{"result":{"tools":[1]}}]`,
		`{"id":1,"result":{"tools":[` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `]}}`, // deeper than validValue goes
	} {
		line := []byte(s)
		for c := 0; c <= len(line); c++ {
			if checkStream(t, line, []int{c}) {
				if _, ok := ScanValid(line); ok && !strings.Contains(s, "[[[") {
					continue // checkStream verified it agrees
				}
				t.Fatalf("stream took %q cut at %d", s, c)
			}
		}
	}
}

// TestResultArrayStreamBigElement: an element larger than a piece, and
// than several, is carried across them.
func TestResultArrayStreamBigElement(t *testing.T) {
	big := `{"name":"big","description":"` + strings.Repeat("x", 300_000) + `"}`
	line := []byte(`{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a"},` + big + `,{"name":"b"}]}}`)
	var cuts []int
	for c := 1000; c < len(line); c += 64 << 10 {
		cuts = append(cuts, c)
	}
	if !checkStream(t, line, cuts) {
		t.Fatal("stream did not follow a 300 KB element cut in 64 KiB pieces")
	}
	huge := []byte(`{"id":3,"result":{"tools":[{"name":"` + strings.Repeat("x", maxStreamCarry+10) + `"}]}}`)
	if checkStream(t, huge, []int{100, 200}) {
		t.Fatal("stream carried an element over maxStreamCarry")
	}
}

// TestResultArrayStreamReset: a stream reset after a line follows the next.
func TestResultArrayStreamReset(t *testing.T) {
	s := NewResultArrayStream("tools")
	bad := []byte(`{"id":1,"result":{"tools":[{"name":"a"`)
	s.Write(bad[:20])
	s.Write(bad[20:])
	s.Reset()
	line := toolsLine(3, "", "")
	s.Write(line)
	s.Write([]byte("\n"))
	r, ok := s.Finish()
	if !ok || len(r.Elems) != 3 || !json.Valid(r.Elems[2]) {
		t.Fatalf("after Reset: ok %v, %d elements", ok, len(r.Elems))
	}
}

func FuzzResultArrayStream(f *testing.F) {
	f.Add([]byte(toolsLine(3, `"a":1,`, `,"nextCursor":"x"`)), uint16(17), uint16(5))
	f.Add([]byte(`{"id":1,"result":{"tools":[1,2,[3,{"a":"]"}]]}}`), uint16(9), uint16(3))
	f.Add([]byte(`{"id":1,"result":{"tools":[{"name":"a"},]}}`), uint16(30), uint16(1))
	f.Fuzz(func(t *testing.T, line []byte, first, step uint16) {
		if bytes.ContainsAny(line, "\n") {
			return // one line
		}
		var cuts []int
		for at := int(first); at < len(line) && step > 0; at += int(step) {
			cuts = append(cuts, at)
		}
		checkStream(t, line, cuts)
	})
}

// BenchmarkToolsAnswer: a 100,000-tool answer (18 MB here) followed in
// 64 KiB pieces as a FrameReader hands them over, against the ordinary
// read after the last byte (ScanValid, then ArrayMember over the result).
func BenchmarkToolsAnswer(b *testing.B) {
	line := toolsLine(100_000, "", "")
	fed := append(bytes.Clone(line), '\n')
	b.Run("streamed", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		s := NewResultArrayStream("tools")
		for b.Loop() {
			s.Reset()
			for at := 0; at < len(fed); at += 64 << 10 {
				s.Write(fed[at:min(at+64<<10, len(fed))])
			}
			if r, ok := s.Finish(); !ok || len(r.Elems) != 100_000 {
				b.Fatal("not followed")
			}
		}
	})
	b.Run("ordinary", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			top, ok := ScanValid(line)
			n := 0
			if found, aok := ArrayMember(top.Result, "tools", func([]byte) { n++ }, func(_, _ []byte) {}); !ok || !found || !aok || n != 100_000 {
				b.Fatal("not split")
			}
		}
	})
}
