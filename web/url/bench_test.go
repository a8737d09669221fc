package url

import (
	"context"
	"log/slog"
	neturl "net/url"
	"testing"
	"time"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Hot paths: routers run new URL(req.url) on every request, then read
// searchParams. Each benchmark reports its time relative to
// net/url.Parse of the same URL (x-net/url), measured in the same run.

const (
	benchURL   = "https://example.com/api/v1/users/42?sort=name&order=asc&page=2#top"
	benchQuery = "a=1&b=two&c=3&d=four&e=5&f=six&g=7&h=eight&i=9&j=ten"
)

// reportRatio reports the benchmark's time per operation relative to
// net/url.Parse of benchURL, timed for as many operations right after
// it (so both see the same machine load).
func reportRatio(b *testing.B) {
	ours := b.Elapsed()
	start := time.Now()
	for range b.N {
		if _, err := neturl.Parse(benchURL); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(ours)/float64(time.Since(start)), "x-net/url")
}

func BenchmarkNetURLParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := neturl.Parse(benchURL); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse(benchURL, ""); err != nil {
				b.Fatal(err)
			}
		}
		reportRatio(b)
	})
	b.Run("relative", func(b *testing.B) { // new URL(req.url, "http://localhost")
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse("/api/v1/users/42?sort=name&order=asc", "http://localhost:3000"); err != nil {
				b.Fatal(err)
			}
		}
		reportRatio(b)
	})
	b.Run("full-parser", func(b *testing.B) { // what the fast path saves
		b.ReportAllocs()
		for b.Loop() {
			if _, err := slowParse(benchURL, nil); err != nil {
				b.Fatal(err)
			}
		}
		reportRatio(b)
	})
}

type benchHost struct{ rt *goja.Runtime }

func (h benchHost) Runtime() *goja.Runtime    { return h.rt }
func (h benchHost) Begin() func(func() error) { return func(func() error) {} }
func (h benchHost) Context() context.Context  { return context.Background() }
func (h benchHost) Logger() *slog.Logger      { return slog.New(slog.DiscardHandler) }
func newBenchRuntime(b *testing.B, src string) goja.Callable {
	rt := goja.New()
	r := webidl.NewRealm(benchHost{rt})
	Install(r)
	v, err := rt.RunString(src)
	if err != nil {
		b.Fatal(err)
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		b.Fatal("not a function")
	}
	return fn
}

func BenchmarkJS(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"new URL", `(function () { return new URL("` + benchURL + `"); })`},
		{"new URL relative", `(function () { return new URL("/api/v1/users/42?sort=name", "http://localhost:3000"); })`},
		{"new URL+pathname+searchParams.get", `(function () { const u = new URL("` + benchURL + `"); return u.pathname.length + u.searchParams.get("page").length; })`},
		{"searchParams.get", `(function () { const p = new URL("` + benchURL + `").searchParams; return function () { return p.get("order"); }; })()`},
		{"new URLSearchParams(10 pairs)", `(function () { return new URLSearchParams("` + benchQuery + `"); })`},
	} {
		b.Run(c.name, func(b *testing.B) {
			fn := newBenchRuntime(b, c.src)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := fn(goja.Undefined()); err != nil {
					b.Fatal(err)
				}
			}
			reportRatio(b)
		})
	}
}

func BenchmarkQuery(b *testing.B) {
	b.ReportAllocs()
	var list []pair
	for b.Loop() {
		list = parseQuery(benchQuery, list[:0])
	}
}
