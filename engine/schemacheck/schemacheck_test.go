package schemacheck

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCompileRejectsInvalidSchemas(t *testing.T) {
	for name, raw := range map[string]string{
		"type not a type":   `{"type":"objekt"}`,
		"required a string": `{"type":"object","required":"a"}`,
		"minLength string":  `{"type":"string","minLength":"3"}`,
		"remote ref":        `{"$ref":"https://example.com/s.json"}`,
		"not JSON":          `{`,
	} {
		if _, err := Compile(json.RawMessage(raw), Options{}); err == nil {
			t.Errorf("%s: %s compiled", name, raw)
		} else if strings.Contains(err.Error(), location) {
			t.Errorf("%s: error names the made-up location: %v", name, err)
		}
	}
	if _, err := Compile(json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`), Options{}); err != nil {
		t.Fatalf("a local $ref: %v", err)
	}
}

func TestCheckFormatsAndBounds(t *testing.T) {
	schema := `{"type":"object","properties":{
		"email":{"type":"string","format":"email"},
		"site":{"type":"string","format":"uri"},
		"day":{"type":"string","format":"date"},
		"at":{"type":"string","format":"date-time"},
		"name":{"type":"string","minLength":2,"maxLength":5},
		"color":{"type":"string","enum":["red","green"]},
		"n":{"type":"integer","minimum":1,"maximum":9}},
		"required":["email"]}`
	s, err := Compile(json.RawMessage(schema), Options{AssertFormat: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Check(json.RawMessage(`{"email":"a@b.example","site":"https://x.example/","day":"2026-12-02","at":"2026-12-02T01:02:03Z","name":"abc","color":"red","n":3}`)); p != nil {
		t.Fatalf("a good answer: %v", p)
	}
	for _, c := range []struct{ value, path string }{
		{`{"email":"not-an-email"}`, "/email"},
		{`{"email":"a@b.example","site":"not a uri"}`, "/site"},
		{`{"email":"a@b.example","day":"2026-13-45"}`, "/day"},
		{`{"email":"a@b.example","at":"yesterday"}`, "/at"},
		{`{"email":"a@b.example","name":"a"}`, "/name"},
		{`{"email":"a@b.example","name":"abcdefg"}`, "/name"},
		{`{"email":"a@b.example","color":"blue"}`, "/color"},
		{`{"email":"a@b.example","n":10}`, "/n"},
		{`{}`, ""},
	} {
		p := s.Check(json.RawMessage(c.value))
		if len(p) == 0 || p[0].Path != c.path {
			t.Errorf("%s: problems %v, want one at %q", c.value, p, c.path)
		}
	}
	// Without AssertFormat, format is an annotation (as 2020-12 says).
	lax, _ := Compile(json.RawMessage(schema), Options{})
	if p := lax.Check(json.RawMessage(`{"email":"not-an-email"}`)); p != nil {
		t.Errorf("format asserted without AssertFormat: %v", p)
	}
}
