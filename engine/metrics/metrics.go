// Package metrics is genui's Prometheus instrumentation: one registry per
// running genui (never the global one, so tests and several engines in one
// process do not collide), served at GET /metrics on the API port.
//
// Counters and histograms are updated where the work happens (the MCP host
// times requests, the engine counts generations and upstream errors);
// values the engine already keeps (cache hits, misses and evictions,
// upstream restarts, /wait pollers and queue length) are read at scrape
// time. Every method is safe on a nil *Metrics (it does nothing).
package metrics

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Generation outcomes (label "outcome" of genui_generations_total).
const (
	OutcomeGenerated = "generated" // the generator's page was used as is
	OutcomeRepaired  = "repaired"  // an LLM page was repaired, then used
	OutcomeFallback  = "fallback"  // the LLM failed; the offline UI stands in
	OutcomeFailed    = "failed"    // no usable page (emergency page served)
)

// Metrics holds genui's collectors and their registry.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.HistogramVec
	upErrors    *prometheus.CounterVec
	generations *prometheus.CounterVec
	genDuration *prometheus.HistogramVec
	// observers caches requests' histogram children by method, proxied
	// and failed (WithLabelValues per request allocates); a child is made
	// when first observed, so /metrics lists only series that happened.
	obsMu     sync.Mutex
	observers map[string]*[2][2]prometheus.Observer
}

// New builds the collectors in a fresh registry (plus the Go runtime and
// process collectors).
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: "genui", Name: "mcp_request_duration_seconds",
		Help:    "MCP requests from hosts by method; proxied=true when genui forwarded it to the upstream.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
	}, []string{"method", "proxied", "error"})
	m.upErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "genui", Name: "upstream_errors_total",
		Help: "Upstream failures: kind=unavailable (not connected, connection lost), rpc (a JSON-RPC error answer), connection (a connection attempt or a live connection failed).",
	}, []string{"kind"})
	m.generations = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "genui", Name: "generations_total",
		Help: "UI generations by generator and outcome (generated, repaired, fallback, failed).",
	}, []string{"generator", "outcome"})
	m.genDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: "genui", Name: "generation_duration_seconds",
		Help:    "How long UI generations took, by generator and outcome.",
		Buckets: []float64{.005, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 20, 30, 60, 90, 120},
	}, []string{"generator", "outcome"})
	m.reg.MustRegister(m.requests, m.upErrors, m.generations, m.genDuration,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.observers = map[string]*[2][2]prometheus.Observer{}
	return m
}

// observer is the histogram child of (method, proxied, failed).
func (m *Metrics) observer(method string, proxied, failed bool) prometheus.Observer {
	m.obsMu.Lock()
	defer m.obsMu.Unlock()
	o := m.observers[method]
	if o == nil {
		o = new([2][2]prometheus.Observer)
		m.observers[method] = o
	}
	p, f := b2i(proxied), b2i(failed)
	if o[p][f] == nil {
		o[p][f] = m.requests.WithLabelValues(method, strconv.FormatBool(proxied), strconv.FormatBool(failed))
	}
	return o[p][f]
}

// Registry is the registry the collectors live in.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// knownMethods bounds the method label (hosts may send anything).
var knownMethods = map[string]bool{
	"initialize": true, "ping": true, "tools/list": true, "tools/call": true, "resources/list": true,
	"resources/read": true, "resources/templates/list": true, "resources/subscribe": true,
	"resources/unsubscribe": true, "prompts/list": true, "prompts/get": true, "completion/complete": true,
	"logging/setLevel": true, "server/discover": true, "subscriptions/listen": true,
}

// ObserveRequest records one MCP request's latency.
func (m *Metrics) ObserveRequest(method string, proxied, failed bool, d time.Duration) {
	if m == nil {
		return
	}
	if !knownMethods[method] {
		method = "other"
	}
	m.observer(method, proxied, failed).Observe(d.Seconds())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// UpstreamError counts one upstream failure of kind (unavailable, rpc,
// connection).
func (m *Metrics) UpstreamError(kind string) {
	if m == nil {
		return
	}
	m.upErrors.WithLabelValues(kind).Inc()
}

// Generation counts one finished generation.
func (m *Metrics) Generation(generator, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.generations.WithLabelValues(generator, outcome).Inc()
	m.genDuration.WithLabelValues(generator, outcome).Observe(d.Seconds())
}

// Sources are the values the engine keeps itself, read at scrape time.
// Nil functions are not registered.
type Sources struct {
	CacheHits, CacheMisses, CacheEvictions func() float64
	CacheEntries, CacheBytes               func() float64
	UpstreamRestarts                       func() float64
	UpstreamConnected                      func() float64
	WaitPollers, QueueLength               func() float64
}

// Observe registers the engine's own counters and gauges.
func (m *Metrics) Observe(s Sources) {
	if m == nil {
		return
	}
	counter := func(name, help string, f func() float64) {
		if f != nil {
			m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "genui", Name: name, Help: help}, f))
		}
	}
	gauge := func(name, help string, f func() float64) {
		if f != nil {
			m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "genui", Name: name, Help: help}, f))
		}
	}
	counter("cache_hits_total", "UI cache lookups that found an entry.", s.CacheHits)
	counter("cache_misses_total", "UI cache lookups that found none.", s.CacheMisses)
	counter("cache_evictions_total", "UI cache entries evicted by the size limits.", s.CacheEvictions)
	gauge("cache_entries", "UIs in the cache.", s.CacheEntries)
	gauge("cache_bytes", "Bytes the cached UIs take.", s.CacheBytes)
	counter("upstream_restarts_total", "Upstream connection attempts after the first (restarts and reconnects).", s.UpstreamRestarts)
	gauge("upstream_connected", "1 while the upstream is connected.", s.UpstreamConnected)
	gauge("wait_pollers", "Agents blocked in GET /wait right now.", s.WaitPollers)
	gauge("wait_queue_length", "Events pending in the /wait queue.", s.QueueLength)
}
