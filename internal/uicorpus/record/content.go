package main

import (
	"fmt"
	"net/http"
	"strings"
)

// The corpus project: a small orders service, with text that exercises what
// servers answer with (markdown with snake_case names and relative links, CSV,
// a log of several levels, YAML with long lines, code).
var projectFiles = map[string]string{
	"README.md": `# Orders service

Reads orders from CSV and serves them over HTTP. Builds for x86_64 and arm64;
the ` + "`order_total`" + ` field is computed by compute_order_total in src/orders.js.

- See [the guide](docs/guide.md) for building.
- Configuration lives in [config.yaml](config.yaml).
- Issues: [tracker](https://example.com/acme/orders/issues).

## Quick start

` + "```sh\nnode src/orders.js data/orders.csv\n```" + `
`,
	"docs/guide.md": `# Build guide

Targets: linux_x86_64, linux_arm64 and darwin_arm64.

1. Install Node 20.
2. Run ` + "`npm test`" + `.
3. Start the server with PORT=8080.

| target | status |
| --- | --- |
| linux_x86_64 | ok |
| linux_arm64 | ok |
| darwin_arm64 | untested |
`,
	"src/orders.js": `// orders.js reads orders from a CSV file and totals them.
const fs = require("fs");

const TAX_RATE = 0.2;

function parse_orders(text) {
  const [head, ...rows] = text.trim().split("\n");
  const keys = head.split(",");
  return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [keys[i], v])));
}

function compute_order_total(order) {
  // TODO: discounts
  return Number(order.quantity) * Number(order.unit_price) * (1 + TAX_RATE);
}

if (require.main === module) {
  const orders = parse_orders(fs.readFileSync(process.argv[2] || "data/orders.csv", "utf8"));
  for (const o of orders) console.log(o.order_id, o.customer, compute_order_total(o).toFixed(2));
}

module.exports = { parse_orders, compute_order_total };
`,
	"src/server.go": `package main

import (
	"encoding/json"
	"log"
	"net/http"
	"strconv"
)

// ordersHandler answers GET /orders?limit=N&offset=M with a page of orders as JSON.
func ordersHandler(w http.ResponseWriter, r *http.Request) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	if limit <= 0 || limit > 100 {
		limit = 25
	}
	page := loadOrders()[min(offset, len(loadOrders())):]
	// TODO: stream large pages instead of encoding them at once
	_ = json.NewEncoder(w).Encode(page[:min(limit, len(page))])
}

func main() {
	http.HandleFunc("/orders", ordersHandler)
	log.Fatal(http.ListenAndServe(":8080", nil))
}
`,
	"data/orders.csv": `order_id,customer,quantity,unit_price,status,created_at
1001,Ada Lovelace,2,19.90,shipped,2026-01-02
1002,Charles Babbage,1,249.00,shipped,2026-01-02
1003,Grace Hopper,5,4.50,pending,2026-01-03
1004,Alan Turing,3,12.00,cancelled,2026-01-03
1005,Katherine Johnson,10,1.99,shipped,2026-01-04
1006,Edsger Dijkstra,1,99.00,pending,2026-01-05
1007,Barbara Liskov,4,7.25,shipped,2026-01-05
1008,Donald Knuth,2,64.00,shipped,2026-01-06
`,
	"logs/app.log": `2026-01-09T10:58:01.120Z INFO  server listening on :8080
2026-01-09T10:58:03.441Z DEBUG loaded 8 orders from data/orders.csv
2026-01-09T10:59:12.007Z INFO  GET /orders?limit=25 200 3ms
2026-01-09T11:00:40.530Z WARN  slow query: orders export took 1200ms (limit 1000ms)
2026-01-09T11:01:02.918Z ERROR export failed: EACCES: permission denied, open '/var/exports/orders.csv'
2026-01-09T11:01:02.919Z INFO  GET /orders/export 500 12ms
2026-01-09T11:02:15.100Z WARN  retrying export (attempt 2 of 3)
2026-01-09T11:02:16.377Z INFO  export written: 8 rows
`,
	"config.yaml": `server:
  port: 8080
  read_timeout: 10s
  allowed_origins: ["https://orders.example.com", "https://admin.orders.example.com", "https://staging.orders.example.com", "http://localhost:3000"]
storage:
  csv_path: data/orders.csv
  export_dir: /var/exports
  export_command: "node src/export.js --format csv --columns order_id,customer,quantity,unit_price,status,created_at --out /var/exports/orders-$(date +%Y%m%d).csv"
logging:
  level: info
  file: logs/app.log
`,
	"notes.txt": `Meeting 2026-01-08: ship CSV export before the end of January.
Ask Grace about the arm64 runners.
The export must not block the request loop.
`,
}

const exportJS = `// export.js writes orders as CSV.
const { parse_orders } = require("./orders");
const fs = require("fs");

function to_csv(orders) {
  const keys = Object.keys(orders[0] || {});
  return [keys.join(","), ...orders.map((o) => keys.map((k) => o[k]).join(","))].join("\n") + "\n";
}

module.exports = { to_csv };
`

// shopSQL is the PostgreSQL database the database servers query.
const shopSQL = `
CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL, email text UNIQUE NOT NULL, country char(2) NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE products (id serial PRIMARY KEY, sku text UNIQUE NOT NULL, name text NOT NULL, unit_price numeric(10,2) NOT NULL, in_stock integer NOT NULL DEFAULT 0);
CREATE TABLE orders (id serial PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers(id), product_id integer NOT NULL REFERENCES products(id),
  quantity integer NOT NULL CHECK (quantity > 0), status text NOT NULL DEFAULT 'pending', ordered_at timestamptz NOT NULL);
CREATE INDEX orders_customer_idx ON orders(customer_id);
CREATE VIEW order_totals AS SELECT o.id, c.name AS customer, p.name AS product, o.quantity, o.quantity * p.unit_price AS total, o.status, o.ordered_at
  FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id;
INSERT INTO customers (name, email, country, created_at) VALUES
 ('Ada Lovelace', 'ada@example.com', 'GB', '2025-11-02 10:00:00+00'),
 ('Charles Babbage', 'charles@example.com', 'GB', '2025-11-05 12:30:00+00'),
 ('Grace Hopper', 'grace@example.com', 'US', '2025-12-01 09:15:00+00'),
 ('Alan Turing', 'alan@example.com', 'GB', '2025-12-03 16:45:00+00'),
 ('Katherine Johnson', 'katherine@example.com', 'US', '2025-12-20 08:00:00+00'),
 ('Edsger Dijkstra', 'edsger@example.com', 'NL', '2026-01-02 11:11:00+00');
INSERT INTO products (sku, name, unit_price, in_stock) VALUES
 ('ANV-001', 'Anvil', 249.00, 12), ('RSK-002', 'Rocket skates', 89.90, 40), ('MAG-003', 'Giant magnet', 19.90, 150),
 ('SEED-004', 'Bird seed', 4.50, 900), ('PILL-005', 'Earthquake pills', 12.00, 0);
INSERT INTO orders (customer_id, product_id, quantity, status, ordered_at)
SELECT 1 + (g % 6), 1 + (g % 5), 1 + (g * 7) % 9, (ARRAY['pending','shipped','shipped','cancelled'])[1 + g % 4], timestamptz '2026-01-01 08:00:00+00' + g * interval '7 hours 13 minutes'
FROM generate_series(1, 40) AS g;
`

// site pages: an index with a table, a form and console messages of every
// level, a long article, a JSON API and plain text.
var sitePages = map[string]string{
	"/": `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme Orders</title>
<style>body{font-family:sans-serif;margin:2em} table{border-collapse:collapse} td,th{border:1px solid #999;padding:4px 8px}</style></head>
<body>
<nav><a href="/">Home</a> | <a href="/orders.html">Orders</a> | <a href="/about.html">About</a> | <a href="/api/orders.json">API</a></nav>
<h1>Acme Orders</h1>
<p>Orders placed this week. Use the search to find an order by customer.</p>
<form id="search" onsubmit="event.preventDefault(); document.getElementById('result').textContent = 'Searching for ' + document.getElementById('q').value + '...'; console.log('search', document.getElementById('q').value);">
  <label for="q">Customer</label> <input id="q" name="q" placeholder="name">
  <select id="status" name="status"><option>any</option><option>shipped</option><option>pending</option></select>
  <button id="go" type="submit">Search</button>
</form>
<p id="result"></p>
<table id="orders">
<thead><tr><th>Order</th><th>Customer</th><th>Quantity</th><th>Total</th><th>Status</th></tr></thead>
<tbody>
<tr><td>1001</td><td>Ada Lovelace</td><td>2</td><td>39.80</td><td>shipped</td></tr>
<tr><td>1002</td><td>Charles Babbage</td><td>1</td><td>249.00</td><td>shipped</td></tr>
<tr><td>1003</td><td>Grace Hopper</td><td>5</td><td>22.50</td><td>pending</td></tr>
<tr><td>1004</td><td>Alan Turing</td><td>3</td><td>36.00</td><td>cancelled</td></tr>
</tbody></table>
<p><label for="attach">Attachment</label> <input id="attach" type="file" aria-label="Attachment"></p>
<div id="drop" style="border:2px dashed #999;padding:1em" ondragover="event.preventDefault()" ondrop="event.preventDefault(); console.log('dropped', event.dataTransfer.getData('text/plain'))">Drop order lines here</div>
<p><button id="load" onclick="fetch('/api/orders.json').then(r => r.json()).then(d => console.info('loaded', d.orders.length, 'orders'))">Load more</button></p>
<script>
console.log("page ready");
console.info("orders table has 4 rows");
console.warn("Deprecated: the legacy /v1/orders endpoint is going away on 2026-03-01");
console.error("Failed to load recommendations: 503 Service Unavailable");
fetch("/api/orders.json").then(r => r.json()).then(d => console.debug("prefetched", d.orders.length));
</script>
</body></html>`,
	"/orders.html": `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>All orders</title></head>
<body><h1>All orders</h1>
<table><thead><tr><th>Order</th><th>Customer</th><th>Product</th><th>Quantity</th><th>Unit price</th><th>Status</th><th>Ordered at</th></tr></thead><tbody>
` + orderRows() + `</tbody></table>
<p><a href="/">Back</a></p></body></html>`,
	"/about.html": `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>About Acme Orders</title></head>
<body><article>
<h1>About Acme Orders</h1>
<p>Acme Orders is a small service that reads orders from CSV files and serves them over HTTP. It was written for the
warehouse team in 2025 and has grown to handle exports, paging and a search by customer.</p>
<h2>How it works</h2>
<p>Every night the warehouse system drops a file named <code>orders-YYYYMMDD.csv</code> into the import folder. The
service reads it with <code>parse_orders</code>, computes totals with <code>compute_order_total</code> and keeps the
result in memory until the next import.</p>
<ul><li>Paging: <code>GET /orders?limit=25&amp;offset=50</code></li><li>Export: <code>GET /orders/export</code> writes a CSV file</li><li>Health: <code>GET /healthz</code></li></ul>
<h2>Contact</h2>
<p>Write to <a href="mailto:orders@example.com">orders@example.com</a> or read the <a href="/docs/guide.html">build guide</a>.</p>
</article></body></html>`,
	"/robots.txt": "User-agent: *\nDisallow: /admin/\n",
	"/notes.txt":  projectFiles["notes.txt"],
}

func orderRows() string {
	var b strings.Builder
	names := []string{"Ada Lovelace", "Charles Babbage", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra"}
	products := []string{"Anvil", "Rocket skates", "Giant magnet", "Bird seed", "Earthquake pills"}
	status := []string{"pending", "shipped", "shipped", "cancelled"}
	for i := 1; i <= 24; i++ {
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td><td>%s</td><td>%d</td><td>%.2f</td><td>%s</td><td>2026-01-%02d %02d:%02d</td></tr>\n",
			1000+i, names[i%6], products[i%5], 1+(i*7)%9, []float64{249, 89.9, 19.9, 4.5, 12}[i%5], status[i%4], 1+i/3, (8+i*7)%24, (i*13)%60)
	}
	return b.String()
}

func siteHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/orders.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"orders":[{"id":1001,"customer":"Ada Lovelace","total":39.8,"status":"shipped"},{"id":1002,"customer":"Charles Babbage","total":249,"status":"shipped"},{"id":1003,"customer":"Grace Hopper","total":22.5,"status":"pending"}],"total":3,"next":null}`)
			return
		}
		page, ok := sitePages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, ".txt") {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		fmt.Fprint(w, page)
	})
}
