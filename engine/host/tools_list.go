package host

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"

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
	if cur == nil { // a listing starts over: what an earlier one paged no longer matters
		sess.mu.Lock()
		sess.pagedFrom = nil
		sess.mu.Unlock()
	}
	return sess.listPage(ctx, cur, false)
}

// listPage answers one tools/list page, from the tools loaded so far when
// they reach past it, unless whole.
func (sess *Session) listPage(ctx context.Context, cur *toolsCursor, whole bool) (json.RawMessage, error) {
	s := sess.srv
	need := s.opts.ToolsPageSize + 1 // the page and one after it: the page has a next one
	if cur != nil {
		need += cur.Offset
	}
	if whole {
		need = math.MaxInt
	}
	up, loading, err := sess.pageTools(ctx, cur, need)
	if err != nil {
		return nil, err
	}
	var own []json.RawMessage
	if !s.opts.NoWrappers && loading == nil { // genui's own follow the whole list
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
		start, ok = resumeAt(*cur, total, at)
		if loading != nil && (!ok || start+s.opts.ToolsPageSize >= total) {
			// Not where the cursor said among the tools so far (the answer
			// started over): the whole list decides.
			return sess.listPage(ctx, cur, true)
		}
		if !ok {
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
	for i := start; i < end; i++ {
		if t := at(i); t.up != nil {
			size += len(t.up.Raw) + 2*len(t.up.Name) + 80 // room for genui's _meta
		} else {
			size += len(t.own) + 1
		}
	}
	out := make([]byte, 0, size)
	out = append(out, `{"tools":[`...)
	for i := start; i < end; i++ {
		if i > start {
			out = append(out, ',')
		}
		if t := at(i); t.up != nil {
			out = t.up.AppendJSON(out, withUI)
		} else {
			out = append(out, t.own...)
		}
	}
	out = append(out, ']')
	if loading != nil {
		sess.pagedOf(loading)
	}
	if end < total {
		cursor, _ := json.Marshal(encodeToolsCursor(toolsCursor{Offset: end, After: at(end - 1).name()}))
		out = append(out, `,"nextCursor":`...)
		out = append(out, cursor...)
	}
	return append(out, '}'), nil
}

// pageTools is the upstream's tools a page is cut from, waiting (bounded
// by Options.ReadyTimeout) until need of them can be listed: the
// registry's list, or during the first load the tools parsed so far
// (loading set): a host's first page goes out once its tools are in, not
// after the upstream's last byte (100,000 tools are one 36 MB answer). A
// page that follows one of a load that failed part way is an error; a
// first page waits for the next attempt.
func (sess *Session) pageTools(ctx context.Context, cur *toolsCursor, need int) ([]*registry.Tool, *registry.Loading, error) {
	s := sess.srv
	ctx, cancel := context.WithTimeout(ctx, s.opts.ReadyTimeout)
	defer cancel()
	failed := func(err error) error {
		return jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable,
			"tools/list: %v, after genui had sent pages of it; it was told tools/list_changed: list again without a cursor", err)
	}
	if cur != nil {
		sess.mu.Lock()
		from := sess.pagedFrom
		sess.mu.Unlock()
		if from != nil && from.Err() != nil {
			return nil, nil, failed(fmt.Errorf("%w: %w", registry.ErrLoadFailed, from.Err()))
		}
	}
	for {
		up, loading, err := s.tools.WaitTools(ctx, need)
		switch {
		case err == nil:
			return up, loading, nil
		case errors.Is(err, registry.ErrLoadFailed) && cur == nil:
			continue // the next attempt's tools (or ctx's end)
		case errors.Is(err, registry.ErrLoadFailed):
			return nil, nil, failed(err)
		}
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeUpstreamUnavailable, Message: err.Error()}
	}
}

// pagedOf records that the session got a page of a load still in
// progress. When that load ends with another list than the one paged
// (it failed part way, or the answer started over), the session is told
// tools/list_changed: what it listed is not what genui holds.
func (sess *Session) pagedOf(loading *registry.Loading) {
	sess.mu.Lock()
	seen := sess.pagedFrom == loading
	sess.pagedFrom = loading
	sess.mu.Unlock()
	if seen {
		return
	}
	go func() {
		select {
		case <-loading.Done(): // the registry's refresh ends it, bounded
		case <-sess.ctx.Done():
			return
		}
		if !loading.Kept() {
			sess.sendOrActive(jsonrpc.NewNotification("notifications/tools/list_changed", nil))
		}
	}()
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
