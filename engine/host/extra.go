package host

import (
	"context"
	"encoding/json"
	"sort"
)

// ExtraResource is a resource genui itself serves besides the tool UIs,
// such as ui://state and ui://variables.
type ExtraResource struct {
	URI, Name, Description, MIMEType string
	// Read returns the resource text.
	Read func(ctx context.Context) ([]byte, error)
}

// AddResource registers an extra resource (before sessions start).
func (s *Server) AddResource(r ExtraResource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.extra == nil {
		s.extra = map[string]ExtraResource{}
	}
	s.extra[r.URI] = r
}

func (s *Server) extraResource(uri string) (ExtraResource, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.extra[uri]
	return r, ok
}

func (s *Server) extraList() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []json.RawMessage
	for _, r := range s.extra {
		b, _ := json.Marshal(map[string]any{"uri": r.URI, "name": r.Name, "description": r.Description, "mimeType": r.MIMEType})
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i]) < string(out[j]) })
	return out
}

func (s *Server) readExtra(ctx context.Context, r ExtraResource) (json.RawMessage, error) {
	text, err := r.Read(ctx)
	if err != nil {
		return nil, errorf(-32603, "%s: %v", r.URI, err)
	}
	return json.Marshal(map[string]any{"contents": []any{map[string]any{
		"uri": r.URI, "mimeType": r.MIMEType, "text": string(text)}}})
}
