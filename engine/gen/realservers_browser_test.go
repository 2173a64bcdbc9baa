package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/browsertest"
)

// Issue 13's defects, each shown with the real server that showed it: the
// offline UI of npm's server-filesystem, server-memory and
// server-everything, in a sandboxed host whose tools/call reaches the real
// server (progress relayed). One browser per server; each defect a subtest.

func TestFilesystemServerUI(t *testing.T) {
	root := t.TempDir()
	var big strings.Builder
	for i := 1; big.Len() < 68*1024; i++ {
		fmt.Fprintf(&big, "%05d the quick brown fox jumps over the lazy dog, again and again\n", i)
	}
	files := map[string]string{
		"notes.txt":     "line one\nline two\nline three\n",
		"main.go":       "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"docs/guide.md": "# Guide\n",
		"big.txt":       big.String(),
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	q := func(p string) string { b, _ := json.Marshal(at(p)); return string(b) }
	fs := startNPMServer(t, "@modelcontextprotocol/server-filesystem", nil, root)
	f := newServerFixture(t, browsertest.Start(t), fs)

	t.Run("defect1_output_shown_once", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("read_text_file", 760, "light")
		f.deliver("read_text_file", `{path: `+q("notes.txt")+`}`)
		got := js[struct {
			Text  string
			Boxes int
		}](f, `(w, d) => ({Text: d.getElementById("result").textContent, Boxes: d.querySelectorAll("#result .tbox").length})`)
		if n := strings.Count(got.Text, "line two"); n != 1 || got.Boxes != 1 || strings.Contains(got.Text, "…") {
			t.Errorf("read_text_file shows the file %d times in %d boxes (want once, uncut): %q", n, got.Boxes, got.Text)
		}
		// directory_tree: JSON text and {content: "<the same JSON>"}: one tree, no JSON text.
		f.openTool("directory_tree", 760, "light")
		f.deliver("directory_tree", `{path: `+q("")+`}`)
		tree := js[struct {
			Trees, Pres int
			Text        string
		}](f, `(w, d) => ({Trees: d.querySelectorAll("#result ul.tree.root").length, Pres: d.querySelectorAll("#result pre").length, Text: d.getElementById("result").textContent})`)
		if tree.Trees != 1 || tree.Pres != 0 || strings.Count(tree.Text, "guide.md") != 1 {
			t.Errorf("directory_tree: %d trees, %d JSON blocks, text %q; want one tree", tree.Trees, tree.Pres, tree.Text)
		}
	})

	t.Run("defect2_array_forms", func(t *testing.T) {
		f := f.sub(t)
		// read_multiple_files: paths is an array of strings, typed in rows.
		f.openTool("read_multiple_files", 760, "light")
		f.typeIn("#f-paths-0", at("notes.txt"))
		f.click("#f-paths > button.add")
		f.typeIn("#f-paths-1", at("main.go"))
		f.submit()
		if got := string(f.lastCall()["paths"]); got != `[`+q("notes.txt")+`,`+q("main.go")+`]` {
			t.Errorf("paths sent = %s", got)
		}
		if titles := js[[]string](f, `(w, d) => [...d.querySelectorAll("#result .tsec-title")].map(e => e.textContent)`); !slices.Equal(titles, []string{at("notes.txt"), at("main.go")}) {
			t.Errorf("file sections = %q", titles)
		}
		// A row removed is not sent.
		f.click("#f-paths > button.add")
		f.typeIn("#f-paths-2", at("docs/guide.md"))
		f.click("#f-paths .row:nth-child(2) > button.remove")
		f.submit()
		if got := string(f.lastCall()["paths"]); got != `[`+q("notes.txt")+`,`+q("docs/guide.md")+`]` {
			t.Errorf("paths sent after removing one = %s", got)
		}
		// edit_file: edits is an array of objects, each a fieldset; the edit reaches the disk.
		f.openTool("edit_file", 760, "light")
		f.typeIn("#f-path", at("notes.txt"))
		f.typeIn("#f-edits-0-oldText", "line two")
		f.typeIn("#f-edits-0-newText", "line 2")
		f.click("#f-edits > button.add")
		f.typeIn("#f-edits-1-oldText", "line three")
		f.typeIn("#f-edits-1-newText", "line 3\nline 3b")
		f.submit()
		if got, _ := os.ReadFile(at("notes.txt")); string(got) != "line one\nline 2\nline 3\nline 3b\n" {
			t.Errorf("notes.txt after edit_file = %q", got)
		}
	})

	t.Run("defect3_code_and_diffs_monospace", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("edit_file", 760, "dark")
		f.deliver("edit_file", `{path: `+q("main.go")+`, edits: [{oldText: "println(\"hi\")", newText: "println(\"hello\")"}], dryRun: true}`)
		d := js[struct {
			Del, Add, Font, AddBg, CtxBg string
			Fences                       bool
		}](f, `(w, d) => { const pre = d.querySelector("#result pre.diff"); const del = pre.querySelector(".d-del"), add = pre.querySelector(".d-add"), ctx = pre.querySelector(".d-ctx");
			return {Del: del.textContent, Add: add.textContent, Font: getComputedStyle(pre).fontFamily, AddBg: getComputedStyle(add).backgroundColor, CtxBg: getComputedStyle(ctx).backgroundColor,
				Fences: d.getElementById("result").textContent.includes("`+"```"+`")}; }`)
		if !strings.Contains(d.Del, `println("hi")`) || !strings.Contains(d.Add, `println("hello")`) || d.AddBg == d.CtxBg || d.Fences || !strings.Contains(strings.ToLower(d.Font), "mono") {
			t.Errorf("edit_file diff = %+v; want coloured -/+ lines in a monospace block, no markdown fences", d)
		}
		f.openTool("read_text_file", 760, "light")
		f.deliver("read_text_file", `{path: `+q("main.go")+`}`)
		code := js[struct{ Text, Font, WS string }](f, `(w, d) => { const p = d.querySelector("#result pre.code"); return {Text: p.textContent, Font: getComputedStyle(p).fontFamily, WS: getComputedStyle(p).whiteSpace}; }`)
		if code.Text != files["main.go"] || !strings.Contains(strings.ToLower(code.Font), "mono") || code.WS != "pre" {
			t.Errorf("source file = %+v; want it verbatim in a monospace, unwrapped block", code)
		}
	})

	t.Run("defect4_text_as_data", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("list_directory_with_sizes", 760, "light")
		f.deliver("list_directory_with_sizes", `{path: `+q("")+`}`)
		ls := js[struct {
			Cols  []string
			Rows  [][]string
			Facts []string
		}](f, `(w, d) => ({Cols: [...d.querySelectorAll("#result .collection th")].map(e => e.dataset.key),
			Rows: [...d.querySelectorAll("#result .collection tbody tr")].map(tr => [...tr.children].map(td => td.textContent)),
			Facts: [...d.querySelectorAll("#result dl.card dt")].map(e => e.textContent)})`)
		// Columns ranked by role (issue 33): the name first.
		if !slices.Equal(ls.Cols, []string{"name", "type", "size"}) || len(ls.Rows) != 4 || !slices.Contains(ls.Facts, "Combined size") {
			t.Errorf("[FILE]/[DIR] listing = %+v; want a name/type/size table and the totals as a card", ls)
		}
		st, _ := os.Stat(at("notes.txt"))
		if !slices.ContainsFunc(ls.Rows, func(r []string) bool {
			return slices.Equal(r, []string{"notes.txt", "FILE", fmt.Sprint(st.Size(), " B")})
		}) {
			t.Errorf("listing rows = %q", ls.Rows)
		}
		f.openTool("get_file_info", 760, "light")
		f.deliver("get_file_info", `{path: `+q("main.go")+`}`)
		card := js[map[string]string](f, `(w, d) => Object.fromEntries([...d.querySelectorAll("#result dl.card dt")].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))`)
		if card["size"] != fmt.Sprint(len(files["main.go"])) || card["isFile"] != "✓" || card["isDirectory"] != "✗" || card["permissions"] == "" {
			t.Errorf("key: value lines as a card = %v", card)
		}
		// {content: "<JSON>"} from directory_tree: a tree whose directories fold.
		f.openTool("directory_tree", 400, "dark")
		f.deliver("directory_tree", `{path: `+q("")+`}`)
		tr := js[struct {
			Dirs   []string
			Leaves int
		}](f, `(w, d) => ({Dirs: [...d.querySelectorAll("#result ul.tree details > summary .node-label")].map(e => e.textContent), Leaves: d.querySelectorAll("#result ul.tree li.leaf").length})`)
		if !slices.Equal(tr.Dirs, []string{"docs"}) || tr.Leaves != 4 {
			t.Errorf("directory_tree = %+v; want docs foldable and 4 files", tr)
		}
	})

	t.Run("defect6_multiline_round_trip", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("write_file", 760, "light")
		if tag := js[string](f, `(w, d) => d.getElementById("f-content").tagName`); tag != "TEXTAREA" {
			t.Fatalf("write_file content is a %s, want a TEXTAREA", tag)
		}
		typed := "first line\n  indented second line\n\nünïcödé ✓ and a \"quote\"\nlast line\n"
		f.typeIn("#f-path", at("typed.txt"))
		f.typeIn("#f-content", typed)
		f.submit()
		if got, err := os.ReadFile(at("typed.txt")); err != nil || string(got) != typed {
			t.Errorf("typed.txt = %q (%v), want the typed text byte for byte %q", got, err, typed)
		}
		// Prefilled by the host (CR LF, tabs, trailing spaces), sent back unchanged.
		exact := "a\r\nb\tc  \r\n\r\nend"
		args, _ := json.Marshal(map[string]string{"path": at("exact.txt"), "content": exact})
		f.eval(fmt.Sprintf("(bridge.sendToolInput(%s), true)", args), nil)
		f.waitFrame(`(w, d) => d.getElementById("f-content").value.startsWith("a\nb")`)
		f.submit()
		if got, err := os.ReadFile(at("exact.txt")); err != nil || string(got) != exact {
			t.Errorf("exact.txt = %q (%v), want %q", got, err, exact)
		}
	})

	t.Run("defect8_height_bounded", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("read_text_file", 760, "light")
		f.deliver("read_text_file", `{path: `+q("big.txt")+`}`)
		h := js[struct{ Body, BoxScroll, BoxClient int }](f, `(w, d) => { const b = d.querySelector("#result .tbox-body"); return {Body: d.body.scrollHeight, BoxScroll: b.scrollHeight, BoxClient: b.clientHeight}; }`)
		if h.Body > 1200 || h.BoxScroll <= h.BoxClient || h.BoxClient > 420 {
			t.Errorf("68 KB file: page %d px tall, text box %d/%d; want the page under 1200 px and the text scrolling in its box", h.Body, h.BoxClient, h.BoxScroll)
		}
		f.click("#result .tbox button.copy")
		f.waitFrame(`(w, d) => typeof w.GenuiText.lastCopy === "string"`)
		if n := js[int](f, `(w, d) => w.GenuiText.lastCopy.length`); n != len(files["big.txt"]) {
			t.Errorf("Copy took %d characters, want all %d", n, len(files["big.txt"]))
		}
		// A long tool description folds to three lines; More unfolds it.
		f.openTool("list_directory_with_sizes", 400, "light")
		d := js[struct{ Folded, Full int }](f, `(w, d) => { const e = d.getElementById("tool-description"); const h = e.getBoundingClientRect().height; return {Folded: Math.round(h), Full: e.scrollHeight}; }`)
		f.click("#tool-description + button.more")
		open := js[int](f, `(w, d) => Math.round(d.getElementById("tool-description").getBoundingClientRect().height)`)
		if d.Folded > 70 || open <= d.Folded {
			t.Errorf("description %d px folded, %d px open; want it folded to three lines and unfolding", d.Folded, open)
		}
	})
}

func TestMemoryServerUI(t *testing.T) {
	mem := startNPMServer(t, "@modelcontextprotocol/server-memory", []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")})
	ctx := browsertest.Start(t)
	f := newServerFixture(t, ctx, mem)

	t.Run("defect2_array_of_objects_form", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("create_entities", 400, "light")
		f.typeIn("#f-entities-0-name", "Ada")
		f.typeIn("#f-entities-0-entityType", "person")
		f.typeIn("#f-entities-0-observations-0", "wrote the first program")
		f.click("#f-entities-0-observations > button.add")
		f.typeIn("#f-entities-0-observations-1", "born 1815")
		f.click("#f-entities > button.add")
		f.typeIn("#f-entities-1-name", "Analytical Engine")
		f.typeIn("#f-entities-1-entityType", "machine")
		f.typeIn("#f-entities-1-observations-0", "designed by Babbage")
		f.submit()
		want := `[{"name":"Ada","entityType":"person","observations":["wrote the first program","born 1815"]},{"name":"Analytical Engine","entityType":"machine","observations":["designed by Babbage"]}]`
		if got := string(f.lastCall()["entities"]); got != want {
			t.Errorf("entities sent =\n%s\nwant\n%s", got, want)
		}
		// defect 1: the text is the same JSON as structuredContent.entities: one table, no JSON text.
		r := js[struct {
			Tables, Pres int
			Text         string
		}](f, `(w, d) => ({Tables: d.querySelectorAll("#result table.data").length, Pres: d.querySelectorAll("#result pre").length, Text: d.getElementById("result").textContent})`)
		if r.Tables != 1 || r.Pres != 0 || strings.Count(r.Text, "born 1815") != 1 {
			t.Errorf("create_entities result: %d tables, %d JSON blocks, %d copies; want one table", r.Tables, r.Pres, strings.Count(r.Text, "born 1815"))
		}
	})

	t.Run("defect5_every_array_shown", func(t *testing.T) {
		f := f.sub(t)
		mem.call(t, "create_relations", map[string]any{"relations": []any{map[string]any{"from": "Ada", "to": "Analytical Engine", "relationType": "programmed"}}})
		for _, tool := range []string{"read_graph", "search_nodes"} {
			f.openTool(tool, 760, "light")
			args := `{}`
			if tool == "search_nodes" {
				args = `{query: "Ada"}`
			}
			f.deliver(tool, args)
			tabs := js[[]string](f, `(w, d) => [...d.querySelectorAll("#result .tabs button.tab")].map(b => b.textContent)`)
			wantEntities := "entities (2)"
			if tool == "search_nodes" {
				wantEntities = "entities (1)"
			}
			if !slices.Equal(tabs, []string{wantEntities, "relations (1)"}) {
				t.Errorf("%s tabs = %q", tool, tabs)
				continue
			}
			f.click(`#result .tabs button.tab[data-key="relations"]`)
			cols := js[[]string](f, `(w, d) => [...d.querySelectorAll('#result .tab-panel[data-key="relations"]:not([hidden]) th')].map(e => e.dataset.key)`)
			if !slices.Equal(cols, []string{"from", "to", "relationType"}) {
				t.Errorf("%s relations tab columns = %q", tool, cols)
			}
		}
	})

	t.Run("defect7_empty_results", func(t *testing.T) {
		f := f.sub(t)
		empty := startNPMServer(t, "@modelcontextprotocol/server-memory", []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "empty.jsonl")})
		ef := newServerFixture(t, f.ctx, empty)
		ef.openTool("read_graph", 760, "light")
		ef.deliver("read_graph", `{}`)
		got := js[struct {
			Tabs []string
			Msg  string
		}](ef, `(w, d) => ({Tabs: [...d.querySelectorAll("#result .tabs button.tab")].map(b => b.textContent), Msg: d.querySelector("#result .tab-panel:not([hidden]) .empty-result").textContent})`)
		if !slices.Equal(got.Tabs, []string{"entities (0)", "relations (0)"}) || got.Msg != "No rows." {
			t.Errorf("empty graph = %+v; want two empty tabs saying No rows.", got)
		}
		// A message that is both the text and a structuredContent field is shown once.
		ef.openTool("delete_entities", 760, "light")
		ef.deliver("delete_entities", `{entityNames: ["Nobody"]}`)
		text := js[string](ef, `(w, d) => d.getElementById("result").textContent`)
		if strings.Count(text, "Entities deleted successfully") != 1 {
			t.Errorf("delete_entities result = %q; want the message once", text)
		}
	})
}

func TestEverythingServerUI(t *testing.T) {
	ev := startNPMServer(t, "@modelcontextprotocol/server-everything", nil, "stdio")
	f := newServerFixture(t, browsertest.Start(t), ev)

	t.Run("defect9_progress_bar", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("trigger-long-running-operation", 760, "light")
		f.typeIn("#f-duration", "2")
		f.typeIn("#f-steps", "4")
		f.frameJSON(`(w, d) => { d.body.dataset.state = "waiting"; return true; }`, new(bool))
		f.click("#submit")
		// The bar appears and moves while the call runs.
		var seen []string
		for len(seen) < 2 {
			v := js[struct {
				Now, Max, Width, Label string
				Done                   bool
			}](f, `(w, d) => { const p = d.querySelector("#progress-host .progress:not([hidden])"); const s = d.body.dataset.state;
				return p ? {Now: p.getAttribute("aria-valuenow"), Max: p.getAttribute("aria-valuemax"), Width: p.querySelector(".progress-fill").style.width, Label: p.textContent, Done: false}
					: {Done: s === "result" || s === "error"}; }`)
			if v.Done {
				break
			}
			if v.Now != "" && !slices.Contains(seen, v.Now) {
				seen = append(seen, v.Now)
				if v.Max != "4" || !strings.HasSuffix(v.Width, "%") || !strings.Contains(v.Label, "of 4") {
					t.Errorf("progress bar = %+v; want n of 4", v)
				}
			}
		}
		f.waitFrame(resultShown)
		if len(seen) < 2 {
			t.Errorf("progress bar showed %q during the call; want it to move", seen)
		}
		left := js[int](f, `(w, d) => d.querySelectorAll("#progress-host .progress").length`)
		text := js[string](f, `(w, d) => d.getElementById("result").textContent`)
		if left != 0 || !strings.Contains(text, "Long running operation completed") {
			t.Errorf("after the call: %d bars left, result %q", left, text)
		}
		var relayed int
		f.eval("window.progress.length", &relayed)
		if relayed < 3 {
			t.Errorf("the host relayed %d progress notifications, want at least 3", relayed)
		}
	})

	t.Run("defect1_structured_once", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("get-structured-content", 400, "dark")
		f.deliver("get-structured-content", `{location: "Chicago"}`)
		r := js[struct {
			Cards, Pres int
			Keys        []string
		}](f, `(w, d) => ({Cards: d.querySelectorAll("#result dl.card").length, Pres: d.querySelectorAll("#result pre").length, Keys: [...d.querySelectorAll("#result dl.card dt")].map(e => e.textContent)})`)
		if r.Cards != 1 || r.Pres != 0 || !slices.Equal(r.Keys, []string{"temperature", "conditions", "humidity"}) {
			t.Errorf("get-structured-content = %+v; want one card", r)
		}
	})
}
