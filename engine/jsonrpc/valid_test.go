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
