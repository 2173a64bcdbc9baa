package host

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
	"github.com/genui-dev/genui/viewdefs"
)

// genui's own resources. They live under ui://genui/ so that no upstream
// tool's UI (ui://<tool>) collides with them.
const (
	StateURI     = "ui://genui/state"
	VariablesURI = "ui://genui/variables"
)

// addOwnResources registers ui://genui/state and ui://genui/variables, both
// read from the engine's typed State.
func (s *Server) addOwnResources() {
	s.AddResource(ExtraResource{URI: StateURI, Name: "genui state",
		Description: "genui's engine state: upstream, tools and their UIs, cache, generation queue, refinements, events, sessions",
		Read: func(ctx context.Context) ([]byte, error) {
			st, err := s.e.State(ctx)
			if err != nil {
				return nil, err
			}
			return json.MarshalIndent(st, "", "  ")
		}})
	s.AddResource(ExtraResource{URI: VariablesURI, Name: "genui variables",
		Description: "genui's engine state as a tree of variables (id, parentId, path, type, value, childIds)",
		Read: func(ctx context.Context) ([]byte, error) {
			v, err := s.e.Variables(ctx)
			if err != nil {
				return nil, err
			}
			return json.MarshalIndent(v, "", "  ")
		}})
}

// ExtraResource is a resource genui itself serves besides the tool UIs,
// such as ui://genui/state and ui://genui/variables. Every ui:// resource is an MCP App,
// so the JSON document Read returns is served inside a small read-only page
// (MIME text/html;profile=mcp-app) that also carries it as
// <script type="application/json" id="genui-data">.
type ExtraResource struct {
	URI, Name, Description string
	// Read returns the JSON document to show.
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
		b, _ := json.Marshal(map[string]any{"uri": r.URI, "name": r.Name, "description": r.Description, "mimeType": contract.MIMEApp})
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i]) < string(out[j]) })
	return out
}

func (s *Server) readExtra(ctx context.Context, r ExtraResource) (json.RawMessage, error) {
	data, err := r.Read(ctx)
	if err != nil {
		return nil, errorf(jsonrpc.CodeInternalError, "%s: %v", r.URI, err)
	}
	page, err := viewdefs.DataPage(r.Name, r.Description, data)
	if err != nil {
		return nil, errorf(jsonrpc.CodeInternalError, "%s: %v", r.URI, err)
	}
	return json.Marshal(map[string]any{"contents": []any{map[string]any{
		"uri": r.URI, "mimeType": contract.MIMEApp, "text": pagecsp.Apply(mcpshim.Inject(page))}}})
}
