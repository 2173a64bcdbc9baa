package engine

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Traffic events: every JSON-RPC message between genui and the upstream is
// reported by the Relay; the MCP host reports its own side with
// TraceFrame. They are streaming events and cost nothing while nobody
// watches.

// TraceFrame reports one frame between an MCP host session and genui
// (direction HostToGenui or GenuiToHost); latency is set on responses.
// It parses the frame only while someone watches.
func (e *Engine) TraceFrame(direction, session string, frame []byte, latency time.Duration) {
	if !e.hub.streaming() {
		return
	}
	kind, method, id := "notification", "", json.RawMessage(nil)
	if m, err := jsonrpc.Parse(frame); err == nil {
		method, id = m.Method, m.ID
		switch {
		case m.IsRequest():
			kind = "request"
		case m.IsResponse() && m.Error != nil:
			kind = "error"
		case m.IsResponse():
			kind = "response"
		}
	} else {
		kind = "error"
	}
	if kind != "response" && kind != "error" {
		latency = 0
	}
	e.hub.publishTraffic(trafficOf(direction, session, kind, method, id, latency, frame))
}

func trafficOf(direction, session, kind, method string, id json.RawMessage, latency time.Duration, frame []byte) contract.Traffic {
	t := contract.Traffic{Direction: direction, Session: session, Kind: kind, Method: method, ID: id, Latency: latency, Size: len(frame)}
	if len(frame) > contract.MaxTrafficFrame {
		// A cut frame is not JSON: carry it as a JSON string.
		b, _ := json.Marshal(string(bytes.ToValidUTF8(frame[:contract.MaxTrafficFrame], nil)))
		t.Frame, t.Truncated = b, true
	} else if json.Valid(frame) {
		t.Frame = bytes.Clone(frame)
	} else {
		b, _ := json.Marshal(string(bytes.ToValidUTF8(frame, nil)))
		t.Frame = b
	}
	return t
}
