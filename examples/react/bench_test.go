package react

import (
	"context"
	"sync"
	"testing"
	"time"

	"bext/internal/nodeparity"
)

// BenchmarkReactRender renders the small (≈1.6 KB), medium (≈18 KB) and
// large (≈100 KB) pages in one goja isolate from the production bundle,
// with React's stock string sink and with bext's fast sink, and logs the
// speedup per page. Run with
//
//	go test -run '^$' -bench ReactRender -v ./examples/react
//
// (-v prints the speedup lines).
func BenchmarkReactRender(b *testing.B) {
	for _, pg := range []struct{ name, url string }{{"small", "/small"}, {"medium", "/"}, {"large", "/large"}} {
		b.Run(pg.name, func(b *testing.B) {
			var mu sync.Mutex
			perRender := map[bool]time.Duration{}
			for _, fast := range []bool{true, false} {
				name := "stock"
				if fast {
					name = "fastsink"
				}
				b.Run(name, func(b *testing.B) {
					iso := isolate(b, variant{fastSink: fast})
					req := nodeparity.Request(pg.url)
					ctx := context.Background()
					resp, err := iso.Render(ctx, req) // warm up: first render compiles lazily
					if err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(resp.HTML)))
					b.ResetTimer()
					for b.Loop() {
						if _, err := iso.Render(ctx, req); err != nil {
							b.Fatal(err)
						}
					}
					d := b.Elapsed() / time.Duration(b.N)
					b.ReportMetric(float64(d)/1e6, "ms/render")
					mu.Lock()
					perRender[fast] = d
					mu.Unlock()
				})
			}
			if s, f := perRender[false], perRender[true]; s > 0 && f > 0 {
				b.Logf("%s: stock %.2f ms, fast sink %.2f ms per render: %.1f× faster", pg.name, ms(s), ms(f), float64(s)/float64(f))
			}
		})
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
