package traffic

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// The record's bytes are bounded: big frames push out old ones before the
// count does.
func TestTrafficRecordBytesBounded(t *testing.T) {
	pairs, rec := NewPairs(), NewRecord(func(contract.Traffic, bool) {})
	big := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"x","params":{"s":"%0*d"}}`, contract.MaxTrafficFrame, 0)
	now := time.Now()
	for range contract.MaxRecentTraffic {
		rec.Add(pairs.Observe(contract.UpstreamToGenui, "", big, now), now)
	}
	if rec.bytes > MaxBytes || rec.n >= contract.MaxRecentTraffic {
		t.Fatalf("held %d frames, %d bytes", rec.n, rec.bytes)
	}
	page := rec.Recent(contract.TrafficQuery{})
	if int64(len(page.Events))+page.Skipped != page.Last {
		t.Fatalf("%d events + %d skipped != %d", len(page.Events), page.Skipped, page.Last)
	}
}

// A frame's id, method and tool are the frame's own, whatever the caller
// does with its buffer afterwards (the id shares the record's copy of the
// frame, never the caller's bytes), and an answer pairs with its request.
func TestObserveKeepsItsOwnCopy(t *testing.T) {
	pairs := NewPairs()
	now := time.Now()
	for _, c := range []struct{ name, req, id string }{
		{"plain", ` {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{}}}`, `7`},
		{"string id", `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"get_weather"}}`, `"a-1"`},
		{"unknown method", `{"jsonrpc":"2.0","id":8,"method":"x/custom","params":{}}`, `8`},
		{"cut", fmt.Sprintf(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"big","s":"%0*d"}}`, contract.MaxTrafficFrame, 0), `9`},
	} {
		buf := []byte(c.req)
		got := pairs.Observe(contract.HostToGenui, "s", buf, now)
		for i := range buf {
			buf[i] = 'X' // the caller reuses its buffer
		}
		if string(got.ID) != c.id || got.Kind != "request" {
			t.Errorf("%s: id %q kind %q, want %s request", c.name, got.ID, got.Kind, c.id)
		}
		if c.name != "unknown method" && (got.Method != "tools/call" || got.Tool == "") {
			t.Errorf("%s: method %q tool %q", c.name, got.Method, got.Tool)
		}
		if c.name == "unknown method" && got.Method != "x/custom" {
			t.Errorf("%s: method %q", c.name, got.Method)
		}
		answer := pairs.Observe(contract.GenuiToHost, "s", []byte(`{"jsonrpc":"2.0","id":`+c.id+`,"result":{}}`), now)
		if answer.Kind != "response" || answer.Method != got.Method || answer.Tool != got.Tool || string(answer.ID) != c.id {
			t.Errorf("%s: answer %+v does not pair with its request", c.name, answer)
		}
	}
}

// Huge names and ids are not kept whole beside the frame: 40 calls each
// naming a different 1 MiB tool with a 1 MiB id keep no name cached, hold
// each name and id cut to a few hundred bytes, count them in the record's
// bytes, and still pair an answer (by a digest of the long id) with its
// request.
func TestHugeNamesAndIDsAreBounded(t *testing.T) {
	pairs, rec := NewPairs(), NewRecord(func(contract.Traffic, bool) {})
	now := time.Now()
	name := strings.Repeat("n", 1<<20)
	for i := range 40 {
		id := fmt.Sprintf(`"%d-%s"`, i, strings.Repeat("i", 1<<20))
		req := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%d%s"}}`, id, i, name)
		got := pairs.Observe(contract.HostToGenui, "s", req, now)
		if len(got.Tool) > maxTrafficField+len("…") || len(got.ID) > maxTrafficField+16 || !strings.HasSuffix(got.Tool, "…") {
			t.Fatalf("call %d keeps a tool of %d bytes and an id of %d", i, len(got.Tool), len(got.ID))
		}
		rec.Add(got, now)
		if i == 39 {
			answer := pairs.Observe(contract.GenuiToHost, "s", fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{}}`, id), now)
			if answer.Method != "tools/call" || answer.Tool != got.Tool {
				t.Errorf("the answer to a long id did not pair: %+v", answer)
			}
			rec.Add(answer, now)
		}
	}
	if n := len(pairs.tools); n != 0 {
		t.Errorf("%d huge names cached to spell once", n)
	}
	held := 0
	for i := range rec.n {
		held += heldBytes(rec.buf[(rec.start+i)%len(rec.buf)].t)
	}
	if held != rec.bytes || rec.bytes > MaxBytes {
		t.Errorf("the record counts %d bytes, holds %d (bound %d)", rec.bytes, held, MaxBytes)
	}
}
