package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestParseRequestObjectRules: JSON-RPC 2.0's rules for request objects,
// with the id kept whenever it was readable.
func TestParseRequestObjectRules(t *testing.T) {
	for _, tc := range []struct {
		in     string
		code   int    // 0: valid
		id     string // the id the error answer carries ("" = null)
		answer bool   // whether the error deserves an answer (not a response)
	}{
		{`{"id":8}`, CodeInvalidRequest, "8", true},
		{`{"jsonrpc":"2.0","id":8}`, CodeInvalidRequest, "8", true},
		{`{"jsonrpc":"2.0","id":1,"method":""}`, CodeInvalidRequest, "1", true},
		{`{"jsonrpc":"2.0","id":1,"method":null}`, CodeInvalidRequest, "1", true},
		{`{"jsonrpc":"2.0","id":"a","method":5}`, CodeInvalidRequest, `"a"`, true},
		{`{"jsonrpc":"2.0","id":2,"method":"x","params":7}`, CodeInvalidParams, "2", true},
		{`{"jsonrpc":"2.0","id":2,"method":"x","params":"s"}`, CodeInvalidParams, "2", true},
		{`{"jsonrpc":2,"id":3,"method":"x"}`, CodeInvalidRequest, "3", true},
		{`5`, CodeInvalidRequest, "", true},
		{`"ping"`, CodeInvalidRequest, "", true},
		{`null`, CodeInvalidRequest, "", true},
		{`true`, CodeInvalidRequest, "", true},
		{`[]`, CodeInvalidRequest, "", true},
		{`{`, CodeParseError, "", true},
		{`{"jsonrpc":"2.0","id":4,"method":"x","params":{"a":}`, CodeParseError, "", true}, // JSON-RPC: id null
		{`{"jsonrpc":"2.0","id":5,"result":{},"error":3}`, CodeInvalidRequest, "5", false},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 0, "", false},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`, 0, "", false},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}`, 0, "", false},
		{`{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}`, 0, "", false},
		{`{"jsonrpc":"2.0","id":1,"method":"x","params":null}`, 0, "", false},
		{`{"jsonrpc":"2.0","method":"notifications/x"}`, 0, "", false},
	} {
		m, err := Parse([]byte(tc.in))
		if tc.code == 0 {
			if err != nil {
				t.Errorf("Parse(%s): %v, want valid", tc.in, err)
			}
			continue
		}
		if err == nil || AsError(err).Code != tc.code {
			t.Errorf("Parse(%s) = %v, want code %d", tc.in, err, tc.code)
			continue
		}
		id := ""
		if m != nil {
			id = string(m.ID)
		}
		if id != tc.id {
			t.Errorf("Parse(%s): id %q, want %q", tc.in, id, tc.id)
		}
		if got := m == nil || !m.IsResponse(); got != tc.answer {
			t.Errorf("Parse(%s): deserves an answer = %v, want %v", tc.in, got, tc.answer)
		}
	}
}

// TestRecoverIDIsBounded: the id of an unparseable frame is found when it
// comes early; nesting deeper than encoding/json allows does not stop it,
// and a frame of nothing but brackets costs a bounded amount of work.
func TestRecoverIDIsBounded(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":12,"result":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`
	if err := json.Unmarshal([]byte(deep), new(any)); err == nil {
		t.Fatal("want the nesting to exceed encoding/json's limit")
	}
	if id := RecoverID([]byte(deep)); string(id) != "12" {
		t.Fatalf("deep frame: id %q, want 12", id)
	}
	if id := RecoverID([]byte(`{"a":{"b":[1,2,{"c":3}]},"id":"x\"y","result":`)); string(id) != `"x\"y"` {
		t.Fatalf("late string id: %q", id)
	}
	if id := RecoverID([]byte(strings.Repeat("[", 1<<20))); id != nil {
		t.Fatalf("brackets: %q", id)
	}
	if id := RecoverID([]byte(`{"result":` + strings.Repeat("[", 5000) + `, "id": 3}`)); id != nil {
		t.Fatalf("an id after a value deeper than the scan bound must not be guessed: %q", id)
	}
}
