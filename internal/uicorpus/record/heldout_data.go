package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	for rel, body := range vaultNotes {
		p := filepath.Join(w.vault, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return os.MkdirAll(filepath.Join(w.vault, ".obsidian"), 0o755)
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
