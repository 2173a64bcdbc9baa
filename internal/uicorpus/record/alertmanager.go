package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Alertmanager from Debian on loopback, for the alerting server: routes by
// team to a pager and two chat channels (webhooks answered by a local
// stand-in), an inhibition of warnings by a critical alert of the same team,
// and the shop's alerts posted to it as Prometheus would: the export slow,
// billing down, the payment provider timing out, a disk filling up, a
// certificate expiring, one already resolved, and a silence over a
// maintenance window.

const alertmanagerConfig = `global:
  resolve_timeout: 5m
route:
  receiver: ops-chat
  group_by: [alertname, service]
  group_wait: 1s
  group_interval: 5m
  repeat_interval: 4h
  routes:
    - matchers: ['severity="critical"']
      receiver: ops-pager
      continue: true
    - matchers: ['team="orders"']
      receiver: orders-chat
    - matchers: ['team="billing"']
      receiver: billing-chat
inhibit_rules:
  - source_matchers: ['severity="critical"']
    target_matchers: ['severity="warning"']
    equal: [team]
receivers:
  - name: ops-pager
    webhook_configs: [{url: "http://%[1]s/pager", send_resolved: true}]
  - name: ops-chat
    webhook_configs: [{url: "http://%[1]s/chat/ops"}]
  - name: orders-chat
    webhook_configs: [{url: "http://%[1]s/chat/orders"}]
  - name: billing-chat
    webhook_configs: [{url: "http://%[1]s/chat/billing"}]
`

// shopAlerts are the alerts posted: labels, annotations and how long ago
// each started (and ended, for a resolved one), in minutes.
func shopAlerts(now time.Time, prometheus string) []map[string]any {
	alert := func(name, severity, team, service, instance, summary, description string, startedAgo, endsIn int) map[string]any {
		return map[string]any{
			"labels": map[string]string{"alertname": name, "severity": severity, "team": team, "service": service, "instance": instance, "env": "staging", "cluster": "staging"},
			"annotations": map[string]string{"summary": summary, "description": description,
				"runbook_url": "https://runbooks.example/" + name},
			"startsAt":     now.Add(-time.Duration(startedAgo) * time.Minute).UTC().Format(time.RFC3339),
			"endsAt":       now.Add(time.Duration(endsIn) * time.Minute).UTC().Format(time.RFC3339),
			"generatorURL": prometheus + "/graph?g0.expr=" + name,
		}
	}
	return []map[string]any{
		alert("ExportSlow", "warning", "orders", "orders-api", "orders-api:4000", "CSV export p90 above 500 ms",
			"The 90th percentile of /orders/export has been 1.2 s for 10 minutes; the export query scans orders without an index.", 42, 60),
		alert("BillingDown", "critical", "billing", "billing", "billing:9100", "billing has not answered a scrape",
			"up{job=\"billing\"} has been 0 for 3 minutes; invoices queue in the outbox.", 18, 60),
		alert("PaymentProviderTimeouts", "critical", "orders", "payments", "payments:8443", "Card provider timing out on 12% of charges",
			"charge card spans to card-provider exceed 2.5 s on 12% of checkouts since 08:45.", 15, 60),
		alert("DiskSpaceLow", "warning", "infra", "postgres", "db-1:9100", "Disk /var/lib/postgresql 91% full",
			"The orders database volume grows 2 GB a day; it fills in about 3 days.", 130, 60),
		alert("CertificateExpiring", "info", "infra", "shop-web", "shop.example:443", "TLS certificate expires in 13 days",
			"The certificate of shop.example expires on 15 December 2026.", 300, 60),
		alert("HighErrorRate", "warning", "orders", "orders-api", "orders-api:4000", "5xx above 2% on /orders",
			"Resolved after the connection pool was raised from 10 to 20.", 95, -20),
	}
}

// startAlertmanager runs Debian's prometheus-alertmanager on loopback with
// the shop's alerts and a silence.
func (w *world) startAlertmanager() error {
	bin, err := exec.LookPath("prometheus-alertmanager")
	if err != nil {
		return errors.New("prometheus-alertmanager not found (apt-get install prometheus-alertmanager)")
	}
	// The receivers' webhooks: a local stand-in that takes every notification.
	hooks, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hsrv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(http.StatusOK) }), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hsrv.Serve(hooks) }()
	w.stops = append(w.stops, func() { _ = hsrv.Close() })
	w.ports[hooks.Addr().(*net.TCPAddr).Port] = 8088
	port, err := freePort()
	if err != nil {
		return err
	}
	dir := filepath.Join(w.root, "alertmanager")
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "alertmanager.yml"), []byte(fmt.Sprintf(alertmanagerConfig, hooks.Addr().String())), 0o644); err != nil {
		return err
	}
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "alertmanager.yml"), "--storage.path="+filepath.Join(dir, "data"),
		fmt.Sprintf("--web.listen-address=127.0.0.1:%d", port), "--cluster.listen-address=", "--log.level=warn")
	cmd.Dir = dir
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	ready := func(ctx context.Context) bool {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/-/ready", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if err := w.startService("prometheus-alertmanager", cmd, 30*time.Second, ready); err != nil {
		return err
	}
	w.ports[port] = 9093
	post := func(path string, body any) error {
		b, _ := json.Marshal(body)
		resp, err := http.Post(url+path, "application/json", bytes.NewReader(b))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("alertmanager %s: %s", path, resp.Status)
		}
		return nil
	}
	now := time.Now()
	if err := post("/api/v2/alerts", shopAlerts(now, "http://127.0.0.1:9090")); err != nil {
		return err
	}
	if err := post("/api/v2/silences", map[string]any{
		"matchers":  []map[string]any{{"name": "alertname", "value": "DiskSpaceLow", "isRegex": false, "isEqual": true}, {"name": "instance", "value": "db-1:9100", "isRegex": false, "isEqual": true}},
		"startsAt":  now.Add(-10 * time.Minute).UTC().Format(time.RFC3339),
		"endsAt":    now.Add(3 * time.Hour).UTC().Format(time.RFC3339),
		"createdBy": "grace@example.com",
		"comment":   "Volume resize in the maintenance window (ticket OPS-311)",
	}); err != nil {
		return err
	}
	w.alertmanager = url
	// The groups form (group_wait) before the server is called.
	time.Sleep(2 * time.Second)
	return nil
}
