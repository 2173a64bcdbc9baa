package main

import (
	"path/filepath"
	"strconv"
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
