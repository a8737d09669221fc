package engine

import (
	"context"
	"runtime"
	"testing"
)

// BenchmarkRenderOverhead measures the engine's fixed cost per render (req
// object, goroutine, interrupt hook, response) on a render that does nothing.
func BenchmarkRenderOverhead(b *testing.B) {
	iso := newTestIsolate(b, "hello", "server.js", Options{})
	req := get("/x")
	req.Headers = map[string]string{"accept": "text/html", "user-agent": "bench", "accept-encoding": "gzip", "host": "localhost"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := iso.Render(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBoot boots an examples/basic isolate (host APIs, the Web
// platform's lazy globals, the bundle) and reports the Go heap an idle
// isolate keeps (heap-B/isolate), the figures the Web platform must not
// inflate: lazy installation keeps both close to an isolate without it.
func BenchmarkBoot(b *testing.B) {
	p := basicIsolate(b).Program()
	o := Options{Log: discardLog, MaxAllocation: 256 << 20} // as bext boots its workers
	b.ReportAllocs()
	for b.Loop() {
		iso, err := NewIsolate(p, o)
		if err != nil {
			b.Fatal(err)
		}
		iso.Close()
	}
	b.StopTimer()
	const n = 100
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep := make([]*Isolate, n)
	for k := range keep {
		iso, err := NewIsolate(p, o)
		if err != nil {
			b.Fatal(err)
		}
		keep[k] = iso
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heap-B/isolate")
	runtime.KeepAlive(keep)
}
