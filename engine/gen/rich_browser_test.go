package gen

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/internal/browsertest"
)

// demoHostPage is an MCP Apps host whose tools/call goes to the real demo
// server through POST /call. window.deliver(name, args) plays a host running
// a tool for the model: it sends tool-input, calls the tool and sends the
// result to the view. The host theme comes from ?theme=.
const demoHostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>demo host</title></head>
<body data-app-status="loading">
<iframe id="ui" sandbox="allow-scripts allow-same-origin allow-forms" style="width: 900px; border: 0; height: 200px"></iframe>
<script>%s</script>
<script>
window.calls = [];
async function callTool(params) {
  window.calls.push(params);
  const r = await fetch("/call", { method: "POST", body: JSON.stringify(params), signal: AbortSignal.timeout(10000) });
  const j = await r.json();
  if (j.error) { const e = new Error(j.error.message); e.code = j.error.code; throw e; }
  return j.result;
}
const iframe = document.getElementById("ui");
const bridge = new McpHost.AppBridge(iframe, {
  hostInfo: { name: "genui-demo-test-host", version: "1.0.0" },
  hostContext: { theme: %s, displayMode: "inline" },
  onInitialized: function () { document.body.dataset.appStatus = "ready"; },
  onReadResource: readDeferred,
  onCallTool: callTool
});
window.deliver = async function (name, args) {
  bridge.sendToolInput(args);
  bridge.sendToolResult(await callTool({ name: name, arguments: args }));
  return true;
};
bridge.start();
iframe.src = %s;
</script>
</body></html>`

// demoFixture serves generated pages of the real demo tools and routes the
// host page's tool calls to a real demo.NewServer().
type demoFixture struct {
	*fixture
	ui    *uiServer
	srv   *server.MCPServer
	tools map[string]Tool
}

func newDemoFixture(t *testing.T, hostTheme string) *demoFixture {
	ctx := browsertest.Start(t)
	srv := demo.NewServer()
	var id atomic.Int64
	rpc := func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id.Add(1), "method": method, "params": params})
		return json.Marshal(srv.HandleMessage(ctx, req))
	}
	// The demo's tool definitions, as tools/list reports them.
	raw, err := rpc(t.Context(), "tools/list", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Result struct {
			Tools []struct {
				Name         string          `json:"name"`
				Title        string          `json:"title"`
				Description  string          `json:"description"`
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &list); err != nil || len(list.Result.Tools) == 0 {
		t.Fatalf("tools/list: %v %s", err, raw)
	}
	tools := map[string]Tool{}
	for _, tl := range list.Result.Tools {
		tools[tl.Name] = Tool{Name: tl.Name, Title: tl.Title, Description: tl.Description, InputSchema: tl.InputSchema, OutputSchema: tl.OutputSchema}
	}

	ui := &uiServer{pages: map[string]string{}}
	uiSrv := httptest.NewServer(ui)
	t.Cleanup(uiSrv.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		src, _ := json.Marshal(uiSrv.URL + "/ui/" + r.URL.Query().Get("tool"))
		theme, _ := json.Marshal(hostTheme)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, demoHostPage, testHostJS(), theme, src)
	})
	mux.HandleFunc("POST /call", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		cctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		out, err := rpc(cctx, "tools/call", body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	})
	hostSrv := httptest.NewServer(withDeferred(mux))
	t.Cleanup(hostSrv.Close)
	return &demoFixture{fixture: &fixture{t: t, ctx: ctx, host: hostSrv.URL}, ui: ui, srv: srv, tools: tools}
}

// page generates tool's page offline with refinements and serves it.
func (f *demoFixture) page(tool string, refinements ...string) Result {
	f.t.Helper()
	tl, ok := f.tools[tool]
	if !ok {
		f.t.Fatalf("demo has no tool %q", tool)
	}
	res, err := NewOffline().Generate(f.ctx, Request{Tool: tl, Refinements: refinements})
	if err != nil {
		f.t.Fatal(err)
	}
	if p := Validate(res.HTML); len(p) > 0 {
		f.t.Fatalf("Validate: %q", p)
	}
	f.ui.mu.Lock()
	f.ui.pages[tool] = res.HTML
	f.ui.mu.Unlock()
	return res
}

// deliver runs tool with args as the host and waits for the rendered result.
func (f *demoFixture) deliver(tool string, args string, ready string) {
	f.t.Helper()
	f.eval(fmt.Sprintf("(deliver(%q, %s), true)", tool, args), nil)
	f.waitFrame(ready)
}

// column returns the texts of column key in the visible table rows.
func (f *demoFixture) column(key string) []string {
	f.t.Helper()
	var out []string
	f.frameJSON(fmt.Sprintf(`(w, d) => {
		const ths = [...d.querySelectorAll(".collection:not(.side *) th")].map(th => th.dataset.key);
		const i = ths.indexOf(%q);
		if (i < 0) throw new Error("no column %s in " + ths);
		return [...d.querySelectorAll(".collection:not(.side *) tbody tr")].map(tr => tr.children[i].textContent);
	}`, key, key), &out)
	return out
}

type collState struct {
	State  string
	Rows   int
	Offset int
	Total  int
}

func (f *demoFixture) coll() collState {
	f.t.Helper()
	var s struct{ State, Rows, Offset, Total string }
	f.frameJSON(`(w, d) => { const c = d.querySelector(".collection:not(.side *)"); return c ? {State: c.dataset.state || "", Rows: c.dataset.rows || "", Offset: c.dataset.offset || "", Total: c.dataset.total || ""} : null; }`, &s)
	rows, _ := strconv.Atoi(s.Rows)
	off, _ := strconv.Atoi(s.Offset)
	total, _ := strconv.Atoi(s.Total)
	return collState{s.State, rows, off, total}
}

func numbers(t *testing.T, col []string) []float64 {
	t.Helper()
	out := make([]float64, len(col))
	for i, s := range col {
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("cell %d = %q is not a number", i, s)
		}
		out[i] = n
	}
	return out
}

const collReady = `(w, d) => { const c = d.querySelector(".collection:not(.side *)"); return !!c && c.dataset.state === "ready"; }`

func TestRichTableAgainstDemoDatastore(t *testing.T) {
	f := newDemoFixture(t, "light")
	res := f.page("datastore_search")
	if res.UIType != UITypeOfflineRich || len(res.Warnings) != 0 {
		t.Fatalf("result = %q %q", res.UIType, res.Warnings)
	}
	f.open("datastore_search")

	// --- Local mode: every matching row delivered (Books, limit 1000): client-side numeric sort.
	f.deliver("datastore_search", `{filters: {category: "Books"}, limit: 1000}`, collReady)
	local := f.coll()
	var mode string
	f.frameJSON(`(w, d) => d.querySelector(".collection:not(.side *)").dataset.mode`, &mode)
	if mode != "local" || local.Total < 100 || local.Total > 500 || local.Rows != 50 {
		t.Fatalf("Books: mode %q, state %+v; want local, 100-500 rows, 50 per page", mode, local)
	}
	callsBefore := 0
	f.eval("window.calls.length", &callsBefore)
	browsertest.FrameClick(t, f.ctx, "#ui", `th[data-key="price"] button`)
	f.waitFrame(`(w, d) => d.querySelector('th[data-key="price"]').getAttribute("aria-sort") === "ascending"`)
	asc := numbers(t, f.column("price"))
	if !slices.IsSorted(asc) {
		t.Errorf("local price sort not numeric ascending: %v", asc)
	}
	browsertest.FrameClick(t, f.ctx, "#ui", `th[data-key="price"] button`)
	f.waitFrame(`(w, d) => d.querySelector('th[data-key="price"]').getAttribute("aria-sort") === "descending"`)
	desc := numbers(t, f.column("price"))
	if !slices.IsSortedFunc(desc, func(a, b float64) int { return cmp.Compare(b, a) }) {
		t.Errorf("local price sort not numeric descending: %v", desc)
	}
	if asc[0] >= desc[0] {
		t.Errorf("descending page starts at %v, ascending at %v", desc[0], asc[0])
	}
	callsAfter := 0
	f.eval("window.calls.length", &callsAfter)
	if callsAfter != callsBefore {
		t.Errorf("local sort called the tool (%d calls)", callsAfter-callsBefore)
	}

	// Text filter narrows the visible rows.
	browsertest.FrameType(t, f.ctx, "#ui", ".collection:not(.side *) input.filter", "atlas")
	f.waitFrame(`(w, d) => d.querySelector(".collection:not(.side *)").dataset.total !== "` + strconv.Itoa(local.Total) + `"`)
	filtered := f.coll()
	names := f.column("name")
	if filtered.Total == 0 || filtered.Total >= local.Total || len(names) != min(filtered.Total, 50) {
		t.Fatalf("filter: %+v (%d names), before %d rows", filtered, len(names), local.Total)
	}
	for _, n := range names {
		if !strings.Contains(strings.ToLower(n), "atlas") {
			t.Errorf("filtered row %q does not contain atlas", n)
		}
	}

	// --- Remote mode: the default call returns 100 of 2,000 rows; paging calls the tool.
	f.deliver("datastore_search", `{}`, `(w, d) => { const c = d.querySelector(".collection:not(.side *)"); return !!c && c.dataset.mode === "remote" && c.dataset.state === "ready"; }`)
	first := f.coll()
	if first.Total != 2000 || first.Rows != 100 || first.Offset != 0 {
		t.Fatalf("remote first page = %+v, want 100 of 2000 at 0", first)
	}
	f.eval("window.calls.length", &callsBefore)
	seen := map[string]bool{}
	for page := 0; ; page++ {
		ids := f.column("id")
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("page %d repeats id %s", page, id)
			}
			seen[id] = true
		}
		var last bool
		f.frameJSON(`(w, d) => d.querySelector(".collection:not(.side *) button.next").disabled`, &last)
		if last {
			break
		}
		if page > 25 {
			t.Fatalf("still paging after %d pages", page)
		}
		off := f.coll().Offset
		browsertest.FrameClick(t, f.ctx, "#ui", ".collection:not(.side *) button.next")
		f.waitFrame(fmt.Sprintf(`(w, d) => { const c = d.querySelector(".collection:not(.side *)"); return c.dataset.state === "ready" && c.dataset.offset === "%d"; }`, off+100))
		// The summary above the table follows the page (issue 23: it kept saying offset 0).
		var summary string
		f.frameJSON(`(w, d) => { const dt = [...d.querySelectorAll("dl.card.meta dt")].find(e => e.textContent === "offset"); return dt ? dt.nextElementSibling.textContent : "none"; }`, &summary)
		if strings.ReplaceAll(summary, ",", "") != strconv.Itoa(off+100) {
			t.Fatalf("after Next to offset %d the summary says offset %s", off+100, summary)
		}
	}
	if len(seen) != 2000 {
		t.Errorf("paged through %d unique ids, want 2000", len(seen))
	}
	f.eval("window.calls.length", &callsAfter)
	if callsAfter-callsBefore != 19 {
		t.Errorf("paging made %d tool calls, want 19", callsAfter-callsBefore)
	}
	var lastCall struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	f.eval("window.calls[window.calls.length - 1]", &lastCall)
	if lastCall.Name != "datastore_search" || lastCall.Arguments["offset"] != float64(1900) || lastCall.Arguments["limit"] != float64(100) {
		t.Errorf("last paging call = %+v", lastCall)
	}

	// Remote sort calls the tool with sort and starts again at offset 0.
	browsertest.FrameClick(t, f.ctx, "#ui", `th[data-key="price"] button`)
	f.waitFrame(`(w, d) => d.querySelector(".collection:not(.side *)").dataset.state === "ready" && d.querySelector(".collection:not(.side *)").dataset.offset === "0" && d.querySelector('th[data-key="price"]').getAttribute("aria-sort") === "ascending"`)
	f.eval("window.calls[window.calls.length - 1]", &lastCall)
	if lastCall.Arguments["sort"] != "price asc" {
		t.Errorf("remote sort call arguments = %v", lastCall.Arguments)
	}
	if p := numbers(t, f.column("price")); !slices.IsSorted(p) || len(p) != 100 {
		t.Errorf("remote sorted page not ascending: %v", p)
	}

	// CSV download holds exactly the visible page (after a filter, too).
	browsertest.FrameType(t, f.ctx, "#ui", ".collection:not(.side *) input.filter", "2023-")
	f.waitFrame(`(w, d) => d.querySelector(".collection:not(.side *)").dataset.rows !== "100"`)
	visibleIDs := f.column("id")
	browsertest.FrameClick(t, f.ctx, "#ui", ".collection:not(.side *) button.csv")
	f.waitFrame(`(w, d) => typeof w.GenuiRich.lastCSV === "string"`)
	var dl struct {
		CSV, Href, Download string
	}
	f.frameJSON(`(w, d) => { const a = d.querySelector(".collection:not(.side *) a.csv-link"); return {CSV: w.GenuiRich.lastCSV, Href: a.href, Download: a.download}; }`, &dl)
	lines := strings.Split(strings.TrimSuffix(dl.CSV, "\r\n"), "\r\n")
	// The columns as the table shows them: ranked by role (the name first, the id and the time last).
	if lines[0] != "name,category,price,quantity,in_stock,id,created" {
		t.Errorf("CSV header = %q", lines[0])
	}
	if len(lines)-1 != len(visibleIDs) || len(visibleIDs) == 0 {
		t.Fatalf("CSV has %d rows, page shows %d", len(lines)-1, len(visibleIDs))
	}
	for i, id := range visibleIDs {
		if fields := strings.Split(lines[i+1], ","); len(fields) != 7 || fields[5] != id {
			t.Errorf("CSV row %d = %q, want id %s", i, lines[i+1], id)
		}
	}
	if !strings.HasPrefix(dl.Href, "blob:") || !strings.HasSuffix(dl.Download, ".csv") {
		t.Errorf("download link = %+v", dl)
	}

	// A 1,000-row page draws (its speed is make bench's: bench/pagerender
	// times pages against a minimal page in the same run; a wall-clock
	// bound here failed on a loaded machine).
	f.frameJSON(`(w, d) => { const i = d.querySelector(".collection:not(.side *) input.filter"); i.value = ""; i.dispatchEvent(new Event("input")); const s = d.querySelector(".collection:not(.side *) select.page-size"); s.value = "1000"; s.dispatchEvent(new Event("change")); return true; }`, new(bool))
	f.waitFrame(`(w, d) => d.querySelector(".collection:not(.side *)").dataset.state === "ready" && d.querySelector(".collection:not(.side *)").dataset.rows === "1000"`)
	var drawn struct {
		MS   float64
		Rows int
	}
	f.frameJSON(`(w, d) => { const c = d.querySelector(".rich").rich; const t0 = performance.now(); c.draw(); return {MS: performance.now() - t0, Rows: d.querySelectorAll(".collection:not(.side *) tbody tr").length}; }`, &drawn)
	if drawn.Rows != 1000 {
		t.Errorf("the 1,000-row page drew %d rows", drawn.Rows)
	}
	t.Logf("1,000-row page drawn in %.1f ms", drawn.MS)
}

// A long table's first drawing lays out only the rows its box shows before the result's first
// frame (bench/pagerender: less work before the result is on screen): the rest are in the
// document from the start, held out of layout, and every row is laid out once that frame is
// painted; a later drawing (a sort) holds none.
func TestRichLongTableLaysOutEveryRowAfterItsFirstFrame(t *testing.T) {
	f := newDemoFixture(t, "light")
	f.page("datastore_search")
	f.open("datastore_search")
	// What the first drawing put in the table, seen the moment its rows were inserted.
	f.frameJSON(`(w, d) => { w.firstDrawing = null; new w.MutationObserver(function (ms, o) {
		const rs = d.querySelectorAll(".collection:not(.side *) tbody tr");
		if (!rs.length) return;
		w.firstDrawing = {Rows: rs.length, Held: d.querySelectorAll(".collection:not(.side *) tbody tr.later").length, HeldShown: [...d.querySelectorAll(".collection:not(.side *) tbody tr.later")].filter(r => r.getBoundingClientRect().height > 0).length};
		o.disconnect();
	}).observe(d.body, {childList: true, subtree: true}); return true; }`, new(bool))
	f.deliver("datastore_search", `{filters: {category: "Books"}, limit: 1000}`, collReady)
	var first struct{ Rows, Held, HeldShown int }
	f.frameJSON(`(w, d) => w.firstDrawing`, &first)
	if first.Rows != 50 || first.Held != 50-24 || first.HeldShown != 0 {
		t.Errorf("first drawing: %+v; want 50 rows, the 26 below the first 24 held out of layout", first)
	}
	shown := func() (rows, laidOut int) {
		var got struct{ Rows, LaidOut int }
		f.frameJSON(`(w, d) => { const rs = [...d.querySelectorAll(".collection:not(.side *) tbody tr")]; return {Rows: rs.length, LaidOut: rs.filter(r => r.getBoundingClientRect().height > 0).length}; }`, &got)
		return got.Rows, got.LaidOut
	}
	f.waitFrame(`(w, d) => !d.querySelector(".collection:not(.side *) tbody tr.later")`)
	if rows, laidOut := shown(); rows != 50 || laidOut != 50 {
		t.Errorf("after the first frame: %d rows, %d laid out; want 50 and 50", rows, laidOut)
	}
	browsertest.FrameClick(t, f.ctx, "#ui", `th[data-key="price"] button`)
	f.waitFrame(`(w, d) => d.querySelector('th[data-key="price"]').getAttribute("aria-sort") === "ascending"`)
	var held int
	f.frameJSON(`(w, d) => d.querySelectorAll(".collection:not(.side *) tbody tr.later").length`, &held)
	if rows, laidOut := shown(); held != 0 || rows != 50 || laidOut != 50 {
		t.Errorf("after a sort: %d rows held, %d rows, %d laid out; want none held, 50 laid out", held, rows, laidOut)
	}
}

func TestRichChartAndCardAgainstDemo(t *testing.T) {
	f := newDemoFixture(t, "dark")
	f.page("get_forecast")
	f.open("get_forecast")
	f.deliver("get_forecast", `{location: "Berlin", days: 5}`, `(w, d) => !!d.querySelector(".rich svg.chart") && !!d.querySelector(".collection:not(.side *)[data-state=ready]")`)
	var got struct {
		Points, Rows int
		Series       []string
		Charts       [][]string
		Meta         string
		Dates        []string
	}
	f.frameJSON(`(w, d) => ({
		Points: d.querySelectorAll(".rich svg.chart circle.pt").length,
		Charts: [...d.querySelectorAll(".rich svg.chart")].map(s => [...s.querySelectorAll("g.series")].map(g => g.dataset.field)),
		Rows: d.querySelectorAll(".collection:not(.side *) tbody tr").length,
		Series: [...d.querySelectorAll(".rich svg.chart g.series")].map(g => g.dataset.field),
		Meta: d.querySelector(".rich dl.card.meta").textContent,
		Dates: [...d.querySelectorAll(".rich svg.chart g.series[data-field=high] circle.pt title")].map(t => t.textContent.slice(0, 10)),
	})`, &got)
	// Every numeric series column is plotted (issue 23: only the first one was).
	if got.Points != 15 || got.Rows != 5 {
		t.Errorf("forecast days=5: %d points, %d rows; want 3 series of 5 and 5 rows", got.Points, got.Rows)
	}
	if !slices.Equal(got.Series, []string{"high", "low", "precipitation_mm"}) || !strings.Contains(got.Meta, "Berlin") {
		t.Errorf("chart series %q, meta %q", got.Series, got.Meta)
	}
	// °C and mm never share an axis: the temperatures get one chart, the
	// precipitation (its name says mm) another.
	if len(got.Charts) != 2 || !slices.Equal(got.Charts[0], []string{"high", "low"}) || !slices.Equal(got.Charts[1], []string{"precipitation_mm"}) {
		t.Errorf("charts %q, want [high low] and [precipitation_mm] on separate axes", got.Charts)
	}
	if !slices.IsSorted(got.Dates) || len(got.Dates) != 5 || got.Dates[0] != "2026-01-15" {
		t.Errorf("points not one per day in date order: %q", got.Dates)
	}
	// Another call re-renders with the new number of points.
	f.deliver("get_forecast", `{location: "Oslo", days: 9}`, `(w, d) => d.querySelectorAll(".rich svg.chart circle.pt").length === 27`)

	// A single record renders as a key/value card; the text summary, which
	// repeats its values ("Lisbon: 18°C, partly cloudy"), is one click away
	// after it (issue 33: one representation).
	f.page("get_current_weather")
	f.open("get_current_weather")
	f.deliver("get_current_weather", `{location: "Lisbon"}`, `(w, d) => d.body.dataset.state === "result"`)
	var card struct {
		View  string
		Keys  []string
		Vals  []string
		Text  string
		Table int
	}
	f.frameJSON(`(w, d) => ({
		View: d.querySelector(".rich").dataset.view,
		Keys: [...d.querySelectorAll(".rich dl.card > dt")].map(e => e.textContent),
		Vals: [...d.querySelectorAll(".rich dl.card > dd")].map(e => e.textContent),
		Text: (d.querySelector("#result details.message-fold:not([open]) .message-text") || {textContent: ""}).textContent,
		Table: d.querySelectorAll("#result table").length,
	})`, &card)
	wantKeys := []string{"location", "temperature", "units", "conditions", "humidity", "wind_kph", "observed_at"}
	if card.View != "card" || !slices.Equal(card.Keys, wantKeys) || card.Vals[0] != "Lisbon" || card.Table != 0 {
		t.Errorf("weather card = %+v", card)
	}
	if !strings.HasPrefix(card.Text, "Lisbon: ") {
		t.Errorf("text summary in its closed fold = %q", card.Text)
	}
}

// A section beside the principal records (CKAN's fields: seven {id, type} records beside
// 2,000 rows) is a table of its own: its own columns, every record on one page, no pager; the
// spec's columns and page size and the tool's total are the principal records' (the fields
// table once showed "1–7 of 2,000" with a Next button, the spec's name and price columns and the
// rows' own column names read from the fields as its columns).
func TestRichSideRecordsAreATableOfTheirOwn(t *testing.T) {
	f := newDemoFixture(t, "light")
	f.page("datastore_search", "show only name and price, 25 per page")
	f.open("datastore_search")
	f.deliver("datastore_search", `{}`, collReady)
	browsertest.FrameClick(t, f.ctx, "#ui", `details.side[data-key="fields"] > summary`)
	var side struct {
		Mode, Total, Info, Notes string
		Cols                     []string
		Rows                     int
		Next                     bool
	}
	f.frameJSON(`(w, d) => { const c = d.querySelector('details.side[data-key="fields"] .collection'); return c && {
		Mode: c.dataset.mode, Total: c.dataset.total, Info: c.querySelector(".page-info").textContent,
		Notes: [...c.querySelectorAll(".note")].map(e => e.textContent).join(" "),
		Cols: [...c.querySelectorAll("th")].map(th => th.dataset.key),
		Rows: c.querySelectorAll("tbody tr").length,
		Next: !!c.querySelector("button.next:not([disabled])"),
	}; }`, &side)
	slices.Sort(side.Cols)
	if side.Mode != "local" || side.Total != "7" || side.Rows != 7 || side.Next || !slices.Equal(side.Cols, []string{"id", "type"}) || side.Notes != "" {
		t.Errorf("fields section = %+v; want a local table of its 7 records, columns id and type, no next page, no notes", side)
	}
	main := f.coll()
	if main.Rows != 25 || main.Total != 2000 {
		t.Errorf("principal records = %+v; want 25 of 2000", main)
	}
}

func TestRichRefinementsInBrowser(t *testing.T) {
	f := newDemoFixture(t, "light")
	res := f.page("datastore_search", "dark theme, show only name and price, 25 per page")
	if len(res.Warnings) != 0 {
		t.Errorf("warnings = %q", res.Warnings)
	}
	f.open("datastore_search")
	f.deliver("datastore_search", `{}`, collReady)
	var got struct {
		Theme, Forced, Bg string
		Cols              []string
		Rows              int
	}
	f.frameJSON(`(w, d) => ({
		Theme: d.documentElement.dataset.theme,
		Forced: d.documentElement.dataset.themeForced || "",
		Bg: getComputedStyle(d.body).backgroundColor,
		Cols: [...d.querySelectorAll(".collection:not(.side *) th")].map(th => th.dataset.key),
		Rows: d.querySelectorAll(".collection:not(.side *) tbody tr").length,
	})`, &got)
	// The host says light; the user asked for dark, which wins, with genui's dark palette.
	if got.Theme != "dark" || got.Forced != "dark" || got.Bg != "rgb(23, 25, 28)" {
		t.Errorf("theme = %+v, want dark over the light host", got)
	}
	if !slices.Equal(got.Cols, []string{"name", "price"}) || got.Rows != 25 {
		t.Errorf("columns %q, rows %d; want [name price] and 25", got.Cols, got.Rows)
	}
	// The next page is 25 rows from the tool.
	browsertest.FrameClick(t, f.ctx, "#ui", ".collection:not(.side *) button.next")
	f.waitFrame(`(w, d) => d.querySelector(".collection:not(.side *)").dataset.offset === "25" && d.querySelector(".collection:not(.side *)").dataset.state === "ready"`)
	var call struct {
		Arguments map[string]any `json:"arguments"`
	}
	f.eval("window.calls[window.calls.length - 1]", &call)
	if call.Arguments["limit"] != float64(25) || call.Arguments["offset"] != float64(25) {
		t.Errorf("next page call = %v", call.Arguments)
	}

	// A host theme change does not undo the user's choice.
	f.eval(`(bridge.setHostContext({theme: "dark"}), true)`, nil)
	f.waitFrame(`(w, d) => d.documentElement.dataset.theme === "dark" && !d.documentElement.dataset.themeForced`)

	// Feedback the offline parser does not understand is reported.
	res = f.page("datastore_search", "make it sparkle, chart price by created")
	if want := []string{`not understood offline: "make it sparkle"`}; !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings = %q, want %q", res.Warnings, want)
	}
	f.open("datastore_search")
	f.deliver("datastore_search", `{limit: 50}`, `(w, d) => !!d.querySelector(".rich svg.chart") && d.querySelector(".collection:not(.side *)").dataset.state === "ready"`)
	var pts int
	f.frameJSON(`(w, d) => d.querySelectorAll(".rich svg.chart circle.pt").length`, &pts)
	if pts != 50 {
		t.Errorf("chart price by created: %d points, want 50", pts)
	}
}

// TestRichChartSplitsUnitsAndScales: the rule behind the forecast's two
// charts is general: columns whose names end in different units, or of no
// unit but magnitudes far apart (a loss of 0-2 beside token counts in the
// millions), get a chart each; columns of one unit and scale share one.
func TestRichChartSplitsUnitsAndScales(t *testing.T) {
	tool := Tool{Name: "training_run", Description: "Metrics per step.", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}
	f, ui := newFixture(t)
	ui.add(t, tool)
	f.open(tool.Name)
	f.waitFrame(`(w, d) => d.body.dataset.state === "ready"`)
	charts := func(rows string) [][]string {
		t.Helper()
		f.eval(`(bridge.sendToolInput({}), bridge.sendToolResult({content: [{type: "text", text: "metrics"}], structuredContent: {rows: `+rows+`}}), true)`, nil)
		f.waitFrame(`(w, d) => d.body.dataset.state === "result" && !!d.querySelector(".rich svg.chart")`)
		var got [][]string
		f.frameJSON(`(w, d) => [...d.querySelectorAll(".rich svg.chart")].map(s => [...s.querySelectorAll("g.series")].map(g => g.dataset.field))`, &got)
		return got
	}
	if got := charts(`[{step: 1, loss: 1.9, accuracy: 0.41, tokens: 1200000}, {step: 2, loss: 1.2, accuracy: 0.55, tokens: 2400000}, {step: 3, loss: 0.8, accuracy: 0.62, tokens: 3600000}]`); len(got) != 2 ||
		!slices.Equal(got[0], []string{"loss", "accuracy"}) || !slices.Equal(got[1], []string{"tokens"}) {
		t.Errorf("loss, accuracy and tokens: charts %q, want [loss accuracy] and [tokens]", got)
	}
	if got := charts(`[{step: 1, wind_kph: 12, gust_kph: 30, temp_c: 4}, {step: 2, wind_kph: 18, gust_kph: 41, temp_c: 6}]`); len(got) != 2 ||
		!slices.Equal(got[0], []string{"wind_kph", "gust_kph"}) || !slices.Equal(got[1], []string{"temp_c"}) {
		t.Errorf("kph and °C: charts %q, want [wind_kph gust_kph] and [temp_c]", got)
	}
	if got := charts(`[{step: 1, low: 3, high: 9}, {step: 2, low: 4, high: 12}]`); len(got) != 1 || !slices.Equal(got[0], []string{"low", "high"}) {
		t.Errorf("one unit and scale: charts %q, want one [low high]", got)
	}
}
