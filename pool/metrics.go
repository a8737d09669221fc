package pool

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"bext/lifecycle"
)

// metrics are the series updated as things happen; the rest are read from
// the slots at scrape time (Collect). Per-worker series are labelled by slot
// id, so cardinality stays fixed across rotations.
type metrics struct {
	requests      *prometheus.CounterVec
	failures      *prometheus.CounterVec
	renderSeconds *prometheus.HistogramVec
	queueTimeouts prometheus.Counter
	transitions   *prometheus.CounterVec
	bootFailures  prometheus.Counter
	memWalk       prometheus.Histogram
	memInterrupts prometheus.Counter
	live          []prometheus.Collector
}

func newMetrics() *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bext_worker_requests_total", Help: "Renders handled by a worker slot, across rotations.",
		}, []string{"worker"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bext_worker_failures_total", Help: "Renders that failed (threw, timed out, crashed), by worker slot and kind.",
		}, []string{"worker", "kind"}),
		renderSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "bext_worker_render_duration_seconds", Help: "Time a worker spent rendering one request.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"worker"}),
		queueTimeouts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "bext_pool_queue_timeouts_total", Help: "Requests answered 503 because every worker stayed busy for queue_timeout_ms.",
		}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bext_worker_transitions_total", Help: "Worker state transitions, by from, to and reason.",
		}, []string{"from", "to", "reason"}),
		bootFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "bext_worker_boot_failures_total", Help: "Isolates that failed to boot (the bundle threw at load or host setup failed).",
		}),
		memWalk: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "bext_memory_walk_duration_seconds", Help: "Time a worker was held by the memory monitor to attribute its heap.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 9),
		}),
	}
	m.memInterrupts = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "bext_render_memory_interrupts_total", Help: "Renders the memory guard interrupted (heap growth over max_render_memory_mb, or the heap at the soft memory limit).",
	})
	m.live = []prometheus.Collector{m.requests, m.failures, m.renderSeconds, m.queueTimeouts, m.transitions, m.bootFailures, m.memWalk, m.memInterrupts}
	return m
}

func (m *metrics) observeRender(id int, d time.Duration, err error) {
	w := strconv.Itoa(id)
	m.requests.WithLabelValues(w).Inc()
	m.renderSeconds.WithLabelValues(w).Observe(d.Seconds())
	if err != nil {
		m.failures.WithLabelValues(w, failureKind(err)).Inc()
	}
}

var (
	descMemory   = prometheus.NewDesc("bext_worker_memory_bytes", "Go heap attributed to the worker's isolate at the last check.", []string{"worker"}, nil)
	descPeak     = prometheus.NewDesc("bext_worker_memory_peak_bytes", "Highest attributed heap measured in the slot, across its isolates.", []string{"worker"}, nil)
	descHealth   = prometheus.NewDesc("bext_worker_health", "1 for the worker's current health (healthy, unhealthy, unknown), 0 for the others.", []string{"worker", "health"}, nil)
	descUptime   = prometheus.NewDesc("bext_worker_uptime_seconds", "Time the worker's current isolate has been ACTIVE.", []string{"worker"}, nil)
	descRestarts = prometheus.NewDesc("bext_worker_restarts_total", "Isolate replacements in a slot, by reason.", []string{"worker", "reason"}, nil)
	descState    = prometheus.NewDesc("bext_worker_state", "1 for the slot's current state, 0 for the others.", []string{"worker", "state"}, nil)
	descFailures = prometheus.NewDesc("bext_worker_consecutive_failures", "Consecutive boot failures of the slot.", []string{"worker"}, nil)
	descGaveUp   = prometheus.NewDesc("bext_worker_slot_failed", "1 when the slot gave up after max_consecutive_failures and stays empty.", []string{"worker"}, nil)
	descGen      = prometheus.NewDesc("bext_worker_generation", "Generation of the slot's isolate (increments on every replacement).", []string{"worker"}, nil)
	descQueue    = prometheus.NewDesc("bext_pool_queue_depth", "Requests waiting for a free worker.", nil, nil)
	descInFlight = prometheus.NewDesc("bext_pool_in_flight", "Renders running now.", nil, nil)
	descBusy     = prometheus.NewDesc("bext_pool_busy_workers", "Workers rendering a request now.", nil, nil)
	descActive   = prometheus.NewDesc("bext_pool_active_workers", "Workers in state ACTIVE.", nil, nil)
	descSize     = prometheus.NewDesc("bext_pool_workers", "Configured worker slots (jsc_workers).", nil, nil)
)

// Describe implements prometheus.Collector.
func (p *Pool) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range p.metrics.live {
		c.Describe(ch)
	}
	for _, d := range []*prometheus.Desc{descMemory, descPeak, descHealth, descUptime, descRestarts, descState, descFailures, descGaveUp, descGen, descQueue, descInFlight, descBusy, descActive, descSize} {
		ch <- d
	}
}

// Collect implements prometheus.Collector, reading slot state at scrape time.
func (p *Pool) Collect(ch chan<- prometheus.Metric) {
	for _, c := range p.metrics.live {
		c.Collect(ch)
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	busy := 0
	for _, st := range p.Snapshot() {
		w := strconv.Itoa(st.ID)
		gauge(descMemory, float64(st.CurrentMemoryBytes), w)
		gauge(descPeak, float64(st.PeakMemoryBytes), w)
		for _, h := range lifecycle.AllHealth {
			gauge(descHealth, b2f(string(h) == st.Health), w, string(h))
		}
		gauge(descUptime, st.UptimeSeconds, w)
		for _, r := range lifecycle.RotationReasons {
			ch <- prometheus.MustNewConstMetric(descRestarts, prometheus.CounterValue, float64(st.restartsBy[r]), w, string(r))
		}
		for _, s := range lifecycle.AllStates {
			v := 0.0
			if s.String() == st.State {
				v = 1
			}
			gauge(descState, v, w, s.String())
		}
		gauge(descFailures, float64(st.ConsecutiveFailures), w)
		gauge(descGaveUp, b2f(st.GaveUp), w)
		gauge(descGen, float64(st.Generation), w)
		if st.InFlight > 0 {
			busy++
		}
	}
	gauge(descQueue, float64(p.QueueDepth()))
	gauge(descInFlight, float64(p.InFlight()))
	gauge(descBusy, float64(busy))
	gauge(descActive, float64(p.ActiveWorkers()))
	gauge(descSize, float64(len(p.slots)))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
