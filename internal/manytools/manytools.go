// Package manytools is an MCP server with as many tools as a test asks
// for (100,000 in the review that found genui's tools/list unpaginated):
// generated, deterministic definitions shaped like real ones (a title, a
// sentence of description, an input schema with a few typed properties,
// annotations), about 300 bytes of JSON each. It speaks newline-delimited
// JSON-RPC on any reader and writer, so it runs in-process as an
// upstream.Config.InProcess function or as a child process (Serve on
// stdin/stdout). Test infrastructure: imports the standard library only.
package manytools

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// Server serves N tools named Prefix + a zero-padded index
// (tool_000001 ...). Set its fields before serving; SetN changes the
// count while it serves (a tools/list_changed is not sent).
type Server struct {
	// N is how many tools tools/list returns.
	N int
	// Prefix starts every tool name (default "tool_").
	Prefix string
	// PageSize, when positive, makes tools/list paginate (nextCursor);
	// 0 answers with every tool in one page.
	PageSize int

	mu sync.Mutex
}

// SetN changes how many tools the next tools/list returns.
func (s *Server) SetN(n int) {
	s.mu.Lock()
	s.N = n
	s.mu.Unlock()
}

func (s *Server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.N
}

// Name is the i-th tool's name (0-based).
func (s *Server) Name(i int) string {
	p := s.Prefix
	if p == "" {
		p = "tool_"
	}
	return fmt.Sprintf("%s%06d", p, i+1)
}

// Tool is the i-th tool's JSON definition.
func (s *Server) Tool(i int) json.RawMessage {
	name := s.Name(i)
	return json.RawMessage(`{"name":"` + name + `","title":"Tool ` + strconv.Itoa(i+1) + `",` +
		`"description":"Looks up record ` + strconv.Itoa(i+1) + ` of the generated catalogue and returns it as JSON.",` +
		`"inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"record id"},` +
		`"limit":{"type":"integer","minimum":1,"maximum":100},"verbose":{"type":"boolean"}},"required":["id"]},` +
		`"annotations":{"readOnlyHint":true}}`)
}

// ToolsBytes is the size of the JSON of all N tool definitions (what an
// unpaginated tools/list carries, without the envelope).
func (s *Server) ToolsBytes() int {
	n := 0
	for i := 0; i < s.count(); i++ {
		n += len(s.Tool(i))
	}
	return n
}

// Serve answers initialize, ping, tools/list and tools/call (every tool
// echoes its arguments) on r and w until r ends or ctx is done.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	var wmu sync.Mutex
	bw := bufio.NewWriterSize(w, 1<<16)
	write := func(b []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		_, _ = bw.Write(b)
		_ = bw.WriteByte('\n')
		_ = bw.Flush()
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || len(m.ID) == 0 || m.Method == "" {
			continue // notifications and responses need no answer
		}
		switch m.Method {
		case "initialize":
			write(result(m.ID, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"manytools","version":"1"}}`))
		case "ping":
			write(result(m.ID, `{}`))
		case "tools/list":
			write(s.list(m.ID, m.Params))
		case "tools/call":
			var p struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(m.Params, &p)
			text, _ := json.Marshal(p.Name + " " + string(p.Arguments))
			write(result(m.ID, `{"content":[{"type":"text","text":`+string(text)+`}]}`))
		default:
			write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found: ` + m.Method + `"}}`))
		}
	}
	return sc.Err()
}

func result(id json.RawMessage, res string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + res + `}`)
}

// list is one tools/list answer (a page from the cursor, an index).
func (s *Server) list(id json.RawMessage, params json.RawMessage) []byte {
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(params, &p)
	n := s.count()
	start, _ := strconv.Atoi(p.Cursor)
	start = min(max(start, 0), n)
	end := n
	if s.PageSize > 0 {
		end = min(start+s.PageSize, n)
	}
	buf := make([]byte, 0, (end-start)*320+64)
	buf = append(buf, `{"tools":[`...)
	for i := start; i < end; i++ {
		if i > start {
			buf = append(buf, ',')
		}
		buf = append(buf, s.Tool(i)...)
	}
	buf = append(buf, ']')
	if end < n {
		buf = append(buf, `,"nextCursor":"`+strconv.Itoa(end)+`"`...)
	}
	buf = append(buf, '}')
	return result(id, string(buf))
}
