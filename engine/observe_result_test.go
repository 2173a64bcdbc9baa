package engine

import (
	"encoding/json"
	"testing"
	"time"
	"unsafe"
)

// TestObserveResultKeepsNothingOfTheCallersBuffers: the MCP host passes
// the tool name, arguments and result as views of buffers it reuses for
// the next call (its pooled history record, the upstream's read buffer);
// the example kept must not change when they do, its map key included
// (an assignment with an existing string key stores the new key). Error
// results and invalid JSON are not kept.
func TestObserveResultKeepsNothingOfTheCallersBuffers(t *testing.T) {
	u := &uiService{}
	buf := []byte(`get_forecast{"location":"Oslo"}{"content":[{"type":"text","text":"Oslo: 3C"}]}`)
	view := func(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
	observe := func() {
		u.observeResult(view(buf[:12]), json.RawMessage(buf[12:31]), json.RawMessage(buf[31:]), time.Millisecond)
	}
	observe()
	observe() // the second stores under the existing key
	for i := range buf {
		buf[i] = 'z'
	}
	if len(u.gs.examples) != 1 {
		t.Fatalf("examples %v", u.gs.examples)
	}
	for k, ex := range u.gs.examples {
		if k != "get_forecast" || string(ex.args) != `{"location":"Oslo"}` || string(ex.result) != `{"content":[{"type":"text","text":"Oslo: 3C"}]}` {
			t.Fatalf("example under %q: args %s result %s", k, ex.args, ex.result)
		}
	}
	u.observeResult("get_forecast", nil, json.RawMessage(`{"content":[],"isError":true}`), time.Millisecond)
	u.observeResult("get_forecast", nil, json.RawMessage(`{"content":[`), time.Millisecond)
	if got := string(u.offlineExample("get_forecast")); got != `{"content":[{"type":"text","text":"Oslo: 3C"}]}` {
		t.Fatalf("an error result or invalid JSON replaced the example: %s", got)
	}
}
