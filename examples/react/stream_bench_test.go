package react

import (
	"flag"
	"io"
	"net/http"
	"slices"
	"syscall"
	"testing"
	"time"

	"bext/config"
)

var (
	streamRounds = flag.Int("stream.rounds", 5, "BenchmarkStreaming: rounds, each target taking its turn in every round")
	streamPages  = flag.Int("stream.pages", 8, "BenchmarkStreaming: pages per target per round")
)

// BenchmarkStreaming serves the large page (640 items, ≈100 KB) from a
// real bext with one worker over loopback, three ways:
//
//   - string:   /large, renderToString with the production fast paths;
//   - stream:   /stream/large?sections=0, the same tree through
//     renderToReadableStream, written to the client chunk by chunk;
//   - sections: /stream/large, the list in 8 Suspense sections whose data
//     arrives a timer tick after the shell.
//
// For each it measures time to first body byte, time to the last byte and
// the process's CPU time per page (getrusage; the client in this process
// costs the same for every target), in rounds that take turns so that
// other load on the machine hits every target alike. It reports the first
// byte of sections as a fraction of its full page (goal ≤ 0.10) and the CPU
// per page of stream and sections over string (goal ≤ 1.05). Run with
//
//	go test -run '^$' -bench Streaming -benchtime 1x -v ./examples/react
func BenchmarkStreaming(b *testing.B) {
	s := startStreamServer(b, "", func(c *config.Config) { c.Render.JSCWorkers = 1 })
	type target struct {
		name, path  string
		ttfb, total []time.Duration
		cpu         time.Duration
		bytes       int64
	}
	targets := []*target{
		{name: "string", path: "/large"},
		{name: "stream", path: "/stream/large?sections=0"},
		{name: "sections", path: "/stream/large"},
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(t *target) (ttfb, total time.Duration, n int64) {
		start := time.Now()
		resp, err := client.Get(s.base + t.path)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var one [1]byte
		if _, err := io.ReadFull(resp.Body, one[:]); err != nil || resp.StatusCode != 200 {
			b.Fatalf("%s: %d %v", t.path, resp.StatusCode, err)
		}
		ttfb = time.Since(start)
		n, err = io.Copy(io.Discard, resp.Body)
		if err != nil {
			b.Fatal(err)
		}
		return ttfb, time.Since(start), n + 1
	}
	for range 3 { // warm up: lazy compilation, JIT-free but cache-warm
		for _, t := range targets {
			get(t)
		}
	}
	for b.Loop() {
		for range *streamRounds {
			for _, t := range targets {
				cpu0 := cpuTime()
				for range *streamPages {
					ttfb, total, n := get(t)
					t.ttfb, t.total, t.bytes = append(t.ttfb, ttfb), append(t.total, total), n
				}
				t.cpu += cpuTime() - cpu0
			}
		}
	}
	pages := time.Duration(len(targets[0].total))
	for _, t := range targets {
		b.Logf("%-8s %-26s %6d bytes  first byte p50 %7.2f ms  last byte p50 %7.2f ms  CPU %7.2f ms/page",
			t.name, t.path, t.bytes, ms(median(t.ttfb)), ms(median(t.total)), ms(t.cpu/pages))
	}
	str, stream, sec := targets[0], targets[1], targets[2]
	frac := float64(median(sec.ttfb)) / float64(median(sec.total))
	b.Logf("sections: first byte at %.3f of its full page (goal ≤ 0.10), %.3f of string's full render", frac, float64(median(sec.ttfb))/float64(median(str.total)))
	b.Logf("CPU per page: stream/string %.3f, sections/string %.3f (goal ≤ 1.05)", float64(stream.cpu)/float64(str.cpu), float64(sec.cpu)/float64(str.cpu))
	b.ReportMetric(frac, "ttfb-fraction")
	b.ReportMetric(float64(stream.cpu)/float64(str.cpu), "cpu-stream/string")
	b.ReportMetric(float64(sec.cpu)/float64(str.cpu), "cpu-sections/string")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
