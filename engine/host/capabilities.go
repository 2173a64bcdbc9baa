package host

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"
)

// Client capabilities toward the upstream, and the capability check on
// the upstream's server-to-client requests.
//
// genui relays sampling, elicitation and roots requests from the upstream
// to a host; it may only do so for a host that declared the capability.
// The upstream connection is shared by every host session, and its
// capabilities are fixed at its handshake, so:
//   - with one stdio host (`genui mcp`, ExpectStdioHost), the handshake
//     waits (bounded by stdioCapsWait) for that host's initialize and
//     declares exactly its sampling/elicitation/roots capabilities;
//   - otherwise (HTTP hosts come and go) genui declares all three, and
//     each request is checked against the session it goes to: a session
//     that did not declare the capability makes genui answer -32601 at
//     once (onUpstreamRequest).

// stdioCapsWait bounds how long the upstream's handshake waits for the
// stdio host's initialize before declaring genui's full relay support.
var stdioCapsWait = 5 * time.Second

// relayedCapabilities are the client capabilities genui relays.
var relayedCapabilities = []string{"sampling", "elicitation", "roots"}

// stdioCaps holds the stdio host's declared capabilities.
type stdioCaps struct {
	expected atomic.Bool
	once     sync.Once
	known    chan struct{} // closed when caps is set
	mu       sync.Mutex
	caps     json.RawMessage
}

// ExpectStdioHost says this server's one host is the stdio session
// ServeStdio will serve (`genui mcp`): the upstream's handshake then
// mirrors that host's capabilities. Call it before the engine runs.
func (s *Server) ExpectStdioHost() { s.stdio.expected.Store(true) }

// setStdioCaps records the stdio host's capabilities (each initialize).
func (s *Server) setStdioCaps(caps json.RawMessage) {
	s.stdio.mu.Lock()
	s.stdio.caps = caps
	s.stdio.mu.Unlock()
	s.stdio.once.Do(func() { close(s.stdio.known) })
}

// upstreamCapabilities is the engine's client-capabilities function: the
// stdio host's relayed capabilities, plus what genui answers itself
// (engine.OwnCapabilities: roots from its configuration, and elicitation
// and sampling when its own surfaces may answer), when there is one; else
// nil (genui's full relay support).
func (s *Server) upstreamCapabilities(ctx context.Context) json.RawMessage {
	if !s.stdio.expected.Load() {
		return nil
	}
	t := time.NewTimer(stdioCapsWait)
	defer t.Stop()
	select {
	case <-s.stdio.known:
	case <-t.C:
		s.log.Info("the stdio host did not initialize in time; the upstream is told genui relays sampling, elicitation and roots",
			"waited", stdioCapsWait)
		return nil
	case <-ctx.Done():
		return nil
	}
	s.stdio.mu.Lock()
	caps := s.stdio.caps
	s.stdio.mu.Unlock()
	return unionCapabilities(mirrorCapabilities(caps), s.e.OwnCapabilities())
}

// unionCapabilities adds genui's own capabilities to the host's: a key the
// host declared keeps the host's value unless genui's says more (an
// elicitation with modes the host lacks: genui answers those itself).
func unionCapabilities(host, own json.RawMessage) json.RawMessage {
	var h, o map[string]json.RawMessage
	_ = json.Unmarshal(host, &h)
	_ = json.Unmarshal(own, &o)
	if h == nil {
		h = map[string]json.RawMessage{}
	}
	for k, v := range o {
		if hv, ok := h[k]; !ok || len(v) > len(hv) {
			h[k] = v
		}
	}
	b, err := json.Marshal(h)
	if err != nil {
		return host
	}
	return b
}

// mirrorCapabilities keeps the capabilities genui relays from a host's
// declaration, verbatim; always a JSON object.
func mirrorCapabilities(hostCaps json.RawMessage) json.RawMessage {
	var in map[string]json.RawMessage
	_ = json.Unmarshal(hostCaps, &in)
	out := map[string]json.RawMessage{}
	for _, k := range relayedCapabilities {
		if v, ok := in[k]; ok && string(v) != "null" {
			out[k] = v
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// declaresCapability reports whether the session's host declared name.
func (sess *Session) declaresCapability(name string) bool {
	sess.mu.Lock()
	caps := sess.clientCaps
	sess.mu.Unlock()
	var c map[string]json.RawMessage
	if json.Unmarshal(caps, &c) != nil {
		return false
	}
	v, ok := c[name]
	return ok && string(v) != "null"
}
