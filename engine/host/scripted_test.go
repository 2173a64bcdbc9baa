package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/testenv"
)

// scripted is a hand-written raw JSON-RPC upstream: it sends fields and
// content types that typed SDKs drop, so the tests can prove genui keeps them.
type scripted struct {
	mu        sync.Mutex
	tools     []string // raw tool JSON
	cancelled []string // requestIds seen in notifications/cancelled
	called    []string // tool names of the tools/call requests received
	out       func([]byte)
	pending   map[string]chan *jsonrpc.Message
	nextID    int
	initCaps  []json.RawMessage // the capabilities of every initialize genui sent
	initInfo  []json.RawMessage // the clientInfo of every initialize genui sent
	inits     chan struct{}     // a value for every initialize received
}

// waitInitialize waits (bounded) for the next initialize genui sends.
func (s *scripted) waitInitialize(t *testing.T, why string) {
	t.Helper()
	select {
	case <-s.inits:
	case <-time.After(30 * time.Second):
		t.Fatalf("no initialize reached the upstream: %s (initialize requests seen: %s)", why, s.initCapabilities())
	}
}

// initClientInfo returns the clientInfo of genui's initialize requests.
func (s *scripted) initClientInfo() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]json.RawMessage(nil), s.initInfo...)
}

// initCapabilities returns the client capabilities genui declared in its
// initialize requests, oldest first.
func (s *scripted) initCapabilities() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]json.RawMessage(nil), s.initCaps...)
}

const (
	toolCustom = `{"name":"custom","title":"Custom","description":"has extra fields","x-custom":{"a":[1,2]},` +
		`"icons":[{"src":"data:image/png;base64,AA==","mimeType":"image/png"}],` +
		`"inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"In","description":"root desc",` +
		`"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}],"properties":{"a":{"type":"string"},"b":{"type":"integer"}}},` +
		`"outputSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}},` +
		`"annotations":{"readOnlyHint":true},"_meta":{"com.example/k":1,"ui":{"visibility":["app"],"x":true}}}`
	toolOwnUI = `{"name":"own","description":"ships its own app","inputSchema":{"type":"object"},` +
		`"_meta":{"ui":{"resourceUri":"ui://own/app"}}}`
	toolSlow = `{"name":"slow","inputSchema":{"type":"object"}}`
	toolAsk  = `{"name":"ask","description":"asks the client to sample","inputSchema":{"type":"object"}}`
)

func newScripted() *scripted {
	return &scripted{tools: []string{toolCustom, toolOwnUI, toolSlow, toolAsk}, pending: map[string]chan *jsonrpc.Message{}, inits: make(chan struct{}, 8)}
}

func (s *scripted) setTools(tools ...string) {
	s.mu.Lock()
	s.tools = tools
	s.mu.Unlock()
}

func (s *scripted) notify(method string, params any) {
	var raw json.RawMessage
	if params != nil {
		raw, _ = json.Marshal(params)
	}
	s.mu.Lock()
	out := s.out
	s.mu.Unlock()
	if out != nil {
		out(jsonrpc.NewNotification(method, raw))
	}
}

// waitCalled waits (bounded) until the upstream has received a tools/call
// of tool: the request is in flight there.
func (s *scripted) waitCalled(t *testing.T, tool string) {
	t.Helper()
	called := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return slices.Contains(s.called, tool)
	}
	if !testenv.Until(10*time.Second, called) {
		t.Fatalf("the upstream received no tools/call of %s within 10 s", tool)
	}
}

func (s *scripted) cancelledIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.cancelled...)
}

// serve is an upstream.Config.InProcess function.
func (s *scripted) serve(ctx context.Context, r io.Reader, w io.Writer) error {
	var wmu sync.Mutex
	out := func(b []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		_, _ = w.Write(append(b, '\n'))
	}
	s.mu.Lock()
	s.out = out
	s.mu.Unlock()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		m, err := jsonrpc.Parse(sc.Bytes())
		if err != nil {
			continue
		}
		if m.IsResponse() {
			s.mu.Lock()
			ch := s.pending[string(m.ID)]
			s.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		if m.IsNotification() {
			if m.Method == "notifications/cancelled" {
				var p struct {
					RequestID json.RawMessage `json:"requestId"`
				}
				_ = json.Unmarshal(m.Params, &p)
				s.mu.Lock()
				s.cancelled = append(s.cancelled, string(p.RequestID))
				s.mu.Unlock()
			}
			continue
		}
		go s.handle(ctx, m, out)
	}
	return sc.Err()
}

func (s *scripted) handle(ctx context.Context, m *jsonrpc.Message, out func([]byte)) {
	reply := func(res string) { out(jsonrpc.NewResult(m.ID, json.RawMessage(res))) }
	switch m.Method {
	case "initialize":
		var p struct {
			Capabilities json.RawMessage `json:"capabilities"`
			ClientInfo   json.RawMessage `json:"clientInfo"`
		}
		_ = json.Unmarshal(m.Params, &p)
		s.mu.Lock()
		s.initCaps = append(s.initCaps, p.Capabilities)
		s.initInfo = append(s.initInfo, p.ClientInfo)
		s.mu.Unlock()
		select {
		case s.inits <- struct{}{}:
		default:
		}
		reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"resources":{},"prompts":{},"logging":{}},` +
			`"serverInfo":{"name":"scripted","version":"1"},"instructions":"scripted upstream"}`)
	case "tools/list":
		s.mu.Lock()
		list := "[" + strings.Join(s.tools, ",") + "]"
		s.mu.Unlock()
		reply(`{"tools":` + list + `}`)
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(m.Params, &p)
		s.mu.Lock()
		s.called = append(s.called, p.Name)
		s.mu.Unlock()
		switch p.Name {
		case "slow":
			<-ctx.Done() // never answers; the test cancels
		case "ask", "roots_later":
			method, params := "sampling/createMessage", json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}`)
			if p.Name == "roots_later" {
				// Asks for roots a moment after the call arrived (when
				// another session's call may have started meanwhile).
				method, params = "roots/list", nil
				select {
				case <-time.After(300 * time.Millisecond):
				case <-ctx.Done():
					return
				}
			}
			s.mu.Lock()
			s.nextID++
			id := json.RawMessage(`"up-` + strconv.Itoa(s.nextID) + `"`)
			ch := make(chan *jsonrpc.Message, 1)
			s.pending[string(id)] = ch
			s.mu.Unlock()
			out(jsonrpc.NewRequest(id, method, params))
			select {
			case ans := <-ch:
				b, _ := json.Marshal(ans)
				res, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": string(b)}}})
				reply(string(res))
			case <-ctx.Done():
			}
		default:
			reply(`{"content":[{"type":"hologram","data":"zz","x-extra":[1]},{"type":"text","text":"hi"}],` +
				`"structuredContent":{"ok":true,"n":1.50},"_meta":{"com.example/trace":"t1"},"isError":false}`)
		}
	case "resources/list":
		reply(`{"resources":[{"uri":"ui://own/app","name":"own app","mimeType":"text/html;profile=mcp-app"},{"uri":"file:///x","name":"x"}]}`)
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(m.Params, &p)
		if p.URI == "ui://own/app" {
			reply(`{"contents":[{"uri":"ui://own/app","mimeType":"text/html;profile=mcp-app","text":"<p>own</p>","_meta":{"ui":{"csp":{"connectDomains":["https://api.example"]}}}}]}`)
			return
		}
		out(jsonrpc.NewErrorResponse(m.ID, &jsonrpc.Error{Code: -32002, Message: "Resource not found"}))
	case "prompts/list":
		reply(`{"prompts":[{"name":"p","x-extra":true}]}`)
	default:
		out(jsonrpc.NewErrorResponse(m.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found: " + m.Method}))
	}
}
