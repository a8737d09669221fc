package cache

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// result is how the cache answered a request (the label of
// bext_cache_requests_total).
type result int

const (
	resHit        result = iota // fresh entry
	resStale                    // stale entry within stale-while-revalidate, refreshed in the background
	resMiss                     // rendered for this request
	resCollapsed                // waited for another request's render of the same key and shared it
	resBypass                   // not eligible: method, Authorization, Cookie, Range, Upgrade
	resErrorStale               // the render failed and a stale entry within stale-if-error answered
	nResults
)

var resultNames = [nResults]string{"hit", "stale", "miss", "collapsed", "bypass", "error_stale"}

type metrics struct {
	requests      [nResults]atomic.Uint64
	stores        atomic.Uint64
	evictions     atomic.Uint64
	expirations   atomic.Uint64
	purged        atomic.Uint64
	revalidations atomic.Uint64
	revalFailed   atomic.Uint64
	revalDuration prometheus.Histogram

	dRequests, dBytes, dMaxBytes, dEntries, dEvictions, dExpirations, dStores, dPurged, dReval *prometheus.Desc
}

func (m *metrics) init() {
	m.revalDuration = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "bext_cache_revalidation_duration_seconds",
		Help:    "Duration of background revalidations of stale entries (stale-while-revalidate).",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	})
	m.dRequests = prometheus.NewDesc("bext_cache_requests_total", "Requests through the page cache by result: hit, stale (served during stale-while-revalidate), miss, collapsed (shared another request's render), bypass (not eligible), error_stale (stale served for a failed render).", []string{"result"}, nil)
	m.dBytes = prometheus.NewDesc("bext_cache_bytes", "Memory held by page cache entries, by their real size.", nil, nil)
	m.dMaxBytes = prometheus.NewDesc("bext_cache_max_bytes", "The page cache's memory bound (max_bytes).", nil, nil)
	m.dEntries = prometheus.NewDesc("bext_cache_entries", "Responses in the page cache.", nil, nil)
	m.dEvictions = prometheus.NewDesc("bext_cache_evictions_total", "Entries evicted to keep the page cache within max_bytes.", nil, nil)
	m.dExpirations = prometheus.NewDesc("bext_cache_expirations_total", "Entries removed after their freshness and stale windows ended.", nil, nil)
	m.dStores = prometheus.NewDesc("bext_cache_stores_total", "Responses stored in the page cache.", nil, nil)
	m.dPurged = prometheus.NewDesc("bext_cache_purged_total", "Entries removed by purges.", nil, nil)
	m.dReval = prometheus.NewDesc("bext_cache_revalidations_total", "Background revalidations by result (ok: refreshed or dropped as no longer cacheable; failed: the stale entry was kept).", []string{"result"}, nil)
}

func (m *metrics) count(r result) { m.requests[r].Add(1) }

// Describe implements prometheus.Collector.
func (c *Cache) Describe(ch chan<- *prometheus.Desc) {
	m := &c.m
	for _, d := range []*prometheus.Desc{m.dRequests, m.dBytes, m.dMaxBytes, m.dEntries, m.dEvictions, m.dExpirations, m.dStores, m.dPurged, m.dReval} {
		ch <- d
	}
	m.revalDuration.Describe(ch)
}

// Collect implements prometheus.Collector.
func (c *Cache) Collect(ch chan<- prometheus.Metric) {
	m := &c.m
	for i, n := range resultNames {
		ch <- prometheus.MustNewConstMetric(m.dRequests, prometheus.CounterValue, float64(m.requests[i].Load()), n)
	}
	s := c.Stats()
	ch <- prometheus.MustNewConstMetric(m.dBytes, prometheus.GaugeValue, float64(s.Bytes))
	ch <- prometheus.MustNewConstMetric(m.dMaxBytes, prometheus.GaugeValue, float64(s.MaxBytes))
	ch <- prometheus.MustNewConstMetric(m.dEntries, prometheus.GaugeValue, float64(s.Entries))
	ch <- prometheus.MustNewConstMetric(m.dEvictions, prometheus.CounterValue, float64(s.Evictions))
	ch <- prometheus.MustNewConstMetric(m.dExpirations, prometheus.CounterValue, float64(s.Expirations))
	ch <- prometheus.MustNewConstMetric(m.dStores, prometheus.CounterValue, float64(s.Stores))
	ch <- prometheus.MustNewConstMetric(m.dPurged, prometheus.CounterValue, float64(s.Purged))
	ch <- prometheus.MustNewConstMetric(m.dReval, prometheus.CounterValue, float64(s.Revalidations-s.RevalidationsFailed), "ok")
	ch <- prometheus.MustNewConstMetric(m.dReval, prometheus.CounterValue, float64(s.RevalidationsFailed), "failed")
	m.revalDuration.Collect(ch)
}

// Stats is a snapshot of the cache for `bext cache stats` and `bext ps`.
type Stats struct {
	Hits       uint64 `json:"hits"`        // fresh entries served
	Stale      uint64 `json:"stale"`       // stale entries served while revalidating
	Misses     uint64 `json:"misses"`      // renders for the request itself
	Collapsed  uint64 `json:"collapsed"`   // requests that shared another's render
	Bypasses   uint64 `json:"bypasses"`    // requests not eligible for the cache
	ErrorStale uint64 `json:"error_stale"` // stale entries served for failed renders
	// HitRatio is answers without a render of their own (hits, stale,
	// collapsed, error_stale) over all eligible requests (bypasses aside);
	// 0 before any.
	HitRatio float64 `json:"hit_ratio"`

	Stores              uint64 `json:"stores"`
	Evictions           uint64 `json:"evictions"`   // to stay within max_bytes
	Expirations         uint64 `json:"expirations"` // past their stale windows
	Purged              uint64 `json:"purged"`
	Revalidations       uint64 `json:"revalidations"`        // background refreshes finished
	RevalidationsFailed uint64 `json:"revalidations_failed"` // of which failed (stale entry kept)

	Entries  int   `json:"entries"`
	Bytes    int64 `json:"bytes"`
	MaxBytes int64 `json:"max_bytes"`
}

// Stats returns the counters and the memory in use.
func (c *Cache) Stats() Stats {
	m := &c.m
	s := Stats{
		Hits: m.requests[resHit].Load(), Stale: m.requests[resStale].Load(), Misses: m.requests[resMiss].Load(),
		Collapsed: m.requests[resCollapsed].Load(), Bypasses: m.requests[resBypass].Load(), ErrorStale: m.requests[resErrorStale].Load(),
		Stores: m.stores.Load(), Evictions: m.evictions.Load(), Expirations: m.expirations.Load(), Purged: m.purged.Load(),
		Revalidations: m.revalidations.Load(), RevalidationsFailed: m.revalFailed.Load(),
		Bytes: int64(c.store.WeightedSize()), MaxBytes: c.maxBytes,
	}
	served := s.Hits + s.Stale + s.Collapsed + s.ErrorStale
	if total := served + s.Misses; total > 0 {
		s.HitRatio = float64(served) / float64(total)
	}
	c.mu.Lock()
	s.Entries = c.entries
	c.mu.Unlock()
	return s
}
