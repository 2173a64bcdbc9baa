package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
)

var scanSeeds = []string{
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"b":"}"}]}}}`,
	` { "id" : "a\"b\\" , "result" : {"x":"\\\\"} , "jsonrpc":"2.0" } `,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}`,
	`{"id":1,"id":2}`,
	`{"Method":"x","\u0069d":1}`,
	`{}`, `[]`, `{"a":tru`, `{"a":"x`, `{"a" 1}`, `{"a":1,}`, `{"params":[1,2,"]"]}`, `{"id":null,"x":-1.5e3}`,
}

// TestScanMatchesEncodingJSON: for valid objects without duplicate keys,
// Scan finds exactly the members encoding/json decodes (by exact key).
func TestScanMatchesEncodingJSON(t *testing.T) {
	for _, s := range scanSeeds {
		checkScan(t, []byte(s))
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkScan(t, b) })
}

func checkScan(t *testing.T, b []byte) {
	top, ok := Scan(b) // must never panic
	_ = Member(b, "id")
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return
	}
	if !ok {
		t.Fatalf("Scan(%q) failed on a valid object", b)
	}
	if top.Dup {
		return
	}
	for key, got := range map[string][]byte{"jsonrpc": top.JSONRPC, "id": top.ID, "method": top.Method,
		"params": top.Params, "result": top.Result, "error": top.Error} {
		want, present := m[key]
		if top.Other && got == nil {
			continue // maybe under an escaped key, which Scan does not decode
		}
		if present != (got != nil) || present && !bytes.Equal(got, want) {
			t.Fatalf("Scan(%q) %s = %q, encoding/json %q", b, key, got, want)
		}
		if mb := Member(b, key); top.Other && mb == nil {
			continue
		} else if present != (mb != nil) || present && !bytes.Equal(mb, want) {
			t.Fatalf("Member(%q, %s) = %q, encoding/json %q", b, key, mb, want)
		}
	}
	known := 0
	for _, k := range []string{"jsonrpc", "id", "method", "params", "result", "error"} {
		if _, ok := m[k]; ok {
			known++
		}
	}
	if !top.Other && len(m) != known {
		t.Fatalf("Scan(%q): other members not reported", b)
	}
}

func TestPlainIntAndString(t *testing.T) {
	for s, want := range map[string]bool{"0": true, "-5": true, "123": true, "01": false, "1.0": false, "1e3": false,
		"": false, "-": false, "9223372036854775807": true, "99999999999999999999": false, `"1"`: false} {
		if _, ok := PlainInt([]byte(s)); ok != want {
			t.Errorf("PlainInt(%q) ok=%v, want %v", s, ok, want)
		}
	}
	for s, want := range map[string]bool{`"tools/call"`: true, `"a\"b"`: false, `"\u0061"`: false, `"a`: false, `""`: true} {
		if _, ok := PlainString([]byte(s)); ok != want {
			t.Errorf("PlainString(%q) ok=%v, want %v", s, ok, want)
		}
	}
}

func TestASCII(t *testing.T) {
	for _, v := range []any{"plain", "é…▲✓ \u2028 😀 <&>", map[string]any{"k€y": []any{"ü", 1.5, nil}}} {
		b, _ := json.Marshal(v)
		a := ASCII(b)
		for _, c := range a {
			if c >= 0x80 {
				t.Fatalf("ASCII(%s) = %s keeps a non-ASCII byte", b, a)
			}
		}
		var x, y any
		if json.Unmarshal(b, &x) != nil || json.Unmarshal(a, &y) != nil {
			t.Fatalf("ASCII(%s) = %s is not JSON", b, a)
		}
		xb, _ := json.Marshal(x)
		yb, _ := json.Marshal(y)
		if !bytes.Equal(xb, yb) {
			t.Fatalf("ASCII(%s) = %s decodes to %s", b, a, yb)
		}
	}
	if b := []byte(`{"a":"b"}`); &ASCII(b)[0] != &b[0] {
		t.Error("an ASCII document should come back as is")
	}
}

// TestEachElementMatchesEncodingJSON: for valid arrays EachElement yields
// exactly the elements encoding/json decodes, as slices of the input; for
// anything else it reports false or stops where the input is cut short.
func TestEachElementMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{`[]`, ` [ ] `, `[1]`, `[ {"a":"]"} , "x\"]" ,[1,[2]], null,true,-1.5e3 ]`, `[{"name":"t","inputSchema":{}}]`} {
		var want []json.RawMessage
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		var got []string
		b := []byte(s)
		if !EachElement(b, func(v []byte) bool { got = append(got, string(v)); return true }) {
			t.Fatalf("EachElement(%s) failed", s)
		}
		if len(got) != len(want) {
			t.Fatalf("EachElement(%s) = %q, want %d elements", s, got, len(want))
		}
		for i := range got {
			var a, b2 bytes.Buffer
			_ = json.Compact(&a, []byte(got[i]))
			_ = json.Compact(&b2, want[i])
			if a.String() != b2.String() {
				t.Errorf("EachElement(%s)[%d] = %s, want %s", s, i, got[i], want[i])
			}
		}
	}
	for _, s := range []string{``, `{}`, `[`, `[1,`, `[1 2]`, `[,]`, `["x]`, `[{"a":1]`} {
		if EachElement([]byte(s), func([]byte) bool { return true }) {
			t.Errorf("EachElement(%q) reported a well-formed array", s)
		}
	}
	n := 0
	EachElement([]byte(`[1,2,3]`), func([]byte) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("EachElement did not stop when asked: %d calls", n)
	}
}

// TestArrayMember: one pass splits an object's array member into its
// elements and hands over the other members, as encoding/json sees them.
func TestArrayMember(t *testing.T) {
	for _, tc := range []struct {
		in           string
		elems, other int
		found, ok    bool
	}{
		{`{"tools":[{"name":"a"},{"name":"]"}],"nextCursor":"c"}`, 2, 1, true, true},
		{` { "nextCursor" : "x" , "tools" : [ ] } `, 0, 1, true, true},
		{`{"tools":null}`, 0, 0, true, true},
		{`{"other":{"tools":[1]}}`, 0, 1, false, true},
		{`{}`, 0, 0, false, true},
		{`{"tools":{"a":1}}`, 0, 0, true, false},
		{`{"tools":[1,2}`, 0, 0, true, false},
		{`{"tools":[1]`, 1, 0, true, false},
		{`[]`, 0, 0, false, false},
		{`{"tools":[1]} x`, 1, 0, true, false},
	} {
		var elems, other int
		found, ok := ArrayMember([]byte(tc.in), "tools", func([]byte) { elems++ }, func([]byte, []byte) { other++ })
		if found != tc.found || ok != tc.ok || ok && (elems != tc.elems || other != tc.other) {
			t.Errorf("ArrayMember(%s) = found %v ok %v, %d elements, %d others; want %v %v %d %d", tc.in, found, ok, elems, other, tc.found, tc.ok, tc.elems, tc.other)
		}
	}
}
