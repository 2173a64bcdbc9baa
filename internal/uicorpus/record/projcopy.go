package main

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"time"
)

// Fresh copies of the corpus project for the held-out servers recorded
// 2 December 2026 in place of the fourth four looked at (heldout.go): each
// writes into its folder (an index, edited and moved files), so each gets
// its own rather than the one the other servers read.

// makeCodeProject writes a copy of the project for the code-analysis server
// and builds its index there with the package's own command (codegraph init),
// as a person does once per project before the server is started.
func (w *world) makeCodeProject() error {
	copyOf := &world{root: w.root, home: w.home, project: filepath.Join(w.root, "code", "orders-service")}
	if err := copyOf.makeProject(); err != nil {
		return err
	}
	bin := filepath.Join(w.npm, "node_modules", "@colbymchenry", "codegraph-linux-x64", "bin", "codegraph")
	if err := runIn(copyOf.project, []string{"HOME=" + w.home, "CODEGRAPH_TELEMETRY=0", "CODEGRAPH_NO_DAEMON=1", "CODEGRAPH_NO_DOWNLOAD=1"}, bin, "init", "--yes"); err != nil {
		return err
	}
	// The server hands the index to a shared daemon of its own (its default), which
	// outlives the session: stopped by the pid its lockfile names when the world closes.
	w.stops = append(w.stops, func() {
		b, err := os.ReadFile(filepath.Join(copyOf.project, ".codegraph", "daemon.pid"))
		if err != nil {
			return
		}
		if pid, err := strconv.Atoi(regexp.MustCompile(`\d+`).FindString(string(b))); err == nil && pid > 1 {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
	})
	w.codeProject = copyOf.project
	return nil
}

// makeFilesProject writes a copy of the project for the file server, with
// the product photo the docs link to.
func (w *world) makeFilesProject() error {
	copyOf := &world{root: w.root, home: w.home, project: filepath.Join(w.root, "fsref", "orders-service")}
	if err := copyOf.makeProject(); err != nil {
		return err
	}
	if err := os.MkdirAll(copyOf.at("docs/img"), 0o755); err != nil {
		return err
	}
	f, err := os.Create(copyOf.at("docs/img/anvil.png"))
	if err != nil {
		return err
	}
	if err := png.Encode(f, productShot(160, 120)); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	w.filesProject = copyOf.project
	return nil
}

// makeContextProject writes a copy of the project for the project-context
// server, which writes its context files and tool configurations into it.
func (w *world) makeContextProject() error {
	copyOf := &world{root: w.root, home: w.home, project: filepath.Join(w.root, "ctx", "orders-service")}
	if err := copyOf.makeProject(); err != nil {
		return err
	}
	w.ctxProject = copyOf.project
	return nil
}

// makeLintProject writes a copy of the project for the linter server, with
// the ESLint configuration a JavaScript project keeps (core rules only, no
// plugin to install) and an older import script of the kind it flags.
func (w *world) makeLintProject() error {
	copyOf := &world{root: w.root, home: w.home, project: filepath.Join(w.root, "lint", "orders-service")}
	if err := copyOf.makeProject(); err != nil {
		return err
	}
	if err := copyOf.write("eslint.config.js", eslintConfig); err != nil {
		return err
	}
	if err := copyOf.write("scripts/import-legacy.js", legacyImportJS); err != nil {
		return err
	}
	w.lintProject = copyOf.project
	return nil
}

const eslintConfig = `// ESLint configuration of the orders service (core rules only).
module.exports = [
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "commonjs",
      globals: { require: "readonly", module: "writable", process: "readonly", console: "readonly", __dirname: "readonly" },
    },
    rules: {
      "no-unused-vars": "error",
      "no-undef": "error",
      "no-redeclare": "error",
      eqeqeq: "error",
      "prefer-const": "warn",
      "no-var": "warn",
      camelcase: "warn",
      "no-console": "warn",
      "no-warning-comments": ["warn", { terms: ["todo", "fixme"] }],
      curly: "warn",
      "no-empty": "error",
    },
  },
];
`

const legacyImportJS = `// import-legacy.js loads the 2019 order export into the new CSV format.
var fs = require("fs");
var path = require("path");
var orders = require("../src/orders");

function convert(line) {
  var parts = line.split(";");
  if (parts.length == 0) return null;
  var qty = parseInt(parts[3]);
  // FIXME: old exports used comma decimals
  var price = parseFloat(parts[4].replace(",", "."));
  return { order_id: parts[0], customer: parts[1], sku: parts[2], quantity: qty, unit_price: price };
}

function main(file) {
  let text = fs.readFileSync(file, "latin1");
  var rows = text.split("\n").slice(1).map(convert).filter(Boolean);
  try {
    fs.writeFileSync(outFile, JSON.stringify(rows));
  } catch (e) {}
  console.log("imported", rows.length, "orders");
}

main(process.argv[2]);
`

// makeDuckData writes the shop's data as CSV files for the analytics
// database server: customers, a quarter of orders, and the calls between
// the shop's services by month (a service graph).
func (w *world) makeDuckData() error {
	dir := filepath.Join(w.root, "analytics")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	customers := "customer_id,name,email,country,segment,signed_up\n" +
		"1,Ada Lovelace,ada@example.com,GB,business,2025-11-02\n2,Charles Babbage,charles@example.com,GB,business,2025-11-05\n" +
		"3,Grace Hopper,grace@example.com,US,enterprise,2025-12-01\n4,Alan Turing,alan@example.com,GB,consumer,2025-12-03\n" +
		"5,Katherine Johnson,katherine@example.com,US,enterprise,2025-12-20\n6,Edsger Dijkstra,edsger@example.com,NL,consumer,2026-01-02\n" +
		"7,Barbara Liskov,barbara@example.com,US,business,2026-01-04\n8,Donald Knuth,donald@example.com,US,consumer,2026-01-06\n"
	products := []struct {
		sku, name string
		price     float64
	}{{"ANV-001", "Anvil", 249.00}, {"RSK-002", "Rocket skates", 89.90}, {"MAG-003", "Giant magnet", 19.90}, {"SEED-004", "Bird seed", 4.50}, {"PILL-005", "Earthquake pills", 12.00}}
	statuses := []string{"shipped", "shipped", "shipped", "pending", "shipped", "cancelled", "shipped", "refunded"}
	orders := "order_id,customer_id,sku,product,quantity,unit_price,status,ordered_at\n"
	for i := 0; i < 60; i++ {
		p := products[(i*7+i/5)%len(products)]
		day := time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(i*36+i%7*5) * time.Hour)
		orders += fmt.Sprintf("%d,%d,%s,%s,%d,%.2f,%s,%s\n", 1001+i, 1+(i*5)%8, p.sku, p.name, 1+(i*3)%6, p.price, statuses[(i*3)%len(statuses)], day.Format("2006-01-02T15:04:05Z"))
	}
	services := "node_id,name,team,tier\napi,Orders API,orders,edge\norders-db,Orders database,orders,data\npayments,Payments,billing,core\n" +
		"billing,Billing,billing,core\nexport-worker,CSV export worker,orders,batch\ncard-provider,Card provider (external),billing,external\n" +
		"search,Product search,catalog,core\ncatalog-db,Catalog database,catalog,data\nmailer,Mailer,platform,core\n"
	calls := "source,target,requests_per_min,p95_ms,month\n" +
		"api,orders-db,1200,18,2026-01\napi,payments,310,240,2026-01\napi,search,640,45,2026-01\nsearch,catalog-db,900,12,2026-01\n" +
		"payments,card-provider,300,820,2026-01\npayments,billing,150,60,2026-01\nexport-worker,orders-db,40,950,2026-01\nbilling,mailer,80,30,2026-01\n" +
		"api,orders-db,1350,21,2026-02\napi,payments,360,260,2026-02\napi,search,610,44,2026-02\nsearch,catalog-db,880,13,2026-02\n" +
		"payments,card-provider,350,1900,2026-02\npayments,billing,170,65,2026-02\nexport-worker,orders-db,120,1400,2026-02\nexport-worker,mailer,12,35,2026-02\napi,export-worker,25,15,2026-02\n"
	for name, body := range map[string]string{"customers.csv": customers, "orders.csv": orders, "services.csv": services, "service_calls.csv": calls} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	w.duckData = dir
	return nil
}
