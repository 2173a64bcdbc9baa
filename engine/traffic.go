package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Traffic events: every JSON-RPC message between genui and the upstream is
// reported here (the MCP host reports its own side with TraceFrame). They
// are streaming events and cost nothing while nobody watches.

// request sends a request upstream, reporting it and its answer as traffic.
func (e *Engine) request(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if !e.Streaming() {
		res, err := e.up.Request(ctx, method, params)
		e.countUpstreamError(err)
		return res, err
	}
	e.PublishTraffic(trafficOf(contract.GenuiToUpstream, "", "request", method, nil, 0,
		jsonrpc.NewNotification(method, params)))
	start := time.Now()
	res, err := e.up.Request(ctx, method, params)
	e.countUpstreamError(err)
	if err != nil {
		je := jsonrpc.AsError(err)
		frame := jsonrpc.NewErrorResponse(nil, je)
		e.PublishTraffic(trafficOf(contract.UpstreamToGenui, "", "error", method, nil, time.Since(start), frame))
		return nil, err
	}
	e.PublishTraffic(trafficOf(contract.UpstreamToGenui, "", "response", method, nil, time.Since(start), jsonrpc.NewResult(nil, res)))
	return res, nil
}

// traceUpstreamMessage reports a notification or request the upstream sent.
func (e *Engine) traceUpstreamMessage(kind, method string, params json.RawMessage) {
	if e.Streaming() {
		e.PublishTraffic(trafficOf(contract.UpstreamToGenui, "", kind, method, nil, 0, jsonrpc.NewNotification(method, params)))
	}
}

// TraceFrame reports one frame between an MCP host session and genui
// (direction HostToGenui or GenuiToHost); latency is set on responses.
// It parses the frame only while someone watches.
func (e *Engine) TraceFrame(direction, session string, frame []byte, latency time.Duration) {
	if !e.Streaming() {
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
	e.PublishTraffic(trafficOf(direction, session, kind, method, id, latency, frame))
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

// countUpstreamError counts a failed upstream request for the metrics:
// unavailable (not connected, connection lost) or rpc (an error answer).
// A request the caller cancelled is not the upstream's failure.
func (e *Engine) countUpstreamError(err error) {
	if err == nil || e.met == nil || errors.Is(err, context.Canceled) {
		return
	}
	if jsonrpc.AsError(err).Code == jsonrpc.CodeUpstreamUnavailable {
		e.met.UpstreamError("unavailable")
		return
	}
	e.met.UpstreamError("rpc")
}
