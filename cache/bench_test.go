package cache

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// page19k is a 19 KB server-rendered page: a product list as React would
// produce it.
var page19k = func() []byte {
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Shop</title><link rel="stylesheet" href="/_bext/app.3f2a1c.css"/></head><body><div id="root"><header class="site-header"><nav><a href="/">Home</a><a href="/shop">Shop</a><a href="/about">About</a></nav></header><main><ul class="grid">`)
	for i := 0; b.Len() < 19*1024-200; i++ {
		fmt.Fprintf(&b, `<li class="card" data-id="%d"><a href="/p/%d"><img src="/img/%x.webp" alt="Item %d" width="240" height="180"/><h2>Item %d — %s</h2></a><p class="price">$%d.%02d</p><p class="stock">%d left</p></li>`,
			i*7919%10007, i, i*2654435761%4294967296, i, i, []string{"walnut desk lamp", "linen throw", "stoneware mug", "oak side table"}[i%4], 10+i*37%190, i*13%100, i*7%23)
	}
	b.WriteString(`</ul></main><footer>© bext</footer></div><script src="/_bext/app.9c1e.js" defer></script></body></html>`)
	return b.Bytes()
}()

// loadResult is what one load run measured.
type loadResult struct {
	rps           float64
	p50, p99, max time.Duration
	// cpu is the process's CPU time (client and server) per request: unlike
	// throughput, neighbours on a shared machine do not move it.
	cpu time.Duration
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (l loadResult) String() string {
	return fmt.Sprintf("%.0f req/s, p50 %v, p99 %v, CPU %v/req", l.rps, l.p50.Round(time.Microsecond), l.p99.Round(time.Microsecond), l.cpu.Round(100*time.Nanosecond))
}

// load sends n GETs over conns keep-alive connections, as fast as they go.
func load(tb testing.TB, base string, conns, n int, path func(i int64) string) loadResult {
	tb.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var next atomic.Int64
	lat := make([][]time.Duration, conns)
	var wg sync.WaitGroup
	start, cpu0 := time.Now(), cpuTime()
	for w := range conns {
		wg.Go(func() {
			buf := make([]byte, 64<<10)
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				t0 := time.Now()
				resp, err := client.Get(base + path(i))
				if err != nil {
					tb.Error(err)
					return
				}
				io.CopyBuffer(io.Discard, resp.Body, buf)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					tb.Errorf("status %d", resp.StatusCode)
					return
				}
				lat[w] = append(lat[w], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) == 0 {
		tb.Fatal("no request succeeded")
	}
	return loadResult{
		rps: float64(len(all)) / elapsed.Seconds(),
		p50: all[len(all)/2], p99: all[len(all)*99/100], max: all[len(all)-1],
		cpu: cpu / time.Duration(len(all)),
	}
}

// loadPaced sends n GETs over conns connections at rate requests per
// second in all, each on a schedule; a request's latency counts from when
// it was due, so falling behind shows (no coordinated omission).
func loadPaced(tb testing.TB, base string, conns, n int, rate float64) loadResult {
	tb.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	interval := time.Duration(float64(conns) / rate * float64(time.Second))
	per := n / conns
	lat := make([][]time.Duration, conns)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range conns {
		wg.Go(func() {
			buf := make([]byte, 64<<10)
			due := start.Add(interval * time.Duration(w) / time.Duration(conns))
			timer := time.NewTimer(0)
			defer timer.Stop()
			for range per {
				if d := time.Until(due); d > 0 {
					timer.Reset(d)
					<-timer.C
				}
				resp, err := client.Get(base + "/")
				if err != nil {
					tb.Error(err)
					return
				}
				io.CopyBuffer(io.Discard, resp.Body, buf)
				resp.Body.Close()
				lat[w] = append(lat[w], time.Since(due))
				due = due.Add(interval)
			}
		})
	}
	wg.Wait()
	all := slices.Concat(lat...)
	slices.Sort(all)
	return loadResult{rps: float64(len(all)) / time.Since(start).Seconds(), p50: all[len(all)/2], p99: all[len(all)*99/100], max: all[len(all)-1]}
}

func staticPage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["Content-Type"] = []string{"text/html; charset=utf-8"}
	h["Content-Length"] = []string{strconv.Itoa(len(page19k))}
	w.Write(page19k)
}

// BenchmarkHitVsBare: fresh hits of a 19 KB page over loopback with 16
// connections, against a bare net/http handler writing the same bytes, in
// alternating rounds of the same run. Reports both, the ratio and the
// cache's p99.
func BenchmarkHitVsBare(b *testing.B) {
	bare := httptest.NewServer(http.HandlerFunc(staticPage))
	defer bare.Close()
	c := newCache(b, Options{MaxBytes: 128 << 20})
	cached := httptest.NewServer(c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, s-maxage=3600")
		staticPage(w, r)
	})))
	defer cached.Close()
	const conns, n = 16, 20000
	home := func(int64) string { return "/" }
	load(b, cached.URL, conns, 2000, home) // warm: store the page, open connections
	load(b, bare.URL, conns, 2000, home)
	var rb, rc []loadResult
	for b.Loop() {
		rb = append(rb, load(b, bare.URL, conns, n, home))
		rc = append(rc, load(b, cached.URL, conns, n, home))
	}
	reportPair(b, "bare", rb, "hit", rc)
	// Latency at a steady half of the bare handler's throughput: what a
	// user sees when the server is busy but not saturated (at saturation a
	// closed loop of 16 clients measures its own queue).
	rate := rb[0].rps / 2
	pb := loadPaced(b, bare.URL, conns, n/2, rate)
	pc := loadPaced(b, cached.URL, conns, n/2, rate)
	b.ReportMetric(float64(pb.p99.Microseconds()), "bare_paced_p99_µs")
	b.ReportMetric(float64(pc.p99.Microseconds()), "hit_paced_p99_µs")
	b.Logf("at %.0f req/s: bare %v | hit %v", rate, pb, pc)
	if s := c.Stats(); s.Misses != 1 {
		b.Fatalf("not all hits: %+v", s)
	}
}

// burnRounds is how many SHA-256 rounds take 1 ms of this thread's CPU
// (measured in CPU time, so a busy machine does not skew it).
var burnRounds = sync.OnceValue(func() int {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	buf := make([]byte, 4096)
	threadCPU := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := threadCPU()
	const n = 20000
	for range n {
		sha256.Sum256(buf)
	}
	return int(time.Millisecond * n / (threadCPU() - start))
})

func burnCPU() {
	buf := make([]byte, 4096)
	for i := 0; i < burnRounds(); i++ {
		sum := sha256.Sum256(buf)
		buf[0] = sum[0]
	}
}

// BenchmarkMissVsNoCache: a handler that takes ~1 ms of CPU per render,
// every request a miss, with and without the cache in front; two kinds of
// miss: a cacheable page under a new URL each time (buffered, hashed,
// stored, evicted) and a page the app does not opt in (buffered for its
// ETag, passed on).
func BenchmarkMissVsNoCache(b *testing.B) {
	render := func(cc string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			burnCPU()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", cc)
			w.Write(page19k)
		}
	}
	burnRounds()
	bare := httptest.NewServer(render("public, s-maxage=3600"))
	defer bare.Close()
	c := newCache(b, Options{MaxBytes: 32 << 20})
	stored := httptest.NewServer(c.Middleware(render("public, s-maxage=3600")))
	defer stored.Close()
	c2 := newCache(b, Options{MaxBytes: 32 << 20})
	uncached := httptest.NewServer(c2.Middleware(render("no-cache")))
	defer uncached.Close()
	const conns, n = 16, 3000
	var seq atomic.Int64
	unique := func(int64) string { return "/p?n=" + strconv.FormatInt(seq.Add(1), 10) }
	for _, u := range []string{bare.URL, stored.URL, uncached.URL} {
		load(b, u, conns, 300, unique)
	}
	var rb, rs, ru []loadResult
	for b.Loop() {
		rb = append(rb, load(b, bare.URL, conns, n, unique))
		rs = append(rs, load(b, stored.URL, conns, n, unique))
		ru = append(ru, load(b, uncached.URL, conns, n, unique))
	}
	reportPair(b, "nocache", rb, "miss_stored", rs)
	reportPair(b, "nocache", rb, "miss_uncacheable", ru)
	if s := c.Stats(); s.Hits != 0 || s.Stores == 0 {
		b.Fatalf("stats %+v", s)
	}
}

// reportPair reports medians of alternating rounds and their ratio.
func reportPair(b *testing.B, an string, a []loadResult, bn string, bs []loadResult) {
	med := func(rs []loadResult) loadResult {
		sorted := slices.Clone(rs)
		slices.SortFunc(sorted, func(x, y loadResult) int { return int(x.rps - y.rps) })
		m := sorted[len(sorted)/2]
		p99s := make([]time.Duration, len(rs))
		for i, r := range rs {
			p99s[i] = r.p99
		}
		slices.Sort(p99s)
		m.p99 = p99s[len(p99s)/2]
		return m
	}
	ma, mb := med(a), med(bs)
	cpus := func(rs []loadResult) time.Duration {
		c := make([]time.Duration, len(rs))
		for i, r := range rs {
			c[i] = r.cpu
		}
		slices.Sort(c)
		return c[len(c)/2]
	}
	ma.cpu, mb.cpu = cpus(a), cpus(bs)
	b.ReportMetric(float64(ma.cpu.Nanoseconds())/1000, an+"_cpu_µs/req")
	b.ReportMetric(float64(mb.cpu.Nanoseconds())/1000, bn+"_cpu_µs/req")
	b.ReportMetric(float64(ma.cpu)/float64(mb.cpu), bn+"/"+an+"_by_cpu")
	b.ReportMetric(ma.rps, an+"_req/s")
	b.ReportMetric(mb.rps, bn+"_req/s")
	b.ReportMetric(mb.rps/ma.rps, bn+"/"+an)
	b.ReportMetric(float64(ma.p99.Microseconds()), an+"_p99_µs")
	b.ReportMetric(float64(mb.p99.Microseconds()), bn+"_p99_µs")
	b.Logf("%s: %v | %s: %v | ratio %.3f by throughput, %.3f by CPU per request (%d rounds)", an, ma, bn, mb, mb.rps/ma.rps, float64(ma.cpu)/float64(mb.cpu), len(a))
}

// BenchmarkHitInProcess is the hit path alone (no network): its cost and
// allocations per hit.
func BenchmarkHitInProcess(b *testing.B) {
	c := newCache(b, Options{MaxBytes: 128 << 20})
	h := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, s-maxage=3600")
		staticPage(w, r)
	}))
	for _, ae := range []string{"", "gzip, deflate, br"} {
		b.Run("accept-encoding="+ae, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/", nil)
			if ae != "" {
				r.Header.Set("Accept-Encoding", ae)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, r)
			}
		})
	}
}

type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}
