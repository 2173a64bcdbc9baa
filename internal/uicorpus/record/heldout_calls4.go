package main

import "path/filepath"

// Calls of the held-out servers recorded 2 December 2026 in place of the
// fourth four looked at (heldout.go).

func codeGraphCalls(w *world) []call {
	return []call{
		c("codegraph_status", nil),
		c("codegraph_files", nil),
		c("codegraph_files", m{"format": "grouped"}),
		c("codegraph_search", m{"query": "order"}),
		c("codegraph_search", m{"query": "handler", "kind": "function"}),
		c("codegraph_explore", m{"query": "How is an order total computed and written to the CSV export? parse_orders compute_order_total to_csv"}),
		c("codegraph_node", m{"symbol": "compute_order_total", "includeCode": true}),
		c("codegraph_node", m{"file": "src/server.go"}),
		c("codegraph_node", m{"file": "src/orders.js", "symbolsOnly": true}),
		c("codegraph_callers", m{"symbol": "parse_orders"}),
		c("codegraph_callees", m{"symbol": "ordersHandler"}),
		c("codegraph_impact", m{"symbol": "parse_orders", "depth": 3}),
		c("codegraph_node", m{"symbol": "applyDiscount"}),
		bad("codegraph_search", m{"query": "nginx", "projectPath": "/etc"}),
	}
}

func devkitMemoryCalls(w *world) []call {
	const uuidRE = `([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`
	return []call{
		c("memory_storeKnowledge", m{"title": "Compute money in integer cents, never floats",
			"content": "Order totals and tax are computed in integer cents and formatted only at the edge.\n\n```js\nconst cents = quantity * unitPriceCents;\nconst tax = Math.round(cents * TAX_RATE);\n```\n\nFloats drift: 3 x 19.90 x 1.21 printed 72.237 in the first export.",
			"tags":    []any{"money", "orders", "export"}, "scope": "project:orders-service"}),
		c("memory_storeKnowledge", m{"title": "Page /orders by limit and offset over the id order",
			"content": "GET /orders reads `limit` (default 25, at most 100) and `offset` from the query string. The orders query sorts by id, so pages never reorder between requests. The CSV export uses the same paging with a cap of 500 rows.",
			"tags":    []any{"api", "paging", "orders"}, "scope": "project:orders-service"}),
		c("memory_storeKnowledge", m{"title": "Tax rate comes from config.yaml, not from code",
			"content": "The VAT rate (0.21 in 2026) is read from `tax_rate` in config.yaml at start-up. Hard-coded rates in src/orders.js are a bug: the 2025 rate (0.2) stayed in the code for a week after the change.",
			"tags":    []any{"config", "tax"}, "scope": "project:orders-service"}),
		c("memory_storeKnowledge", m{"title": "Commit messages: area, colon, what changed and why",
			"content": "Write commit subjects as `area: what changed` (for example `export: write orders as CSV`) and explain why in the body. Keep the subject under 72 characters; reference the issue number in the body, not the subject.",
			"tags":    []any{"git", "conventions"}, "scope": "global"}),
		c("memory_storeKnowledge", m{"title": "Run the arm64 build on Grace's runners before a release",
			"content": "Releases are tagged only after the x86_64 and arm64 builds pass. The arm64 runners are Grace Hopper's; ask in #builds a day ahead, they are shared with the billing team on Thursdays.",
			"tags":    []any{"release", "ci", "arm64"}, "scope": "repo:orders-service"}),
		c("memory_searchKnowledge", m{"query": "add a tax column to the CSV export of orders", "contextTags": []any{"export", "tax"}, "scope": "project:orders-service", "limit": 5, "explain": true}),
		c("memory_searchKnowledge", m{"query": "how should I write the commit message for the paging change"}),
		dyn("memory_updateKnowledge", func(s *session) map[string]any {
			return m{"id": s.find("memory_storeKnowledge#3", uuidRE, "00000000-0000-4000-8000-000000000003"),
				"content": "The VAT rate (0.21 in 2026) is read from `tax_rate` in config.yaml at start-up and passed to the export. Never hard-code a rate in src/orders.js or src/export.js: the 2025 rate (0.2) stayed in the code for a week after the change.",
				"tags":    []any{"config", "tax", "export"}}
		}),
		c("memory_searchKnowledge", m{"query": "tax rate", "limit": 3}),
		bad("memory_updateKnowledge", m{"id": "6f1c2d3e-0000-4000-8000-000000000000", "title": "Billing retries after a payment timeout"}),
	}
}

func filesCLICalls(w *world) []call {
	p := w.filesProject
	in := func(a m) m {
		out := m{"workingDirectory": p}
		for k, v := range a {
			out[k] = v
		}
		return out
	}
	return []call{
		c("getSystemInfo", nil),
		c("validatePath", m{"workingDirectory": p, "targetPath": "data/orders.csv"}),
		c("listDirectory", in(m{"path": "."})),
		c("listDirectory", in(m{"path": "src"})),
		c("readFile", in(m{"path": "README.md"})),
		c("readFile", in(m{"path": "data/orders.csv"})),
		c("readFile", in(m{"path": "config.yaml"})),
		c("executeCommand", in(m{"command": "git", "args": []any{"log", "--oneline", "--decorate", "--all"}})),
		c("executeCommand", in(m{"command": "wc", "args": []any{"-l", "data/orders.csv", "logs/app.log", "src/orders.js", "src/server.go"}})),
		c("executeCommand", in(m{"command": "node", "args": []any{"src/orders.js", "data/orders.csv"}, "env": m{"TZ": "Europe/London"}})),
		c("createDirectory", in(m{"path": "reports/2026-01"})),
		c("writeFile", in(m{"path": "reports/2026-01/summary.md", "content": "# Orders, January 2026\n\n| status | orders |\n| --- | --- |\n| shipped | 5 |\n| pending | 2 |\n| cancelled | 1 |\n\nRevenue before tax: 611.20.\n"})),
		c("copyFile", in(m{"source": "data/orders.csv", "destination": "reports/2026-01/orders.csv"})),
		c("moveFile", in(m{"source": "notes.txt", "destination": "docs/meeting-notes.txt"})),
		c("listDirectory", in(m{"path": "reports/2026-01"})),
		c("deleteFile", in(m{"path": "reports/2026-01/orders.csv"})),
		c("createDirectory", in(m{"path": "tmp/export-cache"})),
		c("removeDirectory", in(m{"path": "tmp"})),
		bad("readFile", in(m{"path": "/etc/shadow"})),
	}
}

func duckdbCalls(w *world) []call {
	d := w.duckData
	at := func(name string) string { return filepath.Join(d, name) }
	graph := func(a m) m {
		out := m{"node_table": "services", "edge_table": "service_calls"}
		for k, v := range a {
			out[k] = v
		}
		return out
	}
	return []call{
		c("load_csv", m{"path": at("customers.csv"), "table_name": "customers"}),
		c("load_csv", m{"path": at("orders.csv"), "table_name": "orders"}),
		c("load_csv", m{"path": at("services.csv"), "table_name": "services"}),
		c("load_csv", m{"path": at("service_calls.csv"), "table_name": "service_calls"}),
		c("list_tables", nil),
		c("describe_table", m{"table_name": "orders"}),
		c("query_duckdb", m{"sql": "SELECT strftime(ordered_at, '%Y-%m') AS month, status, count(*) AS orders, sum(quantity * unit_price) AS revenue FROM orders GROUP BY ALL ORDER BY month, status"}),
		c("query_duckdb", m{"sql": "SELECT c.name, c.country, c.segment, count(*) AS orders, round(sum(o.quantity * o.unit_price), 2) AS spent FROM orders o JOIN customers c USING (customer_id) WHERE o.status = 'shipped' GROUP BY ALL ORDER BY spent DESC", "limit": 10}),
		c("query_hybrid", m{"sql": "SELECT product, sum(quantity) AS units, round(avg(unit_price), 2) AS avg_price FROM orders GROUP BY product ORDER BY units DESC"}),
		c("json_to_parquet", m{"json_data": []any{
			m{"sku": "ANV-001", "name": "Anvil", "unit_price": 249.00, "in_stock": 12, "warehouse": "Leeds"},
			m{"sku": "RSK-002", "name": "Rocket skates", "unit_price": 89.90, "in_stock": 40, "warehouse": "Leeds"},
			m{"sku": "MAG-003", "name": "Giant magnet", "unit_price": 19.90, "in_stock": 150, "warehouse": "Rotterdam"},
			m{"sku": "SEED-004", "name": "Bird seed", "unit_price": 4.50, "in_stock": 900, "warehouse": "Rotterdam"},
			m{"sku": "PILL-005", "name": "Earthquake pills", "unit_price": 12.00, "in_stock": 0, "warehouse": "Leeds"},
		}, "output_path": at("products.parquet"), "table_name": "products_stock"}),
		c("load_parquet", m{"path": at("products.parquet"), "table_name": "products"}),
		c("profile_parquet", m{"url": at("products.parquet")}),
		c("sample_parquet", m{"url": at("products.parquet"), "method": "first", "n": 3}),
		c("graph.pagerank", graph(m{"weight_column": "requests_per_min"})),
		c("graph.eigenvector", graph(m{"weight_column": "requests_per_min", "top_n": 5})),
		c("graph.community_detect", graph(m{"weight_column": "requests_per_min"})),
		c("graph.modularity", graph(m{"weight_column": "requests_per_min"})),
		c("graph.weighted_path", graph(m{"weight_column": "p95_ms", "source_node": "api", "target_node": "card-provider", "mode": "cheapest"})),
		c("graph.temporal_filter", graph(m{"weight_column": "requests_per_min", "period_column": "month", "period_value": "2026-02"})),
		c("graph.compare_periods", graph(m{"weight_column": "requests_per_min", "period_column": "month", "period_a": "2026-01", "period_b": "2026-02"})),
		c("graph.export", graph(m{"weight_column": "requests_per_min", "format": "d3"})),
		c("list_attached_servers", nil),
		c("list_virtual_tables", nil),
		bad("query_duckdb", m{"sql": "SELECT invoice_id, total FROM invoices WHERE paid = false"}),
	}
}

func duckdbSkips() map[string]string {
	skip := map[string]string{}
	for _, t := range []string{"attach", "detach", "status", "list_databases", "create_database", "query", "share_table", "import_table"} {
		skip["motherduck."+t] = "MotherDuck is a cloud service; nothing here reaches beyond loopback"
	}
	for _, t := range []string{"attach", "snapshots", "time_travel"} {
		skip["ducklake."+t] = "DuckLake is a DuckDB extension downloaded from the internet on first use; nothing here reaches beyond loopback"
	}
	for _, t := range []string{"attach_mcp", "detach_mcp", "list_mcp_resources", "create_virtual_table", "drop_virtual_table", "refresh_virtual_table", "federate_query"} {
		skip[t] = "federation: attaches other MCP servers as data sources; the corpus records one server at a time"
	}
	for _, t := range []string{"describe", "similar", "compose"} {
		skip["process."+t] = "reads process-mining Parquet files of the package's own schema (documents, steps and edges with embeddings), which nothing here produces"
	}
	return skip
}
