package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The result shapes real MCP servers answer with, as a fixture server: the
// ones no npm server the tests install returns (markdown, CSV, TSV, git log,
// logs, series, image columns, trees, schemas that need every form
// editor). Each tool is one shape; the gallery and the browser tests use it.

const markdownReport = "# Release 2.4\n\nThe **importer** got faster and `--dry-run` is new.\n\n" +
	"## Changes\n\n- Parallel reads (3x faster)\n- Dry runs print the plan\n- [Upgrade guide](https://example.com/upgrade) and [a bad link](javascript:alert(1))\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n| Platform | Status |\n| --- | --- |\n| linux | ok |\n| darwin | ok |\n\n" +
	"<img src=x onerror=\"document.documentElement.dataset.pwned=1\"> raw HTML stays text.\n"

const gitLogText = `commit 3f2a9c1d4e5b6a7980f1e2d3c4b5a69788796a5b
Author: Ada Lovelace <ada@example.com>
Date:   Mon Jan 12 10:04:11 2026 +0000

    importer: read files in parallel

commit 9b8a7c6d5e4f30211f0e9d8c7b6a59483726150f
Author: Charles Babbage <cb@example.com>
Date:   Sun Jan 11 18:22:40 2026 +0000

    cli: add --dry-run

commit 1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d
Author: Ada Lovelace <ada@example.com>
Date:   Fri Jan 9 09:00:00 2026 +0000

    first commit
`

// onelineLog is `git log --pretty='%h %an %ad %s' --date=short`: hash,
// author, date and message on each line (issue 23: read as two columns with
// author and date glued into the message).
const onelineLog = `e4f1c2a Ada Lovelace 2026-01-12 importer: read files in parallel, with a bounded worker pool so that very large imports no longer exhaust file descriptors
9b8a7c6 Charles Babbage 2026-01-11 cli: add --dry-run
77d0e3b Grace Hopper 2026-01-10 docs: upgrade guide for 2.4
5c2e9a1 Ada Lovelace 2026-01-09 importer: skip empty rows
31fa0b7 Alan Turing 2026-01-08 ci: cache the module download
0a9d4e2 Grace Hopper 2026-01-06 release: 2.3.1
`

// commitWithPatch is what git show prints for one commit: its header,
// message and patch (issue 23: a one-row table with the patch squashed
// into a message cell).
const commitWithPatch = `commit 3f2a9c1d4e5b6a7980f1e2d3c4b5a69788796a5b
Author: Ada Lovelace <ada@example.com>
Date:   Mon Jan 12 10:04:11 2026 +0000

    importer: read files in parallel

    Large imports spent most of their time waiting on one file at a time.
    Reads now go through a pool of workers.

` + diffText

// numberedFile is a file as some servers read it, "Line N: text" (issue 23:
// read as 399 key: value pairs, a card 26,344 px tall).
func numberedFile(n int) string {
	src := []string{"package importer", "", "import (", "\t\"fmt\"", "\t\"os\"", "\t\"sync\"", ")", "",
		"// Import reads every path in parallel and returns the first error.", "func Import(paths []string) error {",
		"\tvar wg sync.WaitGroup", "\terrs := make(chan error, len(paths))", "\tfor _, p := range paths {",
		"\t\twg.Go(func() { errs <- read(p) })", "\t}", "\twg.Wait()", "\tclose(errs)", "\tfor err := range errs {",
		"\t\tif err != nil {", "\t\t\treturn fmt.Errorf(\"import: %w\", err)", "\t\t}", "\t}", "\treturn nil", "}", ""}
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "Line %d: %s\n", i+1, src[i%len(src)])
	}
	return b.String()
}

// serviceLog has timestamps, levels (some in brackets), a multi-line stack
// trace and debug lines.
const serviceLog = `2026-01-12 10:04:11.201 [INFO] api: listening on :8080
2026-01-12 10:04:12.870 [DEBUG] db: pool opened (max 20 connections)
2026-01-12 10:05:02.113 [INFO] api: GET /v1/invoices 200 41ms
2026-01-12 10:05:07.554 [WARN] api: slow query on invoices (1.8s): SELECT * FROM invoices WHERE customer_id = $1
2026-01-12 10:05:09.020 [ERROR] worker: job 7 failed: connection reset by peer
    at worker.run (worker.js:88:13)
    at async Queue.next (queue.js:41:5)
2026-01-12 10:05:09.021 [INFO] worker: retrying job 7 in 2s
2026-01-12 10:05:11.400 [INFO] worker: job 7 done
`

const diffText = `diff --git a/importer.go b/importer.go
index 3f2a9c1..9b8a7c6 100644
--- a/importer.go
+++ b/importer.go
@@ -10,7 +10,9 @@ func Import(paths []string) error {
 	for _, p := range paths {
-		if err := read(p); err != nil {
-			return err
-		}
+		wg.Go(func() { errs <- read(p) })
 	}
+	wg.Wait()
+	close(errs)
 	return nil
 }
`

const buildLog = `2026-01-12T10:04:11Z INFO  starting build #812
2026-01-12T10:04:12Z INFO  go build ./...
2026-01-12T10:04:31Z WARN  vet: importer.go:14: loop variable p captured by func literal
2026-01-12T10:04:40Z ERROR test TestImport failed: want 3 files, got 2
2026-01-12T10:04:40Z INFO  build #812 finished in 29s (1 failure)
`

const serverInfo = `name: billing-db
engine: postgres 16.2
region: eu-west-1
connections: 42
replicas: 2
read_only: false
uptime: 12d 4h`

// tinyPNG is a small PNG of a coloured square, base64 without a data: prefix.
func tinyPNG(c color.RGBA) string {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func textResult(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	return b
}

func structuredResult(text string, sc any) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "structuredContent": sc})
	return b
}

var months = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// nestedFormSchema needs every form editor: nested objects, arrays of
// scalars and of objects, a oneOf choice, a map, an enum array and a $ref.
const nestedFormSchema = `{
  "type": "object",
  "$defs": {"label": {"type": "object", "properties": {"name": {"type": "string"}, "color": {"type": "string", "enum": ["red", "green", "blue"]}}, "required": ["name"]}},
  "properties": {
    "title": {"type": "string", "description": "Issue title"},
    "body": {"type": "string", "description": "Markdown body of the issue"},
    "assignees": {"type": "array", "items": {"type": "string"}, "description": "Logins to assign"},
    "labels": {"type": "array", "items": {"$ref": "#/$defs/label"}},
    "milestone": {"type": "object", "properties": {"number": {"type": "integer"}, "due": {"type": "string", "format": "date"}}},
    "target": {"oneOf": [
      {"title": "Repository", "type": "object", "properties": {"kind": {"const": "repo"}, "repo": {"type": "string"}}, "required": ["kind", "repo"]},
      {"title": "Project", "type": "object", "properties": {"kind": {"const": "project"}, "project_id": {"type": "integer"}}, "required": ["kind", "project_id"]}
    ]},
    "headers": {"type": "object", "additionalProperties": {"type": "string"}},
    "priority": {"type": ["integer", "null"], "minimum": 1, "maximum": 5},
    "draft": {"type": "boolean"}
  },
  "required": ["title", "target"]
}`

// thinkingSchema is server-sequential-thinking's: its main field is a long
// free text.
const thinkingSchema = `{"type":"object","properties":{
  "thought":{"type":"string","description":"Your current thinking step"},
  "nextThoughtNeeded":{"type":"boolean","description":"Whether another thought step is needed"},
  "thoughtNumber":{"type":"integer","minimum":1,"description":"Current thought number"},
  "totalThoughts":{"type":"integer","minimum":1,"description":"Estimated total thoughts needed"}},
  "required":["thought","nextThoughtNeeded","thoughtNumber","totalThoughts"]}`

// unionSchema has a boolean/string union (one tri-state control), a
// default, examples and an enum.
const unionSchema = `{"type":"object","properties":{
  "source":{"type":"string","description":"Folder to copy from","examples":["/srv/data","~/photos"]},
  "target":{"type":"string","description":"Folder to copy to"},
  "recursive":{"type":["boolean","string"],"description":"true, false, or a glob of the subfolders to enter"},
  "mode":{"type":"string","enum":["copy","mirror","update"],"default":"update","description":"mirror also deletes files the source lacks"},
  "max_files":{"type":"integer","minimum":1,"maximum":100000,"default":1000}},
  "required":["source","target"]}`

const longDescription = "Searches the archive of every invoice the billing system has ever issued. " +
	"Results are ranked by relevance unless a sort is given; the query language supports field filters " +
	"(customer:acme, status:paid, amount>100), date ranges (issued:2025-01..2025-03), quoted phrases and " +
	"negation with a leading minus. Large result sets are paged: pass the cursor from the previous answer " +
	"to get the next page. Deleted invoices are never returned. The archive is refreshed every night at " +
	"02:00 UTC, so invoices issued today may be missing until then.\n\nExamples:\n  customer:acme status:open\n  amount>1000 -status:void"

func shapeFixture() *fixtureServer {
	obj := func(s string) json.RawMessage { return json.RawMessage(s) }
	noArgs := obj(`{"type":"object","properties":{}}`)
	srv := &fixtureServer{tools: map[string]Tool{}, results: map[string]func(map[string]any) json.RawMessage{}}
	add := func(name, desc string, schema json.RawMessage, f func(map[string]any) json.RawMessage) {
		srv.tools[name] = Tool{Name: name, Description: desc, InputSchema: schema}
		srv.results[name] = f
	}
	add("release_notes", "Release notes of a version, as markdown.", obj(`{"type":"object","properties":{"version":{"type":"string"}}}`),
		func(map[string]any) json.RawMessage { return textResult(markdownReport) })
	add("monthly_revenue", "Revenue and cost per month, as CSV.", noArgs, func(map[string]any) json.RawMessage {
		var b strings.Builder
		b.WriteString("month,revenue,cost\n")
		for i, m := range months {
			fmt.Fprintf(&b, "%s,%d,%d\n", m, 1200+i*140+(i%3)*90, 800+i*40)
		}
		return textResult(b.String())
	})
	add("disk_usage", "Disk usage per mount, as TSV.", noArgs, func(map[string]any) json.RawMessage {
		return textResult("mount\tsize_gb\tused_gb\tuse\n/\t100\t61\t61%\n/home\t500\t412\t82%\n/var\t50\t12\t24%\n")
	})
	add("server_info", "Facts about the database server.", noArgs, func(map[string]any) json.RawMessage { return textResult(serverInfo) })
	add("git_log", "Recent commits.", obj(`{"type":"object","properties":{"max_count":{"type":"integer"}}}`),
		func(map[string]any) json.RawMessage { return textResult(gitLogText) })
	add("git_diff", "Unstaged changes.", noArgs, func(map[string]any) json.RawMessage { return textResult(diffText) })
	add("build_log", "The last build's log.", noArgs, func(map[string]any) json.RawMessage { return textResult(buildLog) })
	add("todo_list", "Open tasks.", noArgs, func(map[string]any) json.RawMessage {
		return textResult("- Review the importer PR\n- Update the upgrade guide\n- Tag v2.4.0\n")
	})
	add("find_users", "Users matching a name, as text with JSON.", noArgs, func(map[string]any) json.RawMessage {
		return textResult("Found 2 users:\n[{\"login\": \"ada\", \"admin\": true}, {\"login\": \"grace\", \"admin\": false}]")
	})
	add("job_status", "A finished job; its output is JSON inside a string.", noArgs, func(map[string]any) json.RawMessage {
		return structuredResult("job 7 done", map[string]any{"job": 7, "status": "done", "output": `[{"file": "a.csv", "rows": 120}, {"file": "b.csv", "rows": 80}]`})
	})
	add("team_photos", "Team members with their photos.", noArgs, func(map[string]any) json.RawMessage {
		type member struct {
			Name   string `json:"name"`
			Role   string `json:"role"`
			Photo  string `json:"photo"`
			Joined int    `json:"joined"`
			Bio    string `json:"bio"`
		}
		bio := "Leads the importer rewrite; before that ran the billing migration, wrote most of the CLI and the upgrade guide, and still answers every support ticket about CSV encodings within the hour."
		ms := []member{
			{"Ada", "lead", tinyPNG(color.RGBA{220, 80, 60, 255}), 2019, bio},
			{"Charles", "engineer", tinyPNG(color.RGBA{60, 140, 220, 255}), 2021, "Builds the CLI."},
			{"Grace", "engineer", tinyPNG(color.RGBA{80, 180, 90, 255}), 2023, "Owns the test suite."},
		}
		return structuredResult("3 members", map[string]any{"members": ms})
	})
	add("org_chart", "The reporting tree.", noArgs, func(map[string]any) json.RawMessage {
		tree := map[string]any{"name": "Ada", "title": "CTO", "children": []any{
			map[string]any{"name": "Charles", "title": "Platform", "children": []any{
				map[string]any{"name": "Grace", "title": "Engineer"},
				map[string]any{"name": "Alan", "title": "Engineer"},
			}},
			map[string]any{"name": "Edsger", "title": "Research", "children": []any{map[string]any{"name": "Barbara", "title": "Scientist"}}},
		}}
		b, _ := json.Marshal(tree)
		return structuredResult(string(b), tree)
	})
	add("empty_search", "A search that finds nothing.", noArgs, func(map[string]any) json.RawMessage { return textResult("[]") })
	add("silent_action", "An action that answers nothing.", noArgs, func(map[string]any) json.RawMessage {
		return json.RawMessage(`{"content":[{"type":"text","text":""}]}`)
	})
	// Issue 23: line-oriented text, content that must not be hidden, writes, forms.
	add("vcs_log", "Recent commits, one per line.", obj(`{"type":"object","properties":{"max_count":{"type":"integer"}}}`),
		func(map[string]any) json.RawMessage { return textResult(onelineLog) })
	add("git_show", "A commit with its patch.", obj(`{"type":"object","properties":{"revision":{"type":"string"}}}`),
		func(map[string]any) json.RawMessage { return textResult(commitWithPatch) })
	add("read_numbered", "Reads a file with line numbers.", obj(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		func(map[string]any) json.RawMessage { return textResult(numberedFile(399)) })
	add("service_log", "The API service's log.", noArgs, func(map[string]any) json.RawMessage { return textResult(serviceLog) })
	add("list_entities", "Entities with their tags, owners and observations.", noArgs, func(map[string]any) json.RawMessage {
		type owner struct {
			Name string `json:"name"`
			Role string `json:"role"`
		}
		type limits struct {
			Workers int `json:"workers"`
			Queue   int `json:"queue"`
		}
		type entity struct {
			Name         string   `json:"name"`
			Tags         []string `json:"tags"`
			Owners       []owner  `json:"owners"`
			Observations []string `json:"observations"`
			Limits       *limits  `json:"limits"`
		}
		ents := []entity{
			{"importer", []string{"go", "etl", "io", "parallel", "critical", "v2", "owned", "beta"}, []owner{{"Ada", "lead"}, {"Grace", "review"}},
				[]string{"reads files in parallel since 2.4", "drops rows with an empty key", "the slowest step of the nightly job"}, &limits{8, 256}},
			{"cli", []string{"go"}, []owner{{"Charles", "lead"}}, []string{"has --dry-run"}, &limits{1, 0}},
			{"docs", []string{}, []owner{}, []string{}, nil},
		}
		return structuredResult("3 entities", map[string]any{"entities": ents})
	})
	add("list_instances", "Every compute instance of the project.", noArgs, func(map[string]any) json.RawMessage {
		type instance struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			State    string `json:"state"`
			Type     string `json:"type"`
			Zone     string `json:"zone"`
			CPUs     int    `json:"cpus"`
			Memory   string `json:"memory"`
			IP       string `json:"ip"`
			Image    string `json:"image"`
			Launched string `json:"launched"`
		}
		var rows []instance
		for i, name := range []string{"api-1", "api-2", "worker-1", "worker-2", "db-primary", "db-replica"} {
			rows = append(rows, instance{
				ID: fmt.Sprintf("i-%08x", 0x3f2a9c1+i*7919), Name: name, State: []string{"running", "running", "running", "stopped", "running", "running"}[i],
				Type: []string{"e2-standard-4", "e2-standard-4", "c3-highcpu-8", "c3-highcpu-8", "n2-highmem-16", "n2-highmem-16"}[i],
				Zone: []string{"europe-west1-b", "europe-west1-c"}[i%2], CPUs: []int{4, 4, 8, 8, 16, 16}[i], Memory: []string{"16 GB", "16 GB", "8 GB", "8 GB", "128 GB", "128 GB"}[i],
				IP:       fmt.Sprintf("10.132.0.%d", 12+i),
				Image:    fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(name))),
				Launched: fmt.Sprintf("2026-01-%02dT%02d:15:00Z", []int{12, 3, 20, 7, 1, 15}[i], 8+i),
			})
		}
		return structuredResult("6 instances", map[string]any{"instances": rows})
	})
	add("storage_growth", "Disk used by data and backups per day.", noArgs, func(map[string]any) json.RawMessage {
		var b strings.Builder
		b.WriteString("day,data,backups\n")
		for i := 0; i < 14; i++ {
			fmt.Fprintf(&b, "2026-01-%02d,%.1f GB,%d MB\n", i+1, 41.5+float64(i)*1.35+float64(i%3)*0.4, 800+i*310)
		}
		return textResult(b.String())
	})
	add("list_files", "Files of a folder with their sizes.", noArgs, func(map[string]any) json.RawMessage {
		return textResult("[FILE] report.pdf   67.30 KB\n[FILE] photo.jpg   1.2 MB\n[FILE] notes.txt   912 B\n[DIR] archive\n[FILE] data.csv   3.4 MB\n")
	})
	add("config_notes", "The service configuration, with notes.", noArgs, func(map[string]any) json.RawMessage {
		return textResult("name: billing\nregion: eu-west-1\nreplicas: 2\nReplicas can be changed while the service runs.\nowner: payments team\n")
	})
	add("write_query", "Execute an INSERT, UPDATE, or DELETE query on the SQLite database.", obj(`{"type":"object","properties":{"query":{"type":"string","description":"SQL query to execute"}},"required":["query"]}`),
		func(map[string]any) json.RawMessage { return textResult("[]") })
	add("sequentialthinking", "A detailed tool for dynamic and reflective problem-solving through thoughts.", obj(thinkingSchema), func(args map[string]any) json.RawMessage {
		return structuredResult("ok", map[string]any{"thoughtNumber": args["thoughtNumber"], "totalThoughts": args["totalThoughts"], "nextThoughtNeeded": args["nextThoughtNeeded"]})
	})
	add("sync_files", "Copies files between two folders.", obj(unionSchema), func(args map[string]any) json.RawMessage {
		return structuredResult("synced", map[string]any{"received": args})
	})
	add("search_invoices", longDescription, obj(`{"type":"object","properties":{"query":{"type":"string","description":"`+strings.ReplaceAll(longDescription, "\n", `\n`)+`"}},"required":["query"]}`),
		func(map[string]any) json.RawMessage { return json.RawMessage(`{"content":[]}`) })
	add("create_issue", "Creates an issue.", obj(nestedFormSchema), func(args map[string]any) json.RawMessage {
		return structuredResult("created", map[string]any{"number": 42, "received": args})
	})
	return srv
}

// shapeCall runs a fixture tool with no arguments (for gallery results).
func shapeCall(s *fixtureServer, name string) json.RawMessage {
	return s.results[name](map[string]any{})
}

// TestGalleryDocListsEveryShape checks that docs/gallery.md shows a
// screenshot of every shape the gallery test renders, and only of those.
func TestGalleryDocListsEveryShape(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "gallery.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, name := range galleryShapeNames {
		want[name] = true
		if !strings.Contains(string(doc), "(gallery/"+name+".png)") {
			t.Errorf("docs/gallery.md does not show gallery/%s.png", name)
		}
	}
	for _, m := range strings.Split(string(doc), "(gallery/")[1:] {
		name, _, _ := strings.Cut(m, ".png)")
		if !want[name] {
			t.Errorf("docs/gallery.md shows gallery/%s.png, which no gallery case makes", name)
		}
	}
}
