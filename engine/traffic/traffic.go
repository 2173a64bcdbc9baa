// Package traffic is the engine's record of JSON-RPC traffic: every frame
// on both legs (host <-> genui, genui <-> upstream) as it went over the
// wire, classified and paired (Pairs: an answer names the method and tool
// it answers and its latency, a notifications/cancelled the tool it gives
// up on), numbered and kept in a bounded ring (Record: the newest
// contract.MaxRecentTraffic frames and at most MaxBytes of them), which
// RecentTraffic reads, so a TUI that attaches starts with history and one
// that fell behind fills its gap. The engine feeds it (the upstream
// connection's frames and the MCP host's TraceFrame) and publishes each
// frame through the publish function a Record is made with.
package traffic

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Record numbers the frames and keeps the newest: at most
// contract.MaxRecentTraffic of them and MaxBytes of their copies.
type Record struct {
	mu    sync.Mutex
	seq   int64
	buf   []entry // a ring: start is the oldest, n held
	start int
	n     int
	bytes int
	// publish reports a numbered frame (final: a tools/call answer,
	// never dropped for a slow subscriber).
	publish func(t contract.Traffic, final bool)
}

// entry is one frame the ring holds, by value (an Event's Detail would
// put every frame on the heap a second time).
type entry struct {
	at time.Time
	t  contract.Traffic
}

// MaxBytes bounds the bytes of the frames a Record holds (with their ids
// and tool names: heldBytes).
const MaxBytes = 8 << 20

// heldBytes is what t holds: its frame's copy, and the id, requestId and
// tool name beside it (an id is often a part of the frame's copy; counted
// again, it costs a few bytes).
func heldBytes(t contract.Traffic) int {
	return len(t.Frame) + len(t.ID) + len(t.RequestID) + len(t.Tool)
}

// NewRecord makes an empty record that hands each frame it numbers to
// publish.
func NewRecord(publish func(t contract.Traffic, final bool)) *Record {
	return &Record{buf: make([]entry, contract.MaxRecentTraffic), publish: publish}
}

// Add numbers t, keeps it and publishes it (a tools/call answer as a
// final event). Numbering and publishing happen under one lock, so
// subscribers see the numbers in order.
func (r *Record) Add(t contract.Traffic, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	t.Seq = r.seq
	for r.n > 0 && (r.n == len(r.buf) || r.bytes+heldBytes(t) > MaxBytes) {
		r.bytes -= heldBytes(r.buf[r.start].t)
		r.buf[r.start] = entry{}
		r.start = (r.start + 1) % len(r.buf)
		r.n--
	}
	r.buf[(r.start+r.n)%len(r.buf)] = entry{at: at, t: t}
	r.n++
	r.bytes += heldBytes(t)
	r.publish(t, t.Method == "tools/call" && (t.Kind == "response" || t.Kind == "error"))
}

// Recent is contract.API's RecentTraffic: the frames after q.After, the
// newest q.Limit of them at most, oldest first.
func (r *Record) Recent(q contract.TrafficQuery) contract.TrafficPage {
	limit := q.Limit
	if limit <= 0 || limit > contract.MaxRecentTraffic {
		limit = contract.MaxRecentTraffic
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	page := contract.TrafficPage{Last: r.seq, Events: []contract.Event{}}
	after := max(q.After, 0)
	if after >= r.seq {
		return page
	}
	first := r.seq - int64(r.n) + 1 // the oldest number held
	from := max(after+1, first, r.seq-int64(limit)+1)
	page.Skipped = from - (after + 1)
	for s := from; s <= r.seq; s++ {
		e := r.buf[(r.start+int(s-first))%len(r.buf)]
		d := e.t
		page.Events = append(page.Events, contract.Event{Time: e.at, Kind: contract.EventTraffic, Detail: &d})
	}
	return page
}

// Pairs remembers the requests seen in flight, per leg, session and
// direction, so an answer names the method (and tool) it answers and how
// long it took, and a notifications/cancelled names the tool it gives up
// on. Bounded: requests never answered are forgotten after pairTTL, and
// the map never holds more than maxPairs.
type Pairs struct {
	mu      sync.Mutex
	pending map[pairKey]trafficRequest
	tools   map[string]string // tool names seen, spelt once (at most maxToolNames)
}

// maxToolNames bounds the tool names Pairs keeps to spell each once.
const maxToolNames = 1024

type pairKey struct{ session, dir, id string }

type trafficRequest struct {
	method, tool string
	at           time.Time
}

const (
	maxPairs = 4096
	pairTTL  = 10 * time.Minute
)

// NewPairs remembers no request yet.
func NewPairs() *Pairs {
	return &Pairs{pending: map[pairKey]trafficRequest{}, tools: map[string]string{}}
}

// toolName is the tool a tools/call's params name, one string per name
// seen (a call costs no copy of it). Call with p.mu held.
func (p *Pairs) toolName(params []byte) string {
	raw := bytes.TrimSpace(jsonrpc.Member(params, "name"))
	if v, ok := jsonrpc.PlainString(raw); ok {
		if n, ok := p.tools[string(v)]; ok {
			return n
		}
		if len(v) > maxTrafficField {
			// Cut, and not kept to spell it once: a name of that size
			// is no tool's.
			return cutName(string(v))
		}
		n := string(v)
		if len(p.tools) < maxToolNames {
			p.tools[n] = n
		}
		return n
	}
	return cutName(jsonString(raw))
}

// cutName is n, or past maxTrafficField bytes its start and "…".
func cutName(n string) string {
	if len(n) <= maxTrafficField {
		return n
	}
	cut := maxTrafficField
	for cut > 0 && !utf8.RuneStart(n[cut]) {
		cut--
	}
	return n[:cut] + "…"
}

// reverse is the direction answers to dir's requests go.
func reverse(dir string) string {
	switch dir {
	case contract.HostToGenui:
		return contract.GenuiToHost
	case contract.GenuiToHost:
		return contract.HostToGenui
	case contract.GenuiToUpstream:
		return contract.UpstreamToGenui
	case contract.UpstreamToGenui:
		return contract.GenuiToUpstream
	}
	return dir
}

// Observe classifies one frame and pairs it: requests are remembered,
// answers and cancellations look theirs up.
func (p *Pairs) Observe(dir, session string, frame []byte, now time.Time) contract.Traffic {
	t := Of(dir, session, frame)
	top, ok := jsonrpc.Scan(bytes.TrimSpace(frame))
	if !ok {
		t.Kind = "error" // not a JSON object: not JSON-RPC
		return t
	}
	method := methodName(top.Method)
	id := bytes.TrimSpace(top.ID)
	hasID := len(id) > 0 && string(id) != "null"
	if hasID {
		t.ID = within(t.Frame, frame, id)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case method != "" && hasID:
		t.Kind, t.Method = "request", method
		if method == "tools/call" {
			t.Tool = p.toolName(top.Params)
		}
		p.remember(pairKey{session, dir, pairID(id)}, trafficRequest{method: method, tool: t.Tool, at: now}, now)
	case method != "":
		t.Kind, t.Method = "notification", method
		if method == "notifications/cancelled" {
			if rid := bytes.TrimSpace(jsonrpc.Member(top.Params, "requestId")); len(rid) > 0 {
				t.RequestID = boundedRaw(rid)
				k := pairKey{session, dir, pairID(rid)}
				if req, ok := p.pending[k]; ok {
					t.Tool = req.tool
					delete(p.pending, k)
				}
			}
		}
	case hasID:
		t.Kind = "response"
		if len(top.Error) > 0 && string(bytes.TrimSpace(top.Error)) != "null" {
			t.Kind = "error"
		}
		k := pairKey{session, reverse(dir), pairID(id)}
		if req, ok := p.pending[k]; ok {
			t.Method, t.Tool, t.Latency = req.method, req.tool, now.Sub(req.at)
			delete(p.pending, k)
		}
	default:
		t.Kind = "error" // an object that is no JSON-RPC message
	}
	return t
}

// remember records a request, forgetting stale ones when the map is full.
func (p *Pairs) remember(k pairKey, r trafficRequest, now time.Time) {
	if len(p.pending) >= maxPairs {
		for k, v := range p.pending {
			if now.Sub(v.at) > pairTTL {
				delete(p.pending, k)
			}
		}
		if len(p.pending) >= maxPairs {
			clear(p.pending)
		}
	}
	p.pending[k] = r
}

// within is part, a slice of frame, as the same bytes of cp when cp is
// frame's copy (Of keeps a whole frame as its copy: the id then costs no
// allocation of its own), else a copy of part.
func within(cp, frame, part []byte) []byte {
	frame = bytes.TrimSpace(frame)
	if len(cp) == len(frame) && len(part) > 0 && len(frame) > 0 {
		off := int(uintptr(unsafe.Pointer(unsafe.SliceData(part))) - uintptr(unsafe.Pointer(unsafe.SliceData(frame))))
		if off >= 0 && off+len(part) <= len(frame) && bytes.Equal(cp[off:off+len(part)], part) {
			return cp[off : off+len(part) : off+len(part)]
		}
	}
	return boundedRaw(part)
}

// maxTrafficField bounds what a record keeps of a frame apart from its
// (bounded) copy: an id or requestId, a tool's name. A frame can be tens of
// MiB and name a tool or carry an id of that size.
const maxTrafficField = 256

// boundedRaw is a copy of raw (JSON), or past maxTrafficField a JSON string
// of its start and "…".
func boundedRaw(raw []byte) []byte {
	if len(raw) <= maxTrafficField {
		return bytes.Clone(raw)
	}
	b, _ := json.Marshal(string(bytes.ToValidUTF8(raw[:maxTrafficField], nil)) + "…")
	return b
}

// pairID is id as a key of the requests in flight: itself, or past
// maxTrafficField its digest (the map holds up to maxPairs keys).
func pairID(id []byte) string {
	if len(id) <= maxTrafficField {
		return string(id)
	}
	sum := sha256.Sum256(id)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// knownMethods are the methods traffic names most often, spelt once: a
// frame's method is one of these strings, not a copy of its bytes.
var knownMethods = map[string]string{}

func init() {
	for _, m := range []string{"initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/read",
		"resources/templates/list", "resources/subscribe", "resources/unsubscribe", "prompts/list", "prompts/get",
		"completion/complete", "logging/setLevel", "sampling/createMessage", "elicitation/create", "roots/list",
		"tasks/get", "tasks/result", "tasks/list", "tasks/cancel",
		"notifications/initialized", "notifications/progress", "notifications/message", "notifications/cancelled",
		"notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/resources/updated",
		"notifications/prompts/list_changed", "notifications/roots/list_changed", "notifications/tasks/status"} {
		knownMethods[m] = m
	}
}

// methodName is a frame's method (the JSON string s's value), one of
// knownMethods' strings when it is one of them.
func methodName(s []byte) string {
	if v, ok := jsonrpc.PlainString(bytes.TrimSpace(s)); ok {
		if m, ok := knownMethods[string(v)]; ok {
			return m
		}
	}
	return jsonString(s)
}

// jsonString is the JSON string s's value ("" when s is not a string).
func jsonString(s []byte) string {
	s = bytes.TrimSpace(s)
	if len(s) == 0 || s[0] != '"' {
		return "" // absent (an answer has no method) or not a string
	}
	if v, ok := jsonrpc.PlainString(s); ok {
		return string(v)
	}
	var v string
	if json.Unmarshal(s, &v) != nil {
		return ""
	}
	return v
}

// Of is a frame as a Traffic event carries it: cut to
// MaxTrafficFrame bytes (then, or when it is not JSON, as a JSON string).
func Of(direction, session string, frame []byte) contract.Traffic {
	t := contract.Traffic{Direction: direction, Session: session, Size: len(frame)}
	frame = bytes.TrimSpace(frame)
	switch {
	case len(frame) > contract.MaxTrafficFrame:
		// A cut frame is not JSON: carry it as a JSON string.
		b, _ := json.Marshal(string(bytes.ToValidUTF8(frame[:contract.MaxTrafficFrame], nil)))
		t.Frame, t.Truncated = b, true
	case json.Valid(frame):
		t.Frame = bytes.Clone(frame)
	default:
		b, _ := json.Marshal(string(bytes.ToValidUTF8(frame, nil)))
		t.Frame = b
	}
	return t
}
