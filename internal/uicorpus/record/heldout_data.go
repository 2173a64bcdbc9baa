package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// vaultNotes is a small Obsidian vault: a team's notes with front matter,
// [[wikilinks]], #tags, GFM task lists, nested lists and a table.
var vaultNotes = map[string]string{
	"Home.md": "---\ntags: [index]\ncreated: 2026-01-05\n---\n# Home\n\nStart here. Active work: [[Projects/Orders export]], [[Projects/Billing v2]].\n\n" +
		"- Team: [[People/Ada Lovelace]], [[People/Grace Hopper]]\n- Meetings\n  - [[Meetings/2026-01-12 Weekly]]\n  - [[Meetings/2026-01-19 Weekly]]\n\n#index #team\n",
	"Projects/Orders export.md": "---\nstatus: active\nowner: Ada Lovelace\ndue: 2026-02-01\ntags: [project, orders]\n---\n# Orders export\n\nExport orders as CSV for the finance team. See [[Meetings/2026-01-12 Weekly]].\n\n" +
		"## Tasks\n\n- [x] CSV writer (`src/export.js`)\n- [x] Header row with units\n- [ ] Paging for /orders/export\n- [ ] Tax column at the 2026 rate (0.21)\n\n## Open questions\n\n1. Do refunds appear as negative lines?\n2. Which time zone do dates use?\n   - UTC for now\n   - Local time asked for by finance\n\n#orders #csv\n",
	"Projects/Billing v2.md":        "---\nstatus: planned\nowner: Grace Hopper\ntags: [project, billing]\n---\n# Billing v2\n\nReplace the nightly invoice batch with events.\n\n| Step | Owner | Status |\n| --- | --- | --- |\n| Design | Grace | done |\n| Event schema | Ada | in review |\n| Migration | Grace | not started |\n\nDepends on [[Projects/Orders export]].\n\n- [ ] Write the migration plan\n- [ ] Agree on retry policy\n",
	"People/Ada Lovelace.md":        "---\nrole: engineer\nemail: ada@example.com\n---\n# Ada Lovelace\n\nWorks on [[Projects/Orders export]] and the event schema of [[Projects/Billing v2]].\n\n#people\n",
	"People/Grace Hopper.md":        "---\nrole: lead\nemail: grace@example.com\n---\n# Grace Hopper\n\nLeads [[Projects/Billing v2]]. Prefers short design docs.\n\n#people\n",
	"Meetings/2026-01-12 Weekly.md": "---\ndate: 2026-01-12\nattendees: [Ada Lovelace, Grace Hopper]\n---\n# Weekly, 12 January\n\n## Notes\n\n- Export: CSV writer merged; paging next.\n- Billing: schema draft by Friday.\n\n## Actions\n\n- [x] Ada: share the CSV sample\n- [ ] Grace: book the design review\n\n#meeting\n",
	"Meetings/2026-01-19 Weekly.md": "---\ndate: 2026-01-19\nattendees: [Ada Lovelace, Grace Hopper]\n---\n# Weekly, 19 January\n\n- Export slipped a week: the slow query (1200 ms) needs an index.\n- Billing design review went well.\n\n- [ ] Ada: add the index on orders(ordered_at)\n- [ ] Grace: write the retry policy\n\n#meeting\n",
	"Reference/SQL snippets.md":     "# SQL snippets\n\n```sql\nSELECT status, count(*) FROM orders GROUP BY status;\n```\n\nDaily totals:\n\n```sql\nSELECT ordered_at::date, sum(quantity) FROM orders GROUP BY 1 ORDER BY 1;\n```\n\n#reference #sql\n",
	"Reference/Glossary.md":         "# Glossary\n\nSKU\n: Stock keeping unit, e.g. `PILL-005`.\n\nOrder line\n: One product in an order, with its quantity.\n\nSee also [[Reference/SQL snippets]].\n",
	"Inbox.md":                      "# Inbox\n\n- Call the accountant about the 2026 tax rate\n- Read https://example.com/csv-best-practices\n- [ ] Clean up [[Projects/Billing v2]] tasks\n",
	"Daily/2026-01-20.md":           "# 2026-01-20\n\nFixed the export header. Tomorrow: paging.\n\n> The fastest query is the one you do not run.\n\n#daily\n",
	"Templates/Meeting.md":          "---\ndate: {{date}}\n---\n# Weekly, {{title}}\n\n## Notes\n\n## Actions\n\n- [ ] \n",
}

func (w *world) makeVault() error {
	w.vault = filepath.Join(w.root, "vault")
	return writeVault(w.vault)
}

// makeNotes writes a second copy of the vault, for a notes server recorded
// after one that changed the first.
func (w *world) makeNotes() error {
	w.notes = filepath.Join(w.root, "notes")
	return writeVault(w.notes)
}

func writeVault(dir string) error {
	for rel, body := range vaultNotes {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return os.MkdirAll(filepath.Join(dir, ".obsidian"), 0o755)
}

// makeBank writes a memory bank with two projects of markdown files.
func (w *world) makeBank() error {
	w.bank = filepath.Join(w.root, "memory-bank")
	files := map[string]string{
		"orders-service/projectbrief.md":  "# Orders service\n\nA small service that reads orders from CSV and serves them over HTTP with paging and exports.\n\n## Goals\n\n- Paging for every list\n- CSV export for finance\n",
		"orders-service/activeContext.md": "# Active context\n\nWorking on the CSV export (branch `feature/csv-export`).\n\n- Next: paging for /orders/export\n- Blocked: the 2026 tax rate needs confirming\n",
		"orders-service/progress.md":      "# Progress\n\n| Item | Status |\n| --- | --- |\n| CSV reader | done |\n| /orders paging | done |\n| CSV export | in progress |\n",
		"billing/projectbrief.md":         "# Billing v2\n\nReplace the nightly invoice batch with events. Owner: Grace Hopper.\n",
	}
	for rel, body := range files {
		p := filepath.Join(w.bank, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// pdfPages are printed to PDF by chromium: an invoice and a two-page report.
var pdfPages = map[string]string{
	"invoice.pdf": `<html><head><title>Invoice 2026-0042</title></head><body style="font:14px sans-serif"><h1>Invoice 2026-0042</h1>
<p>Acme Orders Ltd, 1 Analytical Way, London. Billed to: Grace Hopper, Arlington.</p><p>Date: 20 January 2026. Due: 19 February 2026.</p>
<table border="1" cellpadding="4"><tr><th>Item</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr>
<tr><td>Widget (WID-001)</td><td>4</td><td>9.95</td><td>39.80</td></tr><tr><td>Gadget Pro (GAD-002)</td><td>1</td><td>249.00</td><td>249.00</td></tr>
<tr><td>Pill box (PILL-005)</td><td>3</td><td>7.50</td><td>22.50</td></tr></table><p>Subtotal 311.30. VAT 21%: 65.37. Total due: 376.67 EUR.</p></body></html>`,
	"report.pdf": `<html><head><title>Quarterly orders report</title></head><body style="font:14px sans-serif"><h1>Quarterly orders report</h1>
<p>Orders grew 18% over the quarter, led by the Gadget Pro. Returns stayed under 2%. The export to finance moves to CSV in February.</p>
<h2>Highlights</h2><ul><li>40 orders from 12 customers in 5 countries</li><li>Average basket: 2.4 items</li><li>Slowest query: the export, 1200 ms</li></ul>
<div style="page-break-before:always"></div><h2>Outlook</h2><p>Billing v2 replaces the nightly invoice batch with events. The migration starts after the design review.</p>
<p>Risks: the 2026 tax rate (0.21) is not yet confirmed; paging for the export is late by a week.</p></body></html>`,
}

func (w *world) makePDFs() error {
	w.pdfs = filepath.Join(w.root, "pdfs")
	if err := os.MkdirAll(w.pdfs, 0o755); err != nil {
		return err
	}
	for name, html := range pdfPages {
		src := filepath.Join(w.pdfs, name+".html")
		if err := os.WriteFile(src, []byte(html), 0o644); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		out, err := exec.CommandContext(ctx, "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
			"--print-to-pdf="+filepath.Join(w.pdfs, name), "file://"+src).CombinedOutput()
		cancel()
		if err != nil {
			return fmt.Errorf("chromium --print-to-pdf %s: %w: %s", name, err, out)
		}
		_ = os.Remove(src)
	}
	return nil
}

// shopSQLite is the shop database of shopSQL in SQLite's dialect, with a
// returns table and a view, for the SQLite server.
const shopSQLite = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE NOT NULL, country TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, name TEXT NOT NULL, unit_price REAL NOT NULL, in_stock INTEGER NOT NULL DEFAULT 0);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), product_id INTEGER NOT NULL REFERENCES products(id),
  quantity INTEGER NOT NULL CHECK (quantity > 0), status TEXT NOT NULL DEFAULT 'pending', ordered_at TEXT NOT NULL);
CREATE TABLE returns (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id), reason TEXT, returned_at TEXT NOT NULL);
CREATE INDEX orders_customer_idx ON orders(customer_id);
CREATE VIEW order_totals AS SELECT o.id, c.name AS customer, p.name AS product, o.quantity, round(o.quantity * p.unit_price, 2) AS total, o.status, o.ordered_at
  FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id;
INSERT INTO customers (name, email, country, created_at) VALUES
 ('Ada Lovelace', 'ada@example.com', 'GB', '2025-11-02 10:00:00'),
 ('Charles Babbage', 'charles@example.com', 'GB', '2025-11-05 12:30:00'),
 ('Grace Hopper', 'grace@example.com', 'US', '2025-12-01 09:15:00'),
 ('Alan Turing', 'alan@example.com', 'GB', '2025-12-03 16:45:00'),
 ('Katherine Johnson', 'katherine@example.com', 'US', '2025-12-20 08:00:00'),
 ('Edsger Dijkstra', 'edsger@example.com', 'NL', '2026-01-02 11:11:00');
INSERT INTO products (sku, name, unit_price, in_stock) VALUES
 ('ANV-001', 'Anvil', 249.00, 12), ('RSK-002', 'Rocket skates', 89.90, 40), ('MAG-003', 'Giant magnet', 19.90, 150),
 ('SEED-004', 'Bird seed', 4.50, 900), ('PILL-005', 'Earthquake pills', 12.00, 0);
WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 40)
INSERT INTO orders (customer_id, product_id, quantity, status, ordered_at)
SELECT 1 + (n % 6), 1 + (n % 5), 1 + (n * 7) % 9, CASE n % 4 WHEN 0 THEN 'pending' WHEN 3 THEN 'cancelled' ELSE 'shipped' END,
  strftime('%Y-%m-%d %H:%M:%S', '2026-01-01 08:00:00', '+' || (n * 433) || ' minutes') FROM g;
INSERT INTO returns (order_id, reason, returned_at) VALUES (6, 'arrived damaged', '2026-01-05 14:00:00'), (17, 'wrong size', '2026-01-09 10:30:00');
`

// makeSQLite writes the shop database with Debian's sqlite3.
func (w *world) makeSQLite() error {
	w.sqlite = filepath.Join(w.root, "shop.sqlite")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sqlite3", w.sqlite)
	cmd.Stdin = strings.NewReader(shopSQLite)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("sqlite3 (apt-get install sqlite3): %w: %s", err, out)
	}
	return nil
}

// copySQLite copies the SQLite shop for a second server that writes views
// into it, so that each server starts from the same database.
func (w *world) copySQLite() error {
	b, err := os.ReadFile(w.sqlite)
	if err != nil {
		return err
	}
	dst := filepath.Join(w.root, "shop-views.sqlite")
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		return err
	}
	w.sqlite2 = dst
	return nil
}
