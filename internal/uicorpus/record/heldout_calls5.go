package main

import "strconv"

// Calls of the held-out servers recorded 2 December 2026 in place of the
// fifth four looked at (heldout.go).

// astrotaskCalls plan the orders service's CSV export as a task tree with
// dependencies, work through it and prune it.
func astrotaskCalls(w *world) []call {
	const idRE = `"id": "([A-Z]{4}(?:-[A-Z]{4})*)"`
	// task reads the id of the n-th task in addTasks' first answer.
	task := func(s *session, n int, fallback string) string {
		re := `(?s)"tasks": \[`
		for i := 0; i < n; i++ {
			re += `.*?"id": "[A-Z-]+"`
		}
		re += `.*?"id": "([A-Z-]+)"`
		return s.find("addTasks#1", re, fallback)
	}
	return []call{
		c("addTasks", m{"tasks": []any{
			m{"title": "Export orders as CSV", "description": "GET /orders/export writes the filtered orders as a CSV file the warehouse team opens in a spreadsheet.", "priorityScore": 85},
			m{"title": "Add a tax column to the export", "description": "Tax in integer cents from tax_rate in config.yaml (0.21 in 2026), after the total.", "parentIndex": 0, "priorityScore": 80,
				"details": "Read the rate once at start-up; never hard-code it in src/orders.js."},
			m{"title": "Page the export by limit and offset", "description": "Same paging as GET /orders, capped at 500 rows.", "parentIndex": 0, "priorityScore": 60},
			m{"title": "Write tests for compute_order_total", "description": "Quantities 0, 1 and 9; unit prices 4.50 and 249.00; a cancelled order.", "parentIndex": 0, "priorityScore": 70, "dependsOn": []any{1}},
			m{"title": "Document the export in the README", "parentIndex": 0, "priorityScore": 30, "dependsOn": []any{1, 2}},
			m{"title": "Release 1.2.0 with the export", "description": "Tag after the x86_64 and arm64 builds pass on Grace's runners.", "priorityScore": 90, "dependsOn": []any{3, 4}},
		}}),
		c("addTasks", m{"tasks": []any{
			m{"title": "Rotate the payment gateway's API key", "description": "The key expires on 2026-12-15; the billing team holds the new one.", "priorityScore": 95, "status": "in-progress"},
			m{"title": "Remove the legacy /v1/orders endpoint", "description": "Deprecated, going away on 2026-03-01; two customers still call it.", "priorityScore": 15},
		}}),
		c("listTasks", nil),
		c("listTasks", m{"statuses": []any{"pending", "in-progress", "done"}, "includeProjectRoot": true}),
		dyn("listTasks", func(s *session) map[string]any { return m{"parentId": task(s, 0, "AAAA")} }),
		dyn("getTask", func(s *session) map[string]any { return m{"taskId": task(s, 0, "AAAA")} }),
		dyn("addTaskContext", func(s *session) map[string]any {
			return m{"taskId": task(s, 1, "AAAA-BBBB"), "title": "Rounding of tax in cents", "contextType": "implementation",
				"description": "Math.round(cents * rate) per line, then summed: 3 x 19.90 at 21% gives 1254 cents of tax, not 1253.7. The accountant confirmed per-line rounding on 2026-11-28."}
		}),
		dyn("addTaskContext", func(s *session) map[string]any {
			return m{"taskId": task(s, 3, "AAAA-DDDD"), "title": "Edge cases from the January import", "contextType": "testing",
				"description": "Order 1004 (Alan Turing, 3 x Bird seed) was cancelled after export; order 1019 has quantity 9. Both must keep their totals."}
		}),
		dyn("addDependency", func(s *session) map[string]any {
			return m{"dependentTaskId": task(s, 5, "EEEE"), "dependencyTaskId": s.find("addTasks#2", idRE, "FFFF")}
		}),
		dyn("updateStatus", func(s *session) map[string]any { return m{"taskId": task(s, 1, "AAAA-BBBB"), "status": "in-progress"} }),
		dyn("updateStatus", func(s *session) map[string]any { return m{"taskId": task(s, 2, "AAAA-CCCC"), "status": "done"} }),
		c("getNextTask", nil),
		c("getNextTask", m{"status": "pending", "priorityScore": 60}),
		dyn("getNextTask", func(s *session) map[string]any { return m{"parentTaskId": task(s, 0, "AAAA")} }),
		dyn("getTask", func(s *session) map[string]any { return m{"taskId": task(s, 1, "AAAA-BBBB")} }),
		dyn("deleteTask", func(s *session) map[string]any {
			return m{"taskId": s.find("addTasks#2", `(?s)"id": "[A-Z-]+".*?"id": "([A-Z-]+)"`, "GGGG")}
		}),
		c("listTasks", m{"statuses": []any{"pending", "in-progress", "blocked", "done"}}),
		c("getTask", m{"taskId": "ZZZZ-QQQQ"}),
		bad("updateStatus", m{"taskId": "ZZZZ-QQQQ", "status": "done"}),
	}
}

// tryllCalls build a knowledge base of the orders service for retrieval:
// categories of chunks written, imported and parsed from the local site,
// searched, edited, exported, merged and rolled back.
func tryllCalls(w *world) []call {
	const kb = "acme-orders-kb"
	src := func(title, source string) m {
		return m{"page_title": title, "source": source, "license": "CC BY 4.0", "team": "warehouse"}
	}
	return []call{
		c("create_project", m{"name": kb}),
		c("create_category", m{"project": kb, "name": "API"}),
		c("create_category", m{"project": kb, "name": "Operations"}),
		c("create_category", m{"project": kb, "name": "Glossary"}),
		c("add_chunk", m{"project": kb, "category": "API", "id": "orders_paging",
			"text":     "GET /orders reads limit (default 25, at most 100) and offset from the query string. The orders query sorts by id, so pages never reorder between requests.",
			"metadata": src("Acme Orders API", "docs/api.md")}),
		c("bulk_add_chunks", m{"project": kb, "category": "API", "chunks": []any{
			m{"id": "orders_export", "text": "GET /orders/export writes the filtered orders as a CSV file: id, customer, product, quantity, unit price, total, status, ordered at.", "metadata": src("Acme Orders API", "docs/api.md")},
			m{"id": "healthz", "text": "GET /healthz answers 200 with the time of the last import and the number of orders in memory.", "metadata": src("Acme Orders API", "docs/api.md")},
			m{"id": "orders_paging", "text": "A duplicate of the paging chunk, skipped."},
		}}),
		c("bulk_add_chunks", m{"project": kb, "category": "Operations", "chunks": []any{
			m{"id": "nightly_import", "text": "Every night the warehouse system drops orders-YYYYMMDD.csv into the import folder; parse_orders reads it and compute_order_total sums each line in integer cents.", "metadata": src("Runbook", "docs/runbook.md")},
			m{"id": "release_checklist", "text": "Tag a release only after the x86_64 and arm64 builds pass. The arm64 runners are shared with the billing team on Thursdays.", "metadata": src("Runbook", "docs/runbook.md")},
			m{"id": "tax_rate", "text": "The VAT rate (0.21 in 2026) is read from tax_rate in config.yaml at start-up.", "metadata": src("Configuration", "config.yaml")},
		}}),
		c("import_json", m{"project": kb, "category": "Glossary", "data": []any{
			m{"id": "order_status", "text": "An order is pending until it leaves the warehouse, then shipped; a cancelled order keeps its total for the books.", "metadata": m{"page_title": "Glossary", "source": "wiki"}},
			m{"id": "unit_price", "text": "The price of one unit of a product at the time of the order, in euros with two decimals.", "metadata": m{"page_title": "Glossary", "source": "wiki"}},
		}}),
		c("parse_url", m{"project": kb, "category": "Operations", "url": w.site + "/about.html", "chunk_id": "about_service", "license": "CC BY 4.0"}),
		c("batch_parse_urls", m{"project": kb, "category": "Operations", "license": "CC BY 4.0", "urls": []any{
			m{"url": w.site + "/orders.html", "chunk_id": "orders_table"},
			m{"url": w.site + "/notes.txt", "chunk_id": "team_notes"},
		}}),
		c("list_projects", nil),
		c("list_categories", m{"project": kb}),
		c("get_project_stats", m{"name": kb}),
		c("get_chunk", m{"project": kb, "id": "orders_paging"}),
		c("search_chunks", m{"project": kb, "query": "CSV"}),
		c("update_chunk", m{"project": kb, "id": "tax_rate", "text": "The VAT rate (0.21 in 2026) is read from tax_rate in config.yaml at start-up and passed to the export; never hard-code it.",
			"source": "config.yaml and src/export.js", "metadata": m{"reviewed": "2026-12-01"}}),
		c("duplicate_chunk", m{"project": kb, "id": "release_checklist"}),
		c("update_chunk", m{"project": kb, "id": "release_checklist_copy", "new_id": "hotfix_checklist",
			"text": "A hotfix may be tagged after the x86_64 build alone passes; the arm64 build follows within a day."}),
		c("move_chunk", m{"project": kb, "id": "tax_rate", "target_category": "Glossary"}),
		c("rename_category", m{"project": kb, "old_name": "Glossary", "new_name": "Terms"}),
		c("bulk_update_metadata", m{"project": kb, "field": "license", "value": "CC BY-SA 4.0", "category": "Operations"}),
		c("delete_chunk", m{"project": kb, "id": "team_notes"}),
		c("export_category", m{"project": kb, "category": "API"}),
		c("export_project", m{"project": kb}),
		c("export_project", m{"project": kb, "save_to_file": true}),
		c("create_project", m{"name": "billing-kb"}),
		c("create_category", m{"project": "billing-kb", "name": "Payments"}),
		c("add_chunk", m{"project": "billing-kb", "category": "Payments", "id": "gateway_key",
			"text":     "The payment gateway's API key expires on 2026-12-15; the billing team rotates it and stores it in the vault, never in config.yaml.",
			"metadata": m{"page_title": "Billing runbook", "source": "wiki", "license": "CC BY 4.0"}}),
		c("merge_projects", m{"source": "billing-kb", "target": kb}),
		c("delete_project", m{"name": "billing-kb"}),
		c("create_category", m{"project": kb, "name": "Drafts"}),
		c("delete_category", m{"project": kb, "name": "Drafts"}),
		c("get_history", m{"project": kb}),
		c("disconnect_session", nil),
		bad("get_chunk", m{"project": kb, "id": "refund_policy"}),
	}
}

// openapiTwilioCalls work the shop's orders through its API: list (the
// client sends no query parameters, so a filter is not applied), place and
// read, the customers and the daily totals.
func openapiTwilioCalls(w *world) []call {
	const p = "Acme-orders--"
	return []call{
		c(p+"listOrders", nil),
		c(p+"listOrders", m{"status": "pending", "limit": 10}),
		c(p+"listCustomers", nil),
		c(p+"dailyStats", nil),
		c(p+"getOrder", m{"id": 1003}),
		c(p+"createOrder", m{"customer": "Katherine Johnson", "product": "Giant magnet", "quantity": 2}),
		dyn(p+"getOrder", func(s *session) map[string]any {
			id, _ := strconv.Atoi(s.find(p+"createOrder", `"id":\s*(\d+)`, "1025"))
			return m{"id": id}
		}),
		bad(p+"getOrder", m{"id": 4711}),
	}
}

// sqliteViewsCalls query the shop's SQLite database (results come back as
// CSV text), change it, make views and save a copy.
func sqliteViewsCalls(w *world) []call {
	return []call{
		c("list_tables", nil),
		c("execute_query", m{"query": "SELECT id, name, email, country, created_at FROM customers ORDER BY created_at", "read_only": true}),
		c("execute_query", m{"query": "SELECT c.name AS customer, c.country, count(*) AS orders, round(sum(o.quantity * p.unit_price), 2) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id WHERE o.status <> 'cancelled' GROUP BY c.id ORDER BY revenue DESC", "read_only": true}),
		c("execute_query", m{"query": "SELECT id, customer, product, quantity, total, status, ordered_at FROM order_totals WHERE status = 'pending' ORDER BY ordered_at"}),
		c("execute_query", m{"query": "SELECT r.id, r.order_id, t.customer, t.product, r.reason, r.returned_at FROM returns r JOIN order_totals t ON t.id = r.order_id"}),
		c("execute_query", m{"query": "SELECT sku, name, unit_price, in_stock, CASE WHEN in_stock = 0 THEN 'reorder' WHEN in_stock < 20 THEN 'low' ELSE 'ok' END AS stock FROM products ORDER BY in_stock"}),
		c("execute_query", m{"query": "UPDATE products SET in_stock = 60 WHERE sku = 'PILL-005'", "read_only": false}),
		c("execute_query", m{"query": "INSERT INTO returns (order_id, reason, returned_at) VALUES (23, 'changed my mind', '2026-01-14 09:20:00')"}),
		c("execute_query", m{"query": "SELECT strftime('%Y-%m-%d', ordered_at) AS day, count(*) AS orders, sum(quantity) AS units FROM orders GROUP BY day ORDER BY day LIMIT 10", "read_only": true}),
		c("create_view", m{"name": "revenue_by_product", "description": "Revenue and units per product, cancelled orders left out",
			"query": "SELECT p.sku, p.name, sum(o.quantity) AS units, round(sum(o.quantity * p.unit_price), 2) AS revenue FROM orders o JOIN products p ON p.id = o.product_id WHERE o.status <> 'cancelled' GROUP BY p.id ORDER BY revenue DESC"}),
		c("execute_query", m{"query": "SELECT * FROM revenue_by_product", "read_only": true}),
		c("execute_query_with_url", m{"query": "SELECT id, customer, total, status FROM order_totals WHERE total > 200 ORDER BY total DESC", "description": "Orders over 200 EUR for the finance review"}),
		c("save_database", m{"filepath": w.root + "/shop-backup.sqlite"}),
		bad("execute_query", m{"query": "SELECT id, amount FROM payments WHERE status = 'failed'", "read_only": true}),
	}
}
