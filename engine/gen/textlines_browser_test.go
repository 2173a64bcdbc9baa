package gen

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/browsertest"
)

// Issue 23: line-oriented text read as what it is, and text that is not
// data shown as text (with the weaker reading one click away).

func TestLineOrientedTextUI(t *testing.T) {
	fx := shapeFixture()
	f := newServerFixture(t, browsertest.Start(t), fx)

	t.Run("vcs_log_one_line", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("vcs_log", 760, "light")
		f.deliver("vcs_log", `{}`)
		r := js[struct {
			Cols []string
			Row  []string
		}](f, `(w, d) => ({Cols: [...d.querySelectorAll("#result .collection th")].map(e => e.dataset.key),
			Row: [...d.querySelectorAll("#result tbody tr:nth-child(2) td")].map(e => e.textContent)})`)
		// Before: two columns, commit and a message with author and date glued in.
		// Columns ranked by role (issue 33): the message first, the commit id and the date last.
		if !slices.Equal(r.Cols, []string{"message", "author", "commit", "date"}) || !slices.Equal(r.Row, []string{"cli: add --dry-run", "Charles Babbage", "9b8a7c6", "2026-01-11"}) {
			t.Errorf("one-line log = %+v", r)
		}
		// At 400 px nothing is cut: the rows stack, every field in sight.
		f.openTool("vcs_log", 400, "light")
		f.deliver("vcs_log", `{}`)
		// The rows stack once the table is laid out in its box (a ResizeObserver).
		f.waitFrame(`(w, d) => !!d.querySelector("#result .collection.stacked")`)
		n := js[struct {
			Stacked  bool
			Labels   []string
			Overflow bool
		}](f, `(w, d) => { const wrap = d.querySelector("#result .table-wrap"); return {Stacked: !!d.querySelector("#result .collection.stacked"),
			Labels: [...d.querySelectorAll("#result tbody tr:first-child td")].filter(td => td.checkVisibility() && td.getBoundingClientRect().right <= wrap.getBoundingClientRect().right).map(td => td.dataset.label),
			Overflow: wrap.scrollWidth > wrap.clientWidth + 1}; }`)
		if !n.Stacked || n.Overflow || !slices.Equal(n.Labels, []string{"message", "author", "commit", "date"}) {
			t.Errorf("one-line log at 400 px = %+v; want stacked rows showing all four fields", n)
		}
	})

	t.Run("vcs_log_multi_line", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("git_log", 760, "light")
		f.deliver("git_log", `{}`)
		type row struct {
			Cols          []string
			Hash, Full    string
			Author, Email string
			Date, Title   string
		}
		r := js[row](f, `(w, d) => { const c = (k) => d.querySelector('#result tbody tr td[data-label="' + k + '"]'); const h = c("commit").querySelector(".hash");
			return {Cols: [...d.querySelectorAll("#result .collection th")].map(e => e.dataset.key), Hash: h.textContent, Full: h.dataset.full,
				Author: c("author").textContent, Email: c("author").title, Date: c("date").textContent, Title: c("date").title}; }`)
		// The author's address is on hover; git's date is read as a date, its text as written on hover.
		want := row{[]string{"message", "author", "commit", "date"}, "3f2a9c1\u2026", "3f2a9c1d4e5b6a7980f1e2d3c4b5a69788796a5b",
			"Ada Lovelace", "Ada Lovelace <ada@example.com>", "2026-01-12 10:04:11 +00:00", "Mon Jan 12 10:04:11 2026 +0000"}
		if fmt.Sprint(r) != fmt.Sprint(want) {
			t.Errorf("multi-line log:\n got  %+v\n want %+v", r, want)
		}
		// A click on a shortened hash copies all of it.
		f.click(`#result tbody tr:first-child .hash`)
		f.waitFrame(`(w, d) => w.GenuiText.lastCopy === "3f2a9c1d4e5b6a7980f1e2d3c4b5a69788796a5b"`)
	})

	t.Run("commit_with_patch", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("git_show", 760, "light")
		f.deliver("git_show", `{}`)
		r := js[struct {
			Head             []string
			Message          string
			Adds, Dels, Hunk int
			Tables           int
		}](f, `(w, d) => { const c = d.querySelector("#result .commit"); return {Head: [...c.querySelectorAll("dl.card dt")].map(e => e.textContent),
			Message: c.querySelector(".commit-msg").textContent, Adds: c.querySelectorAll("pre.diff .d-add").length, Dels: c.querySelectorAll("pre.diff .d-del").length,
			Hunk: c.querySelectorAll("pre.diff .d-hunk").length, Tables: d.querySelectorAll("#result table").length}; }`)
		// Before: a one-row table with the patch squashed into a message cell, newlines lost.
		if !slices.Equal(r.Head, []string{"commit", "author", "date"}) || r.Tables != 0 ||
			r.Message != "importer: read files in parallel\n\nLarge imports spent most of their time waiting on one file at a time.\nReads now go through a pool of workers." ||
			r.Adds != 3 || r.Dels != 3 || r.Hunk != 1 {
			t.Errorf("commit view = %+v", r)
		}
	})

	t.Run("numbered_lines", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("read_numbered", 400, "light")
		f.deliver("read_numbered", `{path: "importer/import.go"}`)
		r := js[struct {
			Lines, Cards  int
			First, Number string
			Font          string
			BoxH, MaxH    float64
			Label         string
		}](f, `(w, d) => { const p = d.querySelector("#result pre.numbered"), b = p.closest(".tbox-body"); return {Lines: p.querySelectorAll(".nl").length, Cards: d.querySelectorAll("#result dl.card").length,
			First: p.querySelector(".nl").textContent, Number: p.querySelector(".ln").textContent, Font: getComputedStyle(p).fontFamily,
			BoxH: b.getBoundingClientRect().height, MaxH: parseFloat(getComputedStyle(b).maxHeight), Label: d.querySelector("#result .tbox-label").textContent}; }`)
		// Before: 399 key: value pairs in a card 26,344 px tall, proportional font.
		if r.Lines != 399 || r.Cards != 0 || r.First != "1package importer" || r.Number != "1" || !strings.Contains(strings.ToLower(r.Font), "mono") ||
			r.BoxH > r.MaxH+1 || r.MaxH > 400 || !strings.Contains(r.Label, "399 lines") {
			t.Errorf("numbered lines = %+v", r)
		}
		f.click("#result .tbox-bar button.copy")
		f.waitFrame(fmt.Sprintf(`(w, d) => w.GenuiText.lastCopy && w.GenuiText.lastCopy.length === %d`, len(strings.TrimRight(numberedFile(399), "\n"))))
	})

	t.Run("timestamped_log", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("service_log", 400, "dark")
		f.deliver("service_log", `{}`)
		type row struct{ Level, Time, Msg string }
		rows := js[[]row](f, `(w, d) => [...d.querySelectorAll("#result .logview .log-row")].map(r => ({Level: r.dataset.level, Time: r.querySelector(".log-ts").textContent, Msg: r.querySelector(".log-msg").textContent}))`)
		levels := make([]string, len(rows))
		for i, r := range rows {
			levels[i] = r.Level
		}
		if !slices.Equal(levels, []string{"info", "debug", "info", "warn", "error", "info", "info"}) {
			t.Fatalf("log levels = %q", levels)
		}
		if rows[0].Time != "10:04:11.201" || !strings.HasPrefix(rows[4].Msg, "worker: job 7 failed") || !strings.Contains(rows[4].Msg, "at async Queue.next (queue.js:41:5)") {
			t.Errorf("log rows = %+v; want short times and the stack trace kept with its error", rows)
		}
		c := js[struct{ Error, Msg, Page string }](f, `(w, d) => { const e = d.querySelector("#result .lv-error .log-lvl"); return {Error: getComputedStyle(e).color,
			Msg: getComputedStyle(d.querySelector("#result .lv-info .log-msg")).color, Page: getComputedStyle(d.body).color}; }`)
		if c.Error == c.Msg || c.Msg != c.Page {
			t.Errorf("level colours = %+v; want errors coloured apart from plain messages", c)
		}
		// The level buttons filter the lines.
		f.click(`#result button.lvl-filter[data-level="info"]`)
		shown := js[[]string](f, `(w, d) => [...d.querySelectorAll("#result .logview .log-row")].filter(r => r.lastElementChild.checkVisibility()).map(r => r.dataset.level)`)
		if !slices.Equal(shown, []string{"debug", "warn", "error"}) {
			t.Errorf("after hiding info: %q", shown)
		}
	})

	t.Run("weaker_reading_one_click_away", func(t *testing.T) {
		f := f.sub(t)
		f.openTool("config_notes", 760, "light")
		f.deliver("config_notes", `{}`)
		r := js[struct {
			Text   string
			Button string
			Cards  int
		}](f, `(w, d) => ({Text: d.querySelector("#result .tbox .text").textContent, Button: d.querySelector("#result .tbox-bar button.alt-toggle").textContent, Cards: d.querySelectorAll("#result dl.card").length})`)
		// Four of five lines are key: value: the text stays text; the card is offered.
		if !strings.Contains(r.Text, "Replicas can be changed while the service runs.") || r.Button != "View as card" || r.Cards != 0 {
			t.Fatalf("config notes = %+v", r)
		}
		f.click("#result .tbox-bar button.alt-toggle")
		keys := js[[]string](f, `(w, d) => [...d.querySelectorAll("#result .alt-data dl.card dt")].map(e => e.textContent)`)
		if !slices.Equal(keys, []string{"name", "region", "replicas", "owner"}) {
			t.Errorf("card keys = %q", keys)
		}
		f.click("#result .alt-bar button.alt-toggle")
		f.waitFrame(`(w, d) => d.querySelector("#result .tbox").checkVisibility() && !d.querySelector("#result .alt-data").checkVisibility()`)
	})
}

// TestLineReadersInBrowser runs text.js's classifier (with textlines.js)
// over the line formats real tools print, and near misses that must not
// be read as them.
func TestLineReadersInBrowser(t *testing.T) {
	f := newServerFixture(t, browsertest.Start(t), shapeFixture())
	f.openTool("todo_list", 400, "light")
	pythonGit := "Commit history:\nCommit: '3f2a9c1d4e5b6a7980f1e2d3c4b5a69788796a5b'\nAuthor: <git.Actor \"Ada Lovelace <ada@example.com>\">\nDate: 2026-01-12 10:04:11+00:00\nMessage: 'importer: read files in parallel\\n'\n\n" +
		"Commit: '9b8a7c6d5e4f30211f0e9d8c7b6a59483726150f'\nAuthor: <git.Actor \"Charles Babbage <cb@example.com>\">\nDate: 2026-01-11 18:22:40+00:00\nMessage: 'cli: add --dry-run\\n'\n"
	cases := []struct{ name, text, want string }{
		{"oneline", "3f2a9c1 importer: parallel reads\n9b8a7c6 cli: add --dry-run", `gitlog [{"commit":"3f2a9c1","message":"importer: parallel reads"},{"commit":"9b8a7c6","message":"cli: add --dry-run"}]`},
		{"oneline with refs", "3f2a9c1 (HEAD -> main, origin/main) importer: parallel reads\n9b8a7c6 cli: add --dry-run",
			`gitlog [{"commit":"3f2a9c1","message":"importer: parallel reads","refs":"HEAD -> main, origin/main"},{"commit":"9b8a7c6","message":"cli: add --dry-run","refs":null}]`},
		{"pro git format", "ca82a6d - Scott Chacon, 6 years ago : Change version number\n085bb3b - Scott Chacon, 6 years ago : Remove unnecessary test",
			`gitlog [{"commit":"ca82a6d","message":"Change version number","author":"Scott Chacon","date":"6 years ago"},{"commit":"085bb3b","message":"Remove unnecessary test","author":"Scott Chacon","date":"6 years ago"}]`},
		{"graph alias", "* 3f2a9c1 - importer: parallel reads (2 days ago) <Ada Lovelace>\n* 9b8a7c6 - cli: add --dry-run (3 days ago) <Charles Babbage>",
			`gitlog [{"commit":"3f2a9c1","message":"importer: parallel reads","author":"Ada Lovelace","date":"2 days ago"},{"commit":"9b8a7c6","message":"cli: add --dry-run","author":"Charles Babbage","date":"3 days ago"}]`},
		{"author date message", onelineLog[:strings.Index(onelineLog, "\n77d0e3b")],
			`gitlog [{"commit":"e4f1c2a","message":"importer: read files in parallel, with a bounded worker pool so that very large imports no longer exhaust file descriptors","author":"Ada Lovelace","date":"2026-01-12"},{"commit":"9b8a7c6","message":"cli: add --dry-run","author":"Charles Babbage","date":"2026-01-11"}]`},
		{"python git", pythonGit, `parts`},
		{"git medium", gitLogText, "gitlog"},
		{"commit with patch", commitWithPatch, "commits"},
		{"line N", "Line 1: a\nLine 2: b\nLine 3:\nLine 4: d", "numbered"},
		{"cat -n", "     1\tpackage main\n     2\t\n     3\tfunc main() {}", "numbered"},
		{"N: text", "1: alpha\n2: beta\n3: gamma", "numbered"},
		{"ports are not line numbers", "22: ssh\n80: http\n443: https", "kv-or-other"},
		{"build log", buildLog, "log"},
		{"bracket levels", "[INFO] starting\n[WARN] disk at 91%\n[ERROR] out of space", "log"},
		{"logfmt", "time=2026-01-12T10:04:11Z level=info msg=\"starting\" port=8080\ntime=2026-01-12T10:04:12Z level=error msg=\"bind failed\"", "log"},
		{"csv with times stays a table", "time,value\n2026-01-12T10:00:00Z,1\n2026-01-12T11:00:00Z,2\n2026-01-12T12:00:00Z,3", "table"},
		{"tsv with times stays a table", "time\tvalue\n2026-01-12T10:00:00Z\t1\n2026-01-12T11:00:00Z\t2", "table"},
		{"listing stays a listing", "[FILE] a.txt\n[DIR] src", "listing"},
		{"prose with a time", "The job started at 10:04:11 and ran for an hour.\nIt finished without errors, as expected.", "prose"},
		{"one error line", "ERROR: file not found", "prose"},
	}
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	b, _ := json.Marshal(texts)
	got := js[[]string](f, fmt.Sprintf(`(w, d) => %s.map(s => { const v = w.GenuiText.classify(s, "tool");
		if (v.kind === "data" && v.from === "gitlog" && v.data.length === 2) return "gitlog " + JSON.stringify(v.data);
		if (v.kind === "data") return v.from === "kv" ? "kv-or-other" : v.from;
		return v.kind === "code" ? "kv-or-other" : v.kind; })`, b))
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("%s: classify(%.60q) = %s, want %s", c.name, c.text, got[i], c.want)
		}
	}
	py := js[[]map[string]any](f, fmt.Sprintf(`(w, d) => w.GenuiText.classify(%q, "git_log").parts[1].data`, pythonGit))
	if len(py) != 2 || py[0]["commit"] != "3f2a9c1d4e5b6a7980f1e2d3c4b5a69788796a5b" || py[0]["author"] != "Ada Lovelace <ada@example.com>" || py[0]["message"] != "importer: read files in parallel" {
		t.Errorf("python git log records = %v", py)
	}
}
