package main

import "path/filepath"

// lookedAtSpecs are tuned servers recorded to be looked at (issue 33): servers
// of the kinds the held-out split showed trouble with (a task manager, a PDF
// reader, an HTTP fetcher, a database gateway), other packages than the held-out
// ones, studied in the tuned split so that the held-out split stays unseen
// (testdata/uicorpus/README.md).
func lookedAtSpecs() []spec {
	return []spec{
		{name: "tasks-shrimp", pkg: "mcp-shrimp-task-manager", bin: "dist/index.js", kind: "task manager (plans, tasks, dependencies)",
			setup: "an empty data folder the server fills",
			env: func(w *world) []string {
				return []string{"DATA_DIR=" + filepath.Join(w.root, "shrimp"), "TEMPLATES_USE=en", "ENABLE_GUI=false"}
			}, calls: shrimpCalls},
		{name: "pdf", pkg: "@modelcontextprotocol/server-pdf", bin: "dist/index.js", kind: "PDF reading (an MCP App server)",
			setup: "an invoice and a two-page report printed to PDF by Debian's chromium", needs: []string{"pdf"},
			args: func(w *world) []string { return []string{"--stdio", w.pdfs} }, root: func(w *world) string { return w.pdfs }, calls: pdfCalls,
			skip: map[string]string{"interact": "waits for an open viewer (an MCP App page) to poll its commands", "poll_pdf_commands": "the viewer's long poll, called by the viewer page",
				"submit_page_data": "the viewer page's answer to a request", "submit_save_data": "the viewer page's answer to a request", "submit_viewer_state": "the viewer page's answer to a request",
				"save_pdf": "called by the viewer with the annotated bytes"}},
		{name: "dbhub", pkg: "@bytebase/dbhub", bin: "dist/index.js", kind: "database gateway (SQLite demo database)",
			setup: "the package's demo SQLite database of employees", node22: true,
			args: func(w *world) []string { return []string{"--transport", "stdio", "--demo"} }, calls: dbhubCalls},
		{name: "fetch-http", pkg: "fetch-mcp", bin: "dist/index.js", kind: "HTTP fetcher (HTML, JSON, text, markdown)",
			setup: "a local web site on loopback", needs: []string{"site"}, calls: fetchHTTPCalls,
			skip: map[string]string{"fetch_youtube_transcript": "needs YouTube on the internet"}},
	}
}

// seenHeldOutSpecs were held out until they were looked at (2 December 2026:
// their duplication, invariant and coverage misses could not be diagnosed
// otherwise); by the corpus rule (testdata/uicorpus/README.md) they are tuned
// from then on, and new servers were recorded into heldout/ in their place.
func seenHeldOutSpecs() []spec {
	return []spec{
		{name: "obsidian-notes", pkg: "obsidian-mcp", bin: "dist/main.js", kind: "notes vault (markdown, Obsidian; read and write)",
			setup: "a vault of a dozen markdown notes with wikilinks, tags, task lists and front matter", needs: []string{"vault"},
			node22: true, args: func(w *world) []string { return []string{"serve", "--vault", "notes=" + w.vault} }, calls: obsidianNotesCalls},
		{name: "taskmanager", pkg: "@kazuph/mcp-taskmanager", bin: "dist/index.js", kind: "task manager (requests split into tasks)",
			env: func(w *world) []string {
				return []string{"TASK_MANAGER_FILE_PATH=" + filepath.Join(w.root, "tasks.json")}
			}, calls: taskManagerCalls},
		{name: "calc", pkg: "@coo-quack/calc-mcp", bin: "dist/index.js", kind: "math, dates, encoding and hashing", calls: calcCalls},
		{name: "pdf-reader", pkg: "@sylphx/pdf-reader-mcp", bin: "dist/index.js", kind: "PDF reading",
			setup: "an invoice and a two-page report printed to PDF by Debian's chromium", needs: []string{"pdf"}, calls: pdfReaderCalls},
		{name: "curl", pkg: "@mcp-get-community/server-curl", bin: "dist/index.js", kind: "HTTP requests (curl-like)",
			setup: "a local web site on loopback", needs: []string{"site"}, calls: curlCalls},
		{name: "system-monitor", pkg: "@modelcontextprotocol/server-system-monitor", bin: "dist/index.js", kind: "system statistics (an MCP App server)",
			setup: "run in its own PID namespace", ownProcesses: true, node22: true,
			args: func(w *world) []string { return []string{"--stdio"} }, calls: systemMonitorCalls},
		{name: "ohno-tasks", pkg: "@stevestomp/ohno-mcp", bin: "dist/index.js", kind: "task manager (projects, epics, stories, tasks; SQLite through sql.js)",
			setup: "an empty task database the server fills",
			args:  func(w *world) []string { return []string{"--db", filepath.Join(w.root, "ohno", "tasks.db")} }, calls: ohnoCalls},
		{name: "vault", pkg: "@bitbonsai/mcpvault", bin: "dist/server.js", kind: "notes vault (markdown, Obsidian; read, write, search, front matter)",
			setup: "a vault of a dozen markdown notes with wikilinks, tags, task lists and front matter", needs: []string{"notes"},
			args: func(w *world) []string { return []string{w.notes} }, calls: vaultCalls},
		{name: "pdf-maker", pkg: "@mcp-z/mcp-pdf", bin: "bin/server.js", kind: "PDF documents (write, lay out, render pages to PNG)",
			setup: "an empty folder for the PDFs it writes; an invoice and a two-page report printed to PDF by Debian's chromium", needs: []string{"pdf"}, node22: true,
			env: func(w *world) []string {
				return []string{"RESOURCE_STORE_URI=file://" + filepath.Join(w.root, "pdf-out"), "LOG_LEVEL=error"}
			}, calls: pdfMakerCalls},
		{name: "prometheus", pkg: "prometheus-mcp", bin: "dist/index.mjs", kind: "monitoring (Prometheus: targets, metrics, PromQL)",
			setup: "Prometheus from Debian on loopback scraping itself, the shop's API and a billing service that is down, with a recording rule and two alerts",
			needs: []string{"prometheus"}, args: func(w *world) []string { return []string{"stdio"} },
			env: func(w *world) []string { return []string{"PROMETHEUS_URL=" + w.prometheus} }, calls: prometheusCalls},
		{name: "weather", pkg: "open-meteo-mcp-server", bin: "dist/index.js", kind: "weather forecasts (a JSON API served locally)",
			setup: "a local stand-in for the Open-Meteo API on loopback answering in its format", needs: []string{"meteo"}, node22: true,
			env: func(w *world) []string { return w.meteoEnv() }, calls: weatherCalls},
		// Held out until 2 December 2026 (the third five looked at, for the held-out split's
		// duplicates, its invariant break and its pages under 95% coverage); tuned from then on.
		{name: "git-cli", pkg: "mcp-git", bin: "dist/cli.js", kind: "git",
			setup: "the corpus project: a git repository with four commits, a tag, a feature branch, a changed and an untracked file",
			calls: gitCLICalls, skip: map[string]string{"git_init": "would make a second repository inside the corpus project; the server refuses a folder that does not exist yet"}},
		{name: "knowledge-graph", pkg: "@itseasy21/mcp-knowledge-graph", bin: "dist/index.js", kind: "knowledge graph memory",
			args: func(w *world) []string { return []string{"--memory-path", filepath.Join(w.root, "memory.jsonl")} }, calls: knowledgeGraphCalls},
		{name: "vaulttools", pkg: "@vaulttools/mcp-linux-x64", bin: "bin/vaulttools-mcp", native: true, kind: "documents, PDFs, images and text files (local file processing)",
			setup: "a folder of office files: the invoice and the report printed to PDF by Debian's chromium, product images (PNG, JPEG, SVG), the orders as CSV, TSV and JSON, a YAML config, an HTML article, a README, an XML feed, a JWT, two versions of a changelog; outputs written beside them",
			needs: []string{"docs"}, args: func(w *world) []string {
				return []string{"--allowed-dir", w.docs, "--output-dir", filepath.Join(w.docs, "out")}
			},
			calls: vaulttoolsCalls},
		{name: "obsidian-rest", pkg: "obsidian-mcp-server", bin: "dist/index.js", kind: "markdown notes (an Obsidian vault through its Local REST API)",
			setup: "a copy of the corpus vault (projects, people, meetings, daily notes; front matter, tags, wikilinks, task lists) served by a local stand-in for Obsidian's Local REST API plugin",
			needs: []string{"notesapi"}, env: func(w *world) []string {
				return []string{"OBSIDIAN_API_KEY=" + notesAPIKey, "OBSIDIAN_BASE_URL=" + w.notesAPI, "OBSIDIAN_VERIFY_SSL=false", "OBSIDIAN_ENABLE_CACHE=true", "MCP_TRANSPORT_TYPE=stdio", "MCP_LOG_LEVEL=error"}
			}, calls: obsidianRESTCalls},
		{name: "otel", pkg: "autotel-mcp", bin: "bin/autotel-mcp", kind: "observability (OpenTelemetry traces, metrics and logs)",
			setup: "an hour of the shop's telemetry (checkout traces through the API, the orders database and payments, a payment provider timing out, a support assistant calling an LLM; metric series; logs) in the server's fixture format; its offline mode (it looks for its bundled collector snapshots one folder above its package, so its collector catalog answers that none is available)",
			needs: []string{"telemetry"}, env: func(w *world) []string {
				return []string{"AUTOTEL_BACKEND=fixture", "AUTOTEL_FIXTURE_PATH=" + w.telemetry, "AUTOTEL_OFFLINE_MODE=true", "AUTOTEL_COLLECTOR_PORT=0"}
			}, calls: otelCalls,
			skip: map[string]string{
				"collector_refresh_catalog": "refreshes its catalog from GitHub; nothing here reaches beyond loopback",
				"semconv_refresh_cache":     "clears its cache so that the next calls fetch from GitHub; nothing here reaches beyond loopback",
			}},
		// Held out until 2 December 2026 (four of the five recorded in place of the third five,
		// looked at the same day for their duplicates, invariant breaks, pages under the coverage
		// goal and a narrow primary column); tuned from then on.
		{name: "git-workflow", pkg: "github-mcp-server", bin: "dist/index.js", kind: "git (local repository operations and workflow combinations)",
			setup: "a copy of the corpus project (four commits, a tag, a feature branch, a changed and an untracked file) with an origin on disk, a bare repository where a teammate pushed a commit not pulled yet",
			needs: []string{"workrepo"}, dir: func(w *world) string { return w.workRepo }, calls: gitWorkflowCalls},
		{name: "memory-keeper", pkg: "mcp-memory-keeper", bin: "dist/index.js", kind: "memory (an assistant's saved context: sessions, items by category and priority, checkpoints)",
			setup: "an empty SQLite store the server fills; a teammate's clone of the corpus project with review notes not committed, as the session's project",
			needs: []string{"workrepo"}, env: func(w *world) []string { return []string{"DATA_DIR=" + filepath.Join(w.root, "memory-keeper")} }, calls: memoryKeeperCalls},
		{name: "files-fast", pkg: "fast-filesystem-mcp", bin: "dist/index.js", kind: "files (read, write, edit, search, copy, archive)",
			setup: "an office folder: the invoice and the report printed to PDF by Debian's chromium, product images, the orders as CSV, TSV and JSON, a YAML config, an HTML article, a README, an XML feed, two versions of a changelog; Debian's ripgrep and tar",
			needs: []string{"office2"}, args: func(w *world) []string { return []string{"--allow", w.office2} }, dir: func(w *world) string { return w.office2 }, calls: filesFastCalls},
		{name: "echarts", pkg: "mcp-echarts", bin: "build/index.js", kind: "charts (Apache ECharts: a PNG image, SVG or the chart's option)",
			setup: "the shop's orders, revenue, latencies and stock as chart data; charts rendered locally (no object storage configured)", calls: chartsCalls},
		// Held out until 2 December 2026 and looked at then: two whose pages the fourth round's
		// rules gave duplicates (alerts, http-client) and two of the four recorded in place of the
		// fourth set, for their first scores (invariant breaks, pages under 95% coverage); tuned from then on.
		{name: "alerts", pkg: "mcp-alertmanager", bin: "bin/index.js", kind: "monitoring alerts (Prometheus Alertmanager: alerts, groups, silences, receivers)",
			setup: "Alertmanager from Debian on loopback routing by team to a pager and chat webhooks (a local stand-in), with the shop's alerts (the export slow, billing down, the card provider timing out, a disk filling up, a certificate expiring, one resolved), an inhibition and a silence",
			needs: []string{"alertmanager"}, args: func(w *world) []string { return []string{"--url", w.alertmanager} }, calls: alertsCalls},
		{name: "http-client", pkg: "mcp-fetch", bin: "dist/stdio.js", kind: "HTTP client (requests, GraphQL, WebSocket, a headless browser)",
			setup: "a local web site, a GraphQL endpoint and a WebSocket feed on loopback; Debian's chromium (with --no-sandbox: it runs as root)", needs: []string{"site", "api", "chromium"},
			env: func(w *world) []string { return []string{"PUPPETEER_EXECUTABLE_PATH=" + w.chromium} }, calls: httpClientCalls},
		{name: "devkit-memory", pkg: "@ai-devkit/memory", bin: "dist/index.js", kind: "memory (an assistant's knowledge items: rules and patterns with tags and scopes, ranked search)",
			setup: "an empty knowledge store (SQLite, through better-sqlite3 compiled from source) the calls fill with the orders team's conventions; lexical search (no embedding model downloaded)",
			calls: devkitMemoryCalls},
		{name: "duckdb", pkg: "@seed-ship/duckdb-mcp-native", bin: "dist/server/mcp-server.js", kind: "analytics database (DuckDB: CSV and Parquet files, SQL, graph algorithms over tables)",
			setup: "the shop's customers, a quarter of orders and its services' calls by month as CSV files, loaded by the calls; a Parquet file written by the calls",
			needs: []string{"duckdata"}, dir: func(w *world) string { return w.duckData },
			env: func(w *world) []string { return []string{"DUCKDB_MEMORY=1GB", "DUCKDB_THREADS=2"} }, calls: duckdbCalls,
			skip: duckdbSkips()},
		// Held out until 2 December 2026 and looked at then, three of the four recorded in place of
		// the fifth set, for the pages their first scores left under a goal (coverage, principal
		// data as rows, the errors invariant); tuned from then on.
		{name: "astrotask", pkg: "@astrotask/mcp", bin: "dist/index.js", kind: "task list (a tree of tasks with priorities, dependencies, context notes and the next task to do)",
			setup: "an empty task database (PGlite, in the corpus folder); tasks for the orders service made by the calls",
			env: func(w *world) []string {
				return []string{"DATABASE_URI=" + filepath.Join(w.root, "astrotask", "tasks")}
			}, calls: astrotaskCalls},
		{name: "tryll-datasets", pkg: "tryll-dataset-builder-mcp", bin: "index.js", kind: "knowledge base for retrieval (projects of categorised text chunks with metadata, search, import, export, web pages parsed into chunks)",
			setup: "an empty dataset folder; a knowledge base of the orders service written, imported and parsed from the local web site by the calls", needs: []string{"site"},
			env: func(w *world) []string { return []string{"DATA_DIR=" + filepath.Join(w.root, "datasets")} },
			skip: map[string]string{"connect_session": "joins a session of the Dataset Builder web app, a service on the internet",
				"get_commit": "the local store keeps no history (only a rollback writes to it, and a rollback needs a commit; the web app keeps it), so there is no commit to open: get_history's empty answer is recorded",
				"rollback":   "the same: there is no commit to roll back to in the local store"}, calls: tryllCalls},
		{name: "openapi-twilio", pkg: "@twilio-alpha/openapi-mcp-server", bin: "build/simple.js", kind: "OpenAPI client (a folder of API descriptions, each operation a tool that makes the HTTP request)",
			setup: "the shop's REST API on loopback; its OpenAPI description in a folder of its own, each path naming the API as its server (where this client reads the base address)",
			needs: []string{"apispecs"}, args: func(w *world) []string { return []string{"--apiPath", w.apiSpecs} },
			skip:  map[string]string{"Acme-orders--deleteOrder": "the API answers a deletion with 204 and no body, which this client fails to read as JSON: the order is deleted and the call always reports an internal error"},
			calls: openapiTwilioCalls},
	}
}

func shrimpCalls(w *world) []call {
	task := func(s *session, name string) string {
		return s.find("list_tasks", `(?s)`+name+`.{0,400}?([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})`, "00000000-0000-4000-8000-000000000000")
	}
	tasks := `[{"name":"CSV writer","description":"Write orders as CSV with a header row, one line per order and units in the header","implementationGuide":"Stream rows from the orders query into a csv writer; quote fields with commas","notes":"Finance opens it in a spreadsheet","dependencies":[],"relatedFiles":[{"path":"src/export.js","type":"CREATE","description":"the writer"},{"path":"src/orders.js","type":"REFERENCE","description":"the orders query","lineStart":1,"lineEnd":40}],"verificationCriteria":"A file of 25 orders opens in a spreadsheet with 26 rows"},` +
		`{"name":"Paging for the export","description":"Read limit and offset from the query string; answer 25 rows by default and at most 500","implementationGuide":"Parse limit and offset, clamp them, pass them to the query","dependencies":["CSV writer"],"relatedFiles":[{"path":"src/server.js","type":"TO_MODIFY","description":"the /orders/export route"}],"verificationCriteria":"limit=10&offset=20 answers orders 21 to 30"},` +
		`{"name":"Tax column","description":"Add VAT at the 2026 rate (0.21) to every line and a total row","implementationGuide":"Compute tax per line with integer cents; add the column after total","dependencies":["CSV writer"],"relatedFiles":[{"path":"src/export.js","type":"TO_MODIFY","description":"the writer"}],"verificationCriteria":"Every line's tax is total times 0.21, rounded to cents"}]`
	return []call{
		c("init_project_rules", nil),
		c("plan_task", m{"description": "Ship a CSV export of orders for the finance team, with paging and a tax column", "requirements": "Node 20, no new dependencies, tests with the built-in runner"}),
		c("analyze_task", m{"summary": "CSV export of orders with paging and VAT", "initialConcept": "Add a /orders/export route that streams the orders query through a small CSV writer; paging by limit and offset; VAT computed in integer cents."}),
		c("reflect_task", m{"summary": "CSV export of orders with paging and VAT", "analysis": "The orders query already sorts by id, so limit and offset page it stably. A streaming writer keeps memory flat for large exports. VAT in integer cents avoids rounding drift; the total row sums the cents."}),
		c("split_tasks", m{"updateMode": "clearAllTasks", "tasksRaw": tasks, "globalAnalysisResult": "A CSV export finance can open in a spreadsheet"}),
		c("list_tasks", m{"status": "all"}),
		dyn("execute_task", func(s *session) map[string]any { return m{"taskId": task(s, "CSV writer")} }),
		dyn("verify_task", func(s *session) map[string]any {
			return m{"taskId": task(s, "CSV writer"), "summary": "The writer streams 25 orders into a CSV file that opens in a spreadsheet with 26 rows", "score": 90}
		}),
		dyn("update_task", func(s *session) map[string]any {
			return m{"taskId": task(s, "Tax column"), "notes": "Rate from config, not hard-coded", "description": "Add VAT at the configured rate (0.21 in 2026) to every line and a total row"}
		}),
		c("query_task", m{"query": "export"}),
		dyn("get_task_detail", func(s *session) map[string]any { return m{"taskId": task(s, "Paging for the export")} }),
		c("list_tasks", m{"status": "pending"}),
		c("process_thought", m{"thought": "Paging must not reorder rows between pages; the id order guarantees it.", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true, "stage": "Analysis", "tags": []any{"paging"}}),
		c("research_mode", m{"topic": "Streaming CSV in Node without dependencies", "currentState": "Compare a Transform stream with a plain async generator", "nextSteps": "Measure memory for 100,000 rows"}),
		dyn("delete_task", func(s *session) map[string]any { return m{"taskId": task(s, "Tax column")} }),
		bad("get_task_detail", m{"taskId": "6f1c2d3e-0000-4000-8000-000000000000"}),
		c("clear_all_tasks", m{"confirm": true}),
	}
}

func pdfCalls(w *world) []call {
	return []call{
		c("list_pdfs", nil),
		c("display_pdf", m{"url": filepath.Join(w.pdfs, "invoice.pdf")}),
		c("display_pdf", m{"url": filepath.Join(w.pdfs, "report.pdf"), "page": 2}),
		c("read_pdf_bytes", m{"url": filepath.Join(w.pdfs, "invoice.pdf"), "byteCount": 1024}),
		bad("display_pdf", m{"url": filepath.Join(w.pdfs, "missing.pdf")}),
	}
}

func dbhubCalls(w *world) []call {
	return []call{
		c("search_objects", m{"object_type": "table", "detail_level": "summary"}),
		c("search_objects", m{"object_type": "column", "schema": "main", "table": "employee", "detail_level": "full"}),
		c("search_objects", m{"object_type": "index", "pattern": "%", "detail_level": "summary"}),
		c("execute_sql", m{"sql": "SELECT emp_no, first_name, last_name, gender, hire_date FROM employee ORDER BY emp_no LIMIT 40"}),
		c("execute_sql", m{"sql": "SELECT d.dept_name, count(*) AS employees FROM dept_emp de JOIN department d ON d.dept_no = de.dept_no GROUP BY d.dept_name ORDER BY employees DESC"}),
		c("execute_sql", m{"sql": "SELECT count(*) AS employees FROM employee; SELECT title, count(*) AS people FROM title GROUP BY title ORDER BY people DESC"}),
		bad("execute_sql", m{"sql": "SELECT total FROM invoices"}),
		// Each department's first three hires as one JSON array of sentences per row:
		// long text listed in a table cell (issue 33's clipped cell lines).
		c("execute_sql", m{"sql": "SELECT dept_name, json_group_array(hire) AS first_hires FROM (SELECT d.dept_name, e.first_name || ' ' || e.last_name || ' (employee no. ' || e.emp_no || ') started in the department on ' || de.from_date AS hire, row_number() OVER (PARTITION BY d.dept_no ORDER BY de.from_date, e.emp_no) AS n FROM dept_emp de JOIN department d ON d.dept_no = de.dept_no JOIN employee e ON e.emp_no = de.emp_no ORDER BY d.dept_name, n) WHERE n <= 3 GROUP BY dept_name ORDER BY dept_name"}),
	}
}

func fetchHTTPCalls(w *world) []call {
	return []call{
		c("fetch_url", m{"url": w.site + "/"}),
		c("fetch_url", m{"url": w.site + "/about.html", "max_length": 5000}),
		c("fetch_url", m{"url": w.site + "/orders.html", "raw": true}),
		c("fetch_url", m{"url": w.site + "/api/orders.json"}),
		bad("fetch_url", m{"url": w.site + "/missing.html"}),
	}
}
