package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// session is what a call's arguments may depend on: the text of the last
// result of each tool called before it (a page id, an element uid, a PID).
type session struct {
	texts map[string]string // by tool (its last result) and by "tool#n" (its n-th)
	seen  map[string]int    // results so far per tool
}

// find returns the first submatch of re in the last result of tool, or
// fallback.
func (s *session) find(tool, re, fallback string) string {
	m := regexp.MustCompile(re).FindStringSubmatch(s.texts[tool])
	if len(m) < 2 {
		return fallback
	}
	return m[1]
}

func c(tool string, args map[string]any) call { return call{tool: tool, args: args} }
func bad(tool string, args map[string]any) call {
	return call{tool: tool, args: args, fails: true}
}
func dyn(tool string, f func(s *session) map[string]any) call { return call{tool: tool, dynArgs: f} }

// failing marks a call built from earlier answers as the server's error case.
func (c call) failing() call { c.fails = true; return c }

type m = map[string]any

func playwrightCalls(w *world) []call {
	return []call{
		c("browser_navigate", m{"url": w.site + "/"}),
		c("browser_snapshot", m{}),
		c("browser_console_messages", m{"level": "debug"}),
		c("browser_network_requests", m{"static": false}),
		c("browser_network_request", m{"index": 1}),
		c("browser_find", m{"text": "Ada"}),
		c("browser_type", m{"element": "Customer search box", "target": "#q", "text": "Grace"}),
		c("browser_select_option", m{"element": "Status filter", "target": "#status", "values": []string{"pending"}}),
		c("browser_fill_form", m{"fields": []m{
			{"element": "Customer search box", "target": "#q", "name": "Customer", "type": "textbox", "value": "Ada Lovelace"},
			{"element": "Status filter", "target": "#status", "name": "Status", "type": "combobox", "value": "shipped"}}}),
		c("browser_click", m{"element": "Search button", "target": "#go"}),
		c("browser_hover", m{"element": "Orders table", "target": "#orders"}),
		c("browser_press_key", m{"key": "Tab"}),
		c("browser_evaluate", m{"function": "() => [...document.querySelectorAll('#orders tbody tr')].map(r => ({order: r.cells[0].textContent, customer: r.cells[1].textContent, total: Number(r.cells[3].textContent)}))"}),
		c("browser_highlight", m{"element": "Orders table", "target": "#orders", "style": "outline: 2px dashed red"}),
		c("browser_hide_highlight", m{"element": "Orders table", "target": "#orders"}),
		c("browser_drag", m{"startElement": "first row", "startTarget": "#orders tbody tr:first-child", "endElement": "last row", "endTarget": "#orders tbody tr:last-child"}),
		c("browser_mouse_move_xy", m{"x": 200, "y": 150}),
		c("browser_mouse_click_xy", m{"x": 200, "y": 150}),
		c("browser_mouse_drag_xy", m{"startX": 100, "startY": 100, "endX": 300, "endY": 120}),
		c("browser_mouse_down", m{}),
		c("browser_mouse_up", m{}),
		c("browser_mouse_wheel", m{"deltaX": 0, "deltaY": 300}),
		c("browser_emulate_media", m{"colorScheme": "dark"}),
		c("browser_resize", m{"width": 800, "height": 600}),
		c("browser_take_screenshot", m{"type": "png"}),
		c("browser_pdf_save", m{"filename": "orders.pdf"}),
		c("browser_start_tracing", m{}),
		c("browser_navigate", m{"url": w.site + "/orders.html"}),
		c("browser_stop_tracing", m{}),
		c("browser_start_recording", m{}),
		c("browser_stop_recording", m{}),
		// Video needs Playwright's own ffmpeg build, which is never downloaded here: its error box is real output.
		bad("browser_start_video", m{"size": m{"width": 640, "height": 400}}),
		c("browser_video_chapter", m{"title": "Orders", "description": "The full order list", "duration": 200}),
		c("browser_video_show_actions", m{"duration": 200, "position": "top-right"}),
		c("browser_video_hide_actions", m{}),
		c("browser_stop_video", m{}),
		c("browser_wait_for", m{"text": "All orders"}),
		c("browser_run_code_unsafe", m{"code": "async (page) => { const rows = await page.locator('tbody tr').count(); return { title: await page.title(), rows }; }"}),
		c("browser_tabs", m{"action": "new", "url": w.site + "/about.html"}),
		c("browser_tabs", m{"action": "list"}),
		c("browser_tabs", m{"action": "select", "index": 0}),
		c("browser_navigate_back", m{}),
		c("browser_navigate", m{"url": w.site + "/"}),
		c("browser_click", m{"element": "Load more button", "target": "#load"}),
		c("browser_evaluate", m{"function": "() => { setTimeout(() => confirm('Delete order 1004?'), 100); return 'asked'; }"}),
		{tool: "browser_handle_dialog", args: m{"accept": true}, pause: time.Second},
		c("browser_click", m{"element": "Attachment chooser", "target": "#attach"}),
		c("browser_file_upload", m{"paths": []string{w.at("data/orders.csv")}}),
		c("browser_drop", m{"element": "Drop zone", "target": "#drop", "data": m{"text/plain": "1009,Ada Lovelace,1"}}),
		// Nothing paused the debugger: the server says so.
		bad("browser_resume", m{}),
		bad("browser_navigate", m{"url": "http://127.0.0.1:1/"}),
		bad("browser_click", m{"element": "Delete button", "target": "#delete-everything"}),
		c("browser_close", m{}),
	}
}

func devtoolsCalls(w *world) []call {
	page := func(s *session) int {
		var n int
		fmt.Sscanf(s.find("list_pages", `(?m)^(\d+):`, "1"), "%d", &n)
		return n
	}
	uid := func(s *session, role, name string) string {
		re := `uid=(\S+) ` + role
		if name != "" {
			re += ` "` + regexp.QuoteMeta(name) + `"`
		}
		return s.find("take_snapshot", re, "1_1")
	}
	p := func(tool string, f func(s *session, pid int) m) call {
		return dyn(tool, func(s *session) map[string]any { return f(s, page(s)) })
	}
	return []call{
		c("list_pages", m{}),
		p("navigate_page", func(s *session, pid int) m { return m{"pageId": pid, "type": "url", "url": w.site + "/"} }),
		p("take_snapshot", func(s *session, pid int) m { return m{"pageId": pid} }),
		p("list_console_messages", func(s *session, pid int) m { return m{"pageId": pid} }),
		p("get_console_message", func(s *session, pid int) m {
			var id int
			fmt.Sscanf(s.find("list_console_messages", `msgid=(\d+)`, "1"), "%d", &id)
			return m{"pageId": pid, "msgid": id}
		}),
		p("list_network_requests", func(s *session, pid int) m { return m{"pageId": pid} }),
		p("get_network_request", func(s *session, pid int) m {
			var id int
			fmt.Sscanf(s.find("list_network_requests", `reqid=(\d+) GET \S*/api/orders.json`, "1"), "%d", &id)
			return m{"pageId": pid, "reqid": id}
		}),
		p("fill", func(s *session, pid int) m {
			return m{"pageId": pid, "uid": uid(s, "textbox", "Customer"), "value": "Grace"}
		}),
		p("fill_form", func(s *session, pid int) m {
			return m{"pageId": pid, "elements": []m{{"uid": uid(s, "textbox", "Customer"), "value": "Ada Lovelace"}, {"uid": uid(s, "combobox", ""), "value": "shipped"}}}
		}),
		p("click", func(s *session, pid int) m {
			return m{"pageId": pid, "uid": uid(s, "button", "Search"), "includeSnapshot": true}
		}),
		p("hover", func(s *session, pid int) m { return m{"pageId": pid, "uid": uid(s, "button", "Load more")} }),
		p("drag", func(s *session, pid int) m {
			return m{"pageId": pid, "from_uid": uid(s, "button", "Load more"), "to_uid": uid(s, "textbox", "Customer")}
		}),
		p("press_key", func(s *session, pid int) m { return m{"pageId": pid, "key": "Tab"} }),
		p("type_text", func(s *session, pid int) m { return m{"pageId": pid, "text": "Hopper", "submitKey": "Enter"} }),
		p("get_css_styles", func(s *session, pid int) m { return m{"pageId": pid, "uid": uid(s, "button", "Search"), "pageSize": 5} }),
		p("evaluate_script", func(s *session, pid int) m {
			return m{"pageId": pid, "function": "() => [...document.querySelectorAll('#orders tbody tr')].map(r => ({order: r.cells[0].textContent, customer: r.cells[1].textContent, status: r.cells[4].textContent}))"}
		}),
		p("wait_for", func(s *session, pid int) m { return m{"pageId": pid, "text": []string{"Acme Orders"}, "timeout": 5000} }),
		p("emulate", func(s *session, pid int) m {
			return m{"pageId": pid, "networkConditions": "Fast 4G", "cpuThrottlingRate": 2}
		}),
		p("resize_page", func(s *session, pid int) m { return m{"pageId": pid, "width": 800, "height": 600} }),
		p("take_screenshot", func(s *session, pid int) m { return m{"pageId": pid, "format": "png"} }),
		p("performance_start_trace", func(s *session, pid int) m { return m{"pageId": pid, "reload": true, "autoStop": true} }),
		p("performance_analyze_insight", func(s *session, pid int) m {
			return m{"pageId": pid, "insightSetId": s.find("performance_start_trace", `insight set id: (\S+)`, "NAVIGATION_0"), "insightName": "DocumentLatency"}
		}),
		p("performance_stop_trace", func(s *session, pid int) m { return m{"pageId": pid} }),
		p("lighthouse_audit", func(s *session, pid int) m {
			return m{"pageId": pid, "mode": "snapshot", "device": "desktop", "outputDirPath": filepath.Join(w.root, "artifacts", "lighthouse")}
		}),
		p("take_heapsnapshot", func(s *session, pid int) m {
			return m{"pageId": pid, "filePath": filepath.Join(w.root, "artifacts", "page.heapsnapshot")}
		}),
		p("screencast_start", func(s *session, pid int) m {
			return m{"pageId": pid, "filePath": filepath.Join(w.root, "artifacts", "screencast.mp4")}
		}),
		p("screencast_stop", func(s *session, pid int) m { return m{"pageId": pid} }),
		c("new_page", m{"url": w.site + "/about.html"}),
		c("list_pages", m{}),
		dyn("select_page", func(s *session) map[string]any { return m{"pageId": page(s), "bringToFront": true} }),
		dyn("upload_file", func(s *session) map[string]any {
			return m{"pageId": page(s), "uid": uid(s, "button", "Attachment"), "filePaths": []string{w.at("data/orders.csv")}}
		}),
		dyn("evaluate_script", func(s *session) map[string]any {
			return m{"pageId": page(s), "function": "() => { setTimeout(() => confirm('Delete order 1004?'), 100); return 'asked'; }"}
		}),
		{tool: "handle_dialog", pause: time.Second, dynArgs: func(s *session) map[string]any { return m{"pageId": page(s), "action": "accept"} }},
		dyn("close_page", func(s *session) map[string]any {
			var n int
			fmt.Sscanf(s.find("list_pages", `(?m)^(\d+): \S*/about.html`, "2"), "%d", &n)
			return m{"pageId": n}
		}),
		{tool: "navigate_page", fails: true, dynArgs: func(s *session) map[string]any { return m{"pageId": 99, "type": "url", "url": w.site + "/"} }},
	}
}

func desktopCommanderCalls(w *world) []call {
	return []call{
		c("get_config", m{}),
		c("set_config_value", m{"key": "fileReadLineLimit", "value": 500}),
		c("list_directory", m{"path": w.project, "depth": 2}),
		c("read_file", m{"path": w.at("README.md")}),
		c("read_file", m{"path": w.at("logs/app.log"), "offset": 0, "length": 50}),
		c("read_multiple_files", m{"paths": []string{w.at("config.yaml"), w.at("notes.txt")}}),
		c("get_file_info", m{"path": w.at("data/orders.csv")}),
		c("create_directory", m{"path": w.at("reports/2026")}),
		c("write_file", m{"path": w.at("reports/2026/summary.md"), "content": "# January summary\n\n- 8 orders\n- 2 pending\n"}),
		c("edit_block", m{"file_path": w.at("reports/2026/summary.md"), "old_string": "- 2 pending", "new_string": "- 2 pending, 1 cancelled"}),
		c("move_file", m{"source": w.at("reports/2026/summary.md"), "destination": w.at("reports/2026/january.md")}),
		// Its PDF writer starts Chromium, which refuses to run as root without --no-sandbox: a real error text.
		bad("write_pdf", m{"path": w.at("reports/2026/january.pdf"), "content": "# January\n\nEight orders, two pending."}),
		c("start_search", m{"path": w.project, "pattern": "order", "searchType": "content", "filePattern": "*.js", "contextLines": 0}),
		{tool: "get_more_search_results", pause: 500 * time.Millisecond, dynArgs: func(s *session) map[string]any {
			return m{"sessionId": s.find("start_search", `(search_[\w-]+)`, "search_1"), "offset": 0, "length": 20}
		}},
		c("start_search", m{"path": w.project, "pattern": "*.md", "searchType": "files"}),
		c("list_searches", m{}),
		dyn("stop_search", func(s *session) map[string]any {
			return m{"sessionId": s.find("start_search", `(search_[\w-]+)`, "search_2")}
		}),
		c("start_process", m{"command": "ls -la " + w.project, "timeout_ms": 5000}),
		c("start_process", m{"command": "node -i", "timeout_ms": 3000}),
		dyn("interact_with_process", func(s *session) map[string]any {
			var pid int
			fmt.Sscanf(s.find("start_process", `PID (\d+)`, "0"), "%d", &pid)
			return m{"pid": pid, "input": "[1, 2, 3].map(n => n * 2)", "timeout_ms": 3000}
		}),
		dyn("read_process_output", func(s *session) map[string]any {
			var pid int
			fmt.Sscanf(s.find("start_process", `PID (\d+)`, "0"), "%d", &pid)
			return m{"pid": pid, "timeout_ms": 1000}
		}),
		c("list_sessions", m{}),
		dyn("force_terminate", func(s *session) map[string]any {
			var pid int
			fmt.Sscanf(s.find("start_process", `PID (\d+)`, "0"), "%d", &pid)
			return m{"pid": pid}
		}),
		c("start_process", m{"command": "sleep 300", "timeout_ms": 1000}),
		c("list_processes", m{}),
		dyn("kill_process", func(s *session) map[string]any {
			var pid int
			fmt.Sscanf(s.find("start_process", `PID (\d+)`, "0"), "%d", &pid)
			return m{"pid": pid}
		}),
		c("get_usage_stats", m{}),
		c("get_recent_tool_calls", m{"maxResults": 5}),
		c("get_prompts", m{"action": "get_prompt", "promptId": "onb2_01"}),
		bad("read_file", m{"path": w.at("no/such/file.txt")}),
	}
}

func gitCalls(w *world) []call {
	repo := w.project
	return []call{
		c("git_set_working_dir", m{"path": repo}),
		c("git_status", m{}),
		c("git_log", m{"maxCount": 10}),
		c("git_show", m{"object": "HEAD~1"}),
		c("git_diff", m{}),
		c("git_diff", m{"target": "feature/csv-export", "source": "main"}),
		c("git_blame", m{"filePath": "src/orders.js"}),
		c("git_branch", m{"mode": "list"}),
		c("git_tag", m{"mode": "list"}),
		c("git_reflog", m{"maxCount": 10}),
		c("git_remote", m{"mode": "add", "name": "origin", "url": w.root + "/origin.git"}),
		c("git_remote", m{"mode": "list"}),
		c("git_init", m{"path": w.root + "/origin.git", "bare": true}),
		c("git_push", m{"remote": "origin", "branch": "main", "setUpstream": true}),
		c("git_fetch", m{"remote": "origin", "prune": true}),
		c("git_pull", m{"remote": "origin", "branch": "main"}),
		c("git_stash", m{"mode": "push", "message": "wip: tax rate"}),
		c("git_stash", m{"mode": "list"}),
		c("git_stash", m{"mode": "pop"}),
		c("git_add", m{"paths": []string{"src/orders.js", "TODO.md"}}),
		c("git_commit", m{"message": "orders: 2026 tax rate\n\nThe rate changed on 1 January."}),
		c("git_checkout", m{"target": "feature/csv-export"}),
		c("git_rebase", m{"mode": "start", "upstream": "main"}),
		c("git_checkout", m{"target": "main"}),
		c("git_merge", m{"branch": "feature/csv-export", "noFastForward": true, "message": "Merge CSV export"}),
		c("git_cherry_pick", m{"commits": []string{"v0.1.0"}, "noCommit": true}),
		c("git_reset", m{"mode": "mixed", "target": "HEAD"}),
		c("git_clean", m{"force": true, "dryRun": true}),
		c("git_worktree", m{"mode": "list"}),
		c("git_clone", m{"url": w.root + "/origin.git", "path": w.root + "/clone"}),
		c("git_changelog_analyze", m{"reviewTypes": []string{"features", "breaking_changes"}}),
		c("git_wrapup_instructions", m{"acknowledgement": "yes"}),
		c("git_clear_working_dir", m{"confirm": "yes"}),
		bad("git_log", m{"path": w.root + "/not-a-repo", "maxCount": 5}),
	}
}

func excelCalls(w *world) []call {
	book := w.at("data/sales.xlsx")
	rows := [][]any{
		{"Order", "Customer", "Quantity", "Unit price", "Total"},
		{1001, "Ada Lovelace", 2, 19.9, "=C2*D2"},
		{1002, "Charles Babbage", 1, 249, "=C3*D3"},
		{1003, "Grace Hopper", 5, 4.5, "=C4*D4"},
		{1004, "Alan Turing", 3, 12, "=C5*D5"},
		{1005, "Katherine Johnson", 10, 1.99, "=C6*D6"},
		{"Total", "", "=SUM(C2:C6)", "", "=SUM(E2:E6)"},
	}
	return []call{
		c("excel_write_to_sheet", m{"fileAbsolutePath": book, "sheetName": "Orders", "newSheet": true, "range": "A1:E7", "values": rows}),
		c("excel_describe_sheets", m{"fileAbsolutePath": book}),
		c("excel_read_sheet", m{"fileAbsolutePath": book, "sheetName": "Orders"}),
		c("excel_read_sheet", m{"fileAbsolutePath": book, "sheetName": "Orders", "range": "A1:E7", "showFormula": true}),
		c("excel_format_range", m{"fileAbsolutePath": book, "sheetName": "Orders", "range": "A1:E1", "styles": [][]any{{
			m{"font": m{"bold": true}, "fill": m{"type": "pattern", "pattern": "solid", "color": []string{"#DDEBF7"}}}, m{"font": m{"bold": true}}, m{"font": m{"bold": true}}, m{"font": m{"bold": true}}, m{"font": m{"bold": true}}}}}),
		c("excel_read_sheet", m{"fileAbsolutePath": book, "sheetName": "Orders", "range": "A1:E3", "showStyle": true}),
		c("excel_create_table", m{"fileAbsolutePath": book, "sheetName": "Orders", "tableName": "OrdersTable", "range": "A1:E6"}),
		c("excel_copy_sheet", m{"fileAbsolutePath": book, "srcSheetName": "Orders", "dstSheetName": "Orders 2025"}),
		c("excel_describe_sheets", m{"fileAbsolutePath": book}),
		bad("excel_read_sheet", m{"fileAbsolutePath": book, "sheetName": "Invoices"}),
	}
}

func postgresCalls(w *world) []call {
	return []call{
		c("query", m{"sql": "SELECT id, name, email, country, created_at FROM customers ORDER BY id"}),
		c("query", m{"sql": "SELECT * FROM order_totals ORDER BY ordered_at LIMIT 25"}),
		c("query", m{"sql": "SELECT date_trunc('day', ordered_at)::date AS day, count(*) AS orders, sum(quantity) AS items FROM orders GROUP BY 1 ORDER BY 1"}),
		c("query", m{"sql": "SELECT status, count(*) AS orders, round(avg(quantity), 2) AS avg_quantity FROM orders GROUP BY status ORDER BY orders DESC"}),
		c("query", m{"sql": "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"}),
		c("query", m{"sql": "SELECT sku, name, unit_price FROM products WHERE in_stock = 0"}),
		bad("query", m{"sql": "SELECT total FROM invoices"}),
	}
}

func postgresAdminCalls(w *world) []call {
	return []call{
		c("pg_analyze_database", m{"analysisType": "configuration"}),
		c("pg_debug_database", m{"issue": "locks"}),
		c("pg_manage_schema", m{"operation": "get_info", "tableName": "orders"}),
		c("pg_manage_schema", m{"operation": "get_enums"}),
		c("pg_manage_functions", m{"operation": "create", "functionName": "order_total", "parameters": "order_id integer", "returnType": "numeric",
			"functionBody": "SELECT total FROM order_totals WHERE id = order_id", "language": "sql"}),
		c("pg_manage_functions", m{"operation": "get", "functionName": "order_total"}),
		c("pg_manage_triggers", m{"operation": "get", "tableName": "orders"}),
		c("pg_manage_indexes", m{"operation": "get", "tableName": "orders"}),
		c("pg_manage_constraints", m{"operation": "get", "tableName": "orders"}),
		c("pg_manage_rls", m{"operation": "get_policies", "tableName": "orders"}),
		c("pg_manage_users", m{"operation": "list"}),
		c("pg_manage_query", m{"operation": "explain", "query": "SELECT * FROM order_totals WHERE customer = 'Ada Lovelace'", "analyze": true}),
		c("pg_execute_query", m{"operation": "select", "query": "SELECT id, customer, product, quantity, total, status, ordered_at FROM order_totals ORDER BY id LIMIT $1", "parameters": []any{12}}),
		c("pg_execute_query", m{"operation": "count", "query": "SELECT * FROM orders WHERE status = 'pending'"}),
		c("pg_execute_mutation", m{"operation": "update", "table": "products", "data": m{"in_stock": 25}, "where": "sku = 'PILL-005'"}),
		c("pg_execute_sql", m{"sql": "SELECT country, count(*) AS customers FROM customers GROUP BY country ORDER BY customers DESC"}),
		c("pg_manage_comments", m{"operation": "set", "objectType": "table", "objectName": "orders", "comment": "One row per order line"}),
		c("pg_manage_comments", m{"operation": "bulk_get"}),
		c("pg_export_table_data", m{"tableName": "products", "outputPath": w.at("products.csv"), "format": "csv"}),
		c("pg_execute_sql", m{"sql": "CREATE TABLE products_archive (LIKE products INCLUDING ALL)", "expectRows": false}),
		c("pg_import_table_data", m{"tableName": "products_archive", "inputPath": w.at("products.csv"), "format": "csv", "truncateFirst": false}),
		c("pg_copy_between_databases", m{"sourceConnectionString": w.pgURL, "targetConnectionString": strings.Replace(w.pgURL, "/shop", "/shop_archive", 1), "tableName": "customers", "where": "country = 'NL'"}),
		c("pg_monitor_database", m{"includeTables": true, "includeQueries": true}),
		bad("pg_execute_query", m{"operation": "select", "query": "SELECT total FROM invoices"}),
	}
}

func redisCalls(w *world) []call {
	return []call{
		c("list", m{"pattern": "*"}),
		c("get", m{"key": "session:4121"}),
		c("set", m{"key": "config:tax_rate", "value": "0.21", "expireSeconds": 3600}),
		c("get", m{"key": "config:tax_rate"}),
		c("delete", m{"key": []string{"config:tax_rate", "counter:orders"}}),
		c("list", m{"pattern": "config:*"}),
		bad("get", m{"key": "order:1001"}),
	}
}

func fetchCalls(w *world) []call {
	return []call{
		c("fetch_html", m{"url": w.site + "/"}),
		c("fetch_markdown", m{"url": w.site + "/about.html"}),
		c("fetch_markdown", m{"url": w.site + "/orders.html"}),
		c("fetch_txt", m{"url": w.site + "/about.html"}),
		c("fetch_json", m{"url": w.site + "/api/orders.json"}),
		c("fetch_txt", m{"url": w.site + "/robots.txt"}),
		bad("fetch_html", m{"url": w.site + "/missing-page.html"}),
	}
}

func ripgrepCalls(w *world) []call {
	return []call{
		c("search", m{"pattern": "order", "path": w.project}),
		c("search", m{"pattern": "TODO", "path": w.project, "context": 1}),
		c("advanced-search", m{"pattern": "function \\w+", "path": w.project, "fileType": "js", "showLineNumbers": true}),
		c("count-matches", m{"pattern": "order", "path": w.project}),
		c("list-files", m{"path": w.project}),
		c("list-file-types", m{}),
		c("search", m{"pattern": "ERROR|WARN", "path": w.at("logs"), "useColors": true}),
		bad("search", m{"pattern": "(unclosed", "path": w.project}),
	}
}

func timeCalls(w *world) []call {
	return []call{
		c("current_time", m{"format": "YYYY-MM-DD HH:mm:ss", "timezone": "Europe/Berlin"}),
		c("relative_time", m{"time": "2026-01-01 00:00:00"}),
		c("days_in_month", m{"date": "2026-02-01"}),
		c("get_timestamp", m{"time": "2026-11-30 10:45:10.816"}),
		c("convert_time", m{"sourceTimezone": "Asia/Shanghai", "targetTimezone": "America/New_York", "time": "2026-03-23 12:30:00"}),
		c("get_week_year", m{"date": "2026-03-23"}),
		bad("convert_time", m{"sourceTimezone": "Mars/Olympus_Mons", "targetTimezone": "Europe/London", "time": "2026-03-23 12:30:00"}),
	}
}

func thinkingCalls(w *world) []call {
	return []call{
		c("sequentialthinking", m{"thought": "The export fails with EACCES: the service user cannot write to /var/exports. Check who owns the folder.", "nextThoughtNeeded": true, "thoughtNumber": 1, "totalThoughts": 3}),
		c("sequentialthinking", m{"thought": "The folder belongs to root and the service runs as orders. Either change the owner or export into a folder the service owns.", "nextThoughtNeeded": true, "thoughtNumber": 2, "totalThoughts": 3}),
		c("sequentialthinking", m{"thought": "Revise: the config already has export_dir; pointing it at data/exports avoids touching system folders.", "nextThoughtNeeded": false, "thoughtNumber": 3, "totalThoughts": 3, "isRevision": true, "revisesThought": 2}),
		bad("sequentialthinking", m{"thought": "", "nextThoughtNeeded": "maybe", "thoughtNumber": 0, "totalThoughts": 0}),
	}
}

func puppeteerCalls(w *world) []call {
	return []call{
		c("puppeteer_navigate", m{"url": w.site + "/"}),
		c("puppeteer_screenshot", m{"name": "orders-home", "width": 800, "height": 500}),
		c("puppeteer_fill", m{"selector": "#q", "value": "Grace Hopper"}),
		c("puppeteer_select", m{"selector": "#status", "value": "pending"}),
		c("puppeteer_click", m{"selector": "#go"}),
		c("puppeteer_hover", m{"selector": "#orders"}),
		c("puppeteer_evaluate", m{"script": "[...document.querySelectorAll('#orders tbody tr')].map(r => r.cells[1].textContent)"}),
		c("puppeteer_screenshot", m{"name": "orders-table", "selector": "#orders", "encoded": true}),
		bad("puppeteer_click", m{"selector": "#no-such-button"}),
	}
}

func codeRunnerCalls(w *world) []call {
	return []call{
		c("run-code", m{"languageId": "javascript", "code": "const orders = [{id: 1001, total: 39.8}, {id: 1002, total: 249}];\nconsole.log(orders.reduce((s, o) => s + o.total, 0).toFixed(2));"}),
		c("run-code", m{"languageId": "shellscript", "code": "printf 'order_id,total\\n1001,39.80\\n1002,249.00\\n1003,22.50\\n'"}),
		c("run-code", m{"languageId": "python", "code": "import json\nprint(json.dumps({'orders': 3, 'pending': 1}))"}),
		bad("run-code", m{"languageId": "javascript", "code": "throw new Error('total must be a number')"}),
		// A listing without a header line: name, size, date, tab-separated (issue 33's listing
		// whose first file was taken for the column names).
		c("run-code", m{"languageId": "shellscript", "code": "cd " + w.project + " && find . -maxdepth 1 -type f ! -name '.*' -printf '%P\\t%s\\t%TY-%Tm-%Td\\n' | sort"}),
	}
}
