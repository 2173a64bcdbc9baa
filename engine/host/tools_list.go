package host

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/registry"
)

// tools/list to hosts, paginated. The list is the upstream's tools in its
// order, then genui's own _ui_* tools; a page holds at most
// Options.ToolsPageSize (mcp.toolsPageSize, 1000: an ordinary server's
// tools are one page), and only the page's tools are encoded.
//
// The cursor is opaque to hosts: base64url of {"o": offset of the next
// page, "a": name of the page's last tool}. Tools change under a cursor
// (a refresh after tools/list_changed): when the tool at o-1 is still "a"
// the next page starts at o; otherwise right after wherever "a" is now; and
// when "a" is gone the cursor cannot say where the client was, which is a
// -32602 error that says to list again (the host has been sent
// tools/list_changed meanwhile anyway).

// toolsCursor is the decoded cursor.
type toolsCursor struct {
	Offset int    `json:"o"`
	After  string `json:"a"`
}

// maxCursorLen bounds a cursor a host sends back.
const maxCursorLen = 4096

func encodeToolsCursor(c toolsCursor) string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeToolsCursor(s string) (toolsCursor, error) {
	var c toolsCursor
	bad := jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "tools/list: invalid cursor (not one genui gave out); list again without a cursor")
	if len(s) > maxCursorLen {
		return c, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || json.Unmarshal(b, &c) != nil || c.Offset <= 0 || c.After == "" {
		return c, bad
	}
	return c, nil
}

// listedTool is one entry of the combined list: an upstream tool or one
// of genui's own (raw).
type listedTool struct {
	up  *registry.Tool
	own json.RawMessage
}

func (t listedTool) name() string {
	if t.up != nil {
		return t.up.Name
	}
	var v struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(t.own, &v)
	return v.Name
}

// listTools answers tools/list: one page from params' cursor.
func (sess *Session) listTools(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	s := sess.srv
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if len(params) > 0 {
		_ = json.Unmarshal(params, &p)
	}
	var cur *toolsCursor
	if p.Cursor != nil && *p.Cursor != "" {
		c, err := decodeToolsCursor(*p.Cursor)
		if err != nil {
			return nil, err
		}
		cur = &c
	}
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	up := s.tools.Snapshot()
	var own []json.RawMessage
	if !s.opts.NoWrappers {
		own = wrapperTools()
	}
	total := len(up) + len(own)
	at := func(i int) listedTool {
		if i < len(up) {
			return listedTool{up: up[i]}
		}
		return listedTool{own: own[i-len(up)]}
	}
	start := 0
	if cur != nil {
		var ok bool
		if start, ok = resumeAt(*cur, total, at); !ok {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
				"tools/list: the cursor continues after the tool %q, which the upstream no longer lists (its tools changed); list again without a cursor",
				cur.After)
		}
	}
	end := min(start+s.opts.ToolsPageSize, total)
	withUI := sess.showUIFor(ctx)
	// The page is assembled from the tools' JSON as it is (valid JSON the
	// upstream sent, or genui's own): encoding/json would re-scan and
	// re-escape every byte of it.
	size := 64
	page := make([]json.RawMessage, 0, end-start)
	for i := start; i < end; i++ {
		raw := at(i).own
		if t := at(i); t.up != nil {
			raw = t.up.JSON(withUI)
		}
		page = append(page, raw)
		size += len(raw) + 1
	}
	out := make([]byte, 0, size)
	out = append(out, `{"tools":[`...)
	for i, raw := range page {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, raw...)
	}
	out = append(out, ']')
	if end < total {
		cursor, _ := json.Marshal(encodeToolsCursor(toolsCursor{Offset: end, After: at(end - 1).name()}))
		out = append(out, `,"nextCursor":`...)
		out = append(out, cursor...)
	}
	return append(out, '}'), nil
}

// resumeAt is where the page after cursor c starts in a list of total
// tools, or false when the cursor's last tool is gone.
func resumeAt(c toolsCursor, total int, at func(int) listedTool) (int, bool) {
	if c.Offset <= total && at(c.Offset-1).name() == c.After {
		return c.Offset, true
	}
	for i := 0; i < total; i++ {
		if at(i).name() == c.After {
			return i + 1, true
		}
	}
	return 0, false
}
