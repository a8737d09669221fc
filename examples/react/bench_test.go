package react

import (
	"context"
	"syscall"
	"testing"
	"time"

	"bext/engine"
	"bext/engine/fastpath"
	"bext/internal/nodeparity"
)

// BenchmarkReactRender renders the small (≈1.6 KB), medium (≈18 KB) and
// large (≈100 KB) pages of each server entry (renderToString,
// renderToReadableStream, renderToPipeableStream) from the production
// bundle built three ways — React as shipped (stock), the fast sink alone
// (bext before the other fast paths) and every fast path (the default) —
// in three isolates that take turns render by render, so other load on the
// machine falls on all three alike. It reports the process's CPU time per
// render of each (user + system, the GC's background work included) and
// the fast paths' speedup over the other two:
//
//	go test -run '^$' -bench ReactRender -benchtime 5s ./examples/react
//	go test -run '^$' -bench 'ReactRender/string/medium' ./examples/react
func BenchmarkReactRender(b *testing.B) {
	builds := []struct {
		name  string
		paths []string
	}{{"stock", nil}, {"sink", []string{fastpath.Sink}}, {"fastpaths", fastpath.All()}}
	for _, entry := range []struct{ name, file string }{{"string", stringEntry}, {"stream", streamEntry}, {"pipe", pipeEntry}} {
		b.Run(entry.name, func(b *testing.B) {
			for _, pg := range []struct{ name, url string }{{"small", "/small"}, {"medium", "/"}, {"large", "/large"}} {
				b.Run(pg.name, func(b *testing.B) {
					req := nodeparity.Request(pg.url)
					ctx := context.Background()
					isos := make([]*engine.Isolate, len(builds))
					for k, bl := range builds {
						if bl.paths == nil && pg.name == "large" && entry.name == "string" {
							continue // stock renderToString needs a second per large page: see the README
						}
						isos[k] = entryIsolate(b, entry.file, nodeparity.Build{FastPaths: bl.paths})
						if _, err := isos[k].Render(ctx, req); err != nil { // the first render compiles lazily
							b.Fatal(err)
						}
					}
					cpu := make([]time.Duration, len(builds))
					for b.Loop() {
						for k, iso := range isos {
							if iso == nil {
								continue
							}
							c0 := processCPU()
							if _, err := iso.Render(ctx, req); err != nil {
								b.Fatal(err)
							}
							cpu[k] += processCPU() - c0
						}
					}
					per := func(k int) float64 { return ms(cpu[k]) / float64(b.N) }
					for k, bl := range builds {
						if isos[k] != nil {
							b.ReportMetric(per(k), bl.name+"-cpu-ms/render")
						}
					}
					if isos[0] != nil {
						b.ReportMetric(per(0)/per(2), "×stock")
					}
					b.ReportMetric(per(1)/per(2), "×sink")
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
