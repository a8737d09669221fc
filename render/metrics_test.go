package render

import (
	"bext/internal/testenv"
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

func sum(mf *dto.MetricFamily, label, value string) float64 {
	total := 0.0
	for _, m := range mf.GetMetric() {
		match := label == ""
		for _, l := range m.GetLabel() {
			if l.GetName() == label && l.GetValue() == value {
				match = true
			}
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Histogram != nil:
			total += float64(m.Histogram.GetSampleCount())
		}
	}
	return total
}

func TestMetricsExposition(t *testing.T) {
	e := newEnv(t, 2, nil)
	for range 7 {
		e.get(t, "/")
	}
	for range 3 {
		e.get(t, "/throw")
	}
	e.get(t, "/loop")
	if err := waitReady(e.pool); err != nil { // the looping isolate's replacement
		t.Fatal(err)
	}
	rec := e.do("GET", "/metrics", loopback, nil)
	if rec.Code != 200 {
		t.Fatalf("/metrics = %d", rec.Code)
	}
	body := rec.Body.Bytes()
	parser := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("exposition does not parse: %v", err)
	}
	want := map[string]float64{
		"bext_worker_requests_total":          11,
		"bext_worker_render_duration_seconds": 11,
		"bext_worker_failures_total":          4,
		"bext_pool_workers":                   2,
		"bext_pool_active_workers":            2,
		"bext_worker_state":                   2, // one series at 1 per slot
	}
	for name, v := range want {
		mf, ok := fams[name]
		if !ok {
			t.Errorf("missing %s", name)
			continue
		}
		if got := sum(mf, "", ""); got != v {
			t.Errorf("%s sums to %v, want %v", name, got, v)
		}
	}
	if got := sum(fams["bext_worker_failures_total"], "kind", "exception"); got != 3 {
		t.Errorf("exception failures %v, want 3", got)
	}
	if got := sum(fams["bext_worker_failures_total"], "kind", "timeout"); got != 1 {
		t.Errorf("timeout failures %v, want 1", got)
	}
	if got := sum(fams["bext_worker_restarts_total"], "reason", "crash"); got != 1 {
		t.Errorf("crash restarts %v, want 1 (the looping render)", got)
	}
	for _, name := range []string{"bext_worker_memory_bytes", "bext_worker_uptime_seconds", "bext_worker_consecutive_failures",
		"bext_worker_slot_failed", "bext_pool_queue_depth", "bext_pool_in_flight", "bext_pool_busy_workers"} {
		if mf, ok := fams[name]; !ok || len(mf.GetMetric()) == 0 {
			t.Errorf("missing %s", name)
		}
	}
	for _, mf := range fams {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "worker" && l.GetValue() != "0" && l.GetValue() != "1" {
					t.Errorf("%s has worker label %q: labels must be slot ids", mf.GetName(), l.GetValue())
				}
			}
		}
	}
	problems, err := testutil.GatherAndLint(e.reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
	promtool(t, body)
}

// promtool runs `promtool check metrics` (Debian's prometheus package) on
// the exposition.
func promtool(t *testing.T, body []byte) {
	path := testenv.Tool(t, "promtool", "install Debian's prometheus package (apt-get install -y prometheus)")
	cmd := exec.Command(path, "check", "metrics")
	cmd.Stdin = bytes.NewReader(body)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
}
