package jsonrpc

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestNewResult(t *testing.T) {
	for _, tc := range []struct {
		name       string
		id, result string
	}{
		{"plain", `1`, `{"a":1}`},
		{"string id", `"x-1"`, `{"html":"<p>a & b</p>"}`},
		{"pretty result", `2`, "{\n  \"a\": [1,\n 2]\n}"},
		{"empty", `3`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frame := NewResult(json.RawMessage(tc.id), json.RawMessage(tc.result))
			if strings.ContainsAny(string(frame), "\r\n") {
				t.Fatalf("frame has a newline: %q", frame)
			}
			m, err := Parse(frame)
			if err != nil || !m.IsResponse() {
				t.Fatalf("frame %s does not parse as a response: %v", frame, err)
			}
			want := tc.result
			if want == "" {
				want = "{}"
			}
			var a, b any
			_ = json.Unmarshal(m.Result, &a)
			_ = json.Unmarshal([]byte(want), &b)
			if !reflect.DeepEqual(a, b) || string(m.ID) != tc.id {
				t.Fatalf("got id %s result %s, want %s %s", m.ID, m.Result, tc.id, want)
			}
		})
	}
}

func TestNewResultInvalidBecomesError(t *testing.T) {
	m, err := Parse(NewResultChecked(json.RawMessage(`4`), json.RawMessage(`{"a":`)))
	if err != nil || m.Error == nil || m.Error.Code != CodeInternalError || string(m.ID) != "4" {
		t.Fatalf("invalid result: got %+v %v", m, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		code int
	}{
		{`{`, CodeParseError},
		{`{"jsonrpc":"1.0","id":1,"method":"x"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, CodeInvalidRequest},
	} {
		_, err := Parse([]byte(tc.in))
		if e := AsError(err); err == nil || e.Code != tc.code {
			t.Errorf("Parse(%s) = %v, want code %d", tc.in, err, tc.code)
		}
	}
}

func TestValidIDAndNullResponse(t *testing.T) {
	for id, want := range map[string]bool{`1`: true, `0`: true, `-5`: true, `1.5`: true, `"x"`: true, `""`: true,
		`null`: false, `{}`: false, `[]`: false, `true`: false, ``: false} {
		if got := ValidID(json.RawMessage(id)); got != want {
			t.Errorf("ValidID(%s) = %v, want %v", id, got, want)
		}
	}
	// An error response to an unparsable request carries id null: valid.
	if _, err := Parse([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`)); err != nil {
		t.Errorf("error response with id null rejected: %v", err)
	}
}
