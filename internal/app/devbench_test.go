package app_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"bext/devserver"
)

// BenchmarkDevReload measures, per edit of a server component, the time from
// the file save to the browser (headless Chromium) showing the new heading,
// without the test reloading the page:
//
//	go test -run '^$' -bench DevReload -benchtime 20x ./internal/app
//
// The dev loop's Trace hook times debounce (last file event → batch),
// rebuild (esbuild, server and client), boot (compile + one isolate as the
// boot check) and restart (rolling restart of the 4 workers, including the
// pool's own boot check); reload is the rest: the browser getting the
// event, reloading, the SSR request and the test's 5 ms polling, plus the
// fsnotify delivery (microseconds).
func BenchmarkDevReload(b *testing.B) {
	for _, debounce := range []int{50, 500} {
		b.Run(fmt.Sprintf("debounce=%dms", debounce), func(b *testing.B) { benchDevReload(b, debounce) })
	}
}

var benchPhases = []string{"debounce", "rebuild", "boot", "restart", "reload", "  event", "  page", "total"}

func benchDevReload(b *testing.B, debounceMS int) {
	dir := devExample(b, fmt.Sprintf("[render.lifecycle]\nwatch_debounce_ms = %d", debounceMS))
	editFile(b, filepath.Join(dir, "config.toml"), "jsc_workers = 2", "jsc_workers = 4")
	var (
		mu     sync.Mutex
		phases = map[devserver.Phase]time.Duration{}
		sent   time.Time // when the restart ended: the reload event goes out
	)
	d := startDev(b, dir, func(p devserver.Phase, d time.Duration) {
		mu.Lock()
		phases[p] += d
		if p == devserver.PhaseRestart {
			sent = time.Now()
		}
		mu.Unlock()
	})
	base := d.base
	ctx := newBrowser(b)
	openLive(b, ctx, base+"/")
	server := filepath.Join(dir, "src", "server.jsx")
	heading := "Hello, {who}!"
	samples := map[string][]time.Duration{}

	b.ResetTimer()
	for i := range b.N {
		mu.Lock()
		clear(phases)
		mu.Unlock()
		next := fmt.Sprintf("Edit %d, {who}!", i)
		start := time.Now()
		editFile(b, server, "<h1>"+heading+"</h1>", "<h1>"+next+"</h1>")
		waitJS(b, ctx, h1Is(fmt.Sprintf("Edit %d, world!", i)))
		total := time.Since(start)
		heading = next
		b.StopTimer()
		// The reloaded document's navigation start splits reload into the
		// event reaching the browser and the page load (same clock).
		origin, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.timeOrigin`))
		if err != nil {
			b.Fatal(err)
		}
		nav := time.UnixMicro(int64(origin * 1000))
		mu.Lock()
		s := []time.Duration{phases[devserver.PhaseDebounce], phases[devserver.PhaseRebuild],
			phases[devserver.PhaseBoot], phases[devserver.PhaseRestart]}
		mu.Unlock()
		reload := total
		for _, d := range s {
			reload -= d
		}
		event, page := nav.Sub(sent), start.Add(total).Sub(nav)
		for j, d := range append(s, reload, event, page, total) {
			samples[benchPhases[j]] = append(samples[benchPhases[j]], d)
		}
		// The reloaded page must be listening again before the next edit.
		waitJS(b, ctx, `window.__bextLiveReloadOpen === true`)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(ms64(pct(samples["total"], 50)), "p50-ms")
	b.ReportMetric(ms64(pct(samples["total"], 95)), "p95-ms")
	b.ReportMetric(0, "ns/op")
	if b.N < 2 {
		return // the framework's probe run
	}
	table := fmt.Sprintf("%d edits, watch_debounce_ms = %d, 4 workers (ms)\n%-10s %7s %7s\n", b.N, debounceMS, "phase", "p50", "p95")
	for _, p := range append([]string{"total"}, benchPhases[:len(benchPhases)-1]...) {
		table += fmt.Sprintf("%-10s %7.1f %7.1f\n", p, ms64(pct(samples[p], 50)), ms64(pct(samples[p], 95)))
	}
	b.Log("\n" + table)
}

// pct is the p-th percentile (nearest rank) of ds.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(ds))
	i := (p*len(s)+99)/100 - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms64(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
