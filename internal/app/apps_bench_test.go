//go:build unix

package app_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"bext/internal/app"
	"bext/internal/apptest"
	"bext/internal/loadgen"
)

// BenchmarkAppColdStart measures how long the first request of an evicted
// app takes (build from sources, compile, boot jsc_workers isolates, render)
// for examples/basic and, when its node_modules are installed,
// examples/react; p50 and p99 over the iterations:
//
//	go test -run '^$' -bench AppColdStart -benchtime 20x ./internal/app
func BenchmarkAppColdStart(b *testing.B) {
	for _, ex := range []string{"basic", "react"} {
		b.Run(ex, func(b *testing.B) {
			dir := filepath.Join(apptest.RepoRoot(), "examples", ex)
			if ex == "react" {
				if _, err := os.Stat(filepath.Join(dir, "node_modules", "react-dom")); err != nil {
					b.Skip("examples/react/node_modules missing: run npm ci in examples/react")
				}
			}
			cfg := fmt.Sprintf("[render]\njsc_workers = 2\n[[apps]]\nname = %q\nserver_entry = %q\npublic_dir = %q\nout_dir = %q\n",
				ex, filepath.Join(dir, "src/server.jsx"), filepath.Join(dir, "public"), filepath.Join(b.TempDir(), "out"))
			path := apptest.WriteApp(b, cfg, nil)
			inst := apptest.Start(b, path, nil, app.Options{})
			url := "http://" + inst.Addr() + "/"
			var lat []time.Duration
			for b.Loop() {
				b.StopTimer()
				inst.EvictApp(ex)
				b.StartTimer()
				start := time.Now()
				resp, err := http.Get(url)
				if err != nil || resp.StatusCode != 200 {
					b.Fatalf("cold start: %v %v", err, resp)
				}
				resp.Body.Close()
				lat = append(lat, time.Since(start))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(loadgen.Percentile(lat, 50))/1e6, "p50-ms")
			b.ReportMetric(float64(loadgen.Percentile(lat, 99))/1e6, "p99-ms")
		})
	}
}

// BenchmarkAppsMemory configures 50 apps (examples/basic each), keeps 5 of
// them active and reports the process's RSS and Go heap: cold apps cost
// their routes and config, nothing else.
func BenchmarkAppsMemory(b *testing.B) {
	dir := filepath.Join(apptest.RepoRoot(), "examples", "basic")
	var cfg strings.Builder
	cfg.WriteString("[render]\njsc_workers = 2\n")
	for i := range 50 {
		fmt.Fprintf(&cfg, "[[apps]]\nname = \"app%d\"\nserver_entry = %q\npublic_dir = %q\nhosts = [\"app%d.test\"]\n", i,
			filepath.Join(dir, "src/server.jsx"), filepath.Join(dir, "public"), i)
	}
	path := apptest.WriteApp(b, cfg.String(), nil)
	inst := apptest.Start(b, path, nil, app.Options{})
	for b.Loop() {
		for i := range 5 {
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://"+inst.Addr()+"/", nil)
			req.Host = fmt.Sprintf("app%d.test", i)
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != 200 {
				b.Fatalf("app%d: %v %v", i, err, resp)
			}
			resp.Body.Close()
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(rss())/(1<<20), "rss-MiB")
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
	running := 0
	for _, st := range inst.Apps() {
		if st.State == "running" {
			running++
		}
	}
	b.ReportMetric(float64(running), "running-apps")
}

// rss is this process's resident set (Linux /proc).
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	var size, res int64
	fmt.Sscan(string(b), &size, &res)
	return res * int64(os.Getpagesize())
}
