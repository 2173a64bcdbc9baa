package host

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/genui-dev/genui/engine/contract"
)

// sample is the engine's sampler (`--llm sampling`): it sends
// sampling/createMessage to a host session that declared the sampling
// capability and can receive server-to-client requests (a stdio session,
// an HTTP session with an open GET stream, or one with a request in
// flight), newest first, and returns the host's answer. With no such
// session it fails with contract.ErrNoSampler.
func (s *Server) sample(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var sess *Session
	var via Sender
	sessions := s.sessionList()
	for i := len(sessions) - 1; i >= 0 && sess == nil; i-- {
		c := sessions[i]
		c.mu.Lock()
		ok, out := canSample(c.clientCaps) && !c.closed, c.out
		c.mu.Unlock()
		if !ok {
			continue
		}
		if out != nil {
			sess, via = c, out
			break
		}
		s.mu.Lock()
		for j := len(s.active) - 1; j >= 0; j-- {
			if s.active[j].sess == c {
				sess, via = c, s.active[j].reply
				break
			}
		}
		s.mu.Unlock()
	}
	if sess == nil {
		return nil, fmt.Errorf("%w (%d sessions connected)", contract.ErrNoSampler, len(sessions))
	}
	s.log.Info("asking the host's model for a UI (sampling/createMessage)", "session", sess.ID)
	return sess.request(ctx, via, "sampling/createMessage", params, s.opts.ClientRequestTimeout)
}

// canSample reports whether client capabilities declare sampling.
func canSample(caps json.RawMessage) bool {
	var c map[string]json.RawMessage
	if json.Unmarshal(caps, &c) != nil {
		return false
	}
	v, ok := c["sampling"]
	return ok && string(v) != "null"
}
