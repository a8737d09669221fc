package fleet

import "github.com/prometheus/client_golang/prometheus"

var (
	descConnected   = prometheus.NewDesc("bext_fleet_connected", "1 while the fleet's Redis answers, 0 while the instance serves stand-alone.", nil, nil)
	descHeartbeats  = prometheus.NewDesc("bext_fleet_heartbeats_total", "Heartbeats written to the registry (result ok) or not (failed).", []string{"result"}, nil)
	descCommands    = prometheus.NewDesc("bext_fleet_commands_total", "Fleet commands taken from Redis, by outcome.", []string{"result"}, nil)
	descInstances   = prometheus.NewDesc("bext_fleet_instances", "Instances in the registry at the last heartbeat.", nil, nil)
	descRedisErrors = prometheus.NewDesc("bext_fleet_redis_errors_total", "Redis calls (registry, commands, cache) that did not reach Redis or timed out.", nil, nil)
)

// Describe implements prometheus.Collector.
func (a *Agent) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descConnected, descHeartbeats, descCommands, descInstances, descRedisErrors} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (a *Agent) Collect(ch chan<- prometheus.Metric) {
	up := 0.0
	if a.c.Up() {
		up = 1
	}
	ch <- prometheus.MustNewConstMetric(descConnected, prometheus.GaugeValue, up)
	ch <- prometheus.MustNewConstMetric(descHeartbeats, prometheus.CounterValue, float64(a.m.beatsOK.Load()), "ok")
	ch <- prometheus.MustNewConstMetric(descHeartbeats, prometheus.CounterValue, float64(a.m.beatsFailed.Load()), "failed")
	for _, c := range []struct {
		result string
		n      uint64
	}{{"done", a.m.cmdDone.Load()}, {"failed", a.m.cmdFailed.Load()}, {"duplicate", a.m.cmdDup.Load()},
		{"expired", a.m.cmdExpired.Load()}, {"malformed", a.m.cmdBad.Load()}} {
		ch <- prometheus.MustNewConstMetric(descCommands, prometheus.CounterValue, float64(c.n), c.result)
	}
	ch <- prometheus.MustNewConstMetric(descInstances, prometheus.GaugeValue, float64(a.m.instances.Load()))
	ch <- prometheus.MustNewConstMetric(descRedisErrors, prometheus.CounterValue, float64(a.c.errors.Load()))
}

var _ prometheus.Collector = (*Agent)(nil)
