package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// The shop's telemetry for the OpenTelemetry server (heldout.go): an hour of
// traces, metric series and logs of the orders service as the server's
// fixture backend reads them (its own format: traces with their spans,
// series with points, log records). Checkout requests through the API, the
// orders database and the payment service; the payment provider times out
// in the last quarter of the hour, which shows in the latencies, the error
// spans, the error logs and the metrics; a support assistant calls an LLM
// with a tool.

type otelSpan struct {
	TraceID   string         `json:"traceId"`
	SpanID    string         `json:"spanId"`
	Parent    string         `json:"parentSpanId,omitempty"`
	Operation string         `json:"operationName"`
	Service   string         `json:"serviceName"`
	Start     int64          `json:"startTimeUnixMs"`
	Duration  int64          `json:"durationMs"`
	Tags      map[string]any `json:"tags"`
	HasError  bool           `json:"hasError"`
	Status    string         `json:"statusCode"`
}

type otelTrace struct {
	TraceID  string     `json:"traceId"`
	Service  string     `json:"serviceName"`
	Start    int64      `json:"startTimeUnixMs"`
	Duration int64      `json:"durationMs"`
	Status   string     `json:"statusCode"`
	Spans    []otelSpan `json:"spans"`
}

type otelPoint struct {
	At    int64   `json:"timestampUnixMs"`
	Value float64 `json:"value"`
}

type otelSeries struct {
	Name       string            `json:"metricName"`
	Unit       string            `json:"unit"`
	Points     []otelPoint       `json:"points"`
	Attributes map[string]string `json:"attributes"`
}

type otelLog struct {
	At         int64             `json:"timestampUnixMs"`
	Severity   string            `json:"severityText"`
	Body       string            `json:"body"`
	Service    string            `json:"serviceName"`
	TraceID    string            `json:"traceId,omitempty"`
	SpanID     string            `json:"spanId,omitempty"`
	Attributes map[string]string `json:"attributes"`
}

// otelStart is 2 December 2026 08:00 UTC.
const otelStart = int64(1796198400000)

func shopTelemetry() map[string]any {
	var traces []otelTrace
	var logs []otelLog
	status := func(bad bool) string {
		if bad {
			return "ERROR"
		}
		return "OK"
	}
	for i := range 24 {
		id := fmt.Sprintf("4bf92f3577b34da6a3ce929d0e0e%04x", 0x4736+i)
		at := otelStart + int64(i)*150_000
		failing := i >= 18 && i%2 == 0
		payMs := int64(90 + (i*37)%60)
		if i >= 18 {
			payMs = 2400 + int64(i%3)*300
		}
		dbMs := int64(8 + (i*13)%12)
		total := 40 + dbMs + payMs + 25
		route := "/api/v1/orders"
		customer := []string{"Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson"}[i%4]
		spans := []otelSpan{
			{TraceID: id, SpanID: fmt.Sprintf("a%03d", i), Operation: "POST " + route, Service: "shop-api", Start: at, Duration: total,
				Tags:     map[string]any{"http.method": "POST", "http.route": route, "http.status_code": map[bool]int{false: 201, true: 502}[failing], "shop.customer": customer, "trace.id": id, "status.code": status(failing)},
				HasError: failing, Status: status(failing)},
			{TraceID: id, SpanID: fmt.Sprintf("b%03d", i), Parent: fmt.Sprintf("a%03d", i), Operation: "INSERT shop.orders", Service: "orders-db", Start: at + 12, Duration: dbMs,
				Tags: map[string]any{"db.system": "postgresql", "db.operation": "INSERT", "db.sql.table": "orders", "trace.id": id, "status.code": "OK"}, Status: "OK"},
			{TraceID: id, SpanID: fmt.Sprintf("c%03d", i), Parent: fmt.Sprintf("a%03d", i), Operation: "charge card", Service: "payments", Start: at + 20 + dbMs, Duration: payMs,
				Tags:     map[string]any{"rpc.system": "grpc", "rpc.method": "Charge", "peer.service": "card-provider", "trace.id": id, "status.code": status(failing)},
				HasError: failing, Status: status(failing)},
		}
		if i == 5 {
			// The list page loads each order's product one by one: an N+1.
			for k, sku := range []string{"ANV-001", "MAG-003", "ANV-001", "SEED-004"} {
				spans = append(spans, otelSpan{TraceID: id, SpanID: fmt.Sprintf("f%03d", k), Parent: spans[0].SpanID, Operation: "SELECT shop.products", Service: "orders-db",
					Start: at + 14 + int64(k)*6, Duration: 4 + int64(k%2),
					Tags: map[string]any{"db.system": "postgresql", "db.operation": "SELECT", "db.sql.table": "products", "db.statement": "SELECT name, unit_price FROM products WHERE sku = $1", "db.sku": sku, "trace.id": id, "status.code": "OK"}, Status: "OK"})
			}
		}
		if failing {
			spans[2].Tags["error.message"] = "card provider timed out after 2.5s"
			logs = append(logs,
				otelLog{At: at + 20 + dbMs + payMs, Severity: "ERROR", Body: "charge failed: card provider timed out after 2.5s", Service: "payments", TraceID: id, SpanID: spans[2].SpanID,
					Attributes: map[string]string{"service.name": "payments", "trace.id": id, "retry": "false"}},
				otelLog{At: at + total, Severity: "ERROR", Body: fmt.Sprintf("POST %s answered 502 for %s: payment failed", route, customer), Service: "shop-api", TraceID: id, SpanID: spans[0].SpanID,
					Attributes: map[string]string{"service.name": "shop-api", "trace.id": id, "http.status_code": "502"}})
		} else {
			logs = append(logs, otelLog{At: at + total, Severity: "INFO", Body: fmt.Sprintf("order %d created for %s", 1001+i, customer), Service: "shop-api", TraceID: id, SpanID: spans[0].SpanID,
				Attributes: map[string]string{"service.name": "shop-api", "trace.id": id, "order.id": fmt.Sprint(1001 + i)}})
			if i >= 18 {
				logs = append(logs, otelLog{At: at + 20 + dbMs + payMs, Severity: "WARN", Body: fmt.Sprintf("slow charge: card provider answered in %d ms", payMs), Service: "payments", TraceID: id, SpanID: spans[2].SpanID,
					Attributes: map[string]string{"service.name": "payments", "trace.id": id}})
			}
		}
		traces = append(traces, otelTrace{TraceID: id, Service: "shop-api", Start: at, Duration: total, Status: status(failing), Spans: spans})
	}
	for i := range 6 {
		id := fmt.Sprintf("7c2d1e0a9b8f4e6d8a1b2c3d4e5f%04x", 0x1000+i)
		at := otelStart + 300_000 + int64(i)*540_000
		slow := i == 4
		dur := int64(1400 + i*210)
		if slow {
			dur = 9800
		}
		model := []string{"gpt-4o-mini", "claude-3-5-haiku"}[i%2]
		system := []string{"openai", "anthropic"}[i%2]
		in, out := 420+i*35, 110+i*22
		traces = append(traces, otelTrace{TraceID: id, Service: "support-assistant", Start: at, Duration: dur, Status: status(slow), Spans: []otelSpan{
			{TraceID: id, SpanID: fmt.Sprintf("d%03d", i), Operation: "chat " + model, Service: "support-assistant", Start: at, Duration: dur,
				Tags: map[string]any{"gen_ai.system": system, "gen_ai.operation.name": "chat", "gen_ai.request.model": model, "gen_ai.response.model": model,
					"gen_ai.usage.input_tokens": in, "gen_ai.usage.output_tokens": out, "gen_ai.usage.total_tokens": in + out, "gen_ai.response.finish_reasons": map[bool]string{false: "stop", true: "length"}[slow],
					"trace.id": id, "status.code": status(slow)}, HasError: slow, Status: status(slow)},
			{TraceID: id, SpanID: fmt.Sprintf("e%03d", i), Parent: fmt.Sprintf("d%03d", i), Operation: "lookup_order", Service: "support-assistant", Start: at + 300, Duration: 45 + int64(i)*5,
				Tags: map[string]any{"traceloop.span.kind": "tool", "gen_ai.tool.name": "lookup_order", "gen_ai.system": system, "trace.id": id, "status.code": "OK"}, Status: "OK"},
		}})
		if slow {
			traces[len(traces)-1].Spans[0].Tags["error.message"] = "response cut at max_tokens"
			logs = append(logs, otelLog{At: at + dur, Severity: "WARN", Body: "assistant answer cut at max_tokens after 9.8 s", Service: "support-assistant", TraceID: id, SpanID: fmt.Sprintf("d%03d", i),
				Attributes: map[string]string{"service.name": "support-assistant", "trace.id": id}})
		}
	}
	series := func(name, unit, service string, extra map[string]string, f func(i int) float64) otelSeries {
		attrs := map[string]string{"service.name": service}
		for k, v := range extra {
			attrs[k] = v
		}
		s := otelSeries{Name: name, Unit: unit, Attributes: attrs}
		for i := range 12 {
			s.Points = append(s.Points, otelPoint{At: otelStart + int64(i)*300_000, Value: f(i)})
		}
		return s
	}
	metrics := []otelSeries{
		series("http.server.request.duration", "ms", "shop-api", map[string]string{"http.route": "/api/v1/orders", "quantile": "p95"}, func(i int) float64 {
			if i >= 9 {
				return 2650 + float64(i%3)*180
			}
			return 180 + float64((i*17)%40)
		}),
		series("http.server.requests", "{request}", "shop-api", map[string]string{"http.route": "/api/v1/orders"}, func(i int) float64 { return 38 + float64((i*7)%11) }),
		series("http.server.errors", "{request}", "shop-api", map[string]string{"http.route": "/api/v1/orders", "http.status_code": "502"}, func(i int) float64 {
			if i >= 9 {
				return 6 + float64(i%2)*3
			}
			return 0
		}),
		series("db.client.operation.duration", "ms", "orders-db", map[string]string{"db.operation": "INSERT"}, func(i int) float64 { return 11 + float64((i*5)%7) }),
		series("payments.charge.duration", "ms", "payments", map[string]string{"peer.service": "card-provider"}, func(i int) float64 {
			if i >= 9 {
				return 2400 + float64(i%3)*300
			}
			return 95 + float64((i*11)%50)
		}),
		series("process.memory.usage", "By", "shop-api", nil, func(i int) float64 { return 61_000_000 + float64(i)*850_000 }),
	}
	return map[string]any{"traces": traces, "metrics": metrics, "logs": logs}
}

// makeTelemetry writes the shop's telemetry where the server's fixture
// backend reads it.
func (w *world) makeTelemetry() error {
	b, err := json.MarshalIndent(shopTelemetry(), "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(w.root, "telemetry", "shop.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	w.telemetry = path
	return os.WriteFile(path, b, 0o644)
}
