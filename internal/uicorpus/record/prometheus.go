package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// Prometheus from Debian on loopback, for the monitoring server: it scrapes
// itself, the shop's API (/metrics on the API server, services.go) and a
// billing service that is down, and evaluates a recording rule and two
// alerts, for a few seconds before the server is called.

// shopScrapes counts the scrapes of the shop's metrics: its counters grow
// with them, as a live service's do.
var shopScrapes atomic.Int64

// shopMetrics answers a scrape in Prometheus's text format.
func shopMetrics(rw http.ResponseWriter, _ *http.Request) {
	n := shopScrapes.Add(1)
	rw.Header().Set("Content-Type", "text/plain; version=0.0.4")
	var b strings.Builder
	b.WriteString("# HELP orders_created_total Orders placed, by status at creation.\n# TYPE orders_created_total counter\n")
	for i, st := range []string{"pending", "shipped", "cancelled"} {
		fmt.Fprintf(&b, "orders_created_total{status=%q} %d\n", st, 1040+n*int64(3-i))
	}
	b.WriteString("# HELP http_requests_total HTTP requests served, by route and code.\n# TYPE http_requests_total counter\n")
	routes := []struct {
		method, route, code string
		per                 int64
	}{{"GET", "/orders", "200", 12}, {"GET", "/orders/:id", "200", 7}, {"GET", "/orders/:id", "404", 1}, {"POST", "/orders", "201", 2}, {"GET", "/orders/export", "200", 1}, {"GET", "/healthz", "200", 4}}
	for _, r := range routes {
		fmt.Fprintf(&b, "http_requests_total{method=%q,route=%q,code=%q} %d\n", r.method, r.route, r.code, 5000+n*r.per)
	}
	b.WriteString("# HELP http_request_duration_seconds Time to answer, by route.\n# TYPE http_request_duration_seconds histogram\n")
	for _, r := range []struct {
		route string
		slow  int64
	}{{"/orders", 1}, {"/orders/export", 6}} {
		cum := int64(0)
		for i, le := range []string{"0.05", "0.1", "0.25", "0.5", "1", "2.5", "+Inf"} {
			share := []int64{40, 30, 15, 8, 4, 2, 1}[i]
			if r.slow > 1 && i >= 4 {
				share *= r.slow
			}
			cum += share * n
			fmt.Fprintf(&b, "http_request_duration_seconds_bucket{route=%q,le=%q} %d\n", r.route, le, cum)
		}
		fmt.Fprintf(&b, "http_request_duration_seconds_sum{route=%q} %.3f\nhttp_request_duration_seconds_count{route=%q} %d\n", r.route, float64(cum)*0.13*float64(r.slow), r.route, cum)
	}
	b.WriteString("# HELP orders_export_rows Rows written by the last CSV export.\n# TYPE orders_export_rows gauge\n")
	fmt.Fprintf(&b, "orders_export_rows %d\n", 25+n%3)
	b.WriteString("# HELP orders_db_connections Open database connections.\n# TYPE orders_db_connections gauge\norders_db_connections{state=\"idle\"} 4\norders_db_connections{state=\"in_use\"} 2\n")
	_, _ = rw.Write([]byte(b.String()))
}

const promRules = `groups:
  - name: orders
    rules:
      - record: route:http_requests:rate30s
        expr: sum by (route) (rate(http_requests_total[30s]))
      - alert: ExportSlow
        expr: histogram_quantile(0.9, sum by (le) (rate(http_request_duration_seconds_bucket{route="/orders/export"}[30s]))) > 0.5
        labels: {severity: warning, team: orders}
        annotations: {summary: "CSV export p90 above 500 ms", runbook: "docs/guide.md#export"}
      - alert: BillingDown
        expr: up{job="billing"} == 0
        labels: {severity: critical, team: billing}
        annotations: {summary: "billing has not answered a scrape"}
`

// startPrometheus runs Debian's prometheus on loopback and waits until it
// has scraped a few times.
func (w *world) startPrometheus() error {
	if err := w.need("api"); err != nil {
		return err
	}
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		return errors.New("prometheus not found (apt-get install prometheus)")
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	dir := filepath.Join(w.root, "prometheus")
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return err
	}
	cfg := fmt.Sprintf(`global: {scrape_interval: 1s, evaluation_interval: 1s, external_labels: {cluster: staging}}
rule_files: [rules.yml]
scrape_configs:
  - job_name: prometheus
    static_configs: [{targets: ["127.0.0.1:%d"]}]
  - job_name: orders-api
    static_configs: [{targets: ["%s"], labels: {service: orders, env: staging}}]
  - job_name: billing
    static_configs: [{targets: ["127.0.0.1:9"], labels: {service: billing, env: staging}}]
`, port, w.api)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yml"), []byte(promRules), 0o644); err != nil {
		return err
	}
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		fmt.Sprintf("--web.listen-address=127.0.0.1:%d", port), "--storage.tsdb.retention.time=1h", "--log.level=warn")
	cmd.Dir = dir
	w.prometheus = fmt.Sprintf("http://127.0.0.1:%d", port)
	ready := func(ctx context.Context) bool {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, w.prometheus+"/-/ready", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if err := w.startService("prometheus", cmd, 60*time.Second, ready); err != nil {
		return err
	}
	w.ports[port] = 9090
	// Enough scrapes for rates over 30 s windows and for the alerts to fire.
	time.Sleep(12 * time.Second)
	return nil
}
