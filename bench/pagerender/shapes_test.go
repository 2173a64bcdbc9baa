package pagerender

import (
	"encoding/json"
	"fmt"
	"strings"
)

// shape is one kind of tool result, with the tool that answers it.
type shape struct {
	name   string
	tool   string
	desc   string
	args   map[string]any
	result json.RawMessage
}

// The five result shapes of the benchmark, sized like ordinary answers.
var shapes = []shape{
	{name: "table", tool: "search_issues", desc: "Searches the issue tracker.", args: map[string]any{"q": "importer"}, result: tableResult()},
	{name: "card", tool: "get_package", desc: "A package's details.", args: map[string]any{"q": "genui"}, result: cardResult()},
	{name: "markdown", tool: "release_notes", desc: "The release notes of a version.", args: map[string]any{"q": "2.4"}, result: textResult(releaseNotes)},
	{name: "tree", tool: "org_chart", desc: "The reporting tree.", args: map[string]any{"q": "all"}, result: treeResult()},
	{name: "diff", tool: "show_change", desc: "The change a commit made, as a unified diff.", args: map[string]any{"q": "HEAD"}, result: textResult(unifiedDiff())},
}

const inputSchema = `{"type":"object","properties":{"q":{"type":"string","description":"what to look up"},` +
	`"limit":{"type":"integer","minimum":1,"maximum":100,"default":20},"verbose":{"type":"boolean"}},"required":["q"]}`

func textResult(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	return b
}

func structuredResult(v any) json.RawMessage {
	text, _ := json.Marshal(v)
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": string(text)}}, "structuredContent": v})
	return b
}

func tableResult() json.RawMessage {
	states := []string{"open", "closed", "in review"}
	owners := []string{"ada", "charles", "grace", "alan", "edsger"}
	var rows []map[string]any
	for i := 1; i <= 50; i++ {
		rows = append(rows, map[string]any{
			"id": 4000 + i, "title": fmt.Sprintf("Importer issue %d: rows with a BOM are read as a header", i),
			"state": states[i%3], "owner": owners[i%5], "comments": i * 7 % 23, "updated": fmt.Sprintf("2026-11-%02dT10:%02d:00Z", 1+i%27, i%60),
		})
	}
	return structuredResult(map[string]any{"issues": rows})
}

func cardResult() json.RawMessage {
	return structuredResult(map[string]any{
		"name": "genui", "version": "0.2.0", "license": "MIT", "downloads": 48213, "stars": 1290,
		"homepage": "https://example.com/genui", "description": "Interactive UIs for any MCP tool server.",
		"published": "2026-11-20T08:00:00Z", "deprecated": false, "maintainers": 4,
		"keywords": "mcp, apps, ui, proxy", "repository": "https://example.com/genui.git",
	})
}

func treeResult() json.RawMessage {
	var person func(name, title string, depth int) map[string]any
	n := 0
	person = func(name, title string, depth int) map[string]any {
		n++
		p := map[string]any{"name": name, "title": title}
		if depth < 3 {
			var kids []any
			for i := 0; i < 3; i++ {
				kids = append(kids, person(fmt.Sprintf("%s.%d", name, i+1), "Engineer", depth+1))
			}
			p["children"] = kids
		}
		return p
	}
	return structuredResult(person("Ada", "CTO", 0))
}

const releaseNotes = "# Release 2.4\n\nThe **importer** got faster and `--dry-run` is new.\n\n" +
	"## Changes\n\n- Parallel reads (3x faster)\n- Dry runs print the plan\n- Rows with a byte order mark are read as data\n" +
	"- [Upgrade guide](https://example.com/upgrade)\n\n## Fixes\n\n1. CSV files with CR LF endings\n2. Empty columns at the end of a row\n" +
	"3. Time zones in `--since`\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n| Platform | Status |\n| --- | --- |\n" +
	"| linux | ok |\n| darwin | ok |\n| windows | ok |\n\n> Imports started before the upgrade finish with the old reader.\n"

func unifiedDiff() string {
	var b strings.Builder
	b.WriteString("diff --git a/importer/read.go b/importer/read.go\nindex 3f2a9c1..9b8a7c6 100644\n--- a/importer/read.go\n+++ b/importer/read.go\n")
	for h := 0; h < 3; h++ {
		fmt.Fprintf(&b, "@@ -%d,12 +%d,14 @@ func Read(r io.Reader) ([]Row, error) {\n", 10+h*40, 10+h*42)
		for i := 0; i < 12; i++ {
			switch i % 5 {
			case 1:
				fmt.Fprintf(&b, "-\trows = append(rows, parse(line%d))\n", i)
			case 2:
				fmt.Fprintf(&b, "+\trows = append(rows, parse(strings.TrimPrefix(line%d, bom)))\n+\tn++\n", i)
			default:
				fmt.Fprintf(&b, " \tif err := scan(line%d); err != nil {\n", i)
			}
		}
	}
	return b.String()
}
