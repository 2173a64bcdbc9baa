package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/manytools"
)

// toolsPage is one tools/list answer.
type toolsPage struct {
	Tools      []json.RawMessage `json:"tools"`
	NextCursor *string           `json:"nextCursor"`
}

func (p toolsPage) names() []string {
	out := make([]string, len(p.Tools))
	for i, raw := range p.Tools {
		var t struct{ Name string }
		_ = json.Unmarshal(raw, &t)
		out[i] = t.Name
	}
	return out
}

// listPage asks for one page (cursor "" = the first) and returns it, or
// the JSON-RPC error.
func listPage(t *testing.T, c *pipeClient, cursor string) (toolsPage, *jsonrpc.Error) {
	t.Helper()
	var params any
	if cursor != "" {
		params = map[string]string{"cursor": cursor}
	}
	m := c.call("tools/list", params)
	if m.Error != nil {
		return toolsPage{}, m.Error
	}
	var p toolsPage
	if err := json.Unmarshal(m.Result, &p); err != nil {
		t.Fatalf("tools/list result %.200s: %v", m.Result, err)
	}
	return p, nil
}

// TestToolsListPaginated: with more tools than the page size, tools/list
// answers page by page with nextCursor, every tool exactly once and in
// order (the upstream's, then genui's own), the last page without a
// cursor; each page carries UI metadata like the unpaginated list did.
func TestToolsListPaginated(t *testing.T) {
	up := &manytools.Server{N: 2500, PageSize: 700} // the upstream paginates too
	h := startHostOpts(t, upstream.Config{Transport: "inprocess", InProcess: up.Serve}, host.Options{ToolsPageSize: 1000})
	h.c.initialize(nil)
	var all []string
	var sizes []int
	cursor := ""
	for page := 0; ; page++ {
		p, rerr := listPage(t, h.c, cursor)
		if rerr != nil {
			t.Fatalf("page %d: %v", page, rerr)
		}
		sizes = append(sizes, len(p.Tools))
		all = append(all, p.names()...)
		if page == 0 && !strings.Contains(string(p.Tools[0]), `"resourceUri":"ui://tool_000001"`) {
			t.Errorf("the first tool has no UI metadata: %s", p.Tools[0])
		}
		if p.NextCursor == nil {
			break
		}
		if *p.NextCursor == "" || page > 10 {
			t.Fatalf("page %d: nextCursor %q", page, *p.NextCursor)
		}
		cursor = *p.NextCursor
	}
	if len(sizes) != 3 || sizes[0] != 1000 || sizes[1] != 1000 {
		t.Fatalf("page sizes %v, want 1000, 1000, the rest", sizes)
	}
	seen := map[string]bool{}
	for i, name := range all {
		if seen[name] {
			t.Fatalf("%s listed twice", name)
		}
		seen[name] = true
		if i < 2500 && name != up.Name(i) {
			t.Fatalf("tool %d is %s, want %s (upstream order)", i, name, up.Name(i))
		}
	}
	if len(all) < 2500+5 || !strings.HasPrefix(all[len(all)-1], "_ui_") {
		t.Errorf("%d tools listed, last %q; want the 2,500 upstream tools, then genui's own", len(all), all[len(all)-1])
	}
}

// TestToolsListOnePageByDefault: an ordinary server's tools are one page:
// no nextCursor with the default page size.
func TestToolsListOnePageByDefault(t *testing.T) {
	up := &manytools.Server{N: 300}
	h := startHostOpts(t, upstream.Config{Transport: "inprocess", InProcess: up.Serve}, host.Options{})
	h.c.initialize(nil)
	p, rerr := listPage(t, h.c, "")
	if rerr != nil || p.NextCursor != nil || len(p.Tools) < 300 {
		t.Fatalf("default page: %d tools, nextCursor %v, err %v", len(p.Tools), p.NextCursor, rerr)
	}
}

// TestToolsListCursorAcrossRefresh: a cursor handed out before the
// upstream's tools change goes on working after genui refreshes them: the
// next page starts right after the last tool the client got. A cursor
// whose last tool is gone is a clear error saying to list again, and a
// cursor genui never made is refused.
func TestToolsListCursorAcrossRefresh(t *testing.T) {
	up := &manytools.Server{N: 250}
	h := startHostOpts(t, upstream.Config{Transport: "inprocess", InProcess: up.Serve}, host.Options{ToolsPageSize: 100})
	h.c.initialize(nil)
	first, rerr := listPage(t, h.c, "")
	if rerr != nil || first.NextCursor == nil {
		t.Fatalf("first page: %v %v", rerr, first.NextCursor)
	}
	second, rerr := listPage(t, h.c, *first.NextCursor)
	if rerr != nil || second.NextCursor == nil {
		t.Fatalf("second page: %v", rerr)
	}

	// The upstream adds tools at the front of nothing: 50 more at the end,
	// and genui refreshes (as on tools/list_changed).
	up.SetN(300)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := h.e.RefreshTools(ctx); err != nil {
		t.Fatal(err)
	}
	again, rerr := listPage(t, h.c, *first.NextCursor)
	if rerr != nil {
		t.Fatalf("the first page's cursor after a refresh: %v", rerr)
	}
	if got := again.names(); got[0] != up.Name(100) || len(got) != 100 {
		t.Errorf("after a refresh the cursor continues at %s (%d tools), want %s", got[0], len(got), up.Name(100))
	}
	var rest []string
	cursor := second.NextCursor
	for cursor != nil {
		p, rerr := listPage(t, h.c, *cursor)
		if rerr != nil {
			t.Fatal(rerr)
		}
		rest = append(rest, p.names()...)
		cursor = p.NextCursor
	}
	if rest[0] != up.Name(200) || !containsStr(rest, up.Name(299)) {
		t.Errorf("the third page after the refresh starts at %s and lacks the new tools: %d tools", rest[0], len(rest))
	}

	// The last tool of the first page goes away.
	up.SetN(50)
	if _, err := h.e.RefreshTools(ctx); err != nil {
		t.Fatal(err)
	}
	_, rerr = listPage(t, h.c, *first.NextCursor)
	if rerr == nil || rerr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(rerr.Message, up.Name(99)) || !strings.Contains(rerr.Message, "list again") {
		t.Errorf("a cursor after its tool is gone: %v, want -32602 naming %s and saying to list again", rerr, up.Name(99))
	}
	for _, bad := range []string{"not-a-cursor", "eyJ4IjoxfQ", strings.Repeat("A", 5000)} {
		if _, rerr := listPage(t, h.c, bad); rerr == nil || rerr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("cursor %.20q: %v, want -32602", bad, rerr)
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestModernToolsListPaginated: the 2026-07-28 revision pages the same way.
func TestModernToolsListPaginated(t *testing.T) {
	up := &manytools.Server{N: 150}
	h := startHostOpts(t, upstream.Config{Transport: "inprocess", InProcess: up.Serve}, host.Options{ToolsPageSize: 100})
	res := resultMap(t, h.c.call("tools/list", modern(nil, nil, "")))
	var cursor string
	if err := json.Unmarshal(res["nextCursor"], &cursor); err != nil || cursor == "" {
		t.Fatalf("modern first page: nextCursor %s", res["nextCursor"])
	}
	res = resultMap(t, h.c.call("tools/list", modern(map[string]any{"cursor": cursor}, nil, "")))
	var tools []json.RawMessage
	_ = json.Unmarshal(res["tools"], &tools)
	if _, more := res["nextCursor"]; more || len(tools) < 50 || !strings.Contains(string(tools[0]), fmt.Sprintf(`"name":%q`, up.Name(100))) {
		t.Errorf("modern second page: %d tools, starts %.80s, nextCursor %s", len(tools), tools[0], res["nextCursor"])
	}
}
