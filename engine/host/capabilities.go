package host

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Client capabilities toward the upstream, and the capability check on
// the upstream's server-to-client requests.
//
// A proxy must not change the server: behind genui it should see the
// client its host is. The upstream connection is shared by every host
// session and its capabilities are fixed at its handshake, so the
// capability mode (Options.Capabilities, config upstream.capabilities)
// says whose it declares:
//   - CapabilitiesHost (the default of `genui mcp`): the host's. The
//     handshake waits (bounded by hostCapsWait) for the first host's
//     initialize (the stdio host when ExpectStdioHost was called, else the
//     first legacy session of any transport) and declares exactly its
//     sampling, elicitation, roots and extensions, with its clientInfo;
//     plus roots when genui has some configured. genui's own surfaces
//     (TUI, preview, HTTP API) then answer the requests of their own calls
//     only for the capabilities the host declared. A host that does not
//     initialize in time leaves the upstream told of no capabilities until
//     it does: then a stdio upstream is restarted (its session state
//     replayed) so that its handshake declares the host's, and an HTTP one,
//     which genui cannot restart, is logged as told of none (lateHost).
//   - CapabilitiesWorkbench (the default of a standalone `serve`/`tui`):
//     sampling and elicitation (answered by the host session whose call
//     it is when it declared them, else by genui's surfaces), roots when
//     configured (engine.OwnCapabilities), plus the stdio host's relayed
//     capabilities in `genui mcp`.
// Either way a relayed request goes only to a session that declared its
// capability (-32601 at once otherwise; onUpstreamRequest), and the engine
// refuses a request whose capability the handshake did not declare.

// The capability modes (Options.Capabilities).
const (
	CapabilitiesHost      = "host"
	CapabilitiesWorkbench = "workbench"
)

// workbenchRelay is what the workbench mode declares besides genui's own
// capabilities: sampling and elicitation, which go to the host session
// whose call it is when it declared them, else to genui's surfaces.
var workbenchRelay = json.RawMessage(`{"sampling":{},"elicitation":{"form":{},"url":{}}}`)

// hostCapsWait bounds how long the upstream's handshake waits for the
// first host's initialize in the host capability mode.
var hostCapsWait = 5 * time.Second

// lateHostRestartWait bounds the restart that tells the upstream of a
// host that initialized after the upstream's handshake.
const lateHostRestartWait = time.Minute

// relayedCapabilities are the client capabilities genui passes on from a
// host. Others (tasks, experimental) are not: genui does not relay what
// they would make the server send.
var relayedCapabilities = []string{"sampling", "elicitation", "roots", "extensions"}

// hostInit holds the capabilities and clientInfo of the host whose
// capabilities the upstream is told of.
type hostInit struct {
	expected atomic.Bool // ExpectStdioHost: the stdio session is that host
	once     sync.Once
	known    chan struct{} // closed when caps is set
	mu       sync.Mutex
	caps     json.RawMessage
	info     json.RawMessage
	// late: an upstream handshake gave up waiting (hostCapsWait) and told
	// the upstream of no host; the host's initialize, when it comes,
	// restarts the upstream (lateHost).
	late bool
}

// ExpectStdioHost says this server's one host is the stdio session
// ServeStdio will serve (`genui mcp`): the upstream's handshake then
// mirrors that host's capabilities. Call it before the engine runs.
func (s *Server) ExpectStdioHost() { s.stdio.expected.Store(true) }

// CapabilityMode is the capability mode in force: Options.Capabilities,
// else host with a stdio host (`genui mcp`) and workbench without.
func (s *Server) CapabilityMode() string {
	switch {
	case s.opts.Capabilities != "":
		return s.opts.Capabilities
	case s.stdio.expected.Load():
		return CapabilitiesHost
	}
	return CapabilitiesWorkbench
}

// setHostInit records a host's capabilities and clientInfo from its
// initialize: every initialize of the stdio host when it is expected, else
// the first session's (in the host mode).
func (s *Server) setHostInit(stdio bool, caps, info json.RawMessage) {
	expected := s.stdio.expected.Load()
	if expected && !stdio {
		return
	}
	if !expected {
		select {
		case <-s.stdio.known:
			return // the first host's count
		default:
		}
	}
	s.stdio.mu.Lock()
	s.stdio.caps, s.stdio.info = caps, info
	late := s.stdio.late
	s.stdio.late = false
	s.stdio.once.Do(func() { close(s.stdio.known) })
	s.stdio.mu.Unlock()
	if late {
		go s.lateHost(mirrorCapabilities(caps))
	}
}

// lateHost tells the upstream of the host that initialized after its
// handshake had given up waiting: the handshake declared none of the
// host's capabilities, and a server decides what it offers by them
// (server-everything lists its sampling and elicitation tools only to a
// client that declares them). A stdio upstream is restarted, so its new
// handshake declares them (upstream.Client.Restart replays the session
// state; the tools are listed again); when it cannot be (an HTTP
// upstream) the log says what the upstream was not told.
func (s *Server) lateHost(caps json.RawMessage) {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(caps, &m)
	if len(m) == 0 {
		return // it declares nothing the upstream was not told
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	told := strings.Join(names, ", ")
	ctx, cancel := context.WithTimeout(context.Background(), lateHostRestartWait)
	defer cancel()
	// The handshake that told it of none, and the tools list that follows
	// it, end first: a restart in between would cut that list short.
	if ok, reason, _ := s.up.WaitHandshake(ctx); !ok {
		s.log.Warn("the host initialized after the upstream's handshake, which has not ended: the upstream is not told its capabilities", "capabilities", told, "reason", reason)
		return
	}
	_ = s.tools.WaitReady(ctx)
	if err := s.up.Restart(ctx, "the host initialized after the upstream's handshake, which told it of no host capabilities: now it is told "+told); err != nil {
		s.log.Warn("the host initialized after the upstream's handshake: the upstream was told of none of its capabilities and could not be restarted to hear them; restart genui with the host connected", "capabilities", told, "err", err)
		return
	}
	s.log.Info("the host initialized after the upstream's handshake: the upstream was restarted and told its capabilities", "capabilities", told)
}

// setFirstHostInit is setHostInit for a modern (2026-07-28) host, which
// declares its capabilities on every request: only the first counts.
func (s *Server) setFirstHostInit(stdio bool, caps, info json.RawMessage) {
	select {
	case <-s.stdio.known:
	default:
		s.setHostInit(stdio, caps, info)
	}
}

// waitHostInit waits (bounded) for the host's initialize; false when it
// did not come.
func (s *Server) waitHostInit(ctx context.Context) bool {
	t := time.NewTimer(hostCapsWait)
	defer t.Stop()
	select {
	case <-s.stdio.known:
		return true
	case <-t.C:
		s.stdio.mu.Lock()
		select {
		case <-s.stdio.known: // it came as the wait ended
			s.stdio.mu.Unlock()
			return true
		default:
		}
		s.stdio.late = true
		s.stdio.mu.Unlock()
		s.log.Warn("no host initialized in time; the upstream is told of no host capabilities until one does (then it is restarted to hear them)", "waited", hostCapsWait)
	case <-ctx.Done():
	}
	return false
}

// upstreamCapabilities is the engine's client-capabilities function (see
// the mode comment above).
func (s *Server) upstreamCapabilities(ctx context.Context) json.RawMessage {
	own := s.e.OwnCapabilities()
	mode := s.CapabilityMode()
	if mode == CapabilitiesHost {
		own = onlyCapabilities(own, "roots") // configured roots
	} else {
		own = unionCapabilities(own, workbenchRelay)
	}
	if mode == CapabilitiesWorkbench && !s.stdio.expected.Load() {
		return own
	}
	if !s.waitHostInit(ctx) {
		return own
	}
	s.stdio.mu.Lock()
	caps := s.stdio.caps
	s.stdio.mu.Unlock()
	return unionCapabilities(mirrorCapabilities(caps), own)
}

// upstreamClientInfo is the clientInfo the upstream's handshake sends: the
// host's in the host mode (known once upstreamCapabilities returned), else
// genui's own (nil).
func (s *Server) upstreamClientInfo() json.RawMessage {
	if s.CapabilityMode() != CapabilitiesHost {
		return nil
	}
	s.stdio.mu.Lock()
	defer s.stdio.mu.Unlock()
	return s.stdio.info
}

// onlyCapabilities keeps the named keys of a capabilities object.
func onlyCapabilities(caps json.RawMessage, keys ...string) json.RawMessage {
	var in map[string]json.RawMessage
	_ = json.Unmarshal(caps, &in)
	out := map[string]json.RawMessage{}
	for _, k := range keys {
		if v, ok := in[k]; ok {
			out[k] = v
		}
	}
	b, _ := json.Marshal(out)
	return b
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

// isStdio reports whether the session is the stdio host's.
func (sess *Session) isStdio() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.stdio
}
