package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
)

var validSeeds = []string{
	`{}`, `[]`, ` {"a" : [1, -2.5e+3, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9"]} `, `"\u12"`, `[1,]`, `{"a":1,}`,
	`01`, `-`, `1.`, `1e`, `.5`, `"a` + "\x01" + `"`, `"` + "\xff\xfe" + `"`, `[[[[]]]]`, `{"a":{"b":{}}}`, `{"a" 1}`,
	`nul`, `truex`, `1 2`, `[1 2]`, `{"a":1 "b":2}`, ``, ` `, `"\a"`, `{"a":[}`, `[}`, `{]`,
	strings.Repeat("[", 300) + strings.Repeat("]", 300), strings.Repeat("[", 300) + strings.Repeat("]", 299),
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_current_weather","arguments":{"location":"Berlin"}}}`,
}

// TestValidIsJSONValid: Valid decides as json.Valid does.
func TestValidIsJSONValid(t *testing.T) {
	for _, s := range validSeeds {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.60q) = %v, json.Valid %v", s, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", b, got, want)
		}
	})
}

var benchFrame = []byte(`{"jsonrpc":"2.0","id":50,"result":{"content":[{"type":"text","text":"{\"location\":\"Berlin\",\"temperature\":21.5,\"units\":\"metric\",\"conditions\":\"light rain\",\"humidity\":72}"}],"structuredContent":{"location":"Berlin","temperature":21.5,"units":"metric","conditions":"light rain","humidity":72}}}`)

// BenchmarkValid: Valid against json.Valid on a typical tools/call answer.
func BenchmarkValid(b *testing.B) {
	b.Run("jsonrpc.Valid", func(b *testing.B) {
		for b.Loop() {
			Valid(benchFrame)
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		for b.Loop() {
			json.Valid(benchFrame)
		}
	})
}

// checkScanValid: ScanValid is Scan and json.Valid in one pass.
func checkScanValid(t *testing.T, b []byte) {
	got, ok := ScanValid(b)
	i := skipSpace(b, 0)
	want := json.Valid(b) && i < len(b) && b[i] == '{'
	if ok != want {
		t.Fatalf("ScanValid(%q) ok = %v, want %v", b, ok, want)
	}
	if !ok {
		return
	}
	top, sok := Scan(b)
	if !sok || string(got.JSONRPC) != string(top.JSONRPC) || string(got.ID) != string(top.ID) ||
		string(got.Method) != string(top.Method) || string(got.Params) != string(top.Params) ||
		string(got.Result) != string(top.Result) || string(got.Error) != string(top.Error) ||
		got.Other != top.Other || got.Dup != top.Dup || (got.ID == nil) != (top.ID == nil) ||
		(got.Result == nil) != (top.Result == nil) || (got.Params == nil) != (top.Params == nil) {
		t.Fatalf("ScanValid(%q) = %+v, Scan %+v", b, got, top)
	}
}

func TestScanValid(t *testing.T) {
	for _, s := range append(append([]string{}, validSeeds...), scanSeeds...) {
		checkScanValid(t, []byte(s))
	}
	deep := `{"id":1,"result":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`
	checkScanValid(t, []byte(deep))
}

func FuzzScanValid(f *testing.F) {
	for _, s := range append(append([]string{}, validSeeds...), scanSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(checkScanValid)
}
