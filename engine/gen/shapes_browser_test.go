package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/internal/browsertest"
)

// frameClickAt clicks with the mouse at (x, y) in the #ui frame's viewport
// (a point, not an element: the test picks a spot away from a control).
func frameClickAt(t *testing.T, f *fixture, x, y float64) {
	t.Helper()
	var o struct{ X, Y float64 }
	f.eval(`(() => { const r = document.getElementById("ui").getBoundingClientRect(); return {X: r.left, Y: r.top}; })()`, &o)
	err := chromedp.Do(f.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMouseMoved, input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
			p := input.DispatchMouseEventParams{Type: typ, X: o.X + x, Y: o.Y + y}
			if typ != input.DispatchMouseEventTypeMouseMoved {
				p.Button, p.Buttons, p.ClickCount = input.MouseButtonLeft, 1, 1
			}
			if _, err := cdp.Call(ctx, tg, input.DispatchMouseEvent, p); err != nil {
				return err
			}
		}
		return nil
	}))
	if err != nil {
		t.Fatalf("click at %.0f,%.0f: %v", x, y, err)
	}
}

// Issue 13's defects that no installed npm server shows, with the fixture
// server of shapes_test.go behind the same sandboxed host.

func TestFixtureShapesUI(t *testing.T) {
	fx := shapeFixture()
	f := newServerFixture(t, browsertest.Start(t), fx)

	t.Run("defect3_markdown_rendered_safely", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("release_notes", 760, "light")
		f.deliver("release_notes", `{version: "2.4"}`)
		md := js[struct {
			H, Strong, Code, Th []string
			Links               [][2]string
			Imgs                int
			Pwned               bool
			Text                string
		}](f, `(w, d) => { const m = d.querySelector("#result .md"); return {
			H: [...m.querySelectorAll("h3, h4")].map(e => e.textContent), Strong: [...m.querySelectorAll("strong")].map(e => e.textContent),
			Code: [...m.querySelectorAll("pre code")].map(e => e.textContent), Th: [...m.querySelectorAll("th")].map(e => e.textContent.trim()),
			Links: [...m.querySelectorAll("a")].map(a => [a.textContent, a.getAttribute("href") || ""]), Imgs: d.querySelectorAll("#result img").length,
			Pwned: !!d.documentElement.dataset.pwned, Text: m.textContent}; }`)
		if !slices.Equal(md.H, []string{"Release 2.4", "Changes"}) || !slices.Equal(md.Strong, []string{"importer"}) || !slices.Equal(md.Th, []string{"Platform", "Status"}) {
			t.Errorf("markdown structure = %+v", md)
		}
		if len(md.Code) != 1 || !strings.Contains(md.Code[0], `fmt.Println("hi")`) || strings.Contains(md.Text, "```") {
			t.Errorf("fenced code = %q (fences shown literally: %v)", md.Code, strings.Contains(md.Text, "```"))
		}
		// Links keep web addresses only (the javascript: one is its text and its
		// target, never a link); raw HTML stays text and runs nothing.
		if len(md.Links) != 1 || md.Links[0] != [2]string{"Upgrade guide", "https://example.com/upgrade"} || !strings.Contains(md.Text, "a bad link javascript:alert(1)") {
			t.Errorf("links = %q, text %q; want the https one kept and the javascript: one shown as text", md.Links, md.Text)
		}
		if md.Imgs != 0 || md.Pwned || !strings.Contains(md.Text, "<img src=x") {
			t.Errorf("raw HTML became markup: imgs %d, pwned %v", md.Imgs, md.Pwned)
		}
		// Build logs: monospace with errors standing out.
		f.openTool("build_log", 400, "dark")
		f.deliver("build_log", `{}`)
		lg := js[struct{ Font, Err string }](f, `(w, d) => { const p = d.querySelector("#result .logview"); return {Font: getComputedStyle(p).fontFamily, Err: p.querySelector(".lv-error .log-msg").textContent}; }`)
		if !strings.Contains(strings.ToLower(lg.Font), "mono") || !strings.Contains(lg.Err, "TestImport failed") {
			t.Errorf("build log = %+v", lg)
		}
	})

	t.Run("defect4_text_as_data", func(t *testing.T) {
		f := f.sub(t)
		cases := []struct {
			tool, sel string
			want      []string
		}{
			{"monthly_revenue", "#result .collection th", []string{"month", "revenue", "cost"}},      // CSV
			{"disk_usage", "#result .collection th", []string{"mount", "size_gb", "used_gb", "use"}}, // TSV
			{"git_log", "#result .collection th", []string{"message", "author", "commit", "date"}},   // ranked by role: the message first
			{"server_info", "#result dl.card dt", []string{"name", "engine", "region", "connections", "replicas", "read_only", "uptime"}},
			{"todo_list", "#result ul.values li", []string{"Review the importer PR", "Update the upgrade guide", "Tag v2.4.0"}},
			{"find_users", "#result .text, #result .collection th", []string{"Found 2 users:", "login", "admin"}},     // JSON after a lead-in
			{"job_status", "#result dl.card > dt, #result .collection th", []string{"job", "status", "file", "rows"}}, // JSON in a string: a table
		}
		for _, c := range cases {
			f.openTool(c.tool, 760, "light")
			f.deliver(c.tool, `{}`)
			got := js[[]string](f, fmt.Sprintf(`(w, d) => [...d.querySelectorAll(%q)].map(e => e.dataset.key || e.textContent)`, c.sel))
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: %s = %q, want %q", c.tool, c.sel, got, c.want)
			}
		}
	})

	t.Run("defect7_empty_results_say_so", func(t *testing.T) {
		f := f.sub(t)
		for tool, want := range map[string]string{"empty_search": "No rows.", "silent_action": "Done, no output.", "search_invoices": "Done, no output."} {
			f.openTool(tool, 400, "light")
			args := `{}`
			if tool == "search_invoices" {
				args = `{query: "nothing"}`
			}
			f.deliver(tool, args)
			if got := js[string](f, `(w, d) => { const e = d.querySelector("#result .empty-result"); return e ? e.textContent : d.getElementById("result").textContent; }`); got != want {
				t.Errorf("%s: %q, want %q", tool, got, want)
			}
		}
		// isError stays an error banner.
		f.eval(`(bridge.sendToolResult({isError: true, content: [{type: "text", text: "archive offline"}]}), true)`, nil)
		f.waitFrame(`(w, d) => d.body.dataset.state === "error"`)
		if got := js[string](f, `(w, d) => { const b = d.querySelector("#result .error-banner[role=alert]"); return b.querySelector(".error-title").textContent + b.querySelector(".error-message").textContent; }`); got != "The tool reported an error.archive offline" {
			t.Errorf("error banner = %q", got)
		}
	})

	t.Run("defect8_long_descriptions_fold", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("search_invoices", 400, "light")
		r := js[struct {
			Desc, Hint       bool
			DescH, HintH     int
			DescMore, HintMo bool
		}](f, `(w, d) => { const e = d.getElementById("tool-description"), h = d.querySelector("#fields .hint");
			return {Desc: e.classList.contains("folded"), Hint: h.classList.contains("folded"), DescH: Math.round(e.getBoundingClientRect().height), HintH: Math.round(h.getBoundingClientRect().height),
				DescMore: !!(e.nextElementSibling && e.nextElementSibling.matches("button.more")), HintMo: !!(h.nextElementSibling && h.nextElementSibling.matches("button.more"))}; }`)
		if !r.Desc || !r.Hint || r.DescH > 70 || r.HintH > 40 || !r.DescMore || !r.HintMo {
			t.Errorf("long descriptions = %+v; want both folded (3 and 2 lines) with a More button", r)
		}
		f.click("#fields .hint + button.more")
		if h := js[int](f, `(w, d) => Math.round(d.querySelector("#fields .hint").getBoundingClientRect().height)`); h <= r.HintH*2 {
			t.Errorf("unfolded hint is %d px (folded %d)", h, r.HintH)
		}
	})

	t.Run("defect10_tables", func(t *testing.T) {
		f := f.sub(t)
		// A month/value series gets a chart above its table.
		f.openTool("monthly_revenue", 760, "light")
		f.deliver("monthly_revenue", `{}`)
		ch := js[struct {
			Points int
			Series []string
		}](f, `(w, d) => ({Points: d.querySelectorAll("#result svg.chart.line circle.pt").length, Series: [...d.querySelectorAll("#result svg.chart g.series")].map(g => g.dataset.field)})`)
		if ch.Points != 24 || !slices.Equal(ch.Series, []string{"revenue", "cost"}) {
			t.Errorf("month series chart = %+v; want 12 points of revenue and of cost", ch)
		}
		// Base64 image columns as thumbnails; long cells unfold on click; the whole header cell sorts.
		f.openTool("team_photos", 760, "light")
		f.deliver("team_photos", `{}`)
		img := js[[]string](f, `(w, d) => [...d.querySelectorAll("#result td img.thumb")].map(i => i.src.slice(0, 22) + (i.complete && i.naturalWidth === 16 ? " ok" : " broken"))`)
		if len(img) != 3 || img[0] != "data:image/png;base64, ok" {
			t.Errorf("photo column = %q; want 3 loaded thumbnails", img)
		}
		before := js[struct {
			H    int
			Text string
		}](f, `(w, d) => { const c = d.querySelector("#result td .clamp"); return {H: Math.round(c.getBoundingClientRect().height), Text: c.textContent}; }`)
		f.click("#result td .clamp")
		after := js[struct {
			H    int
			Text string
			Open bool
		}](f, `(w, d) => { const c = d.querySelector("#result td .clamp"); return {H: Math.round(c.getBoundingClientRect().height), Text: c.textContent, Open: c.getAttribute("aria-expanded") === "true"}; }`)
		if !after.Open || after.H <= before.H || !strings.HasSuffix(after.Text, "within the hour.") {
			t.Errorf("cell expand: before %+v, after %+v", before, after)
		}
		// Click the header cell away from its label (its right edge).
		clickAt := func(key string) {
			pt := js[struct{ X, Y float64 }](f, fmt.Sprintf(`(w, d) => { const th = d.querySelector('#result th[data-key=%q]'); const r = th.getBoundingClientRect(); return {X: r.right - 3, Y: r.top + r.height / 2}; }`, key))
			frameClickAt(t, f.fixture, pt.X, pt.Y)
		}
		clickAt("name")
		f.waitFrame(`(w, d) => d.querySelector('#result th[data-key="name"]').getAttribute("aria-sort") === "ascending"`)
		clickAt("name")
		f.waitFrame(`(w, d) => d.querySelector('#result th[data-key="name"]').getAttribute("aria-sort") === "descending"`)
		names := js[[]string](f, `(w, d) => [...d.querySelectorAll("#result tbody tr")].map(tr => tr.children[0].textContent)`)
		if !slices.Equal(names, []string{"Grace", "Charles", "Ada"}) {
			t.Errorf("rows after sorting by name descending = %q", names)
		}
	})

	t.Run("defect2_whole_schema_form", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("create_issue", 400, "dark")
		args := map[string]any{
			"title": "Importer drops rows", "body": "Steps:\r\n1. import big.csv\r\n\t2. count rows\n",
			"assignees": []any{"ada", "grace"}, "labels": []any{map[string]any{"name": "bug", "color": "red"}, map[string]any{"name": "p1"}},
			"milestone": map[string]any{"number": 7, "due": "2026-03-01"},
			"target":    map[string]any{"kind": "repo", "repo": "acme/importer"}, "headers": map[string]any{"X-Trace": "on"},
			"priority": 2, "draft": true,
		}
		b, _ := json.Marshal(args)
		f.eval(fmt.Sprintf("(bridge.sendToolInput(%s), true)", b), nil)
		f.waitFrame(`(w, d) => d.getElementById("f-title").value === "Importer drops rows"`)
		kinds := js[map[string]string](f, `(w, d) => Object.fromEntries([...d.querySelectorAll("#fields > *")].map(e => [e.id || e.querySelector("[id]").id, e.tagName + "." + e.className]))`)
		for id, want := range map[string]string{"f-assignees": "FIELDSET.group array scalars", "f-labels": "FIELDSET.group array objects", "f-milestone": "FIELDSET.group object", "f-target": "FIELDSET.group choice", "f-headers": "FIELDSET.group map"} {
			if kinds[id] != want {
				t.Errorf("%s is %q, want %q", id, kinds[id], want)
			}
		}
		f.submit()
		var got map[string]any
		raw, _ := json.Marshal(f.lastCall())
		_ = json.Unmarshal(raw, &got)
		want := map[string]any{}
		_ = json.Unmarshal(b, &want)
		if g, w := canonical(got), canonical(want); g != w {
			t.Errorf("prefilled arguments sent back changed:\n got  %s\n want %s", g, w)
		}
		// Switch the oneOf to its other alternative and fill it in.
		f.frameJSON(`(w, d) => { const s = d.getElementById("f-target-choice"); s.value = "1"; s.dispatchEvent(new Event("change")); return true; }`, new(bool))
		f.typeIn("#f-target-1-project_id", "12")
		f.submit()
		if got := string(f.lastCall()["target"]); got != `{"kind":"project","project_id":12}` {
			t.Errorf("target after choosing Project = %s", got)
		}
	})
}

// canonical is v as JSON with sorted keys.
func canonical(v any) string {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return string(b)
}

// TestOfflineRefinementsUI applies the refinements issue 13 found refused or
// ignored, through the offline generator, and checks the page honours them.
func TestOfflineRefinementsUI(t *testing.T) {
	fx := shapeFixture()
	fx.tools["graph"] = Tool{Name: "graph", Description: "A knowledge graph.", InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}}}`)}
	fx.results["graph"] = func(map[string]any) json.RawMessage {
		return structuredResult("graph", map[string]any{
			"entities":  []any{map[string]any{"name": "Ada", "entityType": "person"}},
			"relations": []any{map[string]any{"from": "Ada", "to": "Engine", "relationType": "programmed"}},
		})
	}
	f := newServerFixture(t, browsertest.Start(t), fx)
	open := func(t *testing.T, tool string, width int, refinements ...string) *serverFixture {
		f := f.sub(t)
		res := f.openTool(tool, width, "light", refinements...)
		if len(res.Warnings) != 0 {
			t.Errorf("%q: warnings %q", refinements, res.Warnings)
		}
		f.deliver(tool, `{}`)
		return f
	}

	t.Run("hide_the_form", func(t *testing.T) {
		f := open(t, "disk_usage", 760, "hide the form")
		r := js[struct {
			Visible, Folded bool
		}](f, `(w, d) => ({Visible: d.getElementById("tool-form").checkVisibility(), Folded: !!d.querySelector("details.form-fold:not([open]) #tool-form")})`)
		if r.Visible || !r.Folded {
			t.Errorf("form = %+v; want it folded away", r)
		}
		f.click("details.form-fold > summary")
		f.waitFrame(`(w, d) => d.getElementById("tool-form").checkVisibility()`)
	})

	t.Run("cards_at_400px", func(t *testing.T) {
		f := open(t, "team_photos", 400, "show it as cards")
		r := js[struct{ Cards, ScrollW, ClientW, Thumbs int }](f, `(w, d) => ({Cards: d.querySelectorAll("#result .card-grid > dl.card").length, ScrollW: d.documentElement.scrollWidth, ClientW: d.documentElement.clientWidth, Thumbs: d.querySelectorAll("#result .card-grid img.thumb").length})`)
		if r.Cards != 3 || r.ScrollW > r.ClientW || r.Thumbs != 3 {
			t.Errorf("cards = %+v; want 3 cards with photos and no sideways scroll", r)
		}
	})

	t.Run("cards_in_the_full_width", func(t *testing.T) {
		f := open(t, "team_photos", 760, "show it as cards")
		// Issue 23: the cards sat in the right half, beside the row count and Download CSV.
		r := js[struct{ Grid, Coll, BarBottom, GridTop float64 }](f, `(w, d) => { const g = d.querySelector("#result .card-grid").getBoundingClientRect(), c = d.querySelector("#result .collection").getBoundingClientRect();
			return {Grid: g.width, Coll: c.width, BarBottom: d.querySelector("#result .collection .toolbar").getBoundingClientRect().bottom, GridTop: g.top}; }`)
		if r.Grid < r.Coll-1 || r.GridTop < r.BarBottom {
			t.Errorf("cards = %+v; want the grid below the toolbar in the full width", r)
		}
	})

	t.Run("bar_chart_of_human_sizes", func(t *testing.T) {
		f := open(t, "list_files", 760, "make it a bar chart of size")
		r := js[struct {
			Bars   []float64
			Labels []string
		}](f, `(w, d) => ({Bars: [...d.querySelectorAll("#result svg.chart rect.bar")].map(b => Math.round(parseFloat(b.getAttribute("height")))),
			Labels: [...d.querySelectorAll("#result svg.chart .grid text")].filter(t => t.getAttribute("text-anchor") !== "end").map(t => t.textContent)})`)
		// report.pdf 67.30 KB, photo.jpg 1.2 MB, notes.txt 912 B, archive (no size), data.csv 3.4 MB.
		if len(r.Bars) != 4 || !(r.Bars[3] > r.Bars[1] && r.Bars[1] > r.Bars[0] && r.Bars[0] >= r.Bars[2]) || !slices.Contains(r.Labels, "report.pdf") {
			t.Errorf("bar chart of size = %+v; want bars by the sizes' bytes, labelled by name", r)
		}
	})

	t.Run("table_with_columns", func(t *testing.T) {
		f := open(t, "disk_usage", 760, "as a table with mount and used_gb")
		if cols := js[[]string](f, `(w, d) => [...d.querySelectorAll("#result th")].map(e => e.dataset.key)`); !slices.Equal(cols, []string{"mount", "used_gb"}) {
			t.Errorf("columns = %q", cols)
		}
	})

	t.Run("bar_chart", func(t *testing.T) {
		f := open(t, "monthly_revenue", 760, "bar chart")
		if n := js[int](f, `(w, d) => d.querySelectorAll("#result svg.chart.bar rect.bar").length`); n != 24 {
			t.Errorf("bar chart has %d bars, want 24 (revenue and cost per month)", n)
		}
	})

	t.Run("monospace_and_bigger_font", func(t *testing.T) {
		f := open(t, "server_info", 760, "monospace", "bigger font")
		r := js[struct{ Font, Size string }](f, `(w, d) => ({Font: getComputedStyle(d.querySelector("#result dl.card")).fontFamily, Size: getComputedStyle(d.body).fontSize})`)
		if !strings.Contains(strings.ToLower(r.Font), "mono") || r.Size != "16px" {
			t.Errorf("font = %+v; want monospace at 16px", r)
		}
	})

	t.Run("show_the_relations_too", func(t *testing.T) {
		f := open(t, "graph", 760, "hide relations", "show the relations too")
		r := js[struct{ Tabs, Selected []string }](f, `(w, d) => ({Tabs: [...d.querySelectorAll("#result .tabs button.tab")].map(b => b.dataset.key), Selected: [...d.querySelectorAll('#result .tabs button.tab[aria-selected="true"]')].map(b => b.dataset.key)})`)
		if !slices.Equal(r.Tabs, []string{"entities", "relations"}) || !slices.Equal(r.Selected, []string{"relations"}) {
			t.Errorf("tabs = %+v; want relations shown and open", r)
		}
	})

	t.Run("not_understood_is_said", func(t *testing.T) {
		f := f.sub(t)
		res := f.openTool("graph", 760, "light", "make it sparkle, show nosuchfield")
		if !slices.Equal(res.Warnings, []string{`not understood offline: "make it sparkle"`}) {
			t.Errorf("warnings = %q", res.Warnings)
		}
		f.deliver("graph", `{}`)
		if note := js[string](f, `(w, d) => { const n = d.querySelector("#result .config-note"); return n ? n.textContent : ""; }`); note != "Not in this result: nosuchfield." {
			t.Errorf("page note = %q", note)
		}
	})
}

// TestTextClassifyInBrowser feeds text.js's classifier the texts real
// servers answer with, and prose that must stay prose, in one page.
func TestTextClassifyInBrowser(t *testing.T) {
	f := newServerFixture(t, browsertest.Start(t), shapeFixture())
	f.openTool("todo_list", 400, "light")
	cases := []struct{ text, want string }{
		{`{"a": 1}`, "data:json"},
		{"  [1, 2]  ", "data:json"},
		{"Found 1 user:\n[{\"login\": \"ada\"}]", "parts"},
		{"```json\n{\"a\": 1}\n```", "data:json"},
		{"```diff\n-a\n+b\n```", "code:diff"},
		{"```python\nprint(1)\n```", "code:python"},
		{diffText, "code:diff"},
		{"a,b,c\n1,2,3", "data:table"},
		{"name\tsize\nx\t1", "data:table"},
		{"Hello, world\nFoo, bar", "prose"},
		{"[FILE] a.txt\n[DIR] src", "data:listing"},
		{"size: 18\nisFile: true", "data:kv"},
		{"Note: one thing\nwe said earlier.", "prose"},
		{"- a\n- b", "data:list"},
		{"1. first\n2. second", "data:list"},
		{gitLogText, "data:gitlog"},
		{"3f2a9c1 importer: parallel reads\n9b8a7c6 cli: add --dry-run", "data:gitlog"},
		{"/a.txt:\nhello\n\n---\n/b.txt:\nworld\n", "sections"},
		{"# Title\n\nSome **bold** text.", "markdown"},
		{buildLog, "log"},
		{"line1\nline2\nline3\n", "code:"},
		{"Successfully wrote to /tmp/x.txt", "prose"},
		{"The operation finished. Everything went well and nothing was left behind.\nA second sentence follows here, also long enough.", "prose"},
		{"", "empty"},
		{"[FILE] a.txt   18 B\n\nTotal: 1 files\nCombined size: 18 B", "parts"},
	}
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	b, _ := json.Marshal(texts)
	got := js[[]string](f, fmt.Sprintf(`(w, d) => %s.map(s => { const v = w.GenuiText.classify(s, "tool"); return v.kind + (v.kind === "data" ? ":" + v.from : v.kind === "code" ? ":" + v.lang : ""); })`, b))
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("classify(%.50q) = %s, want %s", c.text, got[i], c.want)
		}
	}
}
