package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Calls of the held-out servers recorded 2 December 2026 in place of the
// third five looked at (heldout.go).

func gitWorkflowCalls(w *world) []call {
	r := w.workRepo
	dir := filepath.Dir(r)
	in := func(a m) m {
		out := m{"directory": r}
		for k, v := range a {
			out[k] = v
		}
		return out
	}
	return []call{
		c("git-status", in(nil)),
		c("git-log", in(m{"maxCount": 10})),
		c("git-branch", in(nil)),
		c("git-remote-list", in(nil)),
		c("git-diff", in(nil)),
		c("git-diff", in(m{"target": "feature/csv-export"})),
		c("git-tag", in(m{"action": "list"})),
		c("git-tag", in(m{"action": "show", "tagName": "v0.1.0"})),
		c("git-blame", in(m{"filePath": "src/orders.js", "lineRange": "1,16"})),
		c("git-pull", in(nil)),
		c("git-add", in(m{"files": []any{"TODO.md"}})),
		c("git-remove", in(m{"file": "TODO.md"})),
		c("git-add-all", in(nil)),
		c("git-remove-all", in(nil)),
		c("git-stash", in(m{"message": "WIP: 2026 tax rate"})),
		c("git-stash-pop", in(nil)),
		c("git-checkout", in(m{"branchName": "fix/tax-rate", "createNew": true})),
		c("git-add", in(m{"files": []any{"src/orders.js"}})),
		c("git-commit", in(m{"message": "orders: tax rate 0.21 for 2026"})),
		c("git-push", in(nil)),
		c("git-flow", in(m{"message": "todo: paging for the export; the sales workbook"})),
		c("git-branch", in(m{"branchName": "docs/export-guide"})),
		c("git-checkout", in(m{"branchName": "main"})),
		c("git-merge", in(m{"branch": "fix/tax-rate"})),
		c("git-cherry-pick", in(m{"commitHash": "feature/csv-export"})),
		c("git-reset", in(m{"mode": "soft", "target": "HEAD~1"})),
		c("git-quick-commit", in(m{"message": "export: write orders as CSV (from feature/csv-export)"})),
		c("git-tag", in(m{"action": "create", "tagName": "v0.2.0", "message": "CSV export and the 2026 tax rate"})),
		c("git-sync", in(nil)),
		c("git-checkout", in(m{"branchName": "feature/csv-export"})),
		c("git-rebase", in(m{"target": "main"})),
		c("git-checkout", in(m{"branchName": "main"})),
		c("git-bisect", in(m{"action": "start"})),
		c("git-bisect", in(m{"action": "bad"})),
		c("git-bisect", in(m{"action": "good", "commit": "v0.1.0"})),
		c("git-bisect", in(m{"action": "status"})),
		c("git-bisect", in(m{"action": "reset"})),
		c("git-remote-add", in(m{"name": "backup", "url": "https://git.example.com/acme/orders-service.git"})),
		c("git-remote-set-url", in(m{"name": "backup", "url": "git@git.example.com:acme/orders-service.git"})),
		c("git-remote-list", in(nil)),
		c("git-remote-remove", in(m{"name": "backup"})),
		c("git-clone", m{"url": filepath.Join(dir, "origin.git"), "targetDir": "orders-review", "directory": dir}),
		c("git-init", m{"directory": filepath.Join(dir, "scratch")}),
		c("git-log", in(m{"maxCount": 6})),
		// A commit without a message.
		bad("git-commit", in(m{"message": ""})),
	}
}

func memoryKeeperCalls(w *world) []call {
	review := filepath.Join(filepath.Dir(w.workRepo), "grace")
	guide := filepath.Join(review, "docs", "guide.md")
	guideText, _ := os.ReadFile(guide)
	sessionID := func(s *session, n string) string {
		return s.find("context_session_start#"+n, `([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`, "00000000-0000-4000-8000-000000000000")
	}
	return []call{
		c("context_session_start", m{"name": "Orders export", "description": "CSV export of orders for the finance team: paging and a tax column", "projectDir": review, "defaultChannel": "orders-export"}),
		c("context_save", m{"key": "current-task", "value": "Paging for /orders/export: limit and offset, 25 rows by default, at most 500", "category": "task", "priority": "high"}),
		c("context_save", m{"key": "decision-tax-rate", "value": "VAT at 0.21 for 2026, read from config.yaml, computed in integer cents", "category": "decision", "priority": "high"}),
		c("context_save", m{"key": "progress-csv-writer", "value": "CSV writer merged; the header row carries units", "category": "progress"}),
		c("context_save", m{"key": "note-finance", "value": "Finance opens the export in a spreadsheet; dates are UTC for now", "category": "note", "priority": "low"}),
		c("context_save", m{"key": "error-slow-export", "value": "The export query took 1200 ms: a sequential scan on orders; it needs an index on orders(ordered_at)", "category": "error", "priority": "high"}),
		c("context_batch_save", m{"items": []any{
			m{"key": "warning-bom", "value": "Ask finance whether the CSV needs a byte order mark", "category": "warning"},
			m{"key": "task-index", "value": "Add the index on orders(ordered_at)", "category": "task", "priority": "high"},
			m{"key": "task-refunds", "value": "Decide whether refunds appear as negative lines", "category": "task"},
			m{"key": "billing-events", "value": "Billing v2 replaces the nightly invoice batch with events; it depends on the export", "category": "note", "channel": "billing"}}}),
		c("context_get", m{"category": "task"}),
		c("context_get", m{"key": "decision-tax-rate"}),
		c("context_get", m{"includeMetadata": true, "sort": "key_asc", "limit": 20}),
		c("context_status", nil),
		c("context_search", m{"query": "export"}),
		c("context_batch_update", m{"updates": []any{m{"key": "task-index", "value": "Index on orders(ordered_at) added in staging; the export takes 40 ms", "priority": "normal"}}}),
		c("context_link", m{"sourceKey": "current-task", "targetKey": "task-index", "relationship": "depends_on"}),
		c("context_link", m{"sourceKey": "error-slow-export", "targetKey": "task-index", "relationship": "leads_to"}),
		c("context_get_related", m{"key": "task-index", "direction": "both"}),
		c("context_cache_file", m{"filePath": guide, "content": string(guideText)}),
		c("context_file_changed", m{"filePath": guide, "currentContent": string(guideText) + "\nExports are limited to 500 rows a page.\n"}),
		c("context_checkpoint", m{"name": "before-paging", "description": "Tax rate decided, index added; paging next"}),
		c("context_journal_entry", m{"entry": "Paging design settled: limit and offset over the id order, so pages never reorder", "tags": []any{"paging", "export"}, "mood": "confident"}),
		c("context_timeline", m{"groupBy": "day", "includeItems": true}),
		c("context_summarize", nil),
		c("context_analyze", nil),
		c("context_find_related", m{"key": "config.yaml", "maxDepth": 2}),
		c("context_visualize", m{"type": "graph"}),
		c("context_visualize", m{"type": "timeline"}),
		c("context_semantic_search", m{"query": "how is the tax computed", "topK": 5}),
		c("context_delegate", m{"taskType": "analyze", "input": m{"analysisType": "comprehensive"}}),
		c("context_list_channels", nil),
		c("context_channel_stats", m{"channel": "orders-export"}),
		c("context_reassign_channel", m{"keyPattern": "warning-*", "toChannel": "finance"}),
		c("context_watch", m{"action": "create", "filters": m{"categories": []any{"task", "decision"}}}),
		c("context_save", m{"key": "decision-bom", "value": "No byte order mark: finance's spreadsheet reads UTF-8 without it", "category": "decision"}),
		dyn("context_watch", func(s *session) map[string]any {
			return m{"action": "poll", "watcherId": s.find("context_watch", `(?i)watcher[^"\n]*?(?:id)?["':\s]+([\w-]{6,})`, "watch_0")}
		}),
		c("context_watch", m{"action": "list"}),
		dyn("context_watch", func(s *session) map[string]any {
			return m{"action": "stop", "watcherId": s.find("context_watch#1", `(?i)watcher[^"\n]*?(?:id)?["':\s]+([\w-]{6,})`, "watch_0")}
		}),
		c("context_diff", m{"since": "1 hour ago"}),
		// Its event table is missing in this version ("no such table: tool_events"): recorded as it answers.
		c("context_integrate_tool", m{"toolName": "git", "eventType": "commit", "data": m{"important": true, "message": "docs: review notes for the export guide", "branch": "main"}}),
		c("context_git_commit", m{"message": "docs: review notes for the CSV export"}),
		c("context_prepare_compaction", nil),
		c("context_export", m{"format": "json"}),
		dyn("context_import", func(s *session) map[string]any {
			return m{"filePath": s.find("context_export", `(memory-keeper-export-[\w-]+\.json)`, "memory-keeper-export.json"), "merge": true}
		}),
		c("context_session_list", nil),
		c("context_branch_session", m{"branchName": "tax-rate-alternative", "copyDepth": "shallow"}),
		c("context_set_project_dir", m{"projectDir": review}),
		c("context_session_start", m{"name": "Billing v2", "description": "Events instead of the nightly invoice batch", "defaultChannel": "billing"}),
		dyn("context_merge_sessions", func(s *session) map[string]any {
			return m{"sourceSessionId": sessionID(s, "1"), "conflictResolution": "keep_newest"}
		}),
		c("context_restore_checkpoint", m{"name": "before-paging"}),
		c("context_search_all", m{"query": "index", "limit": 10}),
		c("context_batch_delete", m{"keys": []any{"note-finance"}}),
		c("context_compress", m{"olderThan": time.Now().Add(time.Minute).UTC().Format(time.RFC3339), "preserveCategories": []any{"decision", "task"}}),
		bad("context_export", m{"sessionId": "6f1c2d3e-0000-4000-8000-000000000000"}),
	}
}

func filesFastCalls(w *world) []call {
	p := func(rel string) string { return filepath.Join(w.office2, filepath.FromSlash(rel)) }
	var export strings.Builder
	export.WriteString("id,customer,product,quantity,total,status,ordered_at\n")
	for _, o := range apiOrders() {
		fmt.Fprintf(&export, "%d,%s,%s,%d,%.2f,%s,2026-01-%02d\n", o.ID, o.Customer, o.Product, o.Quantity, o.Total, o.Status, 1+(o.ID-1000)%28)
	}
	packing := "# Packing anvils\n\n- Weigh the anvil (under 70 kg for parcel carriers)\n- Strap it to a EUR 1 pallet\n- Wrap the horn in foam\n"
	return []call{
		c("fast_list_allowed_directories", nil),
		c("fast_list_directory", m{"path": w.office2}),
		c("fast_list_directory", m{"path": w.office2, "sort_by": "size", "reverse": true, "pattern": ".md"}),
		c("fast_get_directory_tree", m{"path": w.office2, "max_depth": 2}),
		c("fast_get_file_info", m{"path": p("report.pdf")}),
		c("fast_read_file", m{"path": p("README.md")}),
		c("fast_read_file", m{"path": p("orders.csv"), "line_start": 1, "line_count": 6}),
		c("fast_read_multiple_files", m{"paths": []any{p("CHANGELOG-1.3.md"), p("CHANGELOG-1.4.md")}}),
		c("fast_extract_lines", m{"path": p("orders.csv"), "pattern": "Rocket skates", "context_lines": 0}),
		c("fast_search_files", m{"path": w.office2, "pattern": "invoice"}),
		c("fast_search_files", m{"path": w.office2, "pattern": "06:00", "content_search": true, "context_lines": 1}),
		c("fast_search_code", m{"path": w.office2, "pattern": "Anvil", "file_pattern": "*.csv", "context_lines": 0}),
		c("fast_find_large_files", m{"path": w.office2, "min_size": "10KB"}),
		c("fast_get_disk_usage", m{"path": w.office2}),
		c("fast_create_directory", m{"path": p("archive/2025")}),
		c("fast_write_file", m{"path": p("notes/packing.md"), "content": packing}),
		c("fast_write_file", m{"path": p("notes/packing.md"), "content": "- Print the label last\n", "append": true}),
		c("fast_large_write_file", m{"path": p("exports/orders-2026-01.csv"), "content": export.String()}),
		c("fast_edit_block", m{"path": p("CHANGELOG-1.4.md"), "old_text": "The daily report is sent at 06:00", "new_text": "The daily report is sent at 07:00"}),
		c("fast_safe_edit", m{"path": p("README.md"), "old_text": "Images are PNG, at least 640 px wide", "new_text": "Images are PNG or WebP, at least 800 px wide", "safety_level": "moderate"}),
		c("fast_edit_multiple_blocks", m{"path": p("notes/packing.md"), "edits": []any{
			m{"old_text": "under 70 kg", "new_text": "under 68 kg", "mode": "replace"},
			m{"line_number": 1, "new_text": "<!-- owner: Grace Hopper -->", "mode": "insert_before"}}}),
		c("fast_edit_blocks", m{"path": p("config.yaml"), "edits": []any{m{"old_text": "ACME Corporation", "new_text": "ACME Corporation Ltd"}}}),
		c("fast_copy_file", m{"source": p("invoice.pdf"), "destination": p("archive/2025/invoice-2025-0099.pdf")}),
		c("fast_move_file", m{"source": p("notes/packing.md"), "destination": p("notes/packing-anvils.md")}),
		c("fast_batch_file_operations", m{"operations": []any{
			m{"operation": "copy", "source": p("orders.csv"), "destination": p("exports/orders-backup.csv")},
			m{"operation": "rename", "source": p("stock.tsv"), "destination": p("stock-2026-12.tsv")},
			m{"operation": "move", "source": p("feed.xml"), "destination": p("archive/feed.xml")}}}),
		c("fast_compress_files", m{"paths": []any{p("invoice.pdf"), p("report.pdf")}, "output_path": p("archive/documents.tar.gz"), "format": "tar.gz"}),
		c("fast_extract_archive", m{"archive_path": p("archive/documents.tar.gz"), "extract_to": p("restored")}),
		c("fast_sync_directories", m{"source_dir": p("exports"), "target_dir": p("archive/exports"), "sync_mode": "update"}),
		c("fast_delete_file", m{"path": p("restored"), "recursive": true}),
		c("fast_delete_file", m{"path": p("restored"), "recursive": true, "force": true}),
		c("fast_list_directory", m{"path": p("archive")}),
		bad("fast_read_file", m{"path": p("invoice-2026-0043.pdf")}),
	}
}

func alertsCalls(w *world) []call {
	silence := func(s *session, tool string) string {
		return s.find(tool, `([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`, "00000000-0000-4000-8000-000000000000")
	}
	return []call{
		c("getAlertmanagerStatus", nil),
		c("getAlerts", nil),
		c("getAlerts", m{"active": "true", "silenced": "true", "inhibited": "true"}),
		c("getAlerts", m{"filterLabel": "team=orders"}),
		c("getAlertGroups", nil),
		c("getCriticalAlerts", nil),
		c("getAlertingSummary", nil),
		c("correlateAlerts", nil),
		c("investigateAlert", m{"alertName": "PaymentProviderTimeouts"}),
		c("getAlertHistory", m{"alertName": "ExportSlow"}),
		c("getReceivers", nil),
		c("getSilences", nil),
		c("createSilence", m{"alertName": "ExportSlow", "duration": "2h", "comment": "Index on orders(ordered_at) going in; the export stays slow until it is built", "createdBy": "ada@example.com"}),
		c("getSilences", m{"state": "active"}),
		dyn("deleteSilence", func(s *session) map[string]any { return m{"silenceId": silence(s, "createSilence")} }),
		c("getSilences", m{"state": "expired"}),
		bad("deleteSilence", m{"silenceId": "6f1c2d3e-0000-4000-8000-000000000000"}),
	}
}

func chartsCalls(w *world) []call {
	// The shop's orders (services.go) as chart data.
	byStatus := map[string]float64{}
	byProduct := map[string]float64{}
	var points []any
	for _, o := range apiOrders() {
		byStatus[o.Status]++
		byProduct[o.Product] += o.Total
		points = append(points, m{"x": o.Quantity, "y": o.Total})
	}
	status := []any{}
	for _, s := range []string{"pending", "shipped", "cancelled"} {
		status = append(status, m{"category": s, "value": byStatus[s]})
	}
	revenue := []any{}
	for _, p := range []string{"Anvil", "Rocket skates", "Giant magnet", "Bird seed", "Earthquake pills"} {
		revenue = append(revenue, m{"category": p, "value": math.Round(byProduct[p]*100) / 100})
	}
	// PNG for a few (a chart as an image), SVG and the ECharts option for the
	// rest, so that the file stays small.
	small := func(a m) m {
		if a["outputType"] == nil {
			a["outputType"] = "svg"
		}
		if a["width"] == nil {
			a["width"], a["height"] = 640, 400
			if a["outputType"] == "png" {
				a["width"], a["height"] = 480, 300
			}
		}
		return a
	}
	days := []string{"2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08", "2026-01-09", "2026-01-10", "2026-01-11"}
	var daily []any
	for i, d := range days {
		daily = append(daily, m{"time": d, "value": []float64{1840.5, 2210, 1985.3, 2630.8, 3120.4, 1410, 980.6}[i], "group": "web shop"},
			m{"time": d, "value": []float64{620, 710.2, 540, 890.9, 1020, 310, 120}[i], "group": "API"})
	}
	var latency []any
	for i, v := range []float64{310, 320, 305, 340, 380, 420, 510, 690, 1180, 1240, 1210, 1150} {
		latency = append(latency, m{"time": fmt.Sprintf("08:%02d", i*5), "value": v})
	}
	var heat []any
	for d, day := range []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"} {
		for h, band := range []string{"00-06", "06-12", "12-18", "18-24"} {
			heat = append(heat, m{"x": day, "y": band, "value": (d*7+h*13)%17 + []int{1, 9, 12, 6}[h]})
		}
	}
	var delivery []any
	for i, carrier := range []string{"Parcel Express", "Pallet Freight", "Post"} {
		for j := 0; j < 8; j++ {
			delivery = append(delivery, m{"category": carrier, "value": float64(1+i) + float64((j*5+i*3)%7)*0.5})
		}
	}
	node := func(name string, value float64) m { return m{"name": name, "value": value} }
	return []call{
		c("generate_bar_chart", small(m{"title": "Orders by status, January 2026", "axisXTitle": "Status", "axisYTitle": "Orders", "data": status, "outputType": "png"})),
		c("generate_bar_chart", small(m{"title": "Revenue by product (EUR)", "axisXTitle": "Product", "axisYTitle": "EUR", "data": revenue, "outputType": "svg"})),
		c("generate_line_chart", small(m{"title": "Daily revenue by channel (EUR)", "axisXTitle": "Day", "axisYTitle": "EUR", "data": daily})),
		c("generate_area_chart", small(m{"title": "p90 latency of /orders/export (ms), 2 December 08:00-09:00", "axisXTitle": "Time (UTC)", "axisYTitle": "ms", "data": latency, "showArea": true, "smooth": true})),
		c("generate_pie_chart", small(m{"title": "Revenue share by product", "data": revenue, "innerRadius": 0.6, "outputType": "option"})),
		c("generate_radar_chart", small(m{"title": "Carriers compared", "data": []any{
			m{"name": "Price", "value": 80, "group": "Parcel Express"}, m{"name": "Speed", "value": 90, "group": "Parcel Express"}, m{"name": "Damage-free", "value": 70, "group": "Parcel Express"}, m{"name": "Tracking", "value": 95, "group": "Parcel Express"}, m{"name": "Heavy items", "value": 40, "group": "Parcel Express"},
			m{"name": "Price", "value": 60, "group": "Pallet Freight"}, m{"name": "Speed", "value": 55, "group": "Pallet Freight"}, m{"name": "Damage-free", "value": 92, "group": "Pallet Freight"}, m{"name": "Tracking", "value": 70, "group": "Pallet Freight"}, m{"name": "Heavy items", "value": 98, "group": "Pallet Freight"}}})),
		c("generate_scatter_chart", small(m{"title": "Order total against quantity", "axisXTitle": "Quantity", "axisYTitle": "Total (EUR)", "data": points, "outputType": "svg"})),
		c("generate_sankey_chart", small(m{"outputType": "option", "title": "Checkout flow, last 7 days", "data": []any{
			m{"source": "Product page", "target": "Cart", "value": 1850}, m{"source": "Product page", "target": "Left", "value": 4250},
			m{"source": "Cart", "target": "Checkout", "value": 920}, m{"source": "Cart", "target": "Abandoned cart", "value": 930},
			m{"source": "Checkout", "target": "Paid", "value": 811}, m{"source": "Checkout", "target": "Payment failed", "value": 109}}})),
		c("generate_funnel_chart", small(m{"title": "Conversion, last 7 days", "data": []any{
			m{"category": "Visited the shop", "value": 12400}, m{"category": "Viewed a product", "value": 6100}, m{"category": "Added to cart", "value": 1850},
			m{"category": "Started checkout", "value": 920}, m{"category": "Paid", "value": 811}}, "outputType": "option"})),
		c("generate_gauge_chart", small(m{"title": "Disk /var/lib/postgresql on db-1 (% used)", "data": []any{m{"name": "Used", "value": 91}}, "width": 320, "height": 240})),
		c("generate_treemap_chart", small(m{"outputType": "option", "title": "Stock value by warehouse and product (EUR)", "data": []any{
			m{"name": "Rotterdam", "value": 9268, "children": []any{node("Anvil", 2988), node("Rocket skates", 3596), node("Giant magnet", 1492.5), node("Bird seed", 1191.5)}},
			m{"name": "Leeds", "value": 3340, "children": []any{node("Anvil", 1494), node("Giant magnet", 796), node("Bird seed", 1050)}}}})),
		c("generate_sunburst_chart", small(m{"title": "Revenue by country and customer (EUR)", "data": []any{
			m{"name": "GB", "value": 5210, "children": []any{node("Ada Lovelace", 2290), node("Charles Babbage", 1710), node("Alan Turing", 1210)}},
			m{"name": "US", "value": 2940, "children": []any{node("Grace Hopper", 1630), node("Katherine Johnson", 1310)}},
			m{"name": "NL", "value": 1480, "children": []any{node("Edsger Dijkstra", 1480)}}}, "outputType": "svg"})),
		c("generate_heatmap_chart", small(m{"title": "Orders by weekday and time of day", "axisXTitle": "Weekday", "axisYTitle": "Hours (UTC)", "data": heat, "outputType": "svg"})),
		c("generate_candlestick_chart", small(m{"title": "ACME Corporation share price (EUR), 23-27 November 2026", "showVolume": true, "data": []any{
			m{"date": "2026-11-23", "open": 41.2, "high": 42.9, "low": 40.8, "close": 42.5, "volume": 182000},
			m{"date": "2026-11-24", "open": 42.5, "high": 43.1, "low": 41.6, "close": 41.9, "volume": 143500},
			m{"date": "2026-11-25", "open": 41.9, "high": 44.8, "low": 41.7, "close": 44.6, "volume": 251300},
			m{"date": "2026-11-26", "open": 44.6, "high": 45.0, "low": 43.2, "close": 43.4, "volume": 120800},
			m{"date": "2026-11-27", "open": 43.4, "high": 44.1, "low": 42.9, "close": 43.9, "volume": 98700}}})),
		c("generate_boxplot_chart", small(m{"title": "Delivery time by carrier (days)", "axisXTitle": "Carrier", "axisYTitle": "Days", "data": delivery, "outputType": "option"})),
		c("generate_graph_chart", small(m{"outputType": "option", "title": "Services of the shop and what they call", "layout": "force", "data": m{
			"nodes": []any{m{"id": "web", "name": "shop-web", "category": "frontend", "value": 40}, m{"id": "api", "name": "shop-api", "category": "service", "value": 60},
				m{"id": "db", "name": "orders-db", "category": "database", "value": 50}, m{"id": "pay", "name": "payments", "category": "service", "value": 30},
				m{"id": "card", "name": "card-provider", "category": "external", "value": 20}, m{"id": "bill", "name": "billing", "category": "service", "value": 25}},
			"edges": []any{m{"source": "web", "target": "api", "value": 1200}, m{"source": "api", "target": "db", "value": 2400}, m{"source": "api", "target": "pay", "value": 811},
				m{"source": "pay", "target": "card", "value": 811}, m{"source": "bill", "target": "db", "value": 90}}}})),
		c("generate_parallel_chart", small(m{"title": "Products compared", "dimensions": []any{"Unit price (EUR)", "In stock", "Orders", "Returns"}, "data": []any{
			m{"name": "Anvil", "values": []any{249, 12, 5, 1}}, m{"name": "Rocket skates", "values": []any{89.9, 40, 5, 1}}, m{"name": "Giant magnet", "values": []any{19.9, 75, 5, 0}},
			m{"name": "Bird seed", "values": []any{4.5, 300, 5, 0}}, m{"name": "Earthquake pills", "values": []any{12, 0, 4, 0}}}, "outputType": "svg"})),
		c("generate_tree_chart", small(m{"outputType": "option", "title": "The office folder", "data": m{"name": "office", "children": []any{
			m{"name": "invoices", "children": []any{m{"name": "invoice.pdf"}, m{"name": "archive", "children": []any{m{"name": "invoice-2025-0099.pdf"}}}}},
			m{"name": "reports", "children": []any{m{"name": "report.pdf"}}},
			m{"name": "images", "children": []any{m{"name": "anvil.png"}, m{"name": "anvil.jpg"}, m{"name": "logo.svg"}}},
			m{"name": "data", "children": []any{m{"name": "orders.csv"}, m{"name": "orders.json"}, m{"name": "stock.tsv"}}}}}})),
		c("generate_echarts", m{"width": 720, "height": 420, "outputType": "svg", "echartsOption": `{"title":{"text":"Orders and revenue, week 2 of 2026","left":"center"},"tooltip":{"trigger":"axis"},"legend":{"top":"bottom"},` +
			`"xAxis":{"type":"category","data":["Mon","Tue","Wed","Thu","Fri","Sat","Sun"]},"yAxis":[{"type":"value","name":"Orders"},{"type":"value","name":"EUR"}],` +
			`"series":[{"name":"Orders","type":"bar","data":[18,22,19,27,31,12,8]},{"name":"Revenue","type":"line","yAxisIndex":1,"data":[2460.5,2920.2,2525.3,3521.7,4140.4,1720,1100.6]}]}`}),
		c("generate_echarts", m{"outputType": "option", "echartsOption": `{"title":{"text":"Stock left"},"xAxis":{"type":"value"},"yAxis":{"type":"category","data":["Earthquake pills","Anvil","Rocket skates","Giant magnet","Bird seed"]},"series":[{"type":"bar","data":[0,12,40,75,300]}]}`}),
		// An option that is not JSON (a JavaScript object literal, as people write them).
		bad("generate_echarts", m{"echartsOption": `{title: {text: 'Orders by status'}, xAxis: {data: ['pending', 'shipped']}, yAxis: {}, series: [{type: 'bar', data: [6, 12]}]}`}),
	}
}
