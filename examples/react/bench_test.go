package react

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"bext/engine/fastpath"
	"bext/internal/nodeparity"
)

// BenchmarkReactRender renders the small (≈1.6 KB), medium (≈18 KB) and
// large (≈100 KB) pages in one goja isolate from the production bundle,
// built three ways — React as shipped (stock), with the fast sink alone
// (bext before the fast paths) and with every fast path (the default) —
// for each server entry (renderToString, renderToReadableStream,
// renderToPipeableStream), and logs the speedups per page. Besides ns/op
// it reports ms/render and cpu-ms/render: the process's CPU time (user +
// system, the GC's background workers included) per render. Run with
//
//	go test -run '^$' -bench ReactRender -v ./examples/react
//	go test -run '^$' -bench 'ReactRender/string/medium' -v ./examples/react
//
// (-v prints the speedup lines).
func BenchmarkReactRender(b *testing.B) {
	builds := []struct {
		name  string
		paths []string
	}{{"stock", nil}, {"sink", []string{fastpath.Sink}}, {"fastpaths", fastpath.All()}}
	for _, entry := range []struct{ name, file string }{{"string", stringEntry}, {"stream", streamEntry}, {"pipe", pipeEntry}} {
		b.Run(entry.name, func(b *testing.B) {
			for _, pg := range []struct{ name, url string }{{"small", "/small"}, {"medium", "/"}, {"large", "/large"}} {
				b.Run(pg.name, func(b *testing.B) {
					var mu sync.Mutex
					cpu := map[string]time.Duration{}
					for _, bl := range builds {
						if bl.paths == nil && pg.name == "large" && entry.name == "string" {
							continue // stock renderToString needs a second per large page: see the README
						}
						b.Run(bl.name, func(b *testing.B) {
							iso := entryIsolate(b, entry.file, nodeparity.Build{FastPaths: bl.paths})
							req := nodeparity.Request(pg.url)
							ctx := context.Background()
							resp, err := iso.Render(ctx, req) // warm up: first render compiles lazily
							if err != nil {
								b.Fatal(err)
							}
							b.SetBytes(int64(len(resp.HTML)))
							c0 := processCPU()
							b.ResetTimer()
							for b.Loop() {
								if _, err := iso.Render(ctx, req); err != nil {
									b.Fatal(err)
								}
							}
							b.StopTimer()
							perCPU := (processCPU() - c0) / time.Duration(b.N)
							b.ReportMetric(ms(b.Elapsed()/time.Duration(b.N)), "ms/render")
							b.ReportMetric(ms(perCPU), "cpu-ms/render")
							mu.Lock()
							cpu[bl.name] = perCPU
							mu.Unlock()
						})
					}
					var line string
					for _, bl := range builds[:2] {
						if c, f := cpu[bl.name], cpu["fastpaths"]; c > 0 && f > 0 {
							line += fmt.Sprintf(", %s %.2f ms (%.2f×)", bl.name, ms(c), float64(c)/float64(f))
						}
					}
					if f := cpu["fastpaths"]; f > 0 {
						b.Logf("%s %s: fast paths %.2f CPU-ms per render%s", entry.name, pg.name, ms(f), line)
					}
				})
			}
		})
	}
}

// processCPU is the CPU time this process has used, user plus system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
