package gen

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
	"github.com/genui-dev/genui/pagecsp"
)

// galleryHostPage is a chat-like MCP Apps host: the UI sits in a sandboxed,
// cross-origin iframe of a fixed width that auto-resizes to the reported
// height, on a page coloured like the host theme. window.show(args, result)
// plays a host that ran the tool for the model.
const galleryHostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>gallery host</title>
<style>body { margin: 0; padding: 16px; background: %s; } iframe { display: block; border: 0; height: 120px; }</style></head>
<body data-app-status="loading">
<iframe id="ui" sandbox="allow-scripts allow-same-origin allow-forms" style="width: %dpx"></iframe>
<script>%s</script>
<script>
const iframe = document.getElementById("ui");
const bridge = new McpHost.AppBridge(iframe, {
  hostInfo: { name: "genui-gallery-host", version: "1.0.0" },
  hostContext: { theme: %s, displayMode: "inline", locale: "en-US", containerDimensions: { maxHeight: 6000 } },
  onInitialized: function () { document.body.dataset.appStatus = "ready"; },
  onReadResource: readDeferred,
  onCallTool: function () { throw new Error("the gallery host does not call tools"); }
});
window.show = function (args, result) {
  bridge.sendToolInput(args || {});
  if (result) bridge.sendToolResult(result);
  return true;
};
bridge.start();
iframe.src = %s;
</script>
</body></html>`

// galleryCase is one tool result as a host would show it.
type galleryCase struct {
	name   string          // screenshot base name
	tool   Tool            // as tools/list reports it
	args   map[string]any  // the call's arguments (nil: no call, form only)
	result json.RawMessage // the real server's CallToolResult
}

// TestOfflineUIGallery renders the offline UI of every demo tool and every
// server-everything tool with a real result from the real server, in a
// chat-like host at 700 and 400 px in light and dark (with screenshots; else
// 700 light and 400 dark), and checks what a
// user would notice: the page never scrolls sideways (wide content scrolls
// inside its own box), the iframe follows the content height without growing
// without bound, and the result is visible. With GENUI_UI_SHOTS=DIR it also
// writes a PNG of each frame to DIR for a human to look at.
func TestOfflineUIGallery(t *testing.T) {
	t.Parallel() // its cases run in parallel subtests (below)
	cases := demoGalleryCases(t)
	cases = append(cases, stressGalleryCase())
	cases = append(cases, everythingGalleryCases(t)...)
	cases = append(cases, shapeGalleryCases(t)...)
	if only := os.Getenv("GENUI_GALLERY_ONLY"); only != "" {
		// scripts/gallery.sh renders only the shapes.
		// A comma-separated list of name prefixes.
		cases = slices.DeleteFunc(cases, func(c galleryCase) bool {
			return !slices.ContainsFunc(strings.Split(only, ","), func(p string) bool { return strings.HasPrefix(c.name, p) })
		})
	}
	// The cases run in parallel subtests, two at a time, each in one of two
	// tabs of one browser (each tab's renderer is a process of its own).
	browser := browsertest.Start(t)
	tabs := make(chan context.Context, 2)
	tabs <- browser
	tabs <- browsertest.Tab(t, browser)
	palettes := officialPalettes(t)
	var walkedMu sync.Mutex
	walked := map[string]bool{} // cases whose contrast was checked (in their first frame)
	shots := os.Getenv("GENUI_UI_SHOTS")
	if shots != "" {
		if err := os.MkdirAll(shots, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ui := &uiServer{pages: map[string]string{}}
	uiSrv := httptest.NewServer(ui)
	t.Cleanup(uiSrv.Close)
	hostSrv := httptest.NewServer(withDeferred(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		src, _ := json.Marshal(uiSrv.URL + "/ui/" + q.Get("page"))
		theme, _ := json.Marshal(q.Get("theme"))
		bg := "#ffffff"
		if q.Get("theme") == "dark" {
			bg = "#262624"
		}
		width := 700
		fmt.Sscan(q.Get("width"), &width)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, galleryHostPage, bg, width, testHostJS(), theme, src)
	})))
	t.Cleanup(hostSrv.Close)

	for _, c := range cases {
		res, err := NewOffline().Generate(context.Background(), Request{Tool: c.tool})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !pagecsp.Has(res.HTML) {
			t.Fatalf("%s: the offline page carries no CSP meta tag", c.name)
		}
		ui.addHTML(c.name, res.HTML)
		for _, width := range []int{700, 400} {
			for _, theme := range []string{"light", "dark"} {
				if shots == "" && (width == 700) != (theme == "light") {
					continue // without screenshots, one theme per width is enough for the layout checks
				}
				if shots == "" && strings.HasPrefix(c.name, "shape-") && width == 700 {
					continue // the shapes' own tests run at 760 px; here the narrow dark frame is the check
				}
				if strings.HasSuffix(c.name, "-narrow") && width != 400 {
					continue // a case about narrow hosts
				}
				label := fmt.Sprintf("%s-%d-%s", c.name, width, theme)
				t.Run(label, func(t *testing.T) {
					t.Parallel()
					ctx := <-tabs
					defer func() { tabs <- ctx }()
					f := &fixture{t: t, ctx: ctx, host: hostSrv.URL}
					browsertest.Run(t, ctx, 20*time.Second,
						chromedp.Navigate(fmt.Sprintf("%s/?page=%s&theme=%s&width=%d", hostSrv.URL, c.name, theme, width)),
						chromedp.WaitReady(chromedp.CSS(`body[data-app-status="ready"]`)),
					)
					f.waitFrame(richViewsSettled)
					if c.args != nil {
						args, _ := json.Marshal(c.args)
						result := "null"
						if c.result != nil {
							result = string(c.result)
						}
						f.eval(fmt.Sprintf("show(%s, %s)", args, result), nil)
						if c.result != nil {
							f.waitFrame(`(w, d) => d.body.dataset.state === "result" || d.body.dataset.state === "error"`)
						}
					}
					f.waitFrame(`(w, d) => d.documentElement.dataset.theme === "` + theme + `"`)
					settle(t, f)
					var m struct {
						ScrollW, ClientW, BodyH, FrameH, Result int
					}
					f.frameJSON(`(w, d) => ({ScrollW: d.documentElement.scrollWidth, ClientW: d.documentElement.clientWidth,
						BodyH: Math.ceil(d.body.scrollHeight), FrameH: Math.round(w.innerHeight),
						Result: d.getElementById("result").childElementCount})`, &m)
					if m.ScrollW > m.ClientW {
						t.Errorf("the page scrolls sideways: scrollWidth %d > %d (wide content must scroll in its own box)", m.ScrollW, m.ClientW)
					}
					if m.FrameH < m.BodyH-2 || m.FrameH > m.BodyH+40 {
						t.Errorf("iframe height %d does not follow the content height %d", m.FrameH, m.BodyH)
					}
					if m.BodyH > 2400 {
						t.Errorf("content is %d px tall: too tall for a chat host", m.BodyH)
					}
					if c.result != nil && m.Result == 0 {
						t.Errorf("no result rendered")
					}
					// The page's own CSP meta tag (scripts by hash, what they
					// insert by 'strict-dynamic') lets everything it does run.
					if v := f.cspViolations(); len(v) > 0 {
						t.Errorf("%d CSP violations under the page's meta policy: %v", len(v), v)
					}
					checkBounded(t, f)
					if width == 400 {
						checkNoHiddenColumns(t, f)
					}
					if shots != "" {
						png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#ui")))
						if err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(filepath.Join(shots, label+".png"), png, 0o644); err != nil {
							t.Fatal(err)
						}
						// A table wider than the frame: its right end, scrolled to inside its box.
						var wide bool
						f.frameJSON(`(w, d) => { const b = d.querySelector(".table-wrap"); if (!b || b.scrollWidth <= b.clientWidth) return false; b.scrollLeft = b.scrollWidth; return true; }`, &wide)
						if wide {
							png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#ui")))
							if err != nil {
								t.Fatal(err)
							}
							if err := os.WriteFile(filepath.Join(shots, label+"-scrolled.png"), png, 0o644); err != nil {
								t.Fatal(err)
							}
						}
					}
					walkedMu.Lock()
					first := !walked[c.name]
					walked[c.name] = true
					walkedMu.Unlock()
					if first {
						checkContrastBothThemes(t, f, theme, palettes)
					}
				})
			}
		}
	}
}

// frameJSON evaluates fn in the UI frame and decodes its result into v.
func (f *fixture) frameJSON(fn string, v any) {
	f.t.Helper()
	if err := json.Unmarshal(f.frame(fn), v); err != nil {
		f.t.Fatalf("frame %s: %v", fn, err)
	}
}

// settle waits until the iframe's height has been stable for 300 ms (the
// view reports its size debounced; the host applies it asynchronously).
func settle(t *testing.T, f *fixture) {
	t.Helper()
	last, since := -1, time.Now()
	settled := func() bool {
		var h int
		f.eval(`document.getElementById("ui").getBoundingClientRect().height`, &h)
		if h != last {
			last, since = h, time.Now()
		}
		return time.Since(since) >= 300*time.Millisecond
	}
	if !testenv.Until(10*time.Second, settled) {
		t.Fatalf("iframe height never settled (last %d)", last)
	}
}

// demoGalleryCases calls every demo tool with realistic arguments on a real
// in-process demo server.
func demoGalleryCases(t *testing.T) []galleryCase {
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(demoRPC(t, "tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	calls := map[string][]map[string]any{
		"get_current_weather": {{"location": "Lisbon"}},
		"get_forecast":        {{"location": "Berlin", "days": 7}, {"location": "Berlin", "days": 99}},
		"datastore_search":    {{"limit": 25}, {"q": "no such product anywhere"}},
		"run_battery":         {{"cells": 4}},
		"get_battery_status":  {{"job_id": "job-unknown"}},
		"reset_demo":          {{}},
		"set_units":           {{"units": "imperial"}},
		"get_tiny_image":      {{}},
	}
	var out []galleryCase
	for _, d := range list.Tools {
		tool := Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema}
		argsList, ok := calls[d.Name]
		if !ok {
			t.Fatalf("demo tool %s has no gallery call: add one", d.Name)
		}
		out = append(out, galleryCase{name: "demo-" + d.Name + "-form", tool: tool})
		for i, args := range argsList {
			res := demoRPC(t, "tools/call", map[string]any{"name": d.Name, "arguments": args})
			out = append(out, galleryCase{name: fmt.Sprintf("demo-%s-%d", d.Name, i), tool: tool, args: args, result: res})
		}
	}
	return out
}

// everythingGalleryCases lists npm's server-everything tools over stdio and
// calls those that need nothing from the host.
func everythingGalleryCases(t *testing.T) []galleryCase {
	node := testenv.NodePath(t)
	script := testenv.NPMBin(t, "@modelcontextprotocol/server-everything", "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(node, script, "stdio")
	cmd.Dir = t.TempDir()
	c, err := mcptest.Start(ctx, cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := c.Close(); err != nil {
			t.Logf("server-everything close: %v", err)
		}
	}()
	if _, err := c.Initialize(ctx, "2025-11-25", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]map[string]any{
		"echo":                           {"message": "hello from the genui gallery"},
		"get-annotated-message":          {"messageType": "error", "includeImage": true},
		"get-env":                        {},
		"get-resource-links":             {"count": 4},
		"get-resource-reference":         {"resourceType": "Text", "resourceId": 2},
		"get-structured-content":         {"location": "Chicago"},
		"get-sum":                        {"a": 2, "b": 40},
		"get-tiny-image":                 {},
		"trigger-long-running-operation": {"duration": 0.2, "steps": 2},
	}
	var out []galleryCase
	for _, tl := range tools {
		var d struct {
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		_ = json.Unmarshal(tl.Raw, &d)
		tool := Tool{Name: tl.Name, Title: d.Title, Description: d.Description, InputSchema: tl.InputSchema, OutputSchema: d.OutputSchema}
		args, ok := calls[tl.Name]
		if !ok {
			out = append(out, galleryCase{name: "everything-" + tl.Name + "-form", tool: tool})
			continue
		}
		res, err := c.CallTool(ctx, tl.Name, args, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, galleryCase{name: "everything-" + strings.ReplaceAll(tl.Name, "/", "_"), tool: tool, args: args, result: res})
	}
	return out
}

// stressSchema is the input schema of the synthetic "inventory_report" tool.
const stressSchema = `{"type":"object","properties":{"warehouse":{"type":"string","description":"Warehouse code"},"since":{"type":"string","format":"date"},"include_archived":{"type":"boolean"}},"required":["warehouse"]}`

// stressResult is a result with everything that makes tables hard: many
// columns, long text, nested objects and arrays, nulls, missing keys,
// booleans, large and fractional numbers, date-times, years and data: image
// thumbnails.
func stressResult(rows int) json.RawMessage {
	img := image.NewRGBA(image.Rect(0, 0, 24, 24))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	dot := "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
	recs := make([]map[string]any, rows)
	for i := range recs {
		r := map[string]any{
			"sku":         fmt.Sprintf("SKU-%05d", 1000+i*37),
			"name":        []string{"Anvil", "Rocket skates", "Giant magnet", "Earthquake pills", "Bird seed"}[i%5],
			"description": strings.Repeat("A very long product description that goes on and on, ", 1+i%3) + "end.",
			"unit_price":  float64(i*731%10000) / 100,
			"on_hand":     i * 123457 % 3000000,
			"active":      i%3 != 0,
			"updated_at":  fmt.Sprintf("2026-01-%02dT%02d:15:00Z", 1+i%28, i%24),
			"year":        2020 + i%6,
			"tags":        []string{"acme", []string{"heavy", "fragile", "seasonal"}[i%3]},
			"supplier":    map[string]any{"name": "Acme Corp", "country": "US", "rating": i % 5},
			"thumbnail":   dot,
			"discount":    nil,
		}
		if i%4 == 0 {
			r["discount"] = 0.15
		}
		if i%2 == 0 {
			r["notes"] = "check stock"
		}
		recs[i] = r
	}
	b, _ := json.Marshal(map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": fmt.Sprintf("%d items in warehouse W-7", rows)}},
		"structuredContent": map[string]any{"warehouse": "W-7", "generated": "2026-01-15T08:00:00Z", "items": recs},
	})
	return b
}

// stressGalleryCase is the synthetic wide table.
func stressGalleryCase() galleryCase {
	return galleryCase{
		name:   "stress-inventory_report",
		tool:   Tool{Name: "inventory_report", Title: "Inventory report", Description: "Every item of a warehouse with supplier and stock.", InputSchema: json.RawMessage(stressSchema)},
		args:   map[string]any{"warehouse": "W-7"},
		result: stressResult(30),
	}
}

// galleryShapeNames are the shapes docs/gallery.md shows, one screenshot
// each (shape-NAME-700-light.png, copied by scripts/gallery.sh).
var galleryShapeNames = []string{
	"markdown", "csv-series", "tsv", "key-value", "git-log", "diff", "log", "bullets", "image-column", "tree",
	"empty-list", "no-output", "long-description", "form-nested",
	"vcs-oneline", "commit-patch", "numbered-lines", "service-log", "array-cells", "wide-table-narrow", "size-chart",
	"write-empty", "thinking-form", "union-form",
	"fs-code", "fs-listing", "fs-file-info", "fs-tree", "fs-diff", "fs-sections", "fs-write-form",
	"memory-tabs", "memory-entities-form", "everything-structured",
}

// shapeGalleryCases are the result shapes of issue 13: fixture shapes, and
// real results of npm's server-filesystem, server-memory and
// server-everything. A case with args but no result shows the form filled
// in, as a host's tool-input does.
func shapeGalleryCases(t *testing.T) []galleryCase {
	fx := shapeFixture()
	shape := func(name, tool string, args map[string]any, result json.RawMessage) galleryCase {
		return galleryCase{name: "shape-" + name, tool: fx.tools[tool], args: args, result: result}
	}
	out := []galleryCase{
		shape("markdown", "release_notes", map[string]any{"version": "2.4"}, shapeCall(fx, "release_notes")),
		shape("csv-series", "monthly_revenue", map[string]any{}, shapeCall(fx, "monthly_revenue")),
		shape("tsv", "disk_usage", map[string]any{}, shapeCall(fx, "disk_usage")),
		shape("key-value", "server_info", map[string]any{}, shapeCall(fx, "server_info")),
		shape("git-log", "git_log", map[string]any{"max_count": 3}, shapeCall(fx, "git_log")),
		shape("diff", "git_diff", map[string]any{}, shapeCall(fx, "git_diff")),
		shape("log", "build_log", map[string]any{}, shapeCall(fx, "build_log")),
		shape("bullets", "todo_list", map[string]any{}, shapeCall(fx, "todo_list")),
		shape("image-column", "team_photos", map[string]any{}, shapeCall(fx, "team_photos")),
		shape("tree", "org_chart", map[string]any{}, shapeCall(fx, "org_chart")),
		shape("empty-list", "empty_search", map[string]any{}, shapeCall(fx, "empty_search")),
		shape("no-output", "silent_action", map[string]any{}, shapeCall(fx, "silent_action")),
		shape("long-description", "search_invoices", nil, nil),
		shape("form-nested", "create_issue", map[string]any{
			"title": "Importer drops rows", "body": "Steps:\n1. import big.csv\n2. count rows\n",
			"assignees": []any{"ada", "grace"}, "labels": []any{map[string]any{"name": "bug", "color": "red"}},
			"target": map[string]any{"kind": "repo", "repo": "acme/importer"}, "headers": map[string]any{"X-Trace": "on"},
		}, nil),
		shape("vcs-oneline", "vcs_log", map[string]any{"max_count": 6}, shapeCall(fx, "vcs_log")),
		shape("commit-patch", "git_show", map[string]any{"revision": "3f2a9c1"}, shapeCall(fx, "git_show")),
		shape("numbered-lines", "read_numbered", map[string]any{"path": "importer/import.go"}, shapeCall(fx, "read_numbered")),
		shape("service-log", "service_log", map[string]any{}, shapeCall(fx, "service_log")),
		shape("array-cells", "list_entities", map[string]any{}, shapeCall(fx, "list_entities")),
		shape("wide-table-narrow", "list_instances", map[string]any{}, shapeCall(fx, "list_instances")),
		shape("size-chart", "storage_growth", map[string]any{}, shapeCall(fx, "storage_growth")),
		shape("write-empty", "write_query", map[string]any{"query": "UPDATE customers SET tier = 'gold' WHERE id = 7"}, shapeCall(fx, "write_query")),
		shape("thinking-form", "sequentialthinking", map[string]any{
			"thought":       "The importer drops rows whose key is empty. Before changing the reader, check whether the CSV parser already trims the key: if it does, the fix belongs in the validation step, not in the reader.",
			"thoughtNumber": 2, "totalThoughts": 5, "nextThoughtNeeded": true,
		}, nil),
		shape("union-form", "sync_files", map[string]any{"source": "/srv/data", "target": "/mnt/backup", "recursive": "2025-*"}, nil),
	}

	// server-filesystem on a directory with a source file, a text file and a subdirectory.
	root := t.TempDir()
	for name, body := range map[string]string{
		"main.go":       "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(\"hello\", i)\n\t}\n}\n",
		"notes.txt":     "line one\nline two\nline three\n",
		"docs/guide.md": "# Guide\n\nRead me.\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fs := startNPMServer(t, "@modelcontextprotocol/server-filesystem", nil, root)
	real := func(s *npmServer, name, tool string, args map[string]any, call bool) galleryCase {
		c := galleryCase{name: "shape-" + name, tool: s.tools[tool], args: args}
		if call {
			c.result = s.call(t, tool, args)
		}
		return c
	}
	at := func(p string) string { return filepath.Join(root, p) }
	out = append(out,
		real(fs, "fs-code", "read_text_file", map[string]any{"path": at("main.go")}, true),
		real(fs, "fs-listing", "list_directory_with_sizes", map[string]any{"path": root}, true),
		real(fs, "fs-file-info", "get_file_info", map[string]any{"path": at("notes.txt")}, true),
		real(fs, "fs-tree", "directory_tree", map[string]any{"path": root}, true),
		real(fs, "fs-diff", "edit_file", map[string]any{"path": at("notes.txt"), "edits": []any{map[string]any{"oldText": "line two", "newText": "line 2"}}, "dryRun": true}, true),
		real(fs, "fs-sections", "read_multiple_files", map[string]any{"paths": []any{at("notes.txt"), at("docs/guide.md")}}, true),
		real(fs, "fs-write-form", "write_file", map[string]any{"path": at("poem.txt"), "content": "Roses are red,\nviolets are blue.\n"}, false),
	)

	mem := startNPMServer(t, "@modelcontextprotocol/server-memory", []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")})
	entities := []any{
		map[string]any{"name": "Ada", "entityType": "person", "observations": []any{"wrote the first program", "born 1815"}},
		map[string]any{"name": "Analytical Engine", "entityType": "machine", "observations": []any{"designed by Babbage"}},
	}
	mem.call(t, "create_entities", map[string]any{"entities": entities})
	mem.call(t, "create_relations", map[string]any{"relations": []any{map[string]any{"from": "Ada", "to": "Analytical Engine", "relationType": "programmed"}}})
	out = append(out,
		real(mem, "memory-tabs", "read_graph", map[string]any{}, true),
		real(mem, "memory-entities-form", "create_entities", map[string]any{"entities": entities}, false),
	)

	ev := startNPMServer(t, "@modelcontextprotocol/server-everything", nil, "stdio")
	out = append(out, real(ev, "everything-structured", "get-structured-content", map[string]any{"location": "Chicago"}, true))

	if len(out) != len(galleryShapeNames) {
		t.Fatalf("%d shape cases, %d names in galleryShapeNames", len(out), len(galleryShapeNames))
	}
	for i, c := range out {
		if c.name != "shape-"+galleryShapeNames[i] {
			t.Fatalf("shape case %d is %s, galleryShapeNames says %s", i, c.name, galleryShapeNames[i])
		}
		if c.tool.Name == "" {
			t.Fatalf("shape %s: no such tool", c.name)
		}
	}
	return out
}

// checkBounded fails for a text block of the result (text, code, markdown,
// card, list, log, tree, table) taller than its bound: a block inside a
// scroll box with a max-height must keep that box within it; a block
// outside any such box must stay under 600 px.
func checkBounded(t *testing.T, f *fixture) {
	t.Helper()
	var bad []string
	f.frameJSON(`(w, d) => {
		const bad = [], desc = (e) => e.tagName.toLowerCase() + (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "");
		for (const e of d.querySelectorAll("#result :is(pre, .text, .md, dl.card, ul, ol, .logview, .tree-wrap, .table-wrap, .card-grid, .tbox-body, .commit, .collection)")) {
			if (!e.checkVisibility()) continue;
			let box = null;
			for (let a = e; a && a !== d.body; a = a.parentElement) {
				const cs = w.getComputedStyle(a);
				if (cs.maxHeight !== "none" && /auto|scroll|hidden/.test(cs.overflowY)) { box = a; break; }
			}
			if (box) {
				const h = box.getBoundingClientRect().height, max = parseFloat(w.getComputedStyle(box).maxHeight);
				if (h > max + 1) bad.push(desc(box) + " is " + Math.round(h) + " px, over its max-height " + max);
			} else if (e.getBoundingClientRect().height > 600 && !e.querySelector(".tbox-body, .table-wrap, .tree-wrap")) {
				bad.push(desc(e) + " is " + Math.round(e.getBoundingClientRect().height) + " px tall with no bound");
			}
		}
		return [...new Set(bad)];
	}`, &bad)
	for _, b := range bad {
		t.Errorf("unbounded text block: %s", b)
	}
}

// checkNoHiddenColumns fails when a table of the result is wider than its
// box (columns out of sight behind a sideways scroll) without stacking its
// rows.
func checkNoHiddenColumns(t *testing.T, f *fixture) {
	t.Helper()
	var bad []string
	f.frameJSON(`(w, d) => [...d.querySelectorAll("#result table.data")].filter((t) => t.checkVisibility()).map((t) => {
		const box = t.closest(".table-wrap") || t.parentElement;
		if (box.scrollWidth <= box.clientWidth + 1 || t.closest(".stacked")) return null;
		const hidden = [...t.querySelectorAll("thead th")].filter((th) => th.getBoundingClientRect().right > box.getBoundingClientRect().right + 1).map((th) => th.dataset.key || th.textContent);
		return hidden.length ? "columns out of sight: " + hidden.join(", ") : null;
	}).filter(Boolean)`, &bad)
	for _, b := range bad {
		t.Errorf("at 400 px %s", b)
	}
}

// checkContrastBothThemes walks the frame's text for contrast under
// genui's own colours and under the official examples' palette, in the
// frame's theme and in the other one (switched through the host context).
func checkContrastBothThemes(t *testing.T, f *fixture, theme string, palettes map[string]map[string]string) {
	t.Helper()
	other := map[string]string{"light": "dark", "dark": "light"}[theme]
	set := func(theme string, vars map[string]string) {
		b, _ := json.Marshal(vars)
		f.eval(fmt.Sprintf(`(bridge.setHostContext({theme: %q, styles: {variables: %s}}), true)`, theme, b), nil)
		probe := ""
		if v := vars["--color-background-primary"]; v != "" {
			probe = v
		}
		f.waitFrame(fmt.Sprintf(`(w, d) => d.documentElement.dataset.theme === %q && getComputedStyle(d.documentElement).getPropertyValue("--color-background-primary").trim().toLowerCase() === %q`, theme, strings.ToLower(probe)))
	}
	none := map[string]string{}
	for k := range palettes["light"] {
		none[k] = ""
	}
	for _, step := range []struct {
		name, theme string
		vars        map[string]string
	}{
		{"genui " + theme, theme, nil},
		{"official " + theme, theme, palettes[theme]},
		{"official " + other, other, palettes[other]},
		{"genui " + other, other, none},
	} {
		if step.vars != nil {
			set(step.theme, step.vars)
		}
		issues, err := browsertest.LowContrast(f.ctx, "#ui", 4.5)
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range issues {
			t.Errorf("contrast under %s colours: %s", step.name, is)
		}
	}
}
