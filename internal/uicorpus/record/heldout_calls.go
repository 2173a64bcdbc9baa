package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Calls of the held-out servers (heldout.go): realistic arguments against
// the local data, and one call meant to fail per server.

func postgresQueryCalls(w *world) []call {
	return []call{
		c("list_schemas", nil),
		c("list_tables", m{"schema": "public"}),
		c("describe_table", m{"table": "orders"}),
		c("query", m{"sql": "SELECT id, customer, product, quantity, total, status, ordered_at FROM order_totals ORDER BY id LIMIT 20"}),
		c("query", m{"sql": "SELECT country, count(*) AS customers FROM customers WHERE created_at > $1 GROUP BY country ORDER BY customers DESC", "params": []any{"2025-01-01"}}),
		c("query", m{"sql": "SELECT status, count(*) AS orders, sum(quantity) AS items FROM orders GROUP BY status ORDER BY orders DESC"}),
		bad("execute", m{"sql": "UPDATE products SET in_stock = 0 WHERE sku = 'WID-001'"}),
		bad("query", m{"sql": "SELECT total FROM invoices"}),
	}
}

func postgresEnhancedCalls(w *world) []call {
	return []call{
		c("query", m{"sql": "SELECT sku, name, unit_price, in_stock FROM products ORDER BY unit_price DESC"}),
		c("query", m{"sql": "SELECT c.name, count(o.id) AS orders, sum(o.quantity) AS items FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY orders DESC LIMIT 10"}),
		c("createTable", m{"tableName": "returns", "columns": []any{
			m{"name": "id", "type": "serial", "constraints": "PRIMARY KEY"},
			m{"name": "order_id", "type": "integer", "constraints": "NOT NULL REFERENCES orders(id)"},
			m{"name": "reason", "type": "text"},
			m{"name": "returned_at", "type": "timestamptz", "constraints": "NOT NULL DEFAULT now()"}}}),
		c("insert", m{"table": "returns", "data": m{"order_id": 3, "reason": "arrived damaged"}}),
		c("update", m{"table": "returns", "data": m{"reason": "arrived damaged, box crushed"}, "where": "order_id = 3"}),
		c("execute", m{"sql": "UPDATE products SET in_stock = in_stock + 10 WHERE in_stock < 5"}),
		c("createIndex", m{"tableName": "orders", "indexName": "orders_ordered_at_idx", "columns": []any{"ordered_at"}}),
		c("alterTable", m{"tableName": "returns", "operation": "ADD COLUMN", "details": "refund numeric(10,2)"}),
		c("createFunction", m{"name": "returns_touch", "parameters": "", "returnType": "trigger", "language": "plpgsql",
			"body": "BEGIN NEW.returned_at := now(); RETURN NEW; END;"}),
		c("createTrigger", m{"name": "returns_touch_trg", "tableName": "returns", "functionName": "returns_touch", "when": "BEFORE", "events": []any{"UPDATE"}, "forEach": "ROW"}),
		c("query", m{"sql": "SELECT id, order_id, reason, refund FROM returns"}),
		c("delete", m{"table": "returns", "where": "order_id = 3"}),
		bad("insert", m{"table": "returns", "data": m{"order_id": 99999, "reason": "no such order"}}),
	}
}

func obsidianNotesCalls(w *world) []call {
	v := "notes"
	return []call{
		c("obsidian_list_vaults", nil),
		c("obsidian_read_note", m{"vault": v, "path": "Home.md"}),
		c("obsidian_read_note", m{"vault": v, "path": "Projects/Orders export.md"}),
		c("obsidian_search_vault", m{"vault": v, "query": "export", "mode": "both"}),
		c("obsidian_search_vault", m{"vault": v, "query": "meeting", "mode": "tag"}),
		c("obsidian_create_note", m{"vault": v, "path": "Meetings/2026-01-26 Weekly.md", "content": "# Weekly, 26 January\n\n- [ ] Ada: paging for the export\n- [ ] Grace: retry policy\n\nSee [[Projects/Orders export]].\n"}),
		c("obsidian_edit_note", m{"vault": v, "path": "Inbox.md", "operation": "append", "content": "- [ ] Ask finance about refunds as negative lines\n"}),
		c("obsidian_create_directory", m{"vault": v, "path": "Archive/2025"}),
		c("obsidian_move_note", m{"vault": v, "source": "Daily/2026-01-20.md", "destination": "Archive/2025/2026-01-20.md"}),
		c("obsidian_add_tags", m{"vault": v, "paths": []any{"Projects/Orders export.md", "Projects/Billing v2.md"}, "tags": []any{"q1"}}),
		c("obsidian_remove_tags", m{"vault": v, "paths": []any{"Projects/Billing v2.md"}, "tags": []any{"q1"}}),
		c("obsidian_rename_tag", m{"vault": v, "old_tag": "meeting", "new_tag": "meetings"}),
		c("obsidian_manage_tags", m{"operation": "add", "vault": v, "paths": []any{"Inbox.md"}, "tags": []any{"triage"}}),
		c("obsidian_delete_note", m{"vault": v, "path": "Templates/Meeting.md", "reason": "template moved to the plugin settings"}),
		bad("obsidian_read_note", m{"vault": v, "path": "Projects/Missing.md"}),
	}
}

func taskManagerCalls(w *world) []call {
	req := func(s *session) string { return s.find("request_planning", `(req-\d+)`, "req-1") }
	return []call{
		c("request_planning", m{"originalRequest": "Ship the CSV export of orders for the finance team", "splitDetails": "Three steps: writer, paging, tax column",
			"tasks": []any{
				m{"title": "CSV writer", "description": "Write orders as CSV with a header row and units"},
				m{"title": "Paging for /orders/export", "description": "Read limit and offset; answer 25 rows by default"},
				m{"title": "Tax column", "description": "Add VAT at the 2026 rate (0.21) to every line"}}}),
		dyn("get_next_task", func(s *session) map[string]any { return m{"requestId": req(s)} }),
		dyn("mark_task_done", func(s *session) map[string]any {
			return m{"requestId": req(s), "taskId": s.find("get_next_task", `(task-\d+)`, "task-1"), "completedDetails": "Writer merged in src/export.js"}
		}),
		dyn("approve_task_completion", func(s *session) map[string]any {
			return m{"requestId": req(s), "taskId": s.find("get_next_task", `(task-\d+)`, "task-1")}
		}),
		dyn("add_tasks_to_request", func(s *session) map[string]any {
			return m{"requestId": req(s), "tasks": []any{m{"title": "Docs", "description": "Describe the export in docs/guide.md"}}}
		}),
		dyn("update_task", func(s *session) map[string]any {
			return m{"requestId": req(s), "taskId": "task-3", "title": "Tax column (VAT 21%)", "description": "Add VAT at 0.21; confirm the rate with finance"}
		}),
		dyn("open_task_details", func(s *session) map[string]any { return m{"taskId": "task-2"} }),
		dyn("delete_task", func(s *session) map[string]any { return m{"requestId": req(s), "taskId": "task-4"} }),
		c("list_requests", nil),
		dyn("approve_request_completion", func(s *session) map[string]any { return m{"requestId": req(s)} }),
		bad("open_task_details", m{"taskId": "task-999"}),
	}
}

func calcCalls(w *world) []call {
	return []call{
		c("random", m{"type": "uuid", "uuidVersion": "v4"}),
		c("hash", m{"input": "order 1001,39.80", "algorithm": "sha256"}),
		c("base64", m{"input": "Acme Orders: 40 orders in January", "action": "encode"}),
		c("encode", m{"input": "q=widgets & gadgets/2026", "action": "encode", "type": "url"}),
		c("datetime", m{"action": "convert", "datetime": "2026-01-20T09:30:00Z", "timezone": "Europe/Amsterdam"}),
		c("count", m{"text": "Export orders as CSV for the finance team.\nPaging comes next.\n"}),
		c("math", m{"action": "statistics", "values": []any{39.8, 249, 22.5, 19.9, 74.85, 9.95, 120, 64.5}}),
		c("math", m{"expression": "311.30 * 1.21"}),
		c("date", m{"action": "diff", "date": "2026-01-20", "date2": "2026-02-19"}),
		c("regex", m{"pattern": `([A-Z]+)-(\d{3})`, "flags": "g", "text": "WID-001 x4, GAD-002 x1, PILL-005 x3", "action": "matchAll"}),
		c("base", m{"value": "255", "from": 10, "to": 2}),
		c("diff", m{"text1": "const TAX_RATE = 0.2;\nexport { TAX_RATE };\n", "text2": "const TAX_RATE = 0.21; // 2026 rate\nexport { TAX_RATE };\n"}),
		c("format_validate", m{"input": "id,name,total\n1001,Ada,39.80\n1002,Grace,249.00\n", "format": "csv"}),
		c("cron_parse", m{"expression": "30 2 * * 1-5", "count": 5, "timezone": "UTC"}),
		c("luhn", m{"number": "4539578763621486", "action": "validate"}),
		c("ip", m{"action": "info", "ip": "192.168.10.0/24"}),
		c("color", m{"color": "#1f6feb"}),
		c("convert", m{"value": 12.5, "from": "kg", "to": "lb"}),
		c("char_info", m{"char": "€ä"}),
		c("jwt_decode", m{"token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZGFAZXhhbXBsZS5jb20iLCJuYW1lIjoiQWRhIExvdmVsYWNlIiwicm9sZSI6ImVuZ2luZWVyIiwiaWF0IjoxNzY4ODk5NDAwfQ.c2lnbmF0dXJlLW5vdC12ZXJpZmllZA"}),
		c("url_parse", m{"url": "https://shop.example.com:8443/orders/export?limit=25&offset=50#csv"}),
		c("semver", m{"action": "satisfies", "version": "2.15.3", "range": "^2.10.0"}),
		bad("convert", m{"value": 3, "from": "parsec", "to": "kg"}),
	}
}

func pdfReaderCalls(w *world) []call {
	return []call{
		c("read_pdf", m{"sources": []any{m{"path": filepath.Join(w.pdfs, "invoice.pdf")}}, "include_full_text": true, "include_metadata": true, "include_page_count": true}),
		c("read_pdf", m{"sources": []any{m{"path": filepath.Join(w.pdfs, "report.pdf"), "pages": []any{2}}}, "include_metadata": false}),
		c("read_pdf", m{"sources": []any{m{"path": filepath.Join(w.pdfs, "invoice.pdf")}, m{"path": filepath.Join(w.pdfs, "report.pdf")}}, "include_metadata": true, "include_page_count": true}),
		bad("read_pdf", m{"sources": []any{m{"path": filepath.Join(w.pdfs, "missing.pdf")}}, "include_full_text": true}),
	}
}

func knowledgeGraphCalls(w *world) []call {
	return []call{
		c("create_entities", m{"entities": []any{
			m{"name": "Ada Lovelace", "entityType": "person", "observations": []any{"Engineer on the orders service", "Prefers CSV over Excel exports"}},
			m{"name": "Grace Hopper", "entityType": "person", "observations": []any{"Leads Billing v2"}},
			m{"name": "Orders export", "entityType": "project", "observations": []any{"Due 2026-02-01", "Paging is late by a week"}},
			m{"name": "Billing v2", "entityType": "project", "observations": []any{"Replaces the nightly invoice batch with events"}}}}),
		c("create_relations", m{"relations": []any{
			m{"from": "Ada Lovelace", "to": "Orders export", "relationType": "works on"},
			m{"from": "Grace Hopper", "to": "Billing v2", "relationType": "leads"},
			m{"from": "Billing v2", "to": "Orders export", "relationType": "depends on"}}}),
		c("add_observations", m{"observations": []any{m{"entityName": "Orders export", "contents": []any{"Tax column at 0.21 pending confirmation"}}}}),
		c("search_nodes", m{"query": "export"}),
		c("open_nodes", m{"names": []any{"Ada Lovelace", "Billing v2"}}),
		c("update_entities", m{"entities": []any{m{"name": "Grace Hopper", "entityType": "lead"}}}),
		c("update_relations", m{"relations": []any{m{"from": "Ada Lovelace", "to": "Orders export", "relationType": "works on"}}}),
		c("delete_observations", m{"deletions": []any{m{"entityName": "Orders export", "observations": []any{"Paging is late by a week"}}}}),
		c("read_graph", nil),
		c("delete_relations", m{"relations": []any{m{"from": "Billing v2", "to": "Orders export", "relationType": "depends on"}}}),
		c("delete_entities", m{"entityNames": []any{"Billing v2"}}),
		bad("add_observations", m{"observations": []any{m{"entityName": "Nobody", "contents": []any{"x"}}}}),
	}
}

func curlCalls(w *world) []call {
	return []call{
		c("curl", m{"url": w.site + "/api/orders.json"}),
		c("curl", m{"url": w.site + "/", "method": "GET", "headers": m{"Accept": "text/html"}}),
		c("curl", m{"url": w.site + "/api/orders.json", "method": "HEAD"}),
		c("curl", m{"url": w.site + "/api/orders.json", "method": "POST", "headers": m{"Content-Type": "application/json"}, "body": `{"customer":"Ada Lovelace","sku":"WID-001","quantity":2}`}),
		bad("curl", m{"url": "http://127.0.0.1:9/unreachable", "timeout": 3000}),
	}
}

func memoryBankCalls(w *world) []call {
	return []call{
		c("list_projects", nil),
		c("list_project_files", m{"projectName": "orders-service"}),
		c("memory_bank_read", m{"projectName": "orders-service", "fileName": "activeContext.md"}),
		c("memory_bank_read", m{"projectName": "orders-service", "fileName": "progress.md"}),
		c("memory_bank_write", m{"projectName": "billing", "fileName": "decisions.md", "content": "# Decisions\n\n- 2026-01-19: events over batch\n- Retries: exponential, 5 tries\n"}),
		c("memory_bank_update", m{"projectName": "orders-service", "fileName": "activeContext.md", "content": "# Active context\n\nPaging for /orders/export is next; tax rate confirmed at 0.21.\n"}),
		bad("memory_bank_read", m{"projectName": "orders-service", "fileName": "missing.md"}),
	}
}

func systemMonitorCalls(w *world) []call {
	return []call{
		c("get-system-info", nil),
		c("poll-system-stats", nil),
		bad("get-system-info", m{"unexpected": "argument"}),
	}
}

func redisKVCalls(w *world) []call {
	return []call{
		c("list", m{"pattern": "*"}),
		c("get", m{"key": "session:4121"}),
		c("set", m{"key": "cart:ada", "value": `{"items":[{"sku":"WID-001","qty":4},{"sku":"PILL-005","qty":3}],"updated":"2026-01-20T09:30:00Z"}`, "expireSeconds": 86400}),
		c("get", m{"key": "cart:ada"}),
		c("delete", m{"key": []any{"cart:ada"}}),
		c("list", m{"pattern": "session:*"}),
		bad("get", m{"key": "cart:nobody"}),
	}
}

func gitCLICalls(w *world) []call {
	r := w.project
	return []call{
		c("git_status", m{"repo_path": r}),
		c("git_log", m{"repo_path": r, "max_count": 10}),
		c("git_diff_unstaged", m{"repo_path": r}),
		c("git_diff", m{"repo_path": r, "target": "feature/csv-export"}),
		c("git_show", m{"repo_path": r, "revision": "v0.1.0"}),
		c("git_add", m{"repo_path": r, "files": []any{"TODO.md"}}),
		c("git_diff_staged", m{"repo_path": r}),
		c("git_reset", m{"repo_path": r}),
		c("git_stash", m{"repo_path": r}),
		c("git_stash_pop", m{"repo_path": r}),
		c("git_stash", m{"repo_path": r}),
		c("git_stash_apply", m{"repo_path": r}),
		c("git_create_branch", m{"repo_path": r, "branch_name": "fix/tax-rate", "start_point": "main"}),
		c("git_checkout", m{"repo_path": r, "branch_name": "fix/tax-rate"}),
		c("git_add", m{"repo_path": r, "files": []any{"src/orders.js"}}),
		c("git_commit", m{"repo_path": r, "message": "orders: tax rate 0.21 for 2026"}),
		bad("git_show", m{"repo_path": r, "revision": "v9.9.9"}),
	}
}

func filesCalls(w *world) []call {
	return []call{
		c("list_allowed_directories", nil),
		c("list_directory", m{"path": w.project}),
		c("directory_tree", m{"path": w.at("src")}),
		c("read_file", m{"path": w.at("README.md")}),
		c("read_multiple_files", m{"paths": []any{w.at("config.yaml"), w.at("data/orders.csv")}}),
		c("get_file_info", m{"path": w.at("data/orders.csv")}),
		c("search_files", m{"path": w.project, "pattern": ".js", "excludePatterns": []any{"node_modules"}}),
		c("create_directory", m{"path": w.at("reports")}),
		c("create_directory", m{"path": w.at("reports/2026")}),
		c("write_file", m{"path": w.at("reports/2026/january.md"), "content": "# January\n\n40 orders, 12 customers.\n"}),
		c("edit_file", m{"path": w.at("config.yaml"), "edits": []any{m{"oldText": "port: 8080", "newText": "port: 9090"}}, "dryRun": true}),
		c("move_file", m{"source": w.at("reports/2026/january.md"), "destination": w.at("reports/2026/2026-01.md")}),
		bad("read_file", m{"path": "/etc/shadow"}),
	}
}

func filesBasicCalls(w *world) []call {
	return []call{
		c("list_allowed_directories", nil),
		c("list_directory", m{"path": w.at("src")}),
		c("read_file", m{"path": w.at("docs/guide.md")}),
		c("read_multiple_files", m{"paths": []any{w.at("src/orders.js"), w.at("notes.txt")}}),
		c("get_file_info", m{"path": w.at("logs/app.log")}),
		c("search_files", m{"path": w.project, "pattern": "orders"}),
		c("create_directory", m{"path": w.at("exports")}),
		c("write_file", m{"path": w.at("exports/orders.csv"), "content": "order_id,total\n1001,39.80\n1002,249.00\n"}),
		c("edit_file", m{"path": w.at("exports/orders.csv"), "edits": []any{m{"oldText": "1002,249.00", "newText": "1002,249.00\n1003,22.50"}}}),
		c("move_file", m{"source": w.at("exports/orders.csv"), "destination": w.at("exports/orders-2026-01.csv")}),
		bad("read_file", m{"path": w.at("data/missing.csv")}),
	}
}

func bashCalls(w *world) []call {
	pid := func(s *session, tool string) int {
		n, _ := strconv.Atoi(s.find(tool, `(?i)"?pid"?\W+(\d+)`, "2"))
		return n
	}
	return []call{
		c("run", m{"command": "ls -la src data"}),
		c("run", m{"command": "wc -l src/*.js data/orders.csv && du -sh ."}),
		c("run", m{"command": []any{"grep", "-n", "TAX_RATE", "src/orders.js"}}),
		c("run", m{"command": "git log --oneline --decorate", "env": m{"GIT_PAGER": "cat"}}),
		c("run_background", m{"command": "for i in 1 2 3; do echo tick $i; sleep 1; done"}),
		c("list_background", nil),
		dyn("tail_background", func(s *session) map[string]any { return m{"pid": pid(s, "run_background"), "lines": 20} }),
		dyn("wait_background", func(s *session) map[string]any { return m{"pid": pid(s, "run_background"), "timeoutSeconds": 10} }),
		c("run_background", m{"command": "sleep 300"}),
		dyn("kill_background", func(s *session) map[string]any { return m{"pid": pid(s, "run_background")} }),
		bad("run", m{"command": "cat data/missing.csv"}),
	}
}

func commandsCalls(w *world) []call {
	return []call{
		c("run_command", m{"command": "git status --short --branch"}),
		c("run_command", m{"command": "head -5 data/orders.csv"}),
		c("run_command", m{"command": "python3", "stdin": "import csv\nrows = list(csv.DictReader(open('data/orders.csv')))\nprint(len(rows), 'orders')\nfor r in rows[:3]:\n    print(r)\n"}),
		c("run_command", m{"command": "cat > notes-2026.md", "stdin": "# Notes\n\n- tax rate 0.21\n"}),
		c("run_command", m{"command": "ls -l", "workdir": w.at("src")}),
		bad("run_command", m{"command": "ls data/missing"}),
	}
}

func ohnoCalls(w *world) []call {
	id := func(s *session, tool, kind string) string {
		return s.find(tool, `(`+kind+`-[0-9a-f]{8})`, kind+"-00000000")
	}
	epic := func(n string) func(s *session) string {
		return func(s *session) string { return id(s, "create_epic#"+n, "epic") }
	}
	story := func(n string) func(s *session) string {
		return func(s *session) string { return id(s, "create_story#"+n, "story") }
	}
	task := func(n string) func(s *session) string {
		return func(s *session) string { return id(s, "create_task#"+n, "task") }
	}
	export, billing := epic("1"), epic("2")
	endpoint, tax := story("1"), story("2")
	writer, paging, vat, slow, spike := task("1"), task("2"), task("3"), task("4"), task("5")
	return []call{
		c("create_epic", m{"title": "CSV export for finance", "description": "Finance opens a CSV of orders in a spreadsheet: paging, VAT and a total row", "priority": "P1"}),
		c("create_epic", m{"title": "Billing v2 events", "description": "Replace the nightly invoice batch with events", "priority": "P2"}),
		dyn("create_story", func(s *session) map[string]any {
			return m{"title": "Export endpoint", "epic_id": export(s), "description": "GET /orders/export streams orders as CSV"}
		}),
		dyn("create_story", func(s *session) map[string]any {
			return m{"title": "Tax column", "epic_id": export(s), "description": "VAT per line and a total row"}
		}),
		dyn("create_task", func(s *session) map[string]any {
			return m{"title": "CSV writer", "story_id": endpoint(s), "task_type": "feature", "description": "Write orders as CSV with a header row and units in the header", "estimate_hours": 3}
		}),
		dyn("create_task", func(s *session) map[string]any {
			return m{"title": "Paging for /orders/export", "story_id": endpoint(s), "task_type": "feature", "description": "Read limit and offset; 25 rows by default, at most 500", "estimate_hours": 2}
		}),
		dyn("create_task", func(s *session) map[string]any {
			return m{"title": "VAT at the 2026 rate (0.21)", "story_id": tax(s), "task_type": "feature", "description": "Integer cents per line; a total row", "estimate_hours": 1.5}
		}),
		c("create_task", m{"title": "Slow orders query (1200 ms)", "task_type": "bug", "description": "The export query scans orders; needs an index on ordered_at", "estimate_hours": 2, "source": "human"}),
		c("create_task", m{"title": "Spike: streaming CSV without dependencies", "task_type": "spike", "description": "Transform stream or async generator; measure memory for 100,000 rows", "estimate_hours": 4}),
		dyn("add_dependency", func(s *session) map[string]any { return m{"task_id": paging(s), "depends_on_task_id": writer(s)} }),
		dyn("add_dependency", func(s *session) map[string]any {
			return m{"task_id": vat(s), "depends_on_task_id": writer(s), "dependency_type": "requires"}
		}),
		dyn("update_task_status", func(s *session) map[string]any {
			return m{"task_id": writer(s), "status": "in_progress", "notes": "Starting with the header row"}
		}),
		dyn("add_task_activity", func(s *session) map[string]any {
			return m{"task_id": writer(s), "activity_type": "file_change", "description": "Created src/export.js with a streaming writer"}
		}),
		dyn("add_task_activity", func(s *session) map[string]any {
			return m{"task_id": writer(s), "activity_type": "decision", "description": "Quote fields that hold commas or quotes; no BOM"}
		}),
		dyn("update_task_progress", func(s *session) map[string]any {
			return m{"task_id": writer(s), "progress_percent": 60, "context_summary": "Header and rows done; quoting left"}
		}),
		dyn("set_handoff_notes", func(s *session) map[string]any {
			return m{"task_id": writer(s), "notes": "Quoting: see RFC 4180 section 2; tests in test/export.test.js"}
		}),
		dyn("update_task_wip", func(s *session) map[string]any {
			return m{"task_id": writer(s), "wip_data": m{"branch": "feature/csv-export", "files": []any{"src/export.js", "test/export.test.js"}, "tests_passing": 12, "tests_failing": 1}}
		}),
		dyn("set_blocker", func(s *session) map[string]any {
			return m{"task_id": slow(s), "reason": "Needs an index on orders(ordered_at); waiting for the DBA's migration window"}
		}),
		c("get_blocked_tasks", nil),
		dyn("resolve_blocker", func(s *session) map[string]any { return m{"task_id": slow(s)} }),
		c("get_tasks", m{"limit": 50}),
		c("get_tasks", m{"status": "todo", "fields": "standard"}),
		dyn("get_task", func(s *session) map[string]any { return m{"task_id": writer(s), "fields": "full"} }),
		dyn("get_task_dependencies", func(s *session) map[string]any { return m{"task_id": paging(s)} }),
		c("get_next_task", nil),
		c("get_next_batch", m{"batch_size": 3}),
		dyn("update_task", func(s *session) map[string]any {
			return m{"task_id": vat(s), "description": "VAT at the configured rate (0.21 in 2026), in integer cents; a total row", "estimate_hours": 2}
		}),
		dyn("update_task_status", func(s *session) map[string]any {
			return m{"task_id": writer(s), "status": "done", "notes": "Merged; 13 tests pass"}
		}),
		dyn("set_task_handoff", func(s *session) map[string]any {
			return m{"task_id": writer(s), "status": "PASS", "summary": "The writer streams 25 orders into a CSV that opens in a spreadsheet with 26 rows. Quoting follows RFC 4180.",
				"files_changed": []any{"src/export.js", "test/export.test.js"}, "full_details": "node --test: 13 passed, 0 failed (412 ms)"}
		}),
		dyn("get_task_handoff", func(s *session) map[string]any { return m{"task_id": writer(s), "include_details": true} }),
		dyn("record_task_failure", func(s *session) map[string]any {
			return m{"task_id": spike(s), "failure_type": "spec", "reason": "The memory target was not stated; 100,000 rows used 38 MB with either approach", "attempt": 1}
		}),
		dyn("set_needs_rework", func(s *session) map[string]any { return m{"task_id": spike(s), "value": true} }),
		dyn("summarize_task_activity", func(s *session) map[string]any { return m{"task_id": writer(s)} }),
		dyn("get_story", func(s *session) map[string]any { return m{"story_id": endpoint(s)} }),
		dyn("list_stories", func(s *session) map[string]any { return m{"epic_id": export(s)} }),
		dyn("update_story", func(s *session) map[string]any {
			return m{"story_id": tax(s), "status": "in_progress", "description": "VAT per line at the configured rate and a total row"}
		}),
		dyn("get_epic", func(s *session) map[string]any { return m{"epic_id": export(s)} }),
		c("get_epics", nil),
		dyn("update_epic", func(s *session) map[string]any {
			return m{"epic_id": billing(s), "priority": "P1", "status": "in_progress", "description": "Replace the nightly invoice batch with events; schema first"}
		}),
		c("get_kanban_board", m{"include_done": true, "limit_per_column": 10}),
		c("get_project_status", nil),
		c("get_session_context", nil),
		dyn("remove_dependency", func(s *session) map[string]any { return m{"task_id": vat(s), "depends_on_task_id": writer(s)} }),
		dyn("archive_task", func(s *session) map[string]any {
			return m{"task_id": spike(s), "reason": "Answered by the writer: a Transform stream is enough"}
		}),
		dyn("reopen_task", func(s *session) map[string]any {
			return m{"task_id": writer(s), "notes": "Finance asked for a BOM after all (Excel on Windows)"}
		}),
		dyn("compact_story_handoffs", func(s *session) map[string]any { return m{"story_id": endpoint(s)} }),
		dyn("delete_epic_handoffs", func(s *session) map[string]any { return m{"epic_id": billing(s)} }),
		c("get_task", m{"task_id": "task-0badc0de"}),
		dyn("update_task_status", func(s *session) map[string]any { return m{"task_id": paging(s), "status": "shipped"} }).failing(),
	}
}

func vaultCalls(w *world) []call {
	return []call{
		c("get_vault_stats", m{"recentCount": 5}),
		c("list_directory", nil),
		c("list_directory", m{"path": "Projects"}),
		c("read_note", m{"path": "Home.md"}),
		c("read_note", m{"path": "Projects/Orders export.md"}),
		c("read_multiple_notes", m{"paths": []any{"People/Ada Lovelace.md", "People/Grace Hopper.md", "Meetings/2026-01-19 Weekly.md"}}),
		c("get_notes_info", m{"paths": []any{"Projects/Orders export.md", "Projects/Billing v2.md", "Inbox.md"}}),
		c("get_frontmatter", m{"path": "Projects/Orders export.md"}),
		c("get_note_outline", m{"path": "Projects/Orders export.md"}),
		c("read_note_lines", m{"path": "Projects/Orders export.md", "startLine": 11, "endLine": 16}),
		c("search_notes", m{"query": "export", "limit": 10}),
		c("search_notes", m{"query": "active", "searchContent": false, "searchFrontmatter": true}),
		c("list_all_tags", nil),
		c("manage_tags", m{"path": "Projects/Billing v2.md", "operation": "list"}),
		c("manage_tags", m{"path": "Inbox.md", "operation": "add", "tags": []any{"triage"}}),
		c("wiki_link", m{"document": "[[Projects/Orders export|the export project]]"}),
		c("write_note", m{"path": "Meetings/2026-01-26 Weekly.md", "content": "# Weekly, 26 January\n\n- [ ] Ada: paging for the export\n- [ ] Grace: retry policy\n\nSee [[Projects/Orders export]].\n",
			"frontmatter": m{"date": "2026-01-26", "attendees": []any{"Ada Lovelace", "Grace Hopper"}, "tags": []any{"meeting"}}}),
		c("write_note", m{"path": "Inbox.md", "content": "- [ ] Ask finance about refunds as negative lines\n", "mode": "append"}),
		c("patch_note", m{"path": "Projects/Orders export.md", "oldString": "- [ ] Paging for /orders/export", "newString": "- [x] Paging for /orders/export"}),
		c("update_frontmatter", m{"path": "Projects/Billing v2.md", "frontmatter": m{"status": "active", "due": "2026-03-31"}}),
		c("move_note", m{"oldPath": "Daily/2026-01-20.md", "newPath": "Archive/2026/2026-01-20.md"}),
		c("move_file", m{"oldPath": "Templates/Meeting.md", "newPath": "Archive/Meeting template.md", "confirmOldPath": "Templates/Meeting.md", "confirmNewPath": "Archive/Meeting template.md"}),
		c("delete_note", m{"path": "Reference/Glossary.md", "confirmPath": "Reference/Glossary.md", "trashMode": "local"}),
		bad("read_note", m{"path": "Projects/Missing.md"}),
	}
}

func calculatorCalls(w *world) []call {
	return []call{
		c("add", m{"a": 249.9, "b": 89.5}),
		c("sub", m{"a": 1000, "b": 249.9}),
		c("mul", m{"a": 19.99, "b": 12}),
		c("div", m{"a": 1042, "b": 24}),
		c("mod", m{"a": 1042, "b": 25}),
		c("sqrt", m{"a": 1764}),
		c("div", m{"a": 1, "b": 3}),
		// The server checks nothing and has no failing path short of an
		// unknown tool: a division by zero is its nearest error case (it
		// answers Infinity), recorded as the call made to fail.
		bad("div", m{"a": 1042, "b": 0}),
	}
}

func httpClientCalls(w *world) []call {
	gql := "http://" + w.api + "/graphql"
	browser := func(s *session) string {
		return s.find("puppeteer#1", `Browser launched successfully with ID: ([^"\s]+)`, "browser-1")
	}
	page := func(s *session) string {
		return s.find("puppeteer#4", `Page created successfully with ID: ([^"\s]+)`, "page-1")
	}
	socket := func(s *session) string { return s.find("socket#2", `"socketId":\s*"([^"]+)"`, "socket-1") }
	return []call{
		c("get-rules", m{"rules": []any{"quickStart", "tools"}}),
		c("fetch", m{"url": w.site + "/api/orders.json"}),
		c("fetch", m{"url": w.site + "/about.html", "headers": m{"Accept": "text/html", "Accept-Language": "en"}}),
		c("fetch", m{"url": w.site + "/api/orders.json", "method": "POST", "headers": m{"Content-Type": "application/json"}, "body": `{"customer":"Ada Lovelace","items":[{"sku":"ANV-001","quantity":1}]}`}),
		c("fetch", m{"url": w.site + "/robots.txt", "method": "HEAD"}),
		c("graphql", m{"action": m{"type": "execute", "endpoint": gql, "query": "query Shipped($status: String!) { orders(status: $status) { id customer { name } product quantity total } }", "variables": m{"status": "shipped"}, "operationName": "Shipped"}}),
		c("graphql", m{"action": m{"type": "execute", "endpoint": gql, "query": "{ order(id: 1007) { id status total customer { name email } lines { product quantity total } } }"}}),
		c("graphql", m{"action": m{"type": "execute", "endpoint": gql, "query": "mutation { cancelOrder(id: 1003) { id status refund } }"}}),
		c("graphql", m{"action": m{"type": "introspect", "endpoint": gql, "action": "list-operations"}}),
		c("graphql", m{"action": m{"type": "introspect", "endpoint": gql, "action": "get-type", "typeName": "Order"}}),
		c("socket", m{"action": m{"type": "list"}}),
		c("socket", m{"action": m{"type": "connect", "url": "ws://" + w.api + "/feed", "messageHistoryLimit": 50}}),
		dyn("socket", func(s *session) map[string]any {
			return m{"action": m{"type": "send", "socketId": socket(s), "message": `{"subscribe":"orders"}`}}
		}),
		dyn("socket", func(s *session) map[string]any {
			return m{"action": m{"type": "send", "socketId": socket(s), "message": "ping"}}
		}),
		{tool: "socket", pause: time.Second, dynArgs: func(s *session) map[string]any {
			return m{"action": m{"type": "receive", "socketId": socket(s), "action": "get-all"}}
		}},
		dyn("socket", func(s *session) map[string]any {
			return m{"action": m{"type": "close", "socketId": socket(s), "code": 1000, "reason": "done"}}
		}),
		c("puppeteer", m{"action": m{"type": "launch-browser", "headless": true, "width": 1280, "height": 800, "url": w.site + "/"}}),
		c("puppeteer", m{"action": m{"type": "list-browsers"}}),
		c("puppeteer", m{"action": m{"type": "list-pages"}}),
		dyn("puppeteer", func(s *session) map[string]any {
			return m{"action": m{"type": "open-page", "browserId": browser(s), "url": w.site + "/orders.html"}}
		}),
		dyn("puppeteer", func(s *session) map[string]any {
			return m{"action": m{"type": "exec-page", "pageId": page(s), "source": "const rows = await page.evaluate(() => Array.from(document.querySelectorAll('tbody tr')).slice(0, 5).map(r => Array.from(r.cells).map(c => c.textContent))); return JSON.stringify(rows)"}}
		}),
		dyn("puppeteer", func(s *session) map[string]any {
			return m{"action": m{"type": "take-screenshot", "pageId": page(s), "format": "png"}}
		}),
		dyn("puppeteer", func(s *session) map[string]any { return m{"action": m{"type": "close-page", "pageId": page(s)}} }),
		dyn("puppeteer", func(s *session) map[string]any {
			return m{"action": m{"type": "close-browser", "browserId": browser(s)}}
		}),
		c("fetch", m{"url": "http://127.0.0.1:9/orders"}),
		c("graphql", m{"action": m{"type": "execute", "endpoint": w.site + "/api/orders.json", "query": "{ orders(status: \"pending\") { id } }"}}),
		bad("fetch", m{"url": w.site + "/api/orders.json", "method": "get"}),
	}
}

func weatherCalls(w *world) []call {
	berlin := m{"latitude": 52.52, "longitude": 13.41}
	with := func(base m, kv m) m {
		out := m{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range kv {
			out[k] = v
		}
		return out
	}
	hourly := []any{"temperature_2m", "precipitation", "weather_code", "wind_speed_10m"}
	daily := []any{"temperature_2m_max", "temperature_2m_min", "precipitation_sum", "weather_code"}
	return []call{
		c("geocoding", m{"name": "Berlin", "count": 5, "language": "en"}),
		c("weather_forecast", with(berlin, m{"hourly": []any{"temperature_2m", "relative_humidity_2m", "precipitation_probability", "weather_code", "wind_speed_10m"}, "daily": []any{"temperature_2m_max", "temperature_2m_min", "precipitation_sum", "sunrise", "sunset"}, "current": []any{"temperature_2m", "weather_code", "wind_speed_10m"}, "timezone": "Europe/Berlin", "forecast_days": 3})),
		c("weather_forecast", m{"latitude": 38.72, "longitude": -9.13, "daily": daily, "forecast_days": 7, "timezone": "Europe/Lisbon"}),
		c("weather_archive", with(berlin, m{"start_date": "2026-01-01", "end_date": "2026-01-14", "daily": []any{"temperature_2m_mean", "precipitation_sum", "wind_speed_10m_max"}})),
		c("air_quality", with(berlin, m{"hourly": []any{"pm10", "pm2_5", "nitrogen_dioxide", "ozone", "european_aqi"}, "forecast_days": 1})),
		c("marine_weather", m{"latitude": 54.32, "longitude": 10.14, "hourly": []any{"wave_height", "wave_direction", "wave_period"}, "forecast_days": 1}),
		c("elevation", m{"latitude": []any{52.52, 48.85, 64.14}, "longitude": []any{13.41, 2.35, -21.9}}),
		c("flood_forecast", m{"latitude": 52.5, "longitude": 13.4, "daily": []any{"river_discharge", "river_discharge_max"}, "forecast_days": 14}),
		c("dwd_icon_forecast", with(berlin, m{"models": "icon_d2", "hourly": hourly, "forecast_days": 1})),
		c("gfs_forecast", with(berlin, m{"models": "gfs_seamless", "daily": daily, "forecast_days": 5})),
		c("meteofrance_forecast", m{"latitude": 48.85, "longitude": 2.35, "models": "meteofrance_arome_france", "hourly": hourly, "forecast_days": 1}),
		c("ecmwf_forecast", with(berlin, m{"models": "ecmwf_ifs025", "daily": daily, "forecast_days": 5})),
		c("jma_forecast", m{"latitude": 35.68, "longitude": 139.69, "models": "jma_seamless", "daily": daily, "forecast_days": 3}),
		c("metno_forecast", m{"latitude": 59.91, "longitude": 10.75, "hourly": hourly, "forecast_days": 1}),
		c("gem_forecast", m{"latitude": 45.5, "longitude": -73.57, "models": "gem_seamless", "daily": daily, "forecast_days": 3}),
		c("seasonal_forecast", with(berlin, m{"daily": []any{"temperature_2m_max", "temperature_2m_min", "precipitation_sum"}, "forecast_days": 14})),
		c("climate_projection", with(berlin, m{"start_date": "2050-01-01", "end_date": "2050-01-14", "models": []any{"EC_Earth3P_HR"}, "daily": []any{"temperature_2m_max", "temperature_2m_min", "precipitation_sum"}})),
		c("ensemble_forecast", with(berlin, m{"models": "icon_seamless_eps", "hourly": []any{"temperature_2m", "precipitation"}, "forecast_days": 1})),
		bad("weather_forecast", m{"latitude": 95.0, "longitude": 13.41, "hourly": []any{"temperature_2m"}}),
	}
}

func sysinfoCalls(w *world) []call {
	return []call{
		c("get_quick_stats", nil),
		c("get_system_info", nil),
		c("get_cpu_info", nil),
		c("get_memory_info", nil),
		c("get_disk_usage", nil),
		c("get_running_processes", m{"limit": 10, "sort_by": "memory"}),
		c("get_running_processes", m{"limit": 5, "sort_by": "name"}),
		c("get_network_info", nil),
		c("get_monitor_info", nil),
		// The server checks no argument and has no failing path short of an
		// unknown tool: an unsupported sort is its nearest error case (it
		// answers sorted by CPU), recorded as the call made to fail.
		bad("get_running_processes", m{"limit": 5, "sort_by": "disk"}),
	}
}

func pdfMakerCalls(w *world) []call {
	// The answer names the written file by a file URI (percent-escaped).
	written := func(s *session) string {
		u := s.find("pdf-document", `file://(/[^"\s]+?\.pdf)`, filepath.Join(w.root, "pdf-out", "document.pdf"))
		if p, err := url.PathUnescape(u); err == nil {
			return p
		}
		return u
	}
	return []call{
		c("text-measure", m{"items": []any{
			m{"text": "Invoice 2026-0142", "fontSize": 24, "bold": true},
			m{"text": "Acme Orders, 12 Harbour Street, Bristol", "fontSize": 10},
			m{"text": "Thank you for your order. Payment is due within 30 days of the invoice date; late payments carry interest at 1% a month.", "fontSize": 11, "width": 468}}}),
		c("pdf-document", m{"filename": "invoice-2026-0142.pdf", "title": "Invoice 2026-0142", "author": "Acme Orders", "markdown": true, "pageSetup": m{"size": "A4"},
			"content": []any{
				m{"type": "heading", "text": "Invoice 2026-0142"},
				m{"type": "text", "text": "Billed to **Ada Lovelace**, 3 St James's Square, London. Issued 26 January 2026, due 25 February 2026.", "moveDown": 1},
				m{"type": "divider"},
				m{"type": "text", "text": "1 × Anvil (ANV-001): 249.00 EUR"},
				m{"type": "text", "text": "2 × Rocket skates (RSK-002): 179.80 EUR"},
				m{"type": "text", "text": "5 × Bird seed (BRD-004): 22.50 EUR"},
				m{"type": "divider"},
				m{"type": "text", "text": "Subtotal 451.30 EUR · VAT 21% 94.77 EUR · **Total 546.07 EUR**", "textAlign": "right"},
				m{"type": "spacer", "height": 24},
				m{"type": "text", "text": "Pay to IBAN DE89 3704 0044 0532 0130 00, reference 2026-0142. Questions: [orders@example.com](mailto:orders@example.com).", "fontSize": 10, "color": "#555555"},
				m{"type": "pageBreak"},
				m{"type": "heading", "text": "Terms", "fontSize": 16},
				m{"type": "text", "text": "Goods remain the property of Acme Orders until paid in full. Returns within 14 days, unused and in their box."}}}),
		c("pdf-layout", m{"filename": "orders-january.pdf", "title": "Orders in January", "pageSetup": m{"size": []any{842, 595}},
			"content": []any{
				m{"type": "rect", "left": 0, "top": 0, "width": 842, "height": 80, "fillColor": "#1f3a5f"},
				m{"type": "heading", "text": "Orders in January 2026", "left": 40, "top": 24, "color": "#ffffff", "fontSize": 26},
				m{"type": "text", "text": "142 orders", "left": 40, "top": 120, "fontSize": 30, "bold": true},
				m{"type": "text", "text": "18,240 EUR revenue", "left": 320, "top": 120, "fontSize": 30, "bold": true},
				m{"type": "text", "text": "6 cancelled", "left": 620, "top": 120, "fontSize": 30, "bold": true, "color": "#b00020"},
				m{"type": "line", "x1": 40, "y1": 180, "x2": 802, "y2": 180, "strokeColor": "#cccccc"},
				m{"type": "circle", "left": 80, "top": 260, "radius": 40, "fillColor": "#2e7d32"},
				m{"type": "text", "text": "Shipped on time: 94%", "left": 140, "top": 250, "fontSize": 14},
				m{"type": "text", "text": "Slowest query: 1200 ms (orders by date; index planned)", "left": 40, "top": 340, "fontSize": 12, "color": "#555555"}}}),
		c("pdf-resume", m{"filename": "ada-lovelace.pdf", "pageSize": "A4", "resume": m{
			"basics": m{"name": "Ada Lovelace", "label": "Engineer", "email": "ada@example.com", "summary": "Builds data exports and billing systems; writes the notes everyone reads.",
				"location": m{"city": "London", "countryCode": "GB"}, "profiles": []any{m{"network": "GitHub", "username": "ada"}}},
			"work": []any{
				m{"name": "Acme Orders", "position": "Senior engineer", "startDate": "2023-04-01", "summary": "Owns the orders service and its CSV export.",
					"highlights": []any{"Cut the export from 40 s to 3 s", "Designed the billing event schema"}},
				m{"name": "Analytical Engines Ltd", "position": "Engineer", "startDate": "2019-09-01", "endDate": "2023-03-31", "summary": "Wrote the first programs for the engine."}},
			"education": []any{m{"institution": "University of London", "area": "Mathematics", "studyType": "BSc", "startDate": "2015-09-01", "endDate": "2019-06-30"}},
			"skills":    []any{m{"name": "Backend", "keywords": []any{"Node.js", "Go", "PostgreSQL"}}, m{"name": "Data", "keywords": []any{"CSV", "SQL", "Spreadsheets"}}},
			"languages": []any{m{"language": "English", "fluency": "Native"}, m{"language": "French", "fluency": "Professional"}}}}),
		dyn("pdf-image", func(s *session) map[string]any {
			return m{"pdfPath": written(s), "pages": []any{1, 2}, "viewportScale": 0.25}
		}),
		c("pdf-image", m{"pdfPath": filepath.Join(w.pdfs, "report.pdf"), "pages": "all", "viewportScale": 0.25}),
		bad("pdf-image", m{"pdfPath": filepath.Join(w.pdfs, "missing.pdf")}),
	}
}

func openapiShopCalls(w *world) []call {
	created := func(s *session) int {
		n, _ := strconv.Atoi(s.find("crt-order", `"id":\s*(\d+)`, "1025"))
		return n
	}
	return []call{
		c("lst-orders", nil),
		c("lst-orders", m{"status": "shipped", "limit": 5, "offset": 5}),
		c("lst-orders", m{"customer": "grace"}),
		c("get-order", m{"id": 1007}),
		c("crt-order", m{"customer": "Katherine Johnson", "product": "Giant magnet", "quantity": 3}),
		dyn("upd-order-status", func(s *session) map[string]any { return m{"id": created(s), "status": "shipped"} }),
		dyn("get-order", func(s *session) map[string]any { return m{"id": created(s)} }),
		c("lst-customers", nil),
		c("daily-stats", nil),
		c("del-order", m{"id": 1004}),
		bad("get-order", m{"id": 1004}),
	}
}

func sqliteShopCalls(w *world) []call {
	return []call{
		c("list_tables", nil),
		c("describe_table", m{"table_name": "orders"}),
		c("read_query", m{"query": "SELECT id, customer, product, quantity, total, status, ordered_at FROM order_totals ORDER BY id LIMIT 25"}),
		c("read_query", m{"query": "SELECT c.country, count(DISTINCT c.id) AS customers, count(o.id) AS orders, round(sum(o.quantity * p.unit_price), 2) AS revenue FROM customers c LEFT JOIN orders o ON o.customer_id = c.id LEFT JOIN products p ON p.id = o.product_id GROUP BY c.country ORDER BY revenue DESC"}),
		c("read_query", m{"query": "SELECT date(ordered_at) AS day, count(*) AS orders, sum(quantity) AS items FROM orders GROUP BY day ORDER BY day"}),
		c("export_query", m{"query": "SELECT sku, name, unit_price, in_stock FROM products ORDER BY sku", "format": "csv"}),
		c("export_query", m{"query": "SELECT o.id, c.name, r.reason, r.returned_at FROM returns r JOIN orders o ON o.id = r.order_id JOIN customers c ON c.id = o.customer_id", "format": "json"}),
		c("create_table", m{"query": "CREATE TABLE suppliers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL, lead_days INTEGER NOT NULL DEFAULT 7)"}),
		c("write_query", m{"query": "INSERT INTO suppliers (name, country, lead_days) VALUES ('Acme Forge', 'US', 14), ('Nordic Magnets', 'SE', 5), ('Seed & Co', 'NL', 3)"}),
		c("alter_table", m{"query": "ALTER TABLE products ADD COLUMN supplier_id INTEGER REFERENCES suppliers(id)"}),
		c("write_query", m{"query": "UPDATE products SET supplier_id = CASE sku WHEN 'ANV-001' THEN 1 WHEN 'MAG-003' THEN 2 WHEN 'SEED-004' THEN 3 END, in_stock = in_stock + 20 WHERE in_stock < 20"}),
		c("read_query", m{"query": "SELECT p.sku, p.name, p.in_stock, s.name AS supplier, s.lead_days FROM products p LEFT JOIN suppliers s ON s.id = p.supplier_id ORDER BY p.sku"}),
		c("append_insight", m{"insight": "Anvils are 12% of orders but 61% of revenue; keep at least 20 in stock (supplier lead time 14 days)."}),
		c("append_insight", m{"insight": "Earthquake pills were out of stock for the whole of January: 8 orders waited."}),
		c("list_insights", nil),
		c("drop_table", m{"table_name": "suppliers", "confirm": false}),
		bad("read_query", m{"query": "SELECT total FROM invoices"}),
	}
}

func prometheusCalls(w *world) []call {
	// The last ten seconds of scrapes, at the time of the call.
	lastSeconds := func(query, step string) func(s *session) map[string]any {
		return func(s *session) map[string]any {
			now := time.Now().UTC()
			return m{"query": query, "start": now.Add(-10 * time.Second).Format(time.RFC3339), "end": now.Format(time.RFC3339), "step": step}
		}
	}
	return []call{
		c("prometheus_build_info", nil),
		c("prometheus_runtime_info", nil),
		c("prometheus_list_targets", nil),
		c("prometheus_scrape_pool_targets", m{"scrapePool": "orders-api"}),
		c("prometheus_list_labels", nil),
		c("prometheus_label_values", m{"label": "job"}),
		c("prometheus_list_metrics", nil),
		c("prometheus_metric_metadata", m{"metric": "http_request_duration_seconds"}),
		c("prometheus_query", m{"query": "up"}),
		c("prometheus_query", m{"query": `sum by (route, code) (rate(http_requests_total{job="orders-api"}[30s]))`}),
		c("prometheus_query", m{"query": `histogram_quantile(0.9, sum by (route, le) (rate(http_request_duration_seconds_bucket[30s])))`}),
		c("prometheus_query", m{"query": `ALERTS{alertstate="firing"}`}),
		c("prometheus_query", m{"query": "route:http_requests:rate30s"}),
		dyn("prometheus_query_range", lastSeconds(`sum by (status) (rate(orders_created_total[5s]))`, "2s")),
		dyn("prometheus_query_range", lastSeconds(`orders_db_connections`, "5s")),
		bad("prometheus_query", m{"query": `sum(rate(http_requests_total[30s])`}),
	}
}

func calendarCalls(w *world) []call {
	work, personal := w.caldav+"/ada/work/", w.caldav+"/ada/personal/"
	// create-event and create-todo answer with the new item's UID alone.
	uid := func(tool string) func(s *session) string {
		return func(s *session) string { return s.find(tool, `^\s*(\S+)`, "missing-uid") }
	}
	event, todo := uid("create-event"), uid("create-todo")
	return []call{
		c("list-calendars", nil),
		c("list-events", m{"calendarUrl": work, "start": "2026-01-26T00:00:00Z", "end": "2026-02-15T00:00:00Z"}),
		c("list-events", m{"calendarUrl": personal, "start": "2026-01-01T00:00:00Z", "end": "2026-03-01T00:00:00Z"}),
		c("create-event", m{"calendarUrl": work, "summary": "Export demo for finance", "start": "2026-01-30T15:00:00Z", "end": "2026-01-30T15:45:00Z",
			"description": "Show the CSV export with paging and the tax column; collect feedback on the BOM.", "location": "Finance room"}),
		dyn("update-event", func(s *session) map[string]any {
			return m{"calendarUrl": work, "uid": event(s), "start": "2026-01-30T16:00:00Z", "end": "2026-01-30T16:45:00Z", "location": "Finance room / video"}
		}),
		c("create-event", m{"calendarUrl": work, "summary": "Release freeze", "start": "2026-02-02T00:00:00Z", "end": "2026-02-03T00:00:00Z", "wholeDay": true}),
		c("create-event", m{"calendarUrl": personal, "summary": "Running club", "start": "2026-01-27T18:00:00Z", "end": "2026-01-27T19:00:00Z",
			"recurrenceRule": m{"freq": "WEEKLY", "byday": []any{"TU", "TH"}, "count": 8}}),
		c("list-todos", m{"calendarUrl": work}),
		c("list-todos", m{"calendarUrl": work, "status": "ALL"}),
		c("create-todo", m{"calendarUrl": work, "summary": "Write the retry policy for billing events", "due": "2026-02-04T17:00:00Z", "description": "Backoff, dead letters, idempotency keys"}),
		dyn("update-todo", func(s *session) map[string]any {
			return m{"calendarUrl": work, "uid": todo(s), "status": "IN-PROCESS", "due": "2026-02-05T17:00:00Z"}
		}),
		c("complete-todo", m{"calendarUrl": work, "uid": "todo-index@acme"}),
		c("list-todos", m{"calendarUrl": work, "status": "COMPLETED"}),
		dyn("delete-todo", func(s *session) map[string]any { return m{"calendarUrl": work, "uid": todo(s)} }),
		c("delete-event", m{"calendarUrl": personal, "uid": "dentist@home"}),
		c("list-events", m{"calendarUrl": work, "start": "2026-01-26T00:00:00Z", "end": "2026-02-15T00:00:00Z"}),
		bad("delete-event", m{"calendarUrl": work, "uid": "no-such-event@acme"}),
	}
}

func dexTasksCalls(w *world) []call {
	id := func(s *session, n int) string {
		return s.find(fmt.Sprintf("create_task#%d", n), `"id":\s*"([^"]+)"`, "missing")
	}
	return []call{
		c("create_task", m{"name": "Export orders as CSV", "priority": 1,
			"description": "Finance asks for a monthly CSV of all orders (id, customer, product, quantity, total, status) to reconcile with the bank statements.\n\nRequirements: same columns as the orders table, UTF-8, a header row, totals with two decimals. Done when the export for January matches the 24 orders in the database."}),
		dyn("create_task", func(s *session) map[string]any {
			return m{"name": "Add GET /api/v1/orders/export", "parent_id": id(s, 1), "priority": 1,
				"description": "Stream the rows with encoding/csv instead of building the file in memory; reuse the status and customer filters of GET /api/v1/orders."}
		}),
		dyn("create_task", func(s *session) map[string]any {
			return m{"name": "Document the export in the README", "parent_id": id(s, 1), "priority": 3, "blocked_by": []string{id(s, 2)},
				"description": "A curl example and the column list; note that totals are rounded half up."}
		}),
		c("create_task", m{"name": "Totals are off by a cent on large orders", "priority": 0,
			"description": "Order 1019 (9 Giant magnets at 19.90) shows 179.09 instead of 179.10: the total is computed in float64 and truncated.\n\nFix: compute in cents, round half up."}),
		c("create_task", m{"name": "Upgrade the service to Go 1.26", "priority": 5, "description": "go.mod, the CI image and the Dockerfile."}),
		c("list_tasks", nil),
		c("list_tasks", m{"ready": true}),
		c("list_tasks", m{"blocked": true}),
		dyn("update_task", func(s *session) map[string]any {
			return m{"id": id(s, 2), "started_at": "2026-12-02T09:15:00Z"}
		}),
		dyn("update_task", func(s *session) map[string]any {
			return m{"id": id(s, 4), "completed": true, "commit_sha": "3f2a9c1", "commit_message": "orders: compute totals in cents", "commit_branch": "fix/rounding",
				"result": "Totals are now computed in integer cents and rounded half up when formatted; a table test covers all 24 orders of January. Follow-up: the daily stats endpoint sums floats too."}
		}),
		dyn("update_task", func(s *session) map[string]any {
			return m{"id": id(s, 2), "completed": true, "result": "The endpoint streams rows with encoding/csv and takes the same filters as the list; January's export has 24 rows and matches the bank statements."}
		}),
		dyn("update_task", func(s *session) map[string]any {
			return m{"id": id(s, 3), "priority": 2, "description": "A curl example, the column list and the filters; note that totals are rounded half up."}
		}),
		c("list_tasks", m{"query": "export"}),
		c("list_tasks", m{"completed": true}),
		dyn("update_task", func(s *session) map[string]any { return m{"id": id(s, 5), "delete": true} }),
		c("list_tasks", m{"all": true}),
		bad("update_task", m{"id": "no-such-task", "completed": true}),
	}
}

func otelCalls(w *world) []call {
	const failed, slowLLM, nPlus1 = "4bf92f3577b34da6a3ce929d0e0e4748", "7c2d1e0a9b8f4e6d8a1b2c3d4e5f1004", "4bf92f3577b34da6a3ce929d0e0e473b"
	day := m{"lookbackMinutes": 1440}
	with := func(a m) m {
		out := m{"lookbackMinutes": 1440}
		for k, v := range a {
			out[k] = v
		}
		return out
	}
	span := m{"operationName": "charge card", "serviceName": "payments", "hasError": true,
		"tags": m{"rpc.system": "grpc", "rpc.method": "Charge", "peer.service": "card-provider", "error.message": "card provider timed out after 2.5s"}}
	receiver := m{"protocols": m{"http": m{"endpoint": "127.0.0.1:4318"}, "grpc": m{"endpoint": "127.0.0.1:4317"}}}
	return []call{
		c("backend_health", nil),
		c("backend_capabilities", nil),
		c("list_capabilities", nil),
		c("list_services", nil),
		c("discover_services", m{"limitServices": 10}),
		c("list_operations", m{"serviceName": "shop-api"}),
		c("service_map", day),
		c("search_traces", with(m{"serviceName": "shop-api", "limit": 10})),
		c("search_traces", with(m{"errorOnly": true})),
		c("search_spans", with(m{"serviceName": "payments", "minDurationMs": 1000, "limit": 10})),
		c("get_trace", m{"traceId": failed}),
		c("summarize_trace", m{"traceId": failed}),
		c("find_root_cause", m{"traceId": failed}),
		c("find_repeated_queries", m{"traceId": nPlus1}),
		c("correlate", m{"traceId": failed}),
		c("find_errors", day),
		c("find_anomalies", with(m{"service": "payments"})),
		c("check_slos", with(m{"service": "shop-api", "p99LatencyMs": 800, "maxErrorRate": 0.01})),
		c("explain_slowdown", with(m{"service": "shop-api"})),
		c("list_metrics", day),
		c("list_metrics", with(m{"serviceName": "payments"})),
		c("search_logs", with(m{"severityText": "ERROR", "limit": 20})),
		c("search_logs", with(m{"traceId": failed})),
		c("discover_trace_fields", m{"sampleSize": 50}),
		c("discover_log_fields", nil),
		c("get_llm_usage", nil),
		c("list_llm_models", nil),
		c("get_llm_model_stats", m{"modelName": "gpt-4o-mini"}),
		c("get_llm_expensive_traces", m{"limit": 5}),
		c("get_llm_slow_traces", m{"limit": 5}),
		c("list_llm_tools", nil),
		c("score_span_instrumentation", m{"span": span}),
		c("explain_instrumentation_score", nil),
		c("estimate_telemetry_cost", m{"requestsPerMonth": 1_200_000, "perGb": 0.5, "logLinesPerRequest": 6, "spansPerRequest": 3, "keepPercent": 20}),
		c("suggest_collector_config", nil),
		c("explain_collector_config", nil),
		c("validate_collector_config", m{"config": receiver}),
		c("collector_get_versions", nil),
		c("collector_list_components", m{"kind": "receiver"}),
		c("collector_component_schema", m{"kind": "receiver", "name": "otlp"}),
		c("collector_component_readme", m{"kind": "processor", "name": "batch"}),
		c("collector_validate_component_config", m{"kind": "processor", "name": "batch", "config": m{"timeout": "5s", "send_batch_size": 512}}),
		c("semconv_list_namespaces", nil),
		c("semconv_get_namespace", m{"namespace": "http"}),
		bad("search_logs", m{"severityText": "ERROR", "limit": 500}),
	}
}

func vaulttoolsCalls(w *world) []call {
	p := func(name string) string { return filepath.Join(w.docs, name) }
	// out is the file a tool wrote, read from its answer: the first path
	// ending in ext.
	out := func(s *session, tool, ext string) string {
		return s.find(tool, `(/[^"\s]*?\.`+ext+`)\b`, p("out/missing."+ext))
	}
	const t = "vaulttools_"
	return []call{
		c(t+"pdf_page_count", m{"path": p("report.pdf")}),
		c(t+"pdf_metadata_read", m{"path": p("invoice.pdf")}),
		c(t+"pdf_metadata_write", m{"path": p("invoice.pdf"), "title": "Invoice 2026-0042", "author": "ACME Corporation, accounts", "subject": "Anvils and rocket skates for Ada Lovelace", "keywords": "invoice, 2026, paid", "creator": "ACME shop"}),
		c(t+"pdf_merge", m{"paths": []string{p("invoice.pdf"), p("report.pdf")}}),
		c(t+"pdf_split", m{"path": p("report.pdf"), "start_page": 2, "end_page": 2}),
		c(t+"pdf_reorder", m{"path": p("report.pdf"), "order": "2,1"}),
		c(t+"pdf_rotate", m{"path": p("report.pdf"), "rotations": `{"1": 90}`}),
		c(t+"pdf_annotate", m{"path": p("report.pdf"), "add_page_numbers": true, "page_number_prefix": "Page ", "page_number_position": "bottom-center", "add_watermark": true, "watermark_text": "DRAFT", "watermark_opacity": 0.15}),
		c(t+"pdf_compress", m{"path": p("report.pdf"), "quality": 60, "strip_metadata": true}),
		c(t+"pdf_images_to_pdf", m{"paths": []string{p("anvil.png"), p("anvil.jpg")}, "page_size": "A4"}),
		dyn(t+"pdf_to_images", func(s *session) map[string]any {
			return m{"path": out(s, t+"pdf_images_to_pdf", "pdf"), "format": "jpeg", "max_dimension": 800}
		}),
		c(t+"image_info", m{"path": p("anvil.png")}),
		// Its palette fails on every image ("Failed to parse palette result"): the server's own fault, recorded as it answers.
		bad(t+"image_palette", m{"path": p("anvil.jpg")}),
		c(t+"image_resize", m{"path": p("anvil.png"), "width": 320, "height": 240}),
		c(t+"image_compress", m{"path": p("anvil.jpg"), "quality": 60}),
		c(t+"image_convert", m{"path": p("anvil.png"), "output_format": "webp", "quality": 80}),
		c(t+"image_exif_read", m{"path": p("anvil.jpg")}),
		c(t+"image_exif_strip", m{"path": p("anvil.jpg")}),
		c(t+"image_transform", m{"path": p("anvil.png"), "rotate": 90, "flip_horizontal": true}),
		c(t+"image_watermark", m{"path": p("anvil.png"), "text": "ACME sample", "position": "bottom-right", "opacity": 0.6, "font_size": 28}),
		c(t+"image_mockup", m{"path": p("anvil.png"), "preset": "browser"}),
		c(t+"image_svg_to_png", m{"path": p("logo.svg"), "width": 480, "height": 160}),
		dyn(t+"image_favicon", func(s *session) map[string]any {
			return m{"path": out(s, t+"image_svg_to_png", "png"), "background": "#1f2937"}
		}),
		c(t+"image_resize", m{"path": p("anvil.png"), "width": 48, "height": 36}),
		dyn(t+"image_to_base64", func(s *session) map[string]any { return m{"path": out(s, t+"image_resize", "png")} }),
		dyn(t+"image_from_base64", func(s *session) map[string]any {
			uri, _ := os.ReadFile(out(s, t+"image_to_base64", "txt"))
			return m{"data_uri": strings.TrimSpace(string(uri)), "output_filename": "anvil-thumb-copy.png"}
		}),
		c(t+"dev_qr_generate", m{"text": "https://shop.example/orders/1025", "size": 256}),
		dyn(t+"image_svg_to_png", func(s *session) map[string]any {
			return m{"path": out(s, t+"dev_qr_generate", "svg"), "width": 600, "height": 600, "background": "#ffffff"}
		}),
		// Its QR codes are light modules on a dark ground, which its own reader does not find: recorded as it answers.
		dyn(t+"dev_qr_read", func(s *session) map[string]any { return m{"path": out(s, t+"image_svg_to_png", "png")} }).failing(),
		c(t+"file_zip_create", m{"paths": []string{p("invoice.pdf"), p("report.pdf"), p("orders.csv")}}),
		dyn(t+"file_zip_list", func(s *session) map[string]any { return m{"path": out(s, t+"file_zip_create", "zip")} }),
		dyn(t+"file_zip_extract", func(s *session) map[string]any {
			return m{"path": out(s, t+"file_zip_create", "zip"), "entry_index": 2}
		}),
		c(t+"file_checksum", m{"path": p("report.pdf")}),
		c(t+"file_tsv_csv", m{"path": p("stock.tsv"), "direction": "tsv_to_csv"}),
		c(t+"text_csv_to_json", m{"path": p("orders.csv"), "has_headers": true}),
		c(t+"text_json_to_csv", m{"path": p("orders.json")}),
		c(t+"text_json_format", m{"path": p("orders.json"), "indent": 2}),
		c(t+"text_json_minify", m{"path": p("orders.json")}),
		c(t+"text_json_validate", m{"path": p("orders.json")}),
		c(t+"text_json_validate", m{"path": p("broken.json")}),
		c(t+"text_convert_format", m{"path": p("config.yaml"), "from_format": "yaml", "to_format": "json"}),
		c(t+"text_xml_to_json", m{"path": p("feed.xml")}),
		c(t+"text_html_to_markdown", m{"path": p("article.html")}),
		c(t+"text_markdown_to_html", m{"path": p("README.md")}),
		c(t+"text_word_count", m{"path": p("README.md")}),
		c(t+"text_diff", m{"original_path": p("CHANGELOG-1.3.md"), "modified_path": p("CHANGELOG-1.4.md")}),
		c(t+"text_regex_test", m{"path": p("orders.csv"), "pattern": `^(\d+),([^,]+),Rocket skates`, "flags": "m"}),
		c(t+"text_regex_replace", m{"path": p("CHANGELOG-1.4.md"), "pattern": "06:00", "replacement": "07:00", "flags": "g"}),
		c(t+"text_html_entity_decode", m{"path": p("entities.txt")}),
		c(t+"text_html_entity_encode", m{"path": p("notice.html")}),
		c(t+"text_base64_encode", m{"path": p("README.md")}),
		c(t+"text_base64_decode", m{"path": p("greeting.b64")}),
		c(t+"dev_url_encode", m{"path": p("callback-url.txt"), "mode": "component"}),
		c(t+"dev_url_decode", m{"path": p("encoded-url.txt")}),
		c(t+"dev_jwt_decode", m{"path": p("session.jwt")}),
		c(t+"dev_hash", m{"path": p("invoice.pdf"), "algorithm": "sha256"}),
		c(t+"dev_uuid", m{"count": 3}),
		c(t+"dev_color_convert", m{"color": "#f59e0b", "to_format": "hsl"}),
		c(t+"dev_cron_parse", m{"expression": "0 7 * * 1-5"}),
		c(t+"dev_timestamp_to_human", m{"timestamp": 1796198400, "unit": "seconds"}),
		c(t+"dev_timestamp_to_unix", m{"year": 2026, "month": 12, "day": 24, "hour": 18, "unit": "seconds"}),
		c(t+"dev_lorem_generate", m{"count": 2, "mode": "paragraphs"}),
		bad(t+"pdf_page_count", m{"path": "/etc/passwd"}),
	}
}

func obsidianRESTCalls(w *world) []call {
	const o = "obsidian_"
	return []call{
		c(o+"list_notes", m{"dirPath": "/"}),
		c(o+"list_notes", m{"dirPath": "Projects", "fileExtensionFilter": []string{".md"}, "recursionDepth": 0}),
		c(o+"read_note", m{"filePath": "Home.md"}),
		c(o+"read_note", m{"filePath": "Projects/Orders export.md", "format": "json"}),
		c(o+"read_note", m{"filePath": "People/grace hopper.md", "includeStat": true}),
		c(o+"global_search", m{"query": "paging", "contextLength": 60}),
		c(o+"global_search", m{"query": `\d{4} ms|index`, "useRegex": true, "searchInPath": "Meetings"}),
		c(o+"manage_frontmatter", m{"filePath": "Projects/Orders export.md", "operation": "get", "key": "due"}),
		c(o+"manage_frontmatter", m{"filePath": "Projects/Orders export.md", "operation": "set", "key": "status", "value": "blocked"}),
		c(o+"manage_frontmatter", m{"filePath": "Projects/Billing v2.md", "operation": "set", "key": "reviewers", "value": []string{"Ada Lovelace", "Edsger Dijkstra"}}),
		c(o+"manage_frontmatter", m{"filePath": "People/Ada Lovelace.md", "operation": "delete", "key": "email"}),
		c(o+"manage_tags", m{"filePath": "Home.md", "operation": "list", "tags": []string{}}),
		c(o+"manage_tags", m{"filePath": "Projects/Orders export.md", "operation": "add", "tags": []string{"finance", "q1"}}),
		c(o+"manage_tags", m{"filePath": "Projects/Orders export.md", "operation": "remove", "tags": []string{"orders"}}),
		c(o+"update_note", m{"targetType": "filePath", "targetIdentifier": "Meetings/2026-01-26 Weekly.md", "modificationType": "wholeFile", "wholeFileMode": "overwrite",
			"content": "---\ndate: 2026-01-26\nattendees: [Ada Lovelace, Grace Hopper]\n---\n# Weekly, 26 January\n\n## Notes\n\n- Export: paging merged, the index cut the query to 40 ms.\n- Billing: events schema approved.\n\n## Actions\n\n- [ ] Ada: tax column at the 2026 rate\n- [ ] Grace: announce Billing v2 to finance\n", "returnContent": true}),
		c(o+"update_note", m{"targetType": "filePath", "targetIdentifier": "Inbox.md", "modificationType": "wholeFile", "wholeFileMode": "append", "content": "- [ ] Book the Q1 planning room\n"}),
		c(o+"update_note", m{"targetType": "periodicNote", "targetIdentifier": "daily", "modificationType": "wholeFile", "wholeFileMode": "prepend", "content": "Standup: export paging done. ", "returnContent": true}),
		c(o+"update_note", m{"targetType": "activeFile", "modificationType": "wholeFile", "wholeFileMode": "append", "content": "\n## Decisions\n\n- Refunds appear as negative lines.\n", "returnContent": true}),
		c(o+"search_replace", m{"targetType": "filePath", "targetIdentifier": "Projects/Orders export.md", "replacements": []map[string]string{{"search": "- [ ] Paging for /orders/export", "replace": "- [x] Paging for /orders/export"}}}),
		c(o+"search_replace", m{"targetType": "filePath", "targetIdentifier": "Reference/Glossary.md", "useRegex": true, "caseSensitive": false,
			"replacements": []map[string]string{{"search": "stock keeping unit", "replace": "Stock-keeping unit"}, {"search": "e\\.g\\.", "replace": "for example"}}}),
		c(o+"delete_note", m{"filePath": "Templates/Meeting.md"}),
		c(o+"list_notes", m{"dirPath": "Meetings", "nameRegexFilter": "Weekly"}),
		bad(o+"read_note", m{"filePath": "Projects/Launch plan.md"}),
	}
}
